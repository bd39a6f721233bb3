//! The rules of a variant in plain words, generated from the compiled rules
//! so that prose cannot drift from the TOML.

use crate::spec::{
    CaptureRange, CrowningEnd, JumpOver, KingVsKing, Landing, LonePiece, Majority, MidCapturePromotion, NoMoveResult,
    Preference, PromotionRank, Range, RelDir, Removal, SquareNotation, SquareSet,
};
use crate::Rules;

fn dir_word(d: RelDir) -> &'static str {
    match d {
        RelDir::F => "forward",
        RelDir::B => "backward",
        RelDir::L => "left",
        RelDir::R => "right",
        RelDir::FL => "diagonally forward-left",
        RelDir::FR => "diagonally forward-right",
        RelDir::BL => "diagonally backward-left",
        RelDir::BR => "diagonally backward-right",
    }
}

/// Words for a set of directions: "forward, left or right".
pub(crate) fn dirs_words(list: &[RelDir]) -> String {
    let mut v: Vec<RelDir> = list.to_vec();
    v.sort();
    v.dedup();
    let all8 = v.len() == 8;
    let orth = v == [RelDir::F, RelDir::B, RelDir::L, RelDir::R];
    let diag = v == [RelDir::FL, RelDir::FR, RelDir::BL, RelDir::BR];
    if all8 {
        return "in any of the eight directions".into();
    }
    if orth {
        return "along ranks and files (forward, backward, left or right)".into();
    }
    if diag {
        return "along the four diagonals".into();
    }
    let words: Vec<&str> = v.iter().map(|&d| dir_word(d)).collect();
    match words.len() {
        0 => "nowhere".into(),
        1 => words[0].into(),
        n => format!("{} or {}", words[..n - 1].join(", "), words[n - 1]),
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, ..., `11th`, `21st`.
pub(crate) fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// "16 men", "12 men and 1 king".
fn pieces_words(pos: &crate::Position, c: crate::Color) -> String {
    let men = pos.men(c).count();
    let kings = pos.pieces(c).count() - men;
    let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    match (men, kings) {
        (m, 0) => plural(m, "man", "men"),
        (0, k) => plural(k, "king", "kings"),
        (m, k) => format!("{} and {}", plural(m, "man", "men"), plural(k, "king", "kings")),
    }
}

/// One section of the description: a heading and its sentences.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// Heading.
    pub title: &'static str,
    /// Sentences.
    pub lines: Vec<String>,
}

impl Rules {
    /// The rules in words, section by section.
    pub fn describe(&self) -> Vec<Section> {
        let s = self.spec();
        let mut out = Vec::new();
        let start = self.start_position();
        out.push(Section {
            title: "Board and setup",
            lines: vec![
                format!(
                    "{}×{} {} board, {}.",
                    s.board.width,
                    s.board.height,
                    if s.board.checkered { "checkered" } else { "plain" },
                    if s.board.squares == SquareSet::All {
                        "every square in play"
                    } else if s.board.lower_left == crate::spec::SquareColor::Light {
                        "only the dark squares in play (a1 is light: the dark corner is at each player's right)"
                    } else {
                        "only the dark squares in play (a1 is dark)"
                    }
                ),
                match s.board.notation {
                    // (issue 18) The board's own last file and rank: a 6×6 board ends at f6.
                    SquareNotation::Algebraic => format!(
                        "Squares are named a1 to {}{} from White's side (files left to right, ranks bottom to top).",
                        char::from(b'a' + self.width().saturating_sub(1)),
                        self.height()
                    ),
                    SquareNotation::Numeric => format!(
                        "Squares are numbered 1 to {}, row by row from Black's side.",
                        self.board().count()
                    ),
                },
                format!(
                    "White has {}, Black {}; {} moves first.",
                    pieces_words(&start, crate::Color::White),
                    pieces_words(&start, crate::Color::Black),
                    crate::Color::from(s.setup.first)
                ),
            ],
        });
        let dark = s.board.squares == SquareSet::Dark;
        let orthogonal = |d: &RelDir| matches!(d, RelDir::F | RelDir::B | RelDir::L | RelDir::R);
        let mut men = vec![];
        if s.men.moves.is_empty() {
            men.push("Men have no plain step.".to_string());
        } else {
            men.push(format!(
                "A man steps one square {} onto an empty square.",
                dirs_words(&s.men.moves)
            ));
        }
        if !s.men.linear_moves.is_empty() {
            men.push(format!(
                "Linear move: a man may leap {} over an unbroken line of its own men onto the empty square beyond it.",
                dirs_words(&s.men.linear_moves)
            ));
        }
        if !s.men.friendly_jumps.is_empty() {
            men.push(format!(
                "A man may jump {} over an adjacent friendly {} onto the empty square beyond, without capturing{}.",
                dirs_words(&s.men.friendly_jumps),
                if s.men.friendly_jump_over == JumpOver::Men {
                    "man"
                } else {
                    "piece"
                },
                if s.men.friendly_jump_chain {
                    "; such jumps may be chained"
                } else {
                    "; one jump per move"
                }
            ));
        }
        if s.men.captures.is_empty() {
            men.push("Men never capture.".into());
        } else {
            men.push(format!(
                "A man captures {} by jumping an adjacent enemy piece onto the empty square right behind it.",
                dirs_words(&s.men.captures)
            ));
            if !s.men.capture_kings {
                men.push("A man may not capture a king: men take only men.".into());
            }
            if dark && s.men.captures.iter().any(orthogonal) {
                men.push(
                    "Along a file or rank the adjacent square is the next dark one, two squares away: a man captures orthogonally a piece two squares away and lands two squares beyond it."
                        .into(),
                );
            }
        }
        out.push(Section {
            title: "Men",
            lines: men,
        });
        let mut kings = vec![];
        kings.push(match s.kings.move_range {
            Range::Flying => format!(
                "A king moves {} over any number of empty squares.",
                dirs_words(&s.kings.moves)
            ),
            Range::Squares(1) => format!("A king steps one square {}.", dirs_words(&s.kings.moves)),
            Range::Squares(n) => format!("A king moves {} up to {n} empty squares.", dirs_words(&s.kings.moves)),
        });
        kings.push(match (s.kings.capture_range, s.kings.landing) {
            (CaptureRange::Flying, Landing::AnyBeyond) => format!(
                "A king captures {} from any distance: it jumps the first piece on an empty line and lands on any empty square beyond it.",
                dirs_words(&s.kings.captures)
            ),
            (CaptureRange::Flying, Landing::AdjacentBeyond) => format!(
                "A king captures {} from any distance, landing on the square right behind the captured piece.",
                dirs_words(&s.kings.captures)
            ),
            (CaptureRange::Short, Landing::AdjacentBeyond) => format!(
                "A king captures {} by jumping an adjacent enemy piece onto the square right behind it.",
                dirs_words(&s.kings.captures)
            ),
            (CaptureRange::Short, Landing::AnyBeyond) => format!(
                "A king captures {} by jumping an adjacent enemy piece, landing on any empty square beyond it.",
                dirs_words(&s.kings.captures)
            ),
        });
        if dark && s.kings.captures.iter().any(orthogonal) {
            kings.push("Along a file or rank a king counts only the dark squares, every other square.".into());
        }
        match s.kings.max_consecutive_moves {
            0 => {}
            n => kings.push(format!(
                "While its side still has men, the same king may make at most {n} non-capturing move{} in a row; a capture, or a move by another piece of its side, starts the count again.",
                if n == 1 { "" } else { "s" }
            )),
        }
        if self.kings().landing_must_continue {
            kings.push(
                "If the capture can go on from some of the squares beyond a captured piece, the king must land on one of those."
                    .into(),
            );
        }
        if self.kings().halt_behind_king {
            kings.push("A king whose capture ends by taking a king lands on the square right behind that king.".into());
        }
        out.push(Section {
            title: "Kings",
            lines: kings,
        });
        let c = &s.capture;
        let mut cap = vec![];
        cap.push(if c.mandatory {
            "Capturing is compulsory, and a capture goes on while the capturing piece can capture again.".to_string()
        } else {
            "Capturing is optional, but a capture once begun goes on while the piece can capture again.".to_string()
        });
        cap.push(match c.majority {
            Majority::None if c.priority.is_empty() => "Any complete capture sequence may be chosen.".into(),
            Majority::None => "There is no majority rule: a capture of few pieces may be chosen over one of many.".into(),
            Majority::MaxPieces => {
                "Only the sequences that capture the most pieces are legal; kings and men count one each.".into()
            }
            Majority::MaxValue => format!(
                "Only the sequences whose captured pieces have the highest total value are legal; a man is worth {} and a king {}.",
                c.man_value, c.king_value
            ),
        });
        for (i, p) in self.capture().priority.iter().enumerate() {
            let then = if i == 0 && c.majority == Majority::None {
                "Among the captures"
            } else {
                "Among those left"
            };
            cap.push(match p {
                Preference::ByKing => format!("{then}, a capture by a king must be chosen over a capture by a man."),
                Preference::MostKings => format!("{then}, only those that take the most kings are legal."),
                Preference::KingsFirst => format!(
                    "{then}, only those that take a king earliest are legal (the first jump that takes a king in one and not in the other decides)."
                ),
            });
        }
        cap.push(match c.removal {
            Removal::Immediate => {
                "Each captured piece leaves the board at once, so its square is free for the rest of the move.".into()
            }
            Removal::EndOfMove => {
                "Captured pieces stay on the board until the move ends: they block the way and cannot be jumped twice."
                    .into()
            }
        });
        if c.no_reversal {
            cap.push("A piece may not turn back 180° between two jumps.".into());
        } else {
            cap.push("A piece may reverse direction between two jumps.".into());
        }
        cap.push(match c.promote_mid_capture {
            MidCapturePromotion::ContinueAsMan => "A man that reaches the promotion rank during a capture goes on capturing as a man; it is crowned only if the move ends there.".into(),
            MidCapturePromotion::PromoteAndContinue if c.no_reversal => "A man that reaches the promotion rank during a capture is crowned at once and goes on capturing as a king; its first king jump may not turn straight back.".into(),
            MidCapturePromotion::PromoteAndContinue => "A man that reaches the promotion rank during a capture is crowned at once and goes on capturing as a king.".into(),
            MidCapturePromotion::PromoteAndContinueAnyDirection if c.no_reversal => "A man that reaches the promotion rank during a capture is crowned at once and goes on capturing as a king; its first king jump may go in any direction, straight back included.".into(),
            MidCapturePromotion::PromoteAndContinueAnyDirection => "A man that reaches the promotion rank during a capture is crowned at once and goes on capturing as a king.".into(),
            MidCapturePromotion::Stop => "A man that reaches the promotion rank during a capture is crowned and the move ends there.".into(),
        });
        out.push(Section {
            title: "Capturing",
            lines: cap,
        });
        out.push(Section {
            title: "Promotion",
            lines: vec![match s.promotion.rank {
                PromotionRank::Last => "A man that ends its move on the far rank becomes a king.".into(),
                PromotionRank::Nth(n) => format!(
                    "A man that ends its move on the {} rank counted from its own side becomes a king.",
                    ordinal(n)
                ),
            }],
        });
        let e = &s.end;
        let mut end = vec![match e.no_legal_move {
            NoMoveResult::Loss => "A player who cannot move (no pieces, or all blocked) loses.".to_string(),
            NoMoveResult::Win => "A player who cannot move wins.".to_string(),
            NoMoveResult::Draw => "If the player to move cannot move, the game is drawn.".to_string(),
            NoMoveResult::Pass => "A player whose pieces are all blocked passes: the turn goes to the opponent. \
                                   A player with no pieces left loses, and when neither player can move the game \
                                   is drawn."
                .to_string(),
        }];
        if e.crowning == CrowningEnd::Wins {
            end.push("The first player to crown a king wins at once.".into());
        }
        if e.threefold_repetition {
            end.push("The third occurrence of the same position with the same player to move is a draw.".into());
        }
        let unless = if e.lone_piece_unless_capture {
            " (judged when the player to move has no capture)"
        } else {
            ""
        };
        match e.lone_piece {
            LonePiece::KingBeatsLoneMan => end.push(format!(
                "A lone king against a lone man wins for the king's side{unless}."
            )),
            LonePiece::OneEachDraw => end.push(format!("One piece against one piece is a draw{unless}.")),
            LonePiece::None => {}
        }
        if e.king_vs_king == KingVsKing::Draw {
            end.push(format!("A lone king against a lone king is a draw{unless}."));
        }
        if e.no_capture_draw_plies > 0 {
            end.push(format!(
                "{} plies in a row without a capture draw the game.",
                e.no_capture_draw_plies
            ));
        }
        if e.kings_only_draw_plies > 0 {
            end.push(format!(
                "{} plies in a row of king moves without a capture draw the game.",
                e.kings_only_draw_plies
            ));
        }
        // Draws by material, one sentence per limit, in the order written.
        let mut limits: Vec<(u32, Vec<String>)> = Vec::new();
        for d in &self.end().material_draw {
            match limits.iter_mut().find(|(p, _)| *p == d.plies) {
                Some((_, pats)) => pats.push(d.pattern.to_string()),
                None => limits.push((d.plies, vec![d.pattern.to_string()])),
            }
        }
        for (plies, pats) in limits {
            let when = if plies == 0 {
                "is a draw at once".to_string()
            } else if plies % 2 == 0 {
                format!(
                    "draws the game after {plies} plies ({} moves each) since that material arose (the last capture or promotion)",
                    plies / 2
                )
            } else {
                format!("draws the game after {plies} plies since that material arose (the last capture or promotion)")
            };
            end.push(format!("{} (K a king, M a man, either side) {when}.", join_or(&pats)));
        }
        out.push(Section {
            title: "End of the game",
            lines: end,
        });
        out
    }
}

/// `a`, `a or b`, `a, b or c`.
fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

impl Rules {
    /// The order in which the rules prefer captures, in words: the
    /// majority rule, then each of `capture.priority` (for explanations).
    pub(crate) fn capture_order_words(&self) -> String {
        let c = self.capture();
        let mut parts: Vec<&str> = Vec::new();
        match c.majority {
            Majority::None => {}
            Majority::MaxPieces => parts.push("the most pieces"),
            Majority::MaxValue => parts.push("the highest value"),
        }
        for p in c.priority.iter() {
            parts.push(match p {
                Preference::ByKing => "a capture by a king",
                Preference::MostKings => "the most kings",
                Preference::KingsFirst => "a king taken earliest",
            });
        }
        parts.join(", then ")
    }
}
