//! Stage 2: the pieces. Each side's absolute directions, read from the
//! relative ones of `[men]` and `[kings]`, the kings' range, and the checks
//! that every kind of piece can do something.

use crate::board::{AbsDir, Color, DirSet};
use crate::rules::compile::{Board, Findings};
use crate::rules::{KingRange, MenRules};
use crate::spec::{Code, JumpOver, Range, RelDir, SquareSet, VariantSpec};

/// The directions of one list, for White and for Black.
pub(crate) type SideDirs = [DirSet; 2];

/// Each list of directions of the variant, per side.
#[derive(Debug)]
pub(crate) struct Directions {
    pub(crate) man_steps: SideDirs,
    pub(crate) man_captures: SideDirs,
    pub(crate) man_friendly_jumps: SideDirs,
    pub(crate) man_linear: SideDirs,
    pub(crate) king_moves: SideDirs,
    pub(crate) king_captures: SideDirs,
}

/// Resolves every direction list (`W0301` for a repeated direction).
pub(crate) fn directions(spec: &VariantSpec, out: &mut Findings) -> Directions {
    Directions {
        man_steps: side_dirs(&spec.men.moves, "men.moves", out),
        man_captures: side_dirs(&spec.men.captures, "men.captures", out),
        man_friendly_jumps: side_dirs(&spec.men.friendly_jumps, "men.friendly_jumps", out),
        man_linear: side_dirs(&spec.men.linear_moves, "men.linear_moves", out),
        king_moves: side_dirs(&spec.kings.moves, "kings.moves", out),
        king_captures: side_dirs(&spec.kings.captures, "kings.captures", out),
    }
}

fn side_dirs(list: &[RelDir], key: &str, out: &mut Findings) -> SideDirs {
    let mut dirs = [DirSet::EMPTY; 2];
    // Bit d: direction d seen; bit 8 + d: its repetition reported.
    let mut seen = 0u16;
    for (i, &r) in list.iter().enumerate() {
        let bit = 1u16 << (r as u16);
        if seen & bit != 0 {
            if seen & (bit << 8) == 0 {
                out.warning(
                    Code::W0301,
                    &format!("{key}[{i}]"),
                    format!("direction {r} is listed twice"),
                );
            }
            seen |= bit << 8;
            continue;
        }
        seen |= bit;
        for c in Color::ALL {
            dirs[c.index()].insert(absolute(r, c));
        }
    }
    dirs
}

/// The absolute direction of `r` for side `c` (Black's view is White's turned 180°).
pub(crate) fn absolute(r: RelDir, c: Color) -> AbsDir {
    let d = match r {
        RelDir::F => AbsDir::N,
        RelDir::B => AbsDir::S,
        RelDir::L => AbsDir::W,
        RelDir::R => AbsDir::E,
        RelDir::FL => AbsDir::NW,
        RelDir::FR => AbsDir::NE,
        RelDir::BL => AbsDir::SW,
        RelDir::BR => AbsDir::SE,
    };
    match c {
        Color::White => d,
        Color::Black => d.opposite(),
    }
}

/// The kings' move range (`E0401`, `W0405`). A range that crosses the whole
/// board is the same as flying, and is compiled as [`KingRange::Flying`].
pub(crate) fn king_range(spec: &VariantSpec, board: &Board, out: &mut Findings) -> KingRange {
    let across = board.width.max(board.height) as u32 - 1;
    match spec.kings.move_range {
        Range::Flying => KingRange::Flying,
        Range::Squares(0) => {
            out.error(
                Code::E0401,
                "kings.move_range",
                "a king's move range must be at least 1 or \"flying\"",
            );
            KingRange::Steps(1)
        }
        Range::Squares(n) => {
            if board.size_ok && n > 1 && n >= across {
                let (w, h) = (board.width, board.height);
                out.warning(
                    Code::W0405,
                    "kings.move_range",
                    format!("a move range of {n} crosses the whole {w}×{h} board: it is the same as \"flying\""),
                );
            }
            if n >= across {
                KingRange::Flying
            } else {
                KingRange::Steps(n as u8)
            }
        }
    }
}

/// The men's friendly-jump rules.
pub(crate) fn men(spec: &VariantSpec) -> MenRules {
    MenRules {
        friendly_jump_over_kings: spec.men.friendly_jump_over == JumpOver::Any,
        friendly_jump_chain: spec.men.friendly_jump_chain,
        capture_kings: spec.men.capture_kings,
    }
}

/// Checks that every kind of piece can do something, and that men can be
/// crowned (`E0302`, `W0303`, `E0402`, `W0304`, `W0305`, `W0306`), and
/// that no non-capturing move goes orthogonally on a dark-squares board (`W0307`).
pub(crate) fn check_powers(spec: &VariantSpec, out: &mut Findings) {
    let m = &spec.men;
    let men_stuck =
        m.moves.is_empty() && m.captures.is_empty() && m.linear_moves.is_empty() && m.friendly_jumps.is_empty();
    if m.moves.is_empty() && m.linear_moves.is_empty() && m.friendly_jumps.is_empty() {
        if m.captures.is_empty() {
            out.error(Code::E0302, "men", "men can neither move nor capture");
        } else {
            out.warning(
                Code::W0303,
                "men.moves",
                "men have no non-capturing move: they can only ever capture",
            );
        }
    }
    if spec.kings.moves.is_empty() && spec.kings.captures.is_empty() {
        out.error(Code::E0402, "kings", "kings can neither move nor capture");
    }
    if m.captures.is_empty() && spec.kings.captures.is_empty() {
        out.warning(
            Code::W0304,
            "capture",
            "no piece can capture: the capture rules never apply",
        );
    }
    if !men_use_any(spec, &[RelDir::F, RelDir::FL, RelDir::FR]) && !men_stuck {
        out.warning(
            Code::W0305,
            "men",
            "men never move forward, so they can never be crowned",
        );
    }
    if m.friendly_jumps.is_empty() && (m.friendly_jump_chain || m.friendly_jump_over == JumpOver::Any) {
        out.warning(
            Code::W0306,
            "men.friendly_jumps",
            "friendly_jump_over / friendly_jump_chain are set but men.friendly_jumps is empty",
        );
    }
    if spec.board.squares == SquareSet::Dark {
        let orthogonal = [RelDir::F, RelDir::B, RelDir::L, RelDir::R];
        for (key, list) in [
            ("men.moves", &m.moves),
            ("men.friendly_jumps", &m.friendly_jumps),
            ("men.linear_moves", &m.linear_moves),
            ("kings.moves", &spec.kings.moves),
        ] {
            if let Some(i) = list.iter().position(|d| orthogonal.contains(d)) {
                out.warning(
                    Code::W0307,
                    &format!("{key}[{i}]"),
                    format!(
                        "{key} has the orthogonal direction {}: on a board of dark squares that step goes two squares, to the next dark square along the file or rank (orthogonal captures are fine: Frisian's)",
                        list[i]
                    ),
                );
            }
        }
    }
}

/// Whether any of the men's step, capture, linear or friendly-jump directions is in `dirs`.
pub(crate) fn men_use_any(spec: &VariantSpec, dirs: &[RelDir]) -> bool {
    let m = &spec.men;
    m.moves
        .iter()
        .chain(&m.captures)
        .chain(&m.linear_moves)
        .chain(&m.friendly_jumps)
        .any(|d| dirs.contains(d))
}
