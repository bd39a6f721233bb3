//! [`VariantSummary`]: a variant in a list of variants.

use dama_engine::Rules;
use serde::Serialize;

/// A variant as `dama variants --format json` and the web API's
/// `/api/variants` list it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VariantSummary {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Other names it is known by.
    pub aliases: Vec<String>,
    /// The variant it extends, if any.
    pub extends: Option<String>,
    /// Files (columns) of its board.
    pub width: u8,
    /// Ranks (rows) of its board.
    pub height: u8,
}

impl VariantSummary {
    /// `rules` in a list.
    pub fn new(rules: &Rules) -> VariantSummary {
        VariantSummary {
            id: rules.id().to_string(),
            name: rules.name().to_string(),
            aliases: rules.spec().aliases.clone(),
            extends: rules.spec().extends.clone(),
            width: rules.width(),
            height: rules.height(),
        }
    }
}
