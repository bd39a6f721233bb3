//! [`RecordRules`]: which rules each game of a PDN record is replayed under.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use dama_engine::pdn::{PdnError, PdnGame};
use dama_engine::{Game, Rules};

/// The rules each game of a record is replayed under: the rules the caller
/// gives (`--variant`, Python's `rules=`) for every game; else the variant
/// each game names (its `VariantFile` tag, looked for beside the record
/// first, its `Variant` tag, its `GameType`), each loaded once; else a
/// default variant, when the caller has one.
#[derive(Debug, Clone, Default)]
pub struct RecordRules {
    given: Option<Arc<Rules>>,
    default: Option<String>,
    base_dir: Option<PathBuf>,
    loaded: HashMap<String, Arc<Rules>>,
}

impl RecordRules {
    /// Every game under `rules`, whatever its tags say.
    pub fn given(rules: impl Into<Arc<Rules>>) -> RecordRules {
        RecordRules {
            given: Some(rules.into()),
            ..RecordRules::default()
        }
    }

    /// Each game under the variant it names; a `VariantFile` tag's relative
    /// path is looked for in `base_dir` (the record's folder) first.
    pub fn named(base_dir: Option<&Path>) -> RecordRules {
        RecordRules {
            base_dir: base_dir.map(Path::to_path_buf),
            ..RecordRules::default()
        }
    }

    /// A game that names no variant is played under `name` (a built-in id)
    /// instead of being refused.
    pub fn or_default(mut self, name: &str) -> RecordRules {
        self.default = Some(name.to_string());
        self
    }

    /// The rules game `g` is replayed under.
    pub fn rules_for(&mut self, g: &PdnGame) -> Result<Arc<Rules>, PdnError> {
        if let Some(r) = &self.given {
            return Ok(Arc::clone(r));
        }
        let base = self.base_dir.as_deref();
        let key = g.variant_name(base).or_else(|| self.default.clone());
        if let Some(r) = key.as_ref().and_then(|k| self.loaded.get(k)) {
            return Ok(Arc::clone(r));
        }
        let rules = Arc::new(g.load_variant(self.default.as_deref(), base)?.rules);
        if let Some(k) = key {
            self.loaded.insert(k, Arc::clone(&rules));
        }
        Ok(rules)
    }

    /// Game `g` replayed under its rules ([`RecordRules::rules_for`]): to
    /// the record's end, going past an end by the rules the players could
    /// play on from ([`PdnGame::replay`]); with `strict`, refusing any move
    /// after an end ([`PdnGame::replay_strict`]).
    pub fn replay(&mut self, g: &PdnGame, strict: bool) -> Result<Game, PdnError> {
        let rules = self.rules_for(g)?;
        if strict {
            g.replay_strict(rules)
        } else {
            g.replay(rules)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dama_engine::pdn::read_games;

    #[test]
    fn each_game_is_played_under_the_variant_it_names() {
        let text = "[Variant \"russian\"]\n1. c3-d4 *\n\n[Variant \"dama\"]\n1. d3-d4 *\n\n[Variant \"russian\"]\n1. c3-b4 *\n";
        let games = read_games(text).unwrap();
        let mut rules = RecordRules::named(None);
        let ids: Vec<String> = games
            .iter()
            .map(|g| rules.replay(g, false).unwrap().rules().id().to_string())
            .collect();
        assert_eq!(ids, ["russian", "dama", "russian"]);
        assert_eq!(rules.loaded.len(), 2);
    }

    #[test]
    fn a_record_without_a_variant_needs_a_default() {
        let games = read_games("1. d3-d4 *\n").unwrap();
        assert!(RecordRules::named(None).replay(&games[0], false).is_err());
        let g = RecordRules::named(None)
            .or_default("dama")
            .replay(&games[0], false)
            .unwrap();
        assert_eq!(g.rules().id(), "dama");
        let r = Rules::builtin("dama").unwrap();
        assert!(RecordRules::given(r).replay(&games[0], true).is_ok());
    }
}
