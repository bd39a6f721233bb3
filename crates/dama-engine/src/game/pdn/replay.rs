//! A record read back: its tags, its variant, and its moves replayed
//! under the rules.

// Panic audit (rel, issue 7): this module reads user input, so it may not
// unwrap or index unchecked; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing))]

use std::path::Path;
use std::sync::Arc;

use crate::board::Color;
use crate::game::{EndReason, Game, GameResult, Outcome, PlayError};
use crate::rules::Rules;
use crate::variant::Loaded;

use super::*;

impl PdnGame {
    /// The value of the first tag called `name` (case-insensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tag_entry(name).map(|t| t.value.as_str())
    }

    /// The first tag called `name` (case-insensitive), with where it stands.
    pub fn tag_entry(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// The result the record gives: its termination marker, else (when the
    /// marker is `*` or missing) its `Result` tag.
    pub fn recorded_result(&self) -> Option<GameResult> {
        self.result
            .as_ref()
            .and_then(PdnResult::result)
            .or_else(|| self.tag("Result").and_then(GameResult::from_pdn))
    }

    /// Which variant the record names, as something [`crate::load()`] accepts:
    /// the `VariantFile` tag (tried relative to `base_dir` first), else the
    /// `Variant` tag, else the built-in root variant whose `pdn.game_type`
    /// equals the number in the `GameType` tag. `None` if the record names none.
    ///
    /// Only the `VariantFile` tag names a file: a `Variant` tag names a
    /// built-in variant, and [`PdnGame::load_variant`] refuses one that names
    /// anything else, so a record never makes it read a file of its choosing
    /// (issue 38: `[Variant "/etc/passwd"]`).
    pub fn variant_name(&self, base_dir: Option<&Path>) -> Option<String> {
        self.named_variant(base_dir).map(|(name, _)| name)
    }

    /// [`PdnGame::variant_name`], and whether it comes from the `Variant` tag.
    fn named_variant(&self, base_dir: Option<&Path>) -> Option<(String, bool)> {
        if let Some(file) = self.tag("VariantFile").filter(|v| !v.trim().is_empty()) {
            let p = Path::new(file.trim());
            if p.is_relative() {
                if let Some(joined) = base_dir.map(|d| d.join(p)).filter(|j| j.is_file()) {
                    return Some((joined.display().to_string(), false));
                }
            }
            let file = file.trim();
            // The tag names a file, even without `./` or `.toml`.
            return Some(if crate::variant::looks_like_path(file) {
                (file.to_string(), false)
            } else {
                (format!("./{file}"), false)
            });
        }
        if let Some(v) = self.tag("Variant").filter(|v| !v.trim().is_empty()) {
            return Some((v.trim().to_string(), true));
        }
        let gt = self.tag("GameType")?;
        let n: u32 = gt.split(',').next()?.trim().parse().ok()?;
        builtin_for_game_type(n).map(|id| (id, false))
    }

    /// Loads the variant the record names ([`PdnGame::variant_name`]), or
    /// `default` when it names none.
    pub fn load_variant(&self, default: Option<&str>, base_dir: Option<&Path>) -> Result<Loaded, PdnError> {
        let named = self.named_variant(base_dir);
        let (line, column, from) = ["VariantFile", "Variant", "GameType"]
            .iter()
            .find_map(|n| {
                self.tag_entry(n)
                    .map(|t| (t.line, t.column, format!("the {} tag", t.name)))
            })
            .unwrap_or((self.line, 1, "the caller".into()));
        if let Some((name, true)) = &named {
            // Never a path: a record's Variant tag is not a way to read files.
            // (A bare name is a built-in id or alias to the loader, never a file.)
            if crate::variant::looks_like_path(name) {
                let (line, column) = self.tag_entry("Variant").map_or((line, column), |t| (t.line, t.column));
                return Err(PdnError::Variant {
                    line,
                    column,
                    message: format!(
                        "the Variant tag names `{}`, which is not a built-in variant (`dama variants` lists them); a record names a variant file with a VariantFile tag",
                        crate::util::clip(name)
                    ),
                    load: None,
                });
            }
        }
        let Some(name) = named.map(|(n, _)| n).or_else(|| default.map(str::to_string)) else {
            return Err(PdnError::Variant {
                line: self.line,
                column: 1,
                message: "the record does not say which variant it is (no Variant, VariantFile or GameType tag)".into(),
                load: None,
            });
        };
        crate::variant::load(&name).map_err(|e| PdnError::Variant {
            line,
            column,
            message: format!("cannot load the variant `{}` named by {from}", crate::util::clip(&name)),
            load: Some(Box::new(e)),
        })
    }

    /// Plays the record through under `rules`: the start position from the
    /// `FEN` tag (else the variant's initial position), every move checked,
    /// and the recorded result checked against the end the rules give. A
    /// result the rules do not reach (a resignation, an agreement) becomes
    /// the game's declared outcome, with the reason from the `Termination`
    /// tag when it names one consistent with the result, else
    /// [`EndReason::Recorded`].
    ///
    /// A record that goes on after an end by the rules that the players could
    /// play on from (a threefold repetition, a draw by a ply count: games the
    /// arbiter did not stop) is replayed to its end ([`Game::go_past_end`]);
    /// [`Game::passed_end`] keeps the first end gone past and
    /// [`PdnGame::past_end`] says where, for a warning. The game's outcome is
    /// then the result the record gives (with the reason of its `Termination`
    /// tag, as above), unless the last position ends the game for good (a
    /// side with no legal move), whose end must agree with it; a record that
    /// gives no result (`*`) takes the end the rules give at its last
    /// position, if any. A move after an end that cannot be played on from
    /// (no legal move, no pieces) is an error ([`PdnError::AfterEnd`]), as
    /// is any move after an end with [`PdnGame::replay_strict`].
    pub fn replay(&self, rules: impl Into<Arc<Rules>>) -> Result<Game, PdnError> {
        self.replay_with(rules.into(), false)
    }

    /// [`PdnGame::replay`] that refuses every move after an end by the rules
    /// ([`PdnError::AfterEnd`]), even one the players could have played on from.
    pub fn replay_strict(&self, rules: impl Into<Arc<Rules>>) -> Result<Game, PdnError> {
        self.replay_with(rules.into(), true)
    }

    /// Where `game` (this record replayed) went past an end by the rules:
    /// the first move played past it, its ply number and the end.
    pub fn past_end(&self, game: &Game) -> Option<PastEnd> {
        let passed = game.passed_end()?;
        let m = self.moves.get(passed.ply)?;
        Some(PastEnd {
            line: m.line,
            column: m.column,
            text: crate::util::clip(&m.text),
            ply: passed.ply + 1,
            move_number: game.move_number_of(passed.ply),
            outcome: passed.outcome,
        })
    }

    fn replay_with(&self, rules: Arc<Rules>, strict: bool) -> Result<Game, PdnError> {
        let start = match self.tag_entry("FEN") {
            Some(t) if !t.value.trim().is_empty() => rules.parse_fen(&t.value).map_err(|error| PdnError::Fen {
                line: t.line,
                column: t.column,
                error,
            })?,
            _ => rules.start_position(),
        };
        let mut game = Game::from_position(rules, start);
        if game.reserve_plies(self.moves.len()).is_err() {
            return Err(PdnError::OutOfMemory {
                line: self.line,
                column: 1,
                moves: self.moves.len(),
            });
        }
        for m in &self.moves {
            if let Some(outcome) = game.outcome() {
                if strict || game.go_past_end().is_err() {
                    return Err(PdnError::AfterEnd {
                        line: m.line,
                        column: m.column,
                        text: crate::util::clip(&m.text),
                        outcome,
                    });
                }
            }
            match game.play_text(&m.text) {
                Ok(_) => {}
                Err(PlayError::Move(error)) => {
                    return Err(PdnError::Move {
                        line: m.line,
                        column: m.column,
                        error,
                    })
                }
                Err(PlayError::GameOver(outcome)) => {
                    return Err(PdnError::AfterEnd {
                        line: m.line,
                        column: m.column,
                        text: crate::util::clip(&m.text),
                        outcome,
                    })
                }
                Err(PlayError::TooLong { limit }) => {
                    return Err(PdnError::TooLong {
                        line: m.line,
                        column: m.column,
                        limit,
                    })
                }
                Err(e @ PlayError::NotLegal { .. }) => {
                    return Err(PdnError::Syntax {
                        line: m.line,
                        column: m.column,
                        message: e.to_string(),
                    })
                }
            }
        }
        let recorded = self.recorded_result();
        let (line, column, token) = match (&self.result, self.tag_entry("Result")) {
            (Some(r), _) if r.result().is_some() => (r.line, r.column, r.text.clone()),
            (_, Some(t)) => (t.line, t.column, t.value.clone()),
            (Some(r), None) => (r.line, r.column, r.text.clone()),
            (None, None) => (self.line, 1, "*".into()),
        };
        // Past an end by the rules, the record's result stands over an end
        // the players could still have played on from at the last position.
        if let (Some(_), Some(o), Some(r)) = (game.passed_end(), game.outcome(), recorded) {
            if o.result != r {
                let _ = game.go_past_end();
            }
        }
        match (game.outcome(), recorded) {
            (Some(outcome), Some(r)) if outcome.result != r => Err(PdnError::ResultMismatch {
                line,
                column,
                recorded: token,
                outcome,
            }),
            (None, Some(r)) => {
                let reason = self
                    .tag("Termination")
                    .and_then(|t| reason_from_text(t, r))
                    .unwrap_or(EndReason::Recorded);
                // The game is not over, so declaring cannot fail.
                let _ = game.declare(Outcome::new(r, reason));
                Ok(game)
            }
            _ => Ok(game),
        }
    }
}

