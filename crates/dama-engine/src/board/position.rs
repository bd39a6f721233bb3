//! A position: who stands where, and whose turn it is.

use crate::board::node::{Node, Runs};
use crate::board::{Bitboard, Color, Move, Square, Squares};

/// The pieces on the board and the side to move. Small and `Copy`: playing
/// a move is a few XORs, and undoing it is the same XORs again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position(pub(crate) Node<Bitboard>);

/// What stands on a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Piece {
    /// An uncrowned piece.
    Man(Color),
    /// A crowned piece.
    King(Color),
}

impl Piece {
    /// The piece's side.
    pub fn color(self) -> Color {
        match self {
            Piece::Man(c) | Piece::King(c) => c,
        }
    }
    /// Whether it is a king.
    pub fn is_king(self) -> bool {
        matches!(self, Piece::King(_))
    }
}

impl Position {
    /// Builds a position from sets of squares. `kings` marks which of the pieces are kings.
    pub fn from_parts(white: Bitboard, black: Bitboard, kings: Bitboard, side: Color) -> Position {
        Position(Node {
            white,
            black,
            kings: kings & (white | black),
            side,
            runs: Runs::NONE,
        })
    }

    /// The empty board with `side` to move.
    pub const fn empty(side: Color) -> Position {
        Position(Node {
            white: Bitboard::EMPTY,
            black: Bitboard::EMPTY,
            kings: Bitboard::EMPTY,
            side,
            runs: Runs::NONE,
        })
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.0.side
    }
    /// Sets the side to move.
    pub fn set_side_to_move(&mut self, c: Color) {
        self.0.side = c;
    }
    /// All pieces of `c`.
    #[inline]
    pub fn pieces(&self, c: Color) -> Bitboard {
        self.0.pieces(c)
    }
    /// Men of `c`.
    #[inline]
    pub fn men(&self, c: Color) -> Bitboard {
        self.0.men(c)
    }
    /// Kings of `c`.
    #[inline]
    pub fn kings(&self, c: Color) -> Bitboard {
        self.0.kings(c)
    }
    /// All kings.
    #[inline]
    pub fn all_kings(&self) -> Bitboard {
        self.0.kings
    }
    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.0.occupied()
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let n = &self.0;
        let color = if n.white.contains(sq) {
            Color::White
        } else if n.black.contains(sq) {
            Color::Black
        } else {
            return None;
        };
        Some(if n.kings.contains(sq) {
            Piece::King(color)
        } else {
            Piece::Man(color)
        })
    }

    /// Puts `piece` on `sq` (replacing what was there), or empties it.
    pub fn set_piece(&mut self, sq: Square, piece: Option<Piece>) {
        let n = &mut self.0;
        n.white.remove(sq);
        n.black.remove(sq);
        n.kings.remove(sq);
        if let Some(p) = piece {
            match p.color() {
                Color::White => n.white.insert(sq),
                Color::Black => n.black.insert(sq),
            }
            if p.is_king() {
                n.kings.insert(sq);
            }
        }
    }

    /// Number of pieces of `c`.
    pub fn count(&self, c: Color) -> u32 {
        self.pieces(c).count()
    }

    /// Iterates over all pieces with their squares, a1 first.
    pub fn iter(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Squares(self.occupied()).filter_map(move |s| self.piece_at(s).map(|p| (s, p)))
    }

    /// The king of `c` that made `c`'s last non-capturing moves, and how
    /// many it made in a row, in a variant that limits them
    /// (`kings.max_consecutive_moves`, Frisian); `None` when `c` has no such
    /// run (its last move was a capture or a man's, it has no men left, or
    /// the variant has no limit).
    pub fn king_run(&self, c: Color) -> Option<(Square, u32)> {
        self.0
            .runs
            .of(c.index())
            .map(|(sq, n)| (Square::from_index(sq), n as u32))
    }

    /// Sets (or with `None` ends) the king run of `c` (see
    /// [`king_run`](Self::king_run)); a count above 255 is taken as 255.
    /// Whether later moves advance the runs is the variant's business: a
    /// position read by its rules ([`Rules::start_position`](crate::Rules::start_position),
    /// [`Rules::parse_fen`](crate::Rules::parse_fen), [`Rules::track_runs`](crate::Rules::track_runs))
    /// does so when the variant has the limit.
    pub fn set_king_run(&mut self, c: Color, run: Option<(Square, u32)>) {
        let i = c.index();
        match run {
            Some((sq, n)) if n > 0 => {
                self.0.runs.sq[i] = sq.index();
                self.0.runs.n[i] = n.min(255) as u8;
            }
            _ => self.0.runs.clear(i),
        }
    }

    /// Plays `m` (which must be legal here). In a variant that limits a
    /// king's consecutive moves, the king runs go on (see
    /// [`king_run`](Self::king_run)).
    #[inline]
    pub fn play(&mut self, m: &Move) {
        self.0.play(&m.0);
    }

    /// Undoes `m`, which must be the move that led to this position. The
    /// king runs of a variant that limits a king's consecutive moves are not
    /// restored (a move does not say what they were): keep the earlier
    /// position instead, as [`Game`](crate::Game) does.
    #[inline]
    pub fn undo(&mut self, m: &Move) {
        self.0.undo(&m.0);
    }

    /// The position after `m`.
    #[inline]
    pub fn after(&self, m: &Move) -> Position {
        Position(self.0.after(&m.0))
    }
}
