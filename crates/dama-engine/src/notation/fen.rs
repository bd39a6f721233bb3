//! Positions as PDN FEN text: `W:Wa2,b2,Kd4:Ba7,c7`.

// Panic audit (rel, issue 7): this module reads user input, so it may not
// unwrap or index unchecked; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing))]

use crate::board::Color;
use crate::board::Squares;
use crate::board::{Piece, Position};
use crate::rules::Rules;
use crate::util::clip;

/// A FEN string that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid FEN at column {column}: {message}")]
pub struct FenError {
    /// 1-based column of the offending character.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// How [`Rules::parse_fen_with`] reads a position. The default is what
/// [`Rules::parse_fen`] accepts: a position that can arise in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FenOptions {
    /// Accept men standing on their own promotion rank, as hand-made study
    /// positions sometimes place them. Such a man is a man like any other: it
    /// is not crowned where it stands, and it is crowned only by a move that
    /// ends on (or, per `capture.promote_mid_capture`, passes) its promotion
    /// rank, so a man that can only move forward simply stands there, while a
    /// man with a sideways move along that rank, or a capture landing on it,
    /// is crowned by it. Off by default: such a position never arises in play.
    pub allow_men_on_promotion_rank: bool,
}

/// Longest FEN read, in bytes: several times the longest real position.
const MAX_FEN_TEXT: usize = 4096;

fn fail<T>(column: usize, message: impl Into<String>) -> Result<T, FenError> {
    Err(FenError {
        column,
        message: message.into(),
    })
}

impl Rules {
    /// Reads a PDN FEN position: the side to move, then for each side its
    /// pieces (`K` marks a king; numeric boards accept ranges like `1-12`).
    /// An empty side is allowed; lidraughts-style `:H`/`:F` counters are ignored.
    ///
    /// ```
    /// let rules = dama_engine::Rules::builtin("dama").unwrap();
    /// let pos = rules.parse_fen("W:Wd6:Bd7,c8").unwrap();
    /// assert_eq!(rules.to_fen(&pos), "W:Wd6:Bc8,d7");
    /// ```
    pub fn parse_fen(&self, text: &str) -> Result<Position, FenError> {
        self.parse_fen_with(text, FenOptions::default())
    }

