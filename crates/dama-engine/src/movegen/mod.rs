//! The one move generator: every variant, driven only by [`Rules`].
//!
//! Everything a variant decides is read from the compiled [`Rules`]; the
//! geometry comes from [`Tables`] (one rotation and one mask per step of a
//! whole bitboard, and precomputed rays), so a node costs a handful of
//! bitboard operations per direction the rules allow:
//!
//! - men's steps and friendly jumps move every man at once;
//! - kings slide along rays that stop at the first occupied square;
//! - [`Rules::has_capture`] answers "is there a capture?" with the same
//!   whole-board shifts, so the capture search (a depth-first search over
//!   jump sequences, one piece at a time) runs only where a capture exists;
//! - [`Rules::count_moves`] counts the legal moves without listing them
//!   (popcounts for the non-capturing ones), which is what perft needs at
//!   its last ply.
//!
//! Nothing is allocated per node: lists are caller-provided and reused.

mod capture;
mod count;
mod quiet;
mod sink;

pub use count::CountMode;

use crate::board::{Color, Move, MoveList, MovePath, Position, Squares, ALL_DIRS, DIAGONAL, ORTHOGONAL};
use crate::movegen::quiet::VisitQuiet;
use crate::movegen::sink::{PathCount, PathSink};
use crate::rules::Rules;
use crate::spec::Majority;
use crate::util::Rng;

/// Runs `$e` with `$g` bound to the board's direction class as a constant
/// (see [`Tables::geometry`]): the one place the class is read at run time.
macro_rules! by_geometry {
    ($rules:expr, $g:ident => $e:expr) => {
        match $rules.tables().geometry() {
            ORTHOGONAL => {
                const $g: u8 = ORTHOGONAL;
                $e
            }
            DIAGONAL => {
                const $g: u8 = DIAGONAL;
                $e
            }
            _ => {
                const $g: u8 = ALL_DIRS;
                $e
            }
        }
    };
}

impl Rules {
    /// origin, destination and captured set; see [`MoveList::path_counts`]).
    pub fn generate(&self, pos: &Position, list: &mut MoveList) {
        by_geometry!(self, G => self.generate_as::<G>(pos, list))
    }

    fn generate_as<const G: u8>(&self, pos: &Position, list: &mut MoveList) {
        list.clear();
        self.gen_captures::<G>(pos, list);
        if list.is_empty() || !self.capture().mandatory {
            self.gen_quiet::<G>(pos, list);
        }
    }

    /// The legal moves of `pos`.
    pub fn legal_moves(&self, pos: &Position) -> MoveList {
        let mut l = MoveList::new();
        self.generate(pos, &mut l);
        l
    }

    /// The number of legal moves of `pos` as [`Rules::generate`] would list
    /// them: distinct moves, or capture paths with [`CountMode::Paths`].
    /// Non-capturing moves are counted without being listed; `scratch` is
    /// used for captures in [`CountMode::Moves`].
    pub fn count_moves(&self, pos: &Position, mode: CountMode, scratch: &mut MoveList) -> u64 {
        by_geometry!(self, G => self.count_moves_as::<G>(pos, mode, scratch))
    }

    fn count_moves_as<const G: u8>(&self, pos: &Position, mode: CountMode, scratch: &mut MoveList) -> u64 {
        let mut captures = 0;
        let (pieces, king_quiet) = self.capturers_counting::<G, true>(pos);
        if pieces != 0 {
            captures = match mode {
                CountMode::Paths => {
                    let mut sink = PathCount {
                        best: 0,
                        n: 0,
                        majority: self.capture().majority == Majority::MaxPieces,
                    };
                    self.capture_search::<_, G>(pos, &mut sink, pieces);
                    sink.n
                }
                CountMode::Moves => {
                    scratch.clear();
                    self.gen_captures::<G>(pos, scratch);
                    scratch.len() as u64
                }
            };
            if captures != 0 && self.capture().mandatory {
                return captures;
            }
        }
        captures + self.count_quiet::<G>(pos, scratch, king_quiet)
    }

