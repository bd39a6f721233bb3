//! `dama variants`

use dama_engine::source::BUILTIN;
use dama_engine::Rules;

use super::Ctx;
use crate::cli::Format;
use crate::error::CliError;
use crate::exit::Exit;
use crate::json::Code;
use crate::out::{out, outln};

pub fn run(ctx: &Ctx, format: Format) -> Exit {
    let mut rows = Vec::new();
    for (id, _) in BUILTIN {
        match Rules::builtin(id) {
            Ok(r) => rows.push((
                r.id().to_string(),
                r.name().to_string(),
                r.spec().aliases.clone(),
                r.spec().extends.clone(),
            )),
            Err(e) => {
                return CliError::failed(Code::Builtin, format!("built-in variant {id} does not load: {e}"))
                    .report(Some(ctx));
            }
        }
    }
    match format {
        Format::Json => {
            let v: Vec<_> = rows
                .iter()
                .map(|(id, name, aliases, extends)| serde_json::json!({"id": id, "name": name, "aliases": aliases, "extends": extends}))
                .collect();
            outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        Format::Text => {
            let w = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
            let mut out = String::new();
            for (id, name, aliases, extends) in &rows {
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
    Exit::Success
}
