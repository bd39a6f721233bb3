//! Writing PDN: the tags, the movetext in the shortest unambiguous
//! notation, and the result.

// Panic audit (rel, issue 7): this module reads user input, so it may not
// unwrap or index unchecked; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing))]

use crate::board::{Color, Square};
use crate::game::Game;
use crate::rules::Rules;
use crate::spec::SquareNotation;

use super::*;

/// Quotes a tag value: `"` and `\` are escaped; an empty value becomes `?`.
pub(super) fn quote(v: &str) -> String {
    let v = if v.trim().is_empty() { "?" } else { v };
    let mut s = String::with_capacity(v.len() + 2);
    s.push('"');
    for c in v.chars() {
        if c == '"' || c == '\\' {
            s.push('\\');
        }
        if c != '\n' && c != '\r' {
            s.push(c);
        }
    }
    s.push('"');
    s
}

/// The PDN `GameType` value for these rules, e.g. `30,W,8,8,A0,0`: the
/// number, the side that starts, width, height, the notation (`A`
/// alphanumeric, `N` numeric) with the corner where square a1 (or square 1)
/// lies as the starting player sees the board (0 bottom left, 1 bottom right,
/// 2 top left, 3 top right), and the invert flag (0 when that player's
/// bottom-left corner is played on). `None` when the variant declares no number.
pub fn game_type_tag(rules: &Rules) -> Option<String> {
    let n = rules.spec().pdn.game_type;
    if n == 0 {
        return None;
    }
    let first = rules.start_position().side_to_move();
    let (letter, reference) = match rules.spec().board.notation {
        SquareNotation::Algebraic => ('A', Square::new(0, 0)),
        SquareNotation::Numeric => ('N', rules.parse_square("1")),
    };
    let (w, h) = (rules.width(), rules.height());
    // Seen from the starting player's side (Black sees the board turned round).
    let view = |sq: Square| match first {
        Color::White => (sq.file(), sq.rank()),
        Color::Black => (w - 1 - sq.file(), h - 1 - sq.rank()),
    };
    let corner = reference.map_or(0, |sq| {
        let (f, r) = view(sq);
        u8::from(f >= w.div_ceil(2)) + 2 * u8::from(r >= h.div_ceil(2))
    });
    let bottom_left = match first {
        Color::White => Square::new(0, 0),
        Color::Black => Square::new(w - 1, h - 1),
    };
    let invert = u8::from(bottom_left.is_none_or(|sq| !rules.board().contains(sq)));
    Some(format!("{n},{},{w},{h},{letter}{corner},{invert}", first.letter()))
}

impl Game {
    /// The game as a PDN record with the given tags: the seven standard tags
    /// (Result from the outcome, `*` while the game goes on), `GameType`
    /// when the variant declares one, `Variant` always, `VariantFile` when
    /// given, `SetUp` and `FEN` when the game did not start from the
    /// variant's initial position, `Termination` once the game is over, the
    /// extra tags, then the movetext (shortest unambiguous notation, lines
    /// of at most 80 characters) and the result.
    pub fn to_pdn(&self, tags: &PdnTags) -> String {
        self.to_pdn_annotated(tags, &[])
    }

