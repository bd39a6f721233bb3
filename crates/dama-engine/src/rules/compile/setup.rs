//! Stage 5: the initial position. Every setup item read as a square or a
//! range of squares, with the checks that the setup is a real position.

use crate::board::{Bitboard, Color, Position, Square};
use crate::rules::compile::pieces::men_use_any;
use crate::rules::compile::promotion::beyond_rank;
use crate::rules::compile::{Board, Findings, Promotion};
use crate::spec::{Code, RelDir, VariantSpec};
use crate::util::clip;

/// Reads `[setup]` (`E0701` to `E0705`, `W0502`, `W0707`). Its squares mean
/// nothing on a board of a refused size: then the position is empty.
pub(crate) fn setup(spec: &VariantSpec, board: &Board, promotion: &Promotion, out: &mut Findings) -> Position {
    let mut placed: Vec<(Bitboard, &str)> = Vec::new();
    let s = &spec.setup;
    let white_men = square_list(&s.white, "setup.white", board, &mut placed, out);
    let black_men = square_list(&s.black, "setup.black", board, &mut placed, out);
    let white_kings = square_list(&s.white_kings, "setup.white_kings", board, &mut placed, out);
    let black_kings = square_list(&s.black_kings, "setup.black_kings", board, &mut placed, out);
    // (issue 37) The checks of each side run whatever else is wrong with the
    // setup, so that every problem is reported at once.
    if board.size_ok {
        for (c, men, kings, key, list, listed) in [
            (
                Color::White,
                white_men,
                white_kings,
                "setup.white",
                &s.white,
                s.white.len() + s.white_kings.len(),
            ),
            (
                Color::Black,
                black_men,
                black_kings,
                "setup.black",
                &s.black,
                s.black.len() + s.black_kings.len(),
            ),
        ] {
            // A side with an unreadable square has lost a piece to the error
            // already reported: its emptiness would be an echo.
            let unreadable = out.0.iter().any(|d| {
                matches!(d.code, Code::E0701 | Code::E0702)
                    && d.key
                        .as_deref()
                        .is_some_and(|k| k.starts_with(&format!("{key}[")) || k.starts_with(&format!("{key}_kings[")))
            });
            let listed = if unreadable { None } else { Some(listed) };
            check_side(spec, board, promotion, c, (men, kings), (key, list, listed), out);
        }
    }
    Position::from_parts(
        white_men | white_kings,
        black_men | black_kings,
        white_kings | black_kings,
        s.first.into(),
    )
}

/// The squares of one setup list; `placed` holds the lists read before it.
fn square_list<'k>(
    list: &[String],
    key: &'k str,
    board: &Board,
    placed: &mut Vec<(Bitboard, &'k str)>,
    out: &mut Findings,
) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    if !board.size_ok {
        return bb;
    }
    for (i, item) in list.iter().enumerate() {
        let k = format!("{key}[{i}]");
        let item_shown = clip(item);
        match parse_square_set(item, board) {
            Ok(set) => {
                if set.is_empty() {
                    out.warning(
                        Code::W0707,
                        &k,
                        format!("the range `{item_shown}` holds no playable square"),
                    );
                }
                if !(set & bb).is_empty() {
                    out.error(
                        Code::E0703,
                        &k,
                        format!(
                            "`{item_shown}` repeats squares already listed for this side: {}",
                            board.names(set & bb)
                        ),
                    );
                }
                for (other, okey) in placed.iter() {
                    if !(set & *other).is_empty() {
                        out.error(
                            Code::E0703,
                            &k,
                            format!(
                                "`{item_shown}` puts a piece on {} which `{okey}` already uses",
                                board.names(set & *other)
                            ),
                        );
                    }
                }
                bb |= set;
            }
            Err(SquareError::NotPlayable(msg)) => out.error(Code::E0702, &k, msg),
            Err(SquareError::Invalid(msg)) => out.error(Code::E0701, &k, msg),
        }
    }
    placed.push((bb, key));
    bb
}