/// The declared end reason a `Termination` tag names, if consistent with `result`.
pub(super) fn reason_from_text(text: &str, result: GameResult) -> Option<EndReason> {
    let text = text.trim();
    let mut candidates = vec![EndReason::Agreement];
    for c in Color::ALL {
        candidates.push(EndReason::Resignation(c));
        candidates.push(EndReason::TimeForfeit(c));
    }
    if let Some(n) = text
        .strip_prefix("adjudicated after ")
        .and_then(|r| r.strip_suffix(" plies"))
        .and_then(|n| n.parse().ok())
    {
        candidates.push(EndReason::PlyLimit(n));
    }
    candidates.into_iter().find(|r| {
        r.to_string().eq_ignore_ascii_case(text)
            && match r {
                EndReason::Agreement => result == GameResult::Draw,
                EndReason::Resignation(c) | EndReason::TimeForfeit(c) => result == GameResult::win_for(!*c),
                _ => true,
            }
    })
}

/// The built-in variant with this PDN GameType number, preferring one that
/// extends no other. The table is built once.
pub(super) fn builtin_for_game_type(n: u32) -> Option<String> {
    static TABLE: std::sync::OnceLock<Vec<(u32, bool, &'static str)>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        crate::variant::BUILTIN
            .iter()
            .filter_map(|(id, _)| {
                let r = Rules::builtin(id).ok()?;
                Some((r.spec().pdn.game_type, r.spec().extends.is_none(), *id))
            })
            .collect()
    });
    if n == 0 {
        return None;
    }
    let mut matching = table.iter().filter(|(g, _, _)| *g == n);
    let first = matching.clone().next()?;
    let root = matching.find(|(_, root, _)| *root).unwrap_or(first);
    Some(root.2.to_string())
}
