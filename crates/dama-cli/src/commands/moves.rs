//! `dama moves <variant>`

use dama_engine::FenOptions;

use super::Ctx;
use crate::cli::Format;
use crate::exit::Exit;

pub fn run(ctx: &Ctx, variant: &str, fen: Option<&str>, fen_options: FenOptions, format: Format) -> Exit {
    let loaded = match ctx.load_variant(variant) {
        Ok(l) => l,
        Err(e) => return e,
    };
    let r = &loaded.rules;
    let pos = match ctx.position_with(&loaded, fen, fen_options) {
        Ok(p) => p,
        Err(e) => return e,
    };
    let moves = r.legal_moves(&pos);
    let mut rows = Vec::new();
    for (m, &paths) in moves.iter().zip(moves.path_counts()) {
        let all = r.move_paths(&pos, m);
        let first = all.first().cloned();
        let notation = r.format_move_full(&pos, m);
        let path: Vec<String> = first
            .as_ref()
            .map(|p| p.landings.iter().map(|s| r.square_name(*s)).collect())
            .unwrap_or_default();
        let captures: Vec<String> = first
            .as_ref()
            .map(|p| p.captures.iter().map(|s| r.square_name(*s)).collect())
            .unwrap_or_default();
        rows.push((
            notation,
            r.square_name(m.from()),
            r.square_name(m.to()),
            path,
            captures,
            m.promotes(),
            paths,
        ));
    }
    match format {
        Format::Json => {
            let v: Vec<_> = rows
                .iter()
                .map(|(n, f, t, p, c, pr, paths)| {
                    serde_json::json!({"notation": n, "from": f, "to": t, "path": p, "captures": c, "promotes": pr, "paths": paths})
                })
                .collect();
            println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        Format::Text => {
            if rows.is_empty() {
                println!("{} has no legal move.", pos.side_to_move());
            }
            for (n, _, _, _, c, pr, paths) in &rows {
                let mut extra = Vec::new();
                if !c.is_empty() {
                    extra.push(format!("captures {}", c.join(" ")));
                }
                if *pr {
                    extra.push("promotes".into());
                }
                if *paths > 1 {
                    extra.push(format!("{paths} paths"));
                }
                if extra.is_empty() {
                    println!("{n}");
                } else {
                    println!("{n:<16} ({})", extra.join(", "));
                }
            }
        }
    }
    Exit::Success
}
