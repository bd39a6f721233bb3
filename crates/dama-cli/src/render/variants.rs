//! What `dama variants` shows: the built-in variants, a line each, or as
//! JSON the play tier's [`VariantSummary`] of each.

use dama_play::view::VariantSummary;

use crate::cli::Format;
use crate::out::{out, outln};

/// The variants `rows` as `format` asks.
pub(crate) fn variants(rows: &[VariantSummary], format: Format) {
    match format {
        Format::Json => {
            outln!("{}", serde_json::to_string_pretty(&rows).unwrap_or_default());
        }
        Format::Text => {
            let w = rows.iter().map(|r| r.id.len()).max().unwrap_or(0);
            let mut out = String::new();
            for VariantSummary {
                id,
                name,
                aliases,
                extends,
                ..
            } in rows
            {
                out.push_str(&format!("{id:<w$}  {name}"));
                if let Some(p) = extends {
                    out.push_str(&format!(", based on {p}"));
                }
                if !aliases.is_empty() {
                    out.push_str(&format!(" (also: {})", aliases.join(", ")));
                }
                out.push('\n');
            }
            out.push_str("\n`dama show ID` describes a variant's rules; `dama validate FILE` checks your own.\n");
            out!("{out}");
        }
    }
}