    /// Calls `f` with each legal move of `pos` and its number of paths (in
    /// no particular order). Non-capturing moves come straight
    /// from the bitboards; captures (and non-capturing moves that need
    /// merging) go through `list`, which is overwritten. This is
    /// [`Rules::generate`] without filling a list in the common case, for
    /// perft and other tree walks.
    #[inline]
    pub fn for_each_move<F: FnMut(&Move, u32)>(&self, pos: &Position, list: &mut MoveList, f: F) {
        by_geometry!(self, G => self.for_each_move_as::<G, F>(pos, list, f))
    }

    #[inline(always)]
    fn for_each_move_as<const G: u8, F: FnMut(&Move, u32)>(&self, pos: &Position, list: &mut MoveList, mut f: F) {
        list.clear();
        self.gen_captures::<G>(pos, list);
        let use_list = !list.is_empty() || self.quiet_needs_dedup(pos.side_to_move());
        if use_list {
            if list.is_empty() || !self.capture().mandatory {
                self.gen_quiet::<G>(pos, list);
            }
            for (m, &n) in list.as_slice().iter().zip(list.path_counts()) {
                f(m, n);
            }
        } else {
            self.quiet_moves::<G, _>(pos, &mut VisitQuiet(|m| f(&m, 1)), false);
        }
    }

    /// Whether the side to move has a capture.
    pub fn has_capture(&self, pos: &Position) -> bool {
        by_geometry!(self, G => self.capturers::<G>(pos) != 0)
    }

    /// Whether the side to move has a non-capturing move (legal or not:
    /// where capturing is mandatory and a capture exists, it is not).
    /// With [`Rules::has_capture`] this tells whether a position has any
    /// legal move without generating them.
    pub fn has_quiet_move(&self, pos: &Position) -> bool {
        by_geometry!(self, G => self.any_quiet::<G>(pos))
    }

    /// Every path that plays `m` in `pos` (one for a non-capturing move).
    pub fn move_paths(&self, pos: &Position, m: &Move) -> Vec<MovePath> {
        if !m.is_capture() {
            return vec![MovePath {
                from: m.from(),
                landings: vec![m.to()],
                captures: vec![],
            }];
        }
        let mut sink = PathSink {
            target: m,
            out: Vec::new(),
            steps: Vec::new(),
        };
        let pieces = m.from().bit() & pos.pieces(pos.side_to_move());
        by_geometry!(self, G => self.capture_search::<_, G>(pos, &mut sink, pieces));
        sink.out.sort_by(|a, b| a.landings.cmp(&b.landings));
        sink.out
    }

    /// Whether `m` is among the legal moves of `pos`.
    pub fn is_legal(&self, pos: &Position, m: &Move) -> bool {
        self.legal_moves(pos).iter().any(|o| o == m)
    }

    /// Checks that `pos` could arise under these rules as far as a static
    /// look can tell: pieces on playable squares, no man on its own promotion rank.
    pub fn check_position(&self, pos: &Position) -> Result<(), String> {
        let off = pos.occupied() & !self.board();
        if off != 0 {
            let s: Vec<String> = Squares(off).map(|s| s.to_string()).collect();
            return Err(format!(
                "pieces on squares that are not part of this board: {}",
                s.join(", ")
            ));
        }
        for c in Color::ALL {
            let bad = pos.men(c) & self.side(c).promotion;
            if bad != 0 {
                let s: Vec<String> = Squares(bad).map(|s| self.square_name(s)).collect();
                return Err(format!(
                    "{} men on {} stand on their own promotion rank (they would be kings)",
                    c,
                    s.join(", ")
                ));
            }
        }
        Ok(())
    }
}

/// A move chosen uniformly at random among the legal moves of `pos`.
pub fn random_move(rules: &Rules, pos: &Position, rng: &mut Rng) -> Option<Move> {
    let list = rules.legal_moves(pos);
    let n = list.len();
    if n == 0 {
        None
    } else {
        list.as_slice().get(rng.below(n)).copied()
    }
}
