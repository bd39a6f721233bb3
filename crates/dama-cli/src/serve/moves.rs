//! Playing a move the page gives as squares (the origin and each landing),
//! or as text.
//!
//! A path that is one of the engine's paths for a legal move plays that
//! move. Anything else is written as move text and handed to the engine's
//! own reader, so the page shows the explanation `dama play` prints for the
//! same move ("capture is mandatory: …").

use dama_engine::{Game, PlayError, Position, Rules, Square};

use crate::json::Code;

/// Why a move was not played: a code of `json::Code` and the engine's words.
#[derive(Debug)]
pub struct Refusal {
    pub code: &'static str,
    pub message: String,
}

/// The most squares a path may name.
pub const MAX_PATH: usize = 64;

/// Plays `squares` (square indices) or `text` in `game`.
pub fn play(game: &mut Game, squares: Option<&[u8]>, text: Option<&str>) -> Result<(), Refusal> {
    let text = match (squares, text) {
        (Some(path), _) => {
            let path: Vec<Square> = path.iter().map(|&i| Square::from_index(i)).collect();
            if let Some(m) = find(game, &path) {
                return game.play(m).map_err(refusal);
            }
            as_text(game.rules(), game.position(), &path)
        }
        (None, Some(t)) => t.to_string(),
        (None, None) => {
            return Err(Refusal {
                code: Code::MoveSyntax.as_str(),
                message: "give the move as `squares` (origin and landings) or as `text`".into(),
            })
        }
    };
    game.play_text(&text).map(|_| ()).map_err(refusal)
}

/// The legal move one of whose paths is exactly `path`.
fn find(game: &Game, path: &[Square]) -> Option<dama_engine::Move> {
    let (&from, landings) = path.split_first()?;
    let pos = game.position();
    game.legal_moves()
        .iter()
        .filter(|m| !m.is_pass() && m.from() == from && landings.last() == Some(&m.to()))
        .find(|m| {
            game.rules()
                .move_paths(pos, m)
                .iter()
                .any(|p| p.from == from && p.landings == landings)
        })
        .copied()
}

/// The squares as move text: `x` between them when the move jumps (a piece
/// of the other side stands between two of them), `-` otherwise, as a
/// person would type it at `dama play`.
fn as_text(r: &Rules, pos: &Position, path: &[Square]) -> String {
    let jumps = path.windows(2).any(|w| jumps_over(pos, w[0], w[1]));
    let names: Vec<String> = path
        .iter()
        .map(|&s| {
            if r.board().contains(s) {
                r.square_name(s)
            } else {
                // Off the playable squares: algebraic, which the reader refuses with its reason.
                let file = char::from(b'a' + s.file());
                format!("{file}{}", s.rank() + 1)
            }
        })
        .collect();
    names.join(if jumps { "x" } else { "-" })
}

/// Whether a piece of the side not to move stands between `a` and `b` on a
/// straight line (a rank, a file or a diagonal).
fn jumps_over(pos: &Position, a: Square, b: Square) -> bool {
    let (df, dr) = (
        i16::from(b.file()) - i16::from(a.file()),
        i16::from(b.rank()) - i16::from(a.rank()),
    );
    if (df == 0 && dr == 0) || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return false;
    }
    let n = df.abs().max(dr.abs());
    let (sf, sr) = (df.signum(), dr.signum());
    let enemy = pos.pieces(!pos.side_to_move());
    (1..n).any(|k| {
        let f = i16::from(a.file()) + sf * k;
        let r = i16::from(a.rank()) + sr * k;
        u8::try_from(f)
            .ok()
            .zip(u8::try_from(r).ok())
            .and_then(|(f, r)| Square::new(f, r))
            .is_some_and(|s| enemy.contains(s))
    })
}

fn refusal(e: PlayError) -> Refusal {
    use dama_engine::MoveError;
    let code = match &e {
        PlayError::GameOver(_) | PlayError::TooLong { .. } => Code::AfterEnd,
        PlayError::Move(MoveError::Syntax { .. }) => Code::MoveSyntax,
        PlayError::Move(MoveError::Ambiguous { .. }) => Code::MoveAmbiguous,
        PlayError::Move(MoveError::Illegal { .. }) | PlayError::NotLegal { .. } => Code::MoveIllegal,
    };
    Refusal {
        code: code.as_str(),
        message: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_plays_its_move_and_a_wrong_one_is_explained() {
        let mut g = Game::new(Rules::builtin("dama").unwrap());
        let r = g.rules().clone();
        let sq = |n: &str| r.parse_square(n).unwrap().index();
        play(&mut g, Some(&[sq("d3"), sq("d4")]), None).unwrap();
        assert_eq!(g.ply_count(), 1);
        let e = play(&mut g, Some(&[sq("d6"), sq("d4")]), None).unwrap_err();
        assert_eq!(e.code, "move-illegal");
        assert!(!e.message.is_empty());
        // The same text at `dama play` gives the same words.
        let cli = g.clone().play_text("d6-d4").unwrap_err().to_string();
        assert_eq!(e.message, cli);
    }

    #[test]
    fn capture_is_mandatory_in_the_engine_s_words() {
        let r = Rules::builtin("dama").unwrap();
        let pos = r.parse_fen("W:Wd4,a2:Bd5").unwrap();
        let mut g = Game::from_position(r.clone(), pos);
        let sq = |n: &str| r.parse_square(n).unwrap().index();
        let e = play(&mut g, Some(&[sq("a2"), sq("a3")]), None).unwrap_err();
        assert_eq!(e.message, g.clone().play_text("a2-a3").unwrap_err().to_string());
        assert!(e.message.contains("mandatory"), "{}", e.message);
        play(&mut g, Some(&[sq("d4"), sq("d6")]), None).unwrap();
        assert!(g.is_over());
    }
}
