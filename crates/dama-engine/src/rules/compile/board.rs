//! Stage 1: the board. Its size, the playable squares, how they are
//! numbered, and the neighbour of every square in every direction.

use crate::board::{AbsDir, Bitboard, Square, MAX_SIDE};
use crate::rules::compile::Findings;
use crate::spec::{Code, SquareColor, SquareNotation, SquareSet, VariantSpec};

/// The board as the later stages need it; `size_ok` is false when the
/// size was refused (the stages then work on a stand-in 8×8 board and
/// report nothing that depends on it).
#[derive(Debug)]
pub(crate) struct Board {
    pub(crate) width: u8,
    pub(crate) height: u8,
    pub(crate) mask: Bitboard,
    pub(crate) size_ok: bool,
    pub(crate) numeric: bool,
    pub(crate) numbers: Vec<Square>,
    pub(crate) step: Box<[[Option<Square>; 256]; 8]>,
}

/// Checks the board size (`E0201`, `E0202`) and builds the board.
pub(crate) fn board(spec: &VariantSpec, out: &mut Findings) -> Board {
    let (w, h) = (spec.board.width, spec.board.height);
    let mut size_ok = true;
    for (v, key, what) in [(w, "board.width", "file"), (h, "board.height", "rank")] {
        if v == 0 {
            out.error(
                Code::E0201,
                key,
                format!("the board must have at least one {what}, not {w}×{h}"),
            );
            size_ok = false;
        } else if v > MAX_SIDE as u32 {
            out.error(
                Code::E0202,
                key,
                format!("boards are at most {MAX_SIDE}×{MAX_SIDE} ({w}×{h} asked)"),
            );
            size_ok = false;
        }
    }
    let (width, height) = if size_ok { (w as u8, h as u8) } else { (8, 8) };
    let light_corner = spec.board.lower_left == SquareColor::Light;
    if light_corner && spec.board.squares == SquareSet::All {
        out.warning(
            Code::W0203,
            "board.lower_left",
            "lower_left says which squares are played on with squares = \"dark\"; every square is played on here, so it has no effect",
        );
    }
    let mut mask = Bitboard::EMPTY;
    for r in 0..height {
        for f in 0..width {
            let dark = (r + f) % 2 == light_corner as u8;
            if spec.board.squares == SquareSet::All || dark {
                mask.insert(Square::new(f, r).expect("within 16×16"));
            }
        }
    }
    // Squares are numbered from the top rank down, left to right.
    let mut numbers = Vec::new();
    for r in (0..height).rev() {
        for f in 0..width {
            let s = Square::new(f, r).expect("within 16×16");
            if mask.contains(s) {
                numbers.push(s);
            }
        }
    }
    Board {
        width,
        height,
        mask,
        size_ok,
        numeric: spec.board.notation == SquareNotation::Numeric,
        numbers,
        step: step_table(width, height, mask, spec.board.squares == SquareSet::Dark),
    }
}

/// `step[d][sq]`: the playable neighbour of `sq` in direction `d`, if any.
///
/// On a board played on its dark squares only, the orthogonal neighbour is
/// the next dark square along the file or rank, two squares away (the
/// square next to it is light): that is where Frisian men and kings capture
/// orthogonally. Diagonal neighbours are adjacent on every board.
fn step_table(width: u8, height: u8, mask: Bitboard, dark: bool) -> Box<[[Option<Square>; 256]; 8]> {
    let mut step = Box::new([[None; 256]; 8]);
    for d in AbsDir::ALL {
        let (mut df, mut dr) = d.delta();
        if dark && d.is_orthogonal() {
            (df, dr) = (2 * df, 2 * dr);
        }
        for sq in mask.iter() {
            let f = sq.file() as i8 + df;
            let r = sq.rank() as i8 + dr;
            if (0..width as i8).contains(&f) && (0..height as i8).contains(&r) {
                let t = Square::new(f as u8, r as u8).filter(|t| mask.contains(*t));
                step[d.index()][sq.index() as usize] = t;
            }
        }
    }
    step
}

impl Board {
    /// The names of the squares of `bb` in the board's notation, joined with commas.
    pub(crate) fn names(&self, bb: Bitboard) -> String {
        bb.iter()
            .map(|s| {
                if self.numeric {
                    self.numbers
                        .iter()
                        .position(|&i| i == s)
                        .map_or(s.to_string(), |n| (n + 1).to_string())
                } else {
                    s.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}
