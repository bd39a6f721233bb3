//! Switches of the search, so that a change to it can be played against
//! the search without it (`dama match --white-search ...`) and kept only
//! when the self-play test says it gains (docs/strength.md, "Search").
//!
//! The written form is a comma-separated list of `name=value`, such as
//! `reductions=deep,aspiration=on`; names left out keep their default.
//!
//! ```
//! use dama_engine::{search::Reductions, SearchOptions};
//!
//! let o: SearchOptions = "reductions=off,futility=off".parse().unwrap();
//! assert_eq!(o.reductions, Reductions::Off);
//! assert!(!o.futility);
//! assert_eq!(o.aspiration, SearchOptions::default().aspiration);
//! assert_eq!(o.to_string().parse::<SearchOptions>().unwrap(), o);
//!
//! let e = "aspirations=on".parse::<SearchOptions>().unwrap_err();
//! assert_eq!(e.to_string(), "unknown search option `aspirations` (did you mean `aspiration`?)");
//! ```

use std::fmt;
use std::str::FromStr;

use crate::spec::did_you_mean;

/// Late-move reductions: quiet moves late in the order are searched
/// shallower first, and again at full depth only if they raise alpha.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::EnumString, strum::Display, strum::VariantNames)]
#[strum(serialize_all = "lowercase")]
pub enum Reductions {
    /// No reductions.
    Off,
    /// One ply, from the fourth move on, at depth 3 and more.
    One,
    /// A reduction growing with the depth and the move's rank
    /// (`ln depth × ln rank / 2`, at least one ply), from the fourth move on.
    Deep,
}

/// The search's switches. The defaults are the settings that won their
/// self-play tests (docs/strength.md lists the tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SearchOptions {
    /// Late-move reductions.
    pub reductions: Reductions,
    /// Aspiration windows: from depth 4, each iteration searches the root
    /// in a narrow window around the last iteration's score, widened when
    /// the score falls outside it.
    pub aspiration: bool,
    /// Futility pruning: at the last two plies before the horizon, where no
    /// capture is on, quiet moves that do not promote are not searched when
    /// the static evaluation is too far below alpha for one move to make it up.
    pub futility: bool,
    /// Capture ordering in the capture search: the captures that take the
    /// most pieces (kings counting more, then promotions) are tried first,
    /// instead of in the generator's order.
    pub capture_order: bool,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            reductions: Reductions::One,
            aspiration: false,
            futility: true,
            capture_order: true,
        }
    }
}

/// The names of the switches, in the written order.
pub const SEARCH_OPTION_NAMES: [&str; 4] = ["reductions", "aspiration", "futility", "capture_order"];

/// A wrong search option.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchOptionsError {
    /// No switch has this name.
    #[error("unknown search option `{name}`{}", suggestion.as_ref().map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default())]
    UnknownName {
        /// The name given.
        name: String,
        /// The nearest known name, if one is near.
        suggestion: Option<String>,
    },
    /// A switch without `=value`.
    #[error("search option `{name}` needs a value: `{name}={expected}`")]
    MissingValue {
        /// The switch.
        name: String,
        /// The values it takes, separated by `|`.
        expected: String,
    },
    /// A value the switch does not take.
    #[error("search option `{name}` cannot be `{value}`: expected {expected}")]
    BadValue {
        /// The switch.
        name: String,
        /// The value given.
        value: String,
        /// The values it takes, separated by `|`.
        expected: String,
    },
}

fn on_off(name: &str, value: &str) -> Result<bool, SearchOptionsError> {
    match value {
        "on" | "true" | "yes" => Ok(true),
        "off" | "false" | "no" => Ok(false),
        _ => Err(SearchOptionsError::BadValue {
            name: name.into(),
            value: value.into(),
            expected: "on|off".into(),
        }),
    }
}

impl FromStr for SearchOptions {
    type Err = SearchOptionsError;

    fn from_str(s: &str) -> Result<SearchOptions, SearchOptionsError> {
        use strum::VariantNames;
        let mut o = SearchOptions::default();
        for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (name, value) = match item.split_once('=') {
                Some((n, v)) => (n.trim(), Some(v.trim())),
                None => (item, None),
            };
            let expected = match name {
                "reductions" => Reductions::VARIANTS.join("|"),
                "aspiration" | "futility" | "capture_order" => "on|off".to_string(),
                _ => {
                    return Err(SearchOptionsError::UnknownName {
                        name: name.into(),
                        suggestion: did_you_mean(name, SEARCH_OPTION_NAMES).map(str::to_string),
                    })
                }
            };
            let Some(value) = value else {
                return Err(SearchOptionsError::MissingValue {
                    name: name.into(),
                    expected,
                });
            };
            match name {
                "reductions" => {
                    o.reductions = value.parse().map_err(|_| SearchOptionsError::BadValue {
                        name: name.into(),
                        value: value.into(),
                        expected,
                    })?
                }
                "aspiration" => o.aspiration = on_off(name, value)?,
                "futility" => o.futility = on_off(name, value)?,
                _ => o.capture_order = on_off(name, value)?,
            }
        }
        Ok(o)
    }
}

impl fmt::Display for SearchOptions {
    /// Every switch, in the written form `FromStr` reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let on = |b: bool| if b { "on" } else { "off" };
        write!(
            f,
            "reductions={},aspiration={},futility={},capture_order={}",
            self.reductions,
            on(self.aspiration),
            on(self.futility),
            on(self.capture_order)
        )
    }
}

impl SearchOptions {
    /// The switches that differ from the defaults, in the written form
    /// (empty when none does): what a match report names a player by.
    pub fn changes(&self) -> String {
        let d = SearchOptions::default();
        let text = self.to_string();
        let base = d.to_string();
        text.split(',')
            .zip(base.split(','))
            .filter(|(a, b)| a != b)
            .map(|(a, _)| a)
            .collect::<Vec<_>>()
            .join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_switch_reads_back_what_it_writes() {
        for reductions in [Reductions::Off, Reductions::One, Reductions::Deep] {
            for aspiration in [false, true] {
                for futility in [false, true] {
                    for capture_order in [false, true] {
                        let o = SearchOptions {
                            reductions,
                            aspiration,
                            futility,
                            capture_order,
                        };
                        assert_eq!(o.to_string().parse::<SearchOptions>(), Ok(o));
                    }
                }
            }
        }
        assert_eq!("".parse::<SearchOptions>(), Ok(SearchOptions::default()));
        assert_eq!(SearchOptions::default().changes(), "");
    }

    #[test]
    fn changes_name_only_what_differs() {
        let d = SearchOptions::default();
        let o = SearchOptions {
            futility: !d.futility,
            ..d
        };
        assert_eq!(
            o.changes(),
            format!("futility={}", if o.futility { "on" } else { "off" })
        );
    }

    #[test]
    fn wrong_options_say_what_is_wrong() {
        let e = |s: &str| s.parse::<SearchOptions>().unwrap_err().to_string();
        assert_eq!(
            e("reductions=two"),
            "search option `reductions` cannot be `two`: expected off|one|deep"
        );
        assert_eq!(
            e("futility"),
            "search option `futility` needs a value: `futility=on|off`"
        );
        assert_eq!(
            e("aspiration=maybe"),
            "search option `aspiration` cannot be `maybe`: expected on|off"
        );
        assert_eq!(e("nullmove=on"), "unknown search option `nullmove`");
        assert_eq!(
            e("reduction=off"),
            "unknown search option `reduction` (did you mean `reductions`?)"
        );
    }
}