    /// Reads a PDN FEN position as [`parse_fen`](Self::parse_fen) does,
    /// with `options` relaxing what it refuses.
    ///
    /// ```
    /// use dama_engine::{FenOptions, Rules};
    ///
    /// let rules = Rules::builtin("dama").unwrap();
    /// // A study position: White's man on a8 has not been crowned.
    /// assert!(rules.parse_fen("W:Wa8,c3:Bh6").is_err());
    /// let study = FenOptions { allow_men_on_promotion_rank: true };
    /// let pos = rules.parse_fen_with("W:Wa8,c3:Bh6", study).unwrap();
    /// assert_eq!(rules.to_fen(&pos), "W:Wa8,c3:Bh6");
    /// // It is still a man: its sideways step along the last rank crowns it.
    /// let b8 = rules.resolve_move(&pos, "a8-b8").unwrap();
    /// assert!(b8.promotes());
    /// ```
    pub fn parse_fen_with(&self, text: &str, options: FenOptions) -> Result<Position, FenError> {
        let text = text.trim();
        if text.is_empty() {
            return fail(1, "empty position (expected something like W:Wa2,b2:Ba7)");
        }
        // (rel, issue 7) Bounded input, and names clipped in messages, so
        // that a hostile FEN is never echoed back whole.
        if text.len() > MAX_FEN_TEXT {
            return fail(
                1,
                format!(
                    "the position is {} characters long; a FEN takes at most {MAX_FEN_TEXT}",
                    text.chars().count()
                ),
            );
        }
        let mut chars = text.char_indices();
        let side = match chars.next() {
            Some((_, 'W' | 'w')) => Color::White,
            Some((_, 'B' | 'b')) => Color::Black,
            Some((_, c)) => return fail(1, format!("the side to move must be W or B, found `{c}`")),
            None => return fail(1, "empty position"),
        };
        let mut pos = self.track_runs(Position::empty(side));
        let rest = &text[1..];
        if rest.is_empty() {
            return Ok(pos);
        }
        if !rest.starts_with(':') {
            return fail(
                2,
                format!(
                    "expected `:` after the side to move, found `{}`",
                    &rest[..rest.chars().next().map_or(0, char::len_utf8)]
                ),
            );
        }
        // Column of the first char after ':' (1-based; issue 18: it was 2, so
        // every message about a section or a square pointed one column early).
        let mut offset = 3;
        // The column each square was given at, for messages about a square.
        let mut given_at = [0usize; 256];
        let mut seen = [false; 2];
        // The `K` section (king runs) and its column, read once the pieces are placed.
        let mut runs: Option<(usize, &str)> = None;
        for section in rest[1..].split(':') {
            let col = offset;
            offset += section.chars().count() + 1;
            let section_trim = section.trim();
            if section_trim.is_empty() {
                return fail(col, "empty section between `:` separators");
            }
            let first = section_trim.chars().next().unwrap_or(' ');
            let color = match first {
                'W' | 'w' => Color::White,
                'B' | 'b' => Color::Black,
                'H' | 'F' if section_trim[1..].bytes().all(|b| b.is_ascii_digit()) => continue,
                'K' | 'k' => {
                    if runs.is_some() {
                        return fail(col, "the king runs (`K` section) are given twice");
                    }
                    runs = Some((col + 1, &section_trim[1..]));
                    continue;
                }
                c => return fail(col, format!("a section must start with W or B, found `{c}`")),
            };
            match seen.get_mut(color.index()) {
                Some(s) if *s => return fail(col, format!("{color}'s pieces are listed twice")),
                Some(s) => *s = true,
                None => {}
            }
            let body = &section_trim[1..];
            let mut item_col = col + 1;
            if body.trim().is_empty() {
                continue;
            }
            for item in body.split(',') {
                let icol = item_col;
                item_col += item.chars().count() + 1;
                let it = item.trim();
                if it.is_empty() {
                    return fail(icol, "empty square in the list (two commas in a row?)");
                }
                // `K` marks a king. A lowercase `k` does too, unless the
                // token is a square of the k-file (boards of 11 files or more).
                let file_k = it.starts_with('k') && self.geometry.read_square(it).is_some();
                let (king, name) = match it.strip_prefix(['K', 'k']).filter(|_| !file_k) {
                    Some(n) => (true, n),
                    None => (false, it),
                };
                let squares: Vec<crate::board::Square> = if let Some((a, b)) = name.split_once('-') {
                    let (sa, sb) = (self.geometry.read_square(a), self.geometry.read_square(b));
                    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
                    // Numbers are read on dark-square boards too (issue 18).
                    let numbered =
                        self.numeric_notation() || (self.geometry.reads_square_numbers() && digits(a) && digits(b));
                    match (sa, sb, numbered) {
                        (Some(sa), Some(sb), true) => {
                            let na: usize = a.parse().unwrap_or(0);
                            let nb: usize = b.parse().unwrap_or(0);
                            if na == 0 || nb < na {
                                return fail(
                                    icol,
                                    format!("`{}` is not an increasing range of square numbers", clip(name)),
                                );
                            }
                            let _ = (sa, sb);
                            (na..=nb)
                                .filter_map(|n| self.geometry.read_square(&n.to_string()))
                                .collect()
                        }
                        (_, _, false) => {
                            return fail(
                                icol,
                                format!("ranges like `{}` are only allowed on numbered boards", clip(name)),
                            )
                        }
                        _ => {
                            return fail(
                                icol,
                                format!("`{}` is not a range of squares on this board", clip(name)),
                            )
                        }
                    }
                } else {
                    match self.geometry.read_square(name) {
                        Some(s) => vec![s],
                        None => {
                            return fail(
                                icol,
                                if !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()) {
                                    // (issue 18) Say what numbers mean here.
                                    self.why_not_a_square(name)
                                } else if crate::board::Square::parse_algebraic(name).is_some() {
                                    format!(
                                        "`{}` is not a playable square of this {}×{} board",
                                        clip(name),
                                        self.width(),
                                        self.height()
                                    )
                                } else {
                                    format!("`{}` is not a square name", clip(name))
                                },
                            );
                        }
                    }
                };
                for sq in squares {
                    if pos.piece_at(sq).is_some() {
                        return fail(icol, format!("square {} is given twice", self.square_name(sq)));
                    }
                    pos.set_piece(sq, Some(if king { Piece::King(color) } else { Piece::Man(color) }));
                    if let Some(c) = given_at.get_mut(sq.index() as usize) {
                        *c = icol;
                    }
                }
            }
        }
        if let Some((col, body)) = runs {
            self.read_runs(&mut pos, col, body)?;
        }
        if options.allow_men_on_promotion_rank {
            return Ok(pos);
        }
        if let Err(e) = self.check_position(&pos) {
            // (issue 18) Point at the first square at fault in the text (of the
            // side the message names), not at the start of the FEN.
            let at_fault = Color::ALL
                .into_iter()
                .map(|c| pos.men(c) & self.side(c).promotion)
                .find(|bad| !bad.is_empty())
                .unwrap_or_default();
            let column = Squares(at_fault)
                .filter_map(|sq| given_at.get(sq.index() as usize).copied())
                .min()
                .unwrap_or(1);
            return fail(column, e);
        }
        Ok(pos)
    }

    /// Reads the body of a `K` section (`W46/2,B5/1`, see [`Rules::to_fen`])
    /// into `pos`, whose pieces are placed; `col` is the body's column.
    fn read_runs(&self, pos: &mut Position, col: usize, body: &str) -> Result<(), FenError> {
        let limit = self.kings().max_consecutive_moves as u32;
        if limit == 0 {
            return fail(
                col - 1,
                "this variant does not limit a king's consecutive moves, so a position has no king runs (`K` section)",
            );
        }
        let mut item_col = col;
        let mut given = [false; 2];
        for item in body.split(',') {
            let icol = item_col;
            item_col += item.chars().count() + 1;
            let it = item.trim();
            let mut chars = it.chars();
            let color = match chars.next() {
                Some('W' | 'w') => Color::White,
                Some('B' | 'b') => Color::Black,
                _ => {
                    return fail(
                        icol,
                        format!(
                            "a king run is a side, the king's square and its moves in a row, such as W{}/2; found `{}`",
                            self.geometry.example_square(),
                            clip(it)
                        ),
                    )
                }
            };
            let Some((sq_text, n_text)) = chars.as_str().split_once('/') else {
                return fail(
                    icol,
                    format!(
                        "`{}` gives no count: write the king's square, `/` and its moves in a row",
                        clip(it)
                    ),
                );
            };
            let Some(sq) = self.geometry.read_square(sq_text.trim()) else {
                return fail(
                    icol + 1,
                    format!("`{}` is not a playable square of this board", clip(sq_text)),
                );
            };
            let n: u32 = match n_text.trim().parse() {
                Ok(n) if (1..=limit).contains(&n) => n,
                _ => {
                    return fail(
                        icol,
                        format!(
                            "a king makes 1 to {limit} non-capturing moves in a row here, not `{}`",
                            clip(n_text)
                        ),
                    )
                }
            };
            if given.get_mut(color.index()).is_some_and(|g| std::mem::replace(g, true)) {
                return fail(icol, format!("{color}'s king run is given twice"));
            }
            if pos.piece_at(sq) != Some(Piece::King(color)) {
                return fail(
                    icol,
                    format!("there is no {color} king on {} to have a run", self.square_name(sq)),
                );
            }
            if pos.men(color).is_empty() {
                return fail(
                    icol,
                    format!(
                        "{color} has no men, so the limit on a king's moves in a row does not apply and it has no run"
                    ),
                );
            }
            pos.set_king_run(color, Some((sq, n)));
        }
        Ok(())
    }

    /// Writes `pos` as PDN FEN, pieces in square order (numbers ascending on
    /// numbered boards). In a variant that limits a king's consecutive moves
    /// (`kings.max_consecutive_moves`), a last section `K` gives each side's
    /// king run when it has one: the side, the king's square, `/` and how
    /// many non-capturing moves in a row it made (`W:W28,K46:B19:KW46/2`).
    pub fn to_fen(&self, pos: &Position) -> String {
        let mut s = String::new();
        s.push(pos.side_to_move().letter());
        for c in Color::ALL {
            s.push(':');
            s.push(c.letter());
            let mut items: Vec<(String, bool)> = Squares(pos.pieces(c))
                .map(|sq| (self.square_name(sq), pos.all_kings().contains(sq)))
                .collect();
            if self.numeric_notation() {
                items.sort_by_key(|(n, _)| n.parse::<u32>().unwrap_or(0));
            } else {
                items.sort_by(|a, b| {
                    let key = |n: &str| {
                        let file = n.bytes().next().unwrap_or(0);
                        (file, n.get(1..).and_then(|r| r.parse::<u32>().ok()).unwrap_or(0))
                    };
                    let ((fa, ra), (fb, rb)) = (key(&a.0), key(&b.0));
                    (fa, ra).cmp(&(fb, rb))
                });
            }
            let list: Vec<String> = items
                .into_iter()
                .map(|(n, k)| if k { format!("K{n}") } else { n })
                .collect();
            s.push_str(&list.join(","));
        }
        let runs: Vec<String> = Color::ALL
            .into_iter()
            .filter_map(|c| {
                pos.king_run(c)
                    .map(|(sq, n)| format!("{}{}/{n}", c.letter(), self.square_name(sq)))
            })
            .collect();
        if !runs.is_empty() {
            s.push_str(":K");
            s.push_str(&runs.join(","));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Rules;

    #[test]
    fn a_square_of_the_k_file_is_not_a_king() {
        let d12 = crate::load_text(
            "d12.toml",
            "extends = \"dama\"\nid = \"d12\"\nname = \"d12\"\n[board]\nwidth = 12\nheight = 12\n",
            None,
        )
        .unwrap()
        .rules;
        let pos = d12.parse_fen("W:Wk5,Kl2:Bb12").unwrap();
        let k5 = crate::Square::parse_algebraic("k5").unwrap();
        assert_eq!(pos.piece_at(k5), Some(crate::Piece::Man(crate::Color::White)));
        assert_eq!(d12.parse_fen(&d12.to_fen(&pos)).unwrap(), pos);
        // On 8×8 there is no k-file: `k` still marks a king.
        let dama = Rules::builtin("dama").unwrap();
        assert!(dama.parse_fen("W:Wkd4:Bb6").unwrap().all_kings().count() == 1);
    }

    #[test]
    fn a_man_on_its_promotion_rank_is_pointed_at() {
        let dama = Rules::builtin("dama").unwrap();
        // (issue 18) The column of `a8`, not of the side to move.
        let e = dama.parse_fen("W:Wb3,a8:Bb6").unwrap_err();
        assert_eq!(e.column, 7, "{e}");
        assert_eq!(
            e.message,
            "White men on a8 stand on their own promotion rank (they would be kings)"
        );
        // Black's man on its promotion rank, after White's pieces.
        let e = dama.parse_fen("B:Wb3:Bc6,d1").unwrap_err();
        assert_eq!(e.column, 11, "{e}");
        // Messages about a square point at it.
        assert_eq!(dama.parse_fen("W:Wz9").unwrap_err().column, 4);
        assert_eq!(dama.parse_fen("W:Wd4,d4").unwrap_err().column, 7);
        assert_eq!(dama.parse_fen("W:X").unwrap_err().column, 3);
        // Two at fault: the first given.
        let e = dama.parse_fen("W:Wh8,a8:Bb6").unwrap_err();
        assert_eq!(e.column, 4, "{e}");
    }
}
