//! What `dama show` shows: the rules in words, generated from the compiled
//! rules, with the initial position; for a variant that extends another,
//! the settings its own file changes first. Text, or JSON with the rules in
//! words as the play tier gives them ([`dama_play::view::rules_text`]).

use dama_engine::{text::printable, text::printable_lines, Loaded};

use crate::cli::Format;
use crate::render;
use crate::render::rules_text::{one_line, wrap};

/// Keys that name a variant rather than change its rules.
const IDENTITY: &[&str] = &["extends", "id", "name", "aliases", "description", "sources"];

/// The variant `loaded` as `format` asks; `color` colors the board.
pub(crate) fn variant(loaded: &Loaded, format: Format, color: bool) -> String {
    let r = &loaded.rules;
    let changes: Vec<(String, String)> = if r.spec().extends.is_some() {
        loaded
            .own_settings()
            .into_iter()
            .filter(|(k, _)| !IDENTITY.contains(&k.as_str()))
            .collect()
    } else {
        vec![]
    };
    let mut out = String::new();
    match format {
        Format::Json => {
            let v = serde_json::json!({
                "id": r.id(),
                "name": r.name(),
                "extends": r.spec().extends,
                "changes": changes.iter().map(|(k, v)| serde_json::json!({"key": k, "value": v})).collect::<Vec<_>>(),
                "spec": r.spec(),
                "start": r.to_fen(&r.start_position()),
                "rules": dama_play::view::rules_text(r),
            });
            out.push_str(&serde_json::to_string_pretty(&v).unwrap_or_default());
            out.push('\n');
        }
        Format::Text => {
            // (issue 38) The name, the description, the values and the
            // sources come from a variant file: shown with their control
            // characters as `�`, so that a file cannot drive the terminal.
            let name = printable(r.name());
            if name.eq_ignore_ascii_case(r.id()) {
                out.push_str(&format!("{name}\n"));
            } else {
                out.push_str(&format!("{name} ({})\n", r.id()));
            }
            if let Some(p) = &r.spec().extends {
                let p = printable(p);
                if changes.is_empty() {
                    out.push_str(&format!("Derived from {p}, unchanged.\n"));
                } else {
                    out.push_str(&format!("Derived from {p}, changing:\n"));
                    let w = changes.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
                    for (k, v) in &changes {
                        out.push_str(&format!("   {:<w$} = {}\n", printable(k), one_line(v)));
                    }
                }
            }
            if !r.spec().description.is_empty() {
                let description = printable_lines(r.spec().description.trim());
                out.push_str(&format!("\n{}\n", wrap(&description, "", "")));
            }
            for (i, s) in dama_play::view::rules_text(r).iter().enumerate() {
                out.push_str(&format!("\n{}. {}\n", i + 1, s.title));
                for l in &s.lines {
                    out.push_str(&format!("{}\n", wrap(l, "   - ", "     ")));
                }
            }
            out.push_str(&format!("\nInitial position ({}):\n\n", r.to_fen(&r.start_position())));
            out.push_str(&render::board(r, &r.start_position(), &[], &[], color));
            if !r.spec().sources.is_empty() {
                out.push_str("\nSources:\n");
                for s in &r.spec().sources {
                    out.push_str(&format!("{}\n", wrap(&printable_lines(s), "   - ", "     ")));
                }
            }
        }
    }
    out
}
