//! `dama show <variant>`

use super::Ctx;
use crate::cli::Format;
use crate::exit::Exit;
use crate::render;

pub fn run(ctx: &Ctx, variant: &str, format: Format) -> Exit {
    let loaded = match ctx.load_variant(variant) {
        Ok(l) => l,
        Err(e) => return e,
    };
    let r = &loaded.rules;
    for w in &loaded.warnings {
        eprint!("{}", render::diagnostic(w, &loaded.files, ctx.color_err));
    }
    match format {
        Format::Json => {
            let v = serde_json::json!({
                "spec": r.spec(),
                "start": r.to_fen(&r.start_position()),
                "rules": r.describe().iter().map(|s| serde_json::json!({"title": s.title, "lines": s.lines})).collect::<Vec<_>>(),
            });
            println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        Format::Text => {
            println!("{} ({})", r.name(), r.id());
            if let Some(p) = &r.spec().extends {
                println!("Derived from: {p}");
            }
            if !r.spec().description.is_empty() {
                println!("\n{}", r.spec().description.trim());
            }
            for (i, s) in r.describe().iter().enumerate() {
                println!("\n{}. {}", i + 1, s.title);
                for l in &s.lines {
                    println!("   - {l}");
                }
            }
            println!("\nInitial position ({}):\n", r.to_fen(&r.start_position()));
            print!("{}", render::board(r, &r.start_position(), &[], ctx.color_out));
            if !r.spec().sources.is_empty() {
                println!("\nSources:");
                for s in &r.spec().sources {
                    println!("   - {s}");
                }
            }
        }
    }
    Exit::Success
}