    /// [`Game::to_pdn`] with annotations: `notes[i]` follows the `i`-th ply
    /// (plies without a note, or beyond `notes`, are written bare). A note
    /// is the move's NAG (`$2`) and a comment (`{...}`, with any `{` or `}`
    /// in it written as `(` or `)`); after a comment, the next move of the
    /// side that does not start is numbered `N...`, so that the record reads
    /// as the standard writes it.
    ///
    /// ```
    /// use dama_engine::{pdn, Game, Rules};
    ///
    /// let rules = Rules::builtin("dama").unwrap();
    /// let mut game = Game::new(rules.clone());
    /// game.play_text("d3-d4").unwrap();
    /// game.play_text("d6-d5").unwrap();
    /// let notes = [pdn::PdnAnnotation { nag: Some(2), comment: Some("+0.10 best: c3-c4".into()) }];
    /// let text = game.to_pdn_annotated(&pdn::PdnTags::default(), &notes);
    /// assert!(text.contains("1. d3-d4 $2 {+0.10 best: c3-c4} 1... d6-d5 *"));
    /// let again = pdn::read_games(&text).unwrap()[0].replay(rules).unwrap();
    /// assert_eq!(again.position(), game.position());
    /// ```
    pub fn to_pdn_annotated(&self, tags: &PdnTags, notes: &[PdnAnnotation]) -> String {
        let r = self.rules();
        let result = self.outcome().map_or("*", |o| o.result.pdn());
        let mut pairs: Vec<(String, String)> = vec![
            ("Event".into(), tags.event.clone()),
            ("Site".into(), tags.site.clone()),
            ("Date".into(), tags.date.clone()),
            ("Round".into(), tags.round.clone()),
            ("White".into(), tags.white.clone()),
            ("Black".into(), tags.black.clone()),
            ("Result".into(), result.into()),
        ];
        if let Some(gt) = game_type_tag(r) {
            pairs.push(("GameType".into(), gt));
        }
        pairs.push(("Variant".into(), r.id().to_string()));
        if let Some(f) = &tags.variant_file {
            pairs.push(("VariantFile".into(), f.clone()));
        }
        if !self.starts_from_initial() {
            pairs.push(("SetUp".into(), "1".into()));
            pairs.push(("FEN".into(), r.to_fen(self.start_position())));
        }
        if let Some(o) = self.outcome() {
            pairs.push(("Termination".into(), o.reason.to_string()));
        }
        for (k, v) in &tags.extra {
            if !pairs.iter().any(|(n, _)| n.eq_ignore_ascii_case(k)) && !k.is_empty() {
                pairs.push((k.clone(), v.clone()));
            }
        }
        let mut out = String::new();
        for (k, v) in &pairs {
            let name: String = k.chars().filter(|c| c.is_alphanumeric() || *c == '_').collect();
            out.push_str(&format!("[{name} {}]\n", quote(v)));
        }
        out.push('\n');
        let mut words: Vec<String> = Vec::new();
        let first = r.start_position().side_to_move();
        let mut after_comment = false;
        for (i, ply) in self.plies().iter().enumerate() {
            let n = self.move_number_of(i);
            if ply.side() == first {
                words.push(format!("{n}."));
            } else if i == 0 || after_comment {
                words.push(format!("{n}..."));
            }
            words.push(ply.notation.clone());
            after_comment = false;
            if let Some(note) = notes.get(i) {
                if let Some(nag) = note.nag {
                    words.push(format!("${nag}"));
                }
                if let Some(c) = note.comment.as_deref().filter(|c| !c.trim().is_empty()) {
                    let c: String = c
                        .chars()
                        .map(|ch| match ch {
                            '{' => '(',
                            '}' => ')',
                            ch if ch.is_control() => ' ',
                            ch => ch,
                        })
                        .collect();
                    // One word per word of the comment, so that long comments wrap.
                    let parts: Vec<&str> = c.split_whitespace().collect();
                    let last = parts.len().saturating_sub(1);
                    for (k, w) in parts.iter().enumerate() {
                        let mut word = String::new();
                        if k == 0 {
                            word.push('{');
                        }
                        word.push_str(w);
                        if k == last {
                            word.push('}');
                        }
                        words.push(word);
                    }
                    after_comment = true;
                }
            }
        }
        words.push(result.to_string());
        let mut line_len = 0;
        for w in words {
            if line_len > 0 && line_len + 1 + w.len() > 80 {
                out.push('\n');
                line_len = 0;
            } else if line_len > 0 {
                out.push(' ');
                line_len += 1;
            }
            line_len += w.len();
            out.push_str(&w);
        }
        out.push('\n');
        out
    }
}

/// Writes several games as one PDN text, separated by blank lines.
pub fn write_games<'a>(games: impl IntoIterator<Item = (&'a Game, &'a PdnTags)>) -> String {
    games
        .into_iter()
        .map(|(g, t)| g.to_pdn(t))
        .collect::<Vec<_>>()
        .join("\n")
}
