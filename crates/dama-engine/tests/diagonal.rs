//! The diagonal family (variants/russian.toml, brazilian.toml, english.toml)
//! played by the same generator: whole games recorded by another program,
//! and the PDN square numbering of English draughts.

use dama_engine::{Bitboard, Rules, Square};

fn rules(id: &str) -> Rules {
    Rules::builtin(id).unwrap()
}

/// Plays `moves` (whitespace-separated, as written) from the initial
/// position; every move must name exactly one legal move. Returns the final
/// position as FEN.
fn replay(variant: &str, moves: &str) -> String {
    let r = rules(variant);
    let mut pos = r.start_position();
    for (i, text) in moves.split_whitespace().enumerate() {
        let m = r
            .resolve_move(&pos, text)
            .unwrap_or_else(|e| panic!("{variant}: move {} `{text}` in {}: {e}", i + 1, r.to_fen(&pos)));
        pos.play(&m);
    }
    r.to_fen(&pos)
}

// The three games below are the ones pydraughts replays in its own tests
// (AttackingOrDefending/pydraughts, test_pydraughts/test_variants.py): a
// second implementation's legal moves, checked move by move here.

#[test]
fn russian_game_from_pydraughts() {
    let moves = "a3-b4 b6-a5 g3-f4 d6-e5 f4xd6 e7xa3 e3-d4 c7-d6 c3-b4 a5xe5 h2-g3 f6-g5 g3-h4 \
                 g5-f4 f2-g3 f4xh2 d2-c3 a7-b6 c3-b4 a3xc5 g1-f2 h6-g5 h4xd4 c5xg1 e1-f2 g1xe3 \
                 c1-d2 e3xa3 a1-b2 a3xc1";
    let end = replay("russian", moves);
    // The man crowned by c5xg1 (at the end of the move) sweeps White's last
    // men as a flying king: e3xa3 and a3xc1 each turn a corner.
    assert_eq!(end, "W:W:Bb6,b8,Kc1,d6,d8,f8,g7,h2,h8");
}

#[test]
fn brazilian_game_from_pydraughts() {
    let moves = "g3-f4 d6-e5 f4xd6 c7xe5 a3-b4 e7-d6 b4-a5 b8-c7 c3-d4 e5xc3 b2xd4 b6-c5 d4xb6 \
                 a7xc5 h2-g3 f6-e5 g3-f4 e5xg3 f2xh4 h6-g5 h4xf6 g7xe5 a5-b6 c7xa5 c1-b2 d8-e7 \
                 b2-a3 f8-g7 a3-b4 a5xc3 d2xb4 c5xa3 g1-f2 e5-d4 e3xc5 d6xb4 f2-g3 g7-f6 e1-d2 \
                 f6-e5 a1-b2 a3xe3 g3-f4";
    replay("brazilian", moves);
}

#[test]
fn english_game_from_pydraughts() {
    let moves = "11-15 23-18 8-11 27-23 4-8 23-19 10-14 19x10 14x23 26x19 7x14 24-20 6-10 22-17 \
                 9-13 30-26 13x22 25x9 5x14 29-25 14-18 26-23 18x27 32x23 11-15 28-24 2-6 21-17 \
                 8-11 25-22 6-9 23-18 1-5 17-13 9-14 18x9 5x14 13-9 14-18 22-17 18-23 9-6 15-18 \
                 6-2 18-22 2-6 3-8 6x15 11x18 19-15 22-26 31x22 18x25 24-19 23-27 20-16 27-31 \
                 16-11 31-27 11x4 27-23";
    replay("english", moves);
}

#[test]
fn english_squares_follow_pdn_numbering() {
    let r = rules("english");
    let name = |s: &str| r.square_name(Square::parse_algebraic(s).unwrap());
    // GameType 21: 1-4 along Black's back rank, 29-32 along White's.
    assert_eq!(
        ["b8", "h8", "a7", "a1", "g1", "d4"].map(name),
        ["1", "4", "5", "29", "32", "18"]
    );
    // Light squares are not part of the board.
    assert_eq!(r.parse_square("a8"), None);
    assert_eq!(r.parse_square("33"), None);
    assert_eq!(r.parse_square("0"), None);
    let start = r.start_position();
    assert_eq!(
        r.to_fen(&start),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    // Ranges and lists read the same.
    let ranged = r.parse_fen("B:W21-32:B1-12").unwrap();
    assert_eq!(ranged, start);
    let listed = r
        .parse_fen("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
        .unwrap();
    assert_eq!(listed, start);
    // Black, on 1-12, moves first: its men go down the board.
    let first: Vec<String> = r
        .legal_moves(&start)
        .iter()
        .map(|m| r.format_move_full(&start, m))
        .collect();
    assert_eq!(first, ["9-14", "10-15", "11-16", "9-13", "10-14", "11-15", "12-16"]);
}

#[test]
fn diagonal_setups_use_dark_squares_only() {
    for id in ["russian", "brazilian", "english"] {
        let r = rules(id);
        let start = r.start_position();
        assert_eq!(r.board().count(), 32, "{id}");
        assert_eq!(start.occupied() & !r.board(), Bitboard::EMPTY, "{id}");
        assert_eq!(start.occupied().count(), 24, "{id}");
    }
    // Russian and Brazilian write squares algebraically, White first.
    let r = rules("russian");
    assert_eq!(
        r.to_fen(&r.start_position()),
        "W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8"
    );
}

/// (issue 18) Square numbers where the variant names squares by file and
/// rank: read on a dark-square board, whose PDN numbering is the only one,
/// and refused with the real reason where every square is played.
#[test]
fn square_numbers_on_algebraic_boards() {
    let russian = rules("russian");
    assert_eq!(
        russian.parse_fen("W:W21:B17").unwrap(),
        russian.parse_fen("W:Wa3:Bb4").unwrap()
    );
    assert_eq!(
        russian.parse_fen("W:W21-24:BK1,5").unwrap(),
        russian.parse_fen("W:Wa3,c3,e3,g3:BKb8,a7").unwrap()
    );
    let start = russian.start_position();
    assert_eq!(
        russian.resolve_move(&start, "22-18").unwrap(),
        russian.resolve_move(&start, "c3-d4").unwrap()
    );
    // Numbers are read, never written: the variant's notation stays algebraic.
    assert_eq!(russian.to_fen(&russian.parse_fen("W:W21:B17").unwrap()), "W:Wa3:Bb4");
    let e = russian.parse_fen("W:W33:B17").unwrap_err();
    assert_eq!(
        (e.column, e.message.as_str()),
        (4, "square 33 is not on the board (squares are numbered 1 to 32)")
    );
    let e = russian.resolve_move(&start, "22-40").unwrap_err().to_string();
    assert!(
        e.contains("square 40 is not on the board (squares are numbered 1 to 32)"),
        "{e}"
    );

    let dama = rules("dama");
    let why = "`21` is a square number, but dama names squares by file and rank, such as c3";
    let e = dama.parse_fen("W:W21:B17").unwrap_err();
    assert_eq!((e.column, e.message.as_str()), (4, why));
    let e = dama
        .resolve_move(&dama.start_position(), "21-17")
        .unwrap_err()
        .to_string();
    assert!(e.ends_with(why), "{e}");
}