/// The checks on one side's pieces once every list has been read.
fn check_side(
    spec: &VariantSpec,
    board: &Board,
    promotion: &Promotion,
    c: Color,
    (men, kings): (Bitboard, Bitboard),
    (key, list, listed): (&str, &[String], Option<usize>),
    out: &mut Findings,
) {
    let prom = promotion.squares[c.index()];
    // The first item of the list that puts a piece on `mask`, so a finding points at it.
    let item_key = |mask: Bitboard| -> String {
        list.iter()
            .position(|item| parse_square_set(item, board).is_ok_and(|set| !(set & mask).is_empty()))
            .map_or_else(|| key.to_string(), |i| format!("{key}[{i}]"))
    };
    // `listed` is None when a square of the side could not be read.
    if let (true, Some(listed)) = ((men | kings).is_empty(), listed) {
        let msg = if listed == 0 {
            format!("{c} has no pieces in the initial position")
        } else {
            format!("{c} has no pieces in the initial position: the squares listed are not playable")
        };
        out.error(Code::E0704, key, msg);
    }
    if !(men & prom).is_empty() {
        out.error(
            Code::E0705,
            &item_key(men & prom),
            format!(
                "{c} men on {} stand on their own promotion rank",
                board.names(men & prom)
            ),
        );
    }
    // Men beyond their promotion rank that can never come back to it.
    let beyond = men & !prom & beyond_rank(c, promotion.rank, board);
    if !beyond.is_empty() && !men_use_any(spec, &[RelDir::B, RelDir::BL, RelDir::BR]) {
        out.warning(
            Code::W0502,
            &item_key(beyond),
            format!(
                "{c} men on {} stand beyond their promotion rank and can never be crowned",
                board.names(beyond)
            ),
        );
    }
}

/// Why a setup item was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SquareError {
    /// Not a square name or number, or off the board.
    Invalid(String),
    /// A square of the board that is not played on.
    NotPlayable(String),
}

/// Parses a setup item: a square (`d4`, or `12` on numeric boards) or a
/// range (`a2-h3`: the rectangle with these corners; `1-12` on numeric
/// boards: the squares numbered 1 to 12). Ranges take only the playable
/// squares; a single square must be playable.
fn parse_square_set(item: &str, b: &Board) -> Result<Bitboard, SquareError> {
    let (width, height, board, numeric, numbers) = (b.width, b.height, b.mask, b.numeric, &b.numbers[..]);
    let is_number = |t: &str| numeric && !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let one = |s: &str| -> Result<Square, SquareError> {
        let s = s.trim();
        let name = clip(s);
        if is_number(s) {
            return s
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| numbers.get(i))
                .copied()
                .ok_or_else(|| {
                    SquareError::Invalid(format!(
                        "square {name} is not on the board (squares are numbered 1 to {})",
                        numbers.len()
                    ))
                });
        }
        let mut chars = s.chars();
        let first = chars.next();
        let rest = chars.as_str();
        let last_file = (b'a' + width.saturating_sub(1)) as char;
        match first {
            Some(c) if c.is_ascii_alphabetic() && !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) => {
                let file = u32::from(c.to_ascii_lowercase() as u8 - b'a');
                let rank: u32 = rest.parse().unwrap_or(u32::MAX);
                if rank == 0 {
                    return Err(SquareError::Invalid(format!(
                        "`{name}` is not a square: ranks are numbered from 1"
                    )));
                }
                if file >= u32::from(width) || rank > u32::from(height) {
                    return Err(SquareError::Invalid(format!(
                        "square {name} is off the {width}×{height} board (files a to {last_file}, ranks 1 to {height})"
                    )));
                }
                Square::new(file as u8, (rank - 1) as u8)
                    .ok_or_else(|| SquareError::Invalid(format!("square {name} is off the board")))
            }
            _ => Err(SquareError::Invalid(format!(
                "`{name}` is not a square name (expected a file letter and a rank number, such as d4{})",
                if numeric { ", or a square number" } else { "" }
            ))),
        }
    };
    match item.split_once('-') {
        Some((a, b)) => {
            let (sa, sb) = (one(a)?, one(b)?);
            match (is_number(a.trim()), is_number(b.trim())) {
                (true, true) => {
                    let na = numbers.iter().position(|&i| i == sa).unwrap_or(0);
                    let nb = numbers.iter().position(|&i| i == sb).unwrap_or(0);
                    let (lo, hi) = (na.min(nb), na.max(nb));
                    Ok(numbers
                        .get(lo..=hi)
                        .unwrap_or(&[])
                        .iter()
                        .fold(Bitboard::EMPTY, |bb, &i| bb | i.bit()))
                }
                (false, false) => {
                    let (f0, f1) = (sa.file().min(sb.file()), sa.file().max(sb.file()));
                    let (r0, r1) = (sa.rank().min(sb.rank()), sa.rank().max(sb.rank()));
                    let mut bb = Bitboard::EMPTY;
                    for r in r0..=r1 {
                        for f in f0..=f1 {
                            bb.insert(Square::new(f, r).expect("within 16×16"));
                        }
                    }
                    Ok(bb & board)
                }
                _ => Err(SquareError::Invalid(format!(
                    "`{}` mixes a square number and a square name; write `1-12` or `a1-h3`",
                    clip(item)
                ))),
            }
        }
        None => {
            let sq = one(item)?;
            if !board.contains(sq) {
                return Err(SquareError::NotPlayable(format!(
                    "square {} is not played on in this variant (board.squares)",
                    clip(item.trim())
                )));
            }
            Ok(sq.bit())
        }
    }
}
