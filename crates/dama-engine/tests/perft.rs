//! The perft tables in `tests/perft/*.perft`, checked against the generator.
//!
//! Figures above a node budget (2,000,000 by default) are skipped; set
//! `DAMA_PERFT_DEEP=1` to run every figure, or `DAMA_PERFT_BUDGET=<nodes>`
//! to choose the budget. The file format is described in
//! `tests/reference/perft_file.rs` and at the top of each table.

mod reference;

use dama_engine::{load, perft, CountMode, Rules};
use reference::perft_file::{self, Entry};

const DEFAULT_BUDGET: u64 = 2_000_000;

fn budget() -> u64 {
    if std::env::var("DAMA_PERFT_DEEP").is_ok_and(|v| !v.is_empty() && v != "0") {
        return u64::MAX;
    }
    std::env::var("DAMA_PERFT_BUDGET")
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(DEFAULT_BUDGET)
}

/// The rules an entry names: a built-in id, or a path relative to the tables.
fn rules_for(entry: &Entry) -> Result<Rules, String> {
    let name = if entry.variant.ends_with(".toml") {
        perft_file::dir().join(&entry.variant).to_string_lossy().into_owned()
    } else {
        entry.variant.clone()
    };
    load(&name)
        .map(|l| l.rules)
        .map_err(|e| format!("{}: variant `{}`: {e}", entry.label(), entry.variant))
}

#[test]
fn perft_tables_match_the_generator() {
    let budget = budget();
    let mut failures = Vec::new();
    let (mut run, mut skipped) = (0, 0);
    for entry in perft_file::all_entries() {
        let rules = match rules_for(&entry) {
            Ok(r) => r,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let pos = match &entry.fen {
            None => rules.start_position(),
            Some(f) => match rules.parse_fen(f) {
                Ok(p) => p,
                Err(e) => {
                    failures.push(format!("{}: {e}", entry.label()));
                    continue;
                }
            },
        };
        for fig in &entry.figures {
            if fig.nodes > budget {
                skipped += 1;
                continue;
            }
            run += 1;
            let got = perft(&rules, &pos, fig.depth, entry.count);
            if got != fig.nodes {
                failures.push(format!(
                    "{}:{}: {} perft {} ({}): expected {}, the generator counts {got}",
                    entry.file, fig.line, entry.id, fig.depth, entry.count, fig.nodes
                ));
            }
        }
    }
    if budget == u64::MAX {
        println!("perft tables: {run} figures checked (no node budget)");
    } else {
        println!("perft tables: {run} figures checked, {skipped} above the budget of {budget} nodes skipped");
    }
    assert!(run > 0, "no perft figure was checked");
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
}

#[test]
fn perft_tables_cover_every_variant_and_cite_sources() {
    let entries = perft_file::all_entries();
    for v in ["dama", "armenian", "keny", "croda", "dameo"] {
        for mode in [CountMode::Paths, CountMode::Moves] {
            let start = entries
                .iter()
                .find(|e| e.variant == v && e.fen.is_none() && e.count == mode)
                .unwrap_or_else(|| panic!("no {mode} table from the start of {v}"));
            let deepest = start.figures.last().map_or(0, |f| f.depth);
            assert!(
                deepest >= 5,
                "{}: the start table of {v} stops at depth {deepest}",
                start.label()
            );
        }
    }
    // The published Turkish figures (kish 1.1.7, depths 1-8) are kept exactly.
    let kish = entries
        .iter()
        .find(|e| e.variant == "dama" && e.fen.is_none() && e.count == CountMode::Paths)
        .expect("Turkish paths table");
    let figures: Vec<(u32, u64)> = kish.figures.iter().take(8).map(|f| (f.depth, f.nodes)).collect();
    assert_eq!(
        figures,
        [
            (1, 8),
            (2, 64),
            (3, 708),
            (4, 7538),
            (5, 85090),
            (6, 931312),
            (7, 10782382),
            (8, 123290300)
        ]
    );
}

#[test]
fn perft_file_format_errors_are_reported() {
    let bad = [
        ("perft 1 8\n", "before the first `id`"),
        ("id a\nfen start\ncount paths\nsource x\n", "no `perft` line"),
        ("id a\nperft 1 8\n", "no `source` line"),
        ("id a\ncount some\n", "`count` is `paths`, `jumps` or `moves`"),
        ("id a\nperft 2 8\nperft 1 8\n", "depths must increase"),
        ("id a\nperft x 8\n", "not a depth"),
        ("id a\ndepth 1 8\n", "unknown key `depth`"),
        ("id a\nsource s\nperft 1 1\nid a\n", "appears twice"),
    ];
    for (text, want) in bad {
        let err = perft_file::parse("t.perft", text).expect_err(text);
        assert!(err.contains(want), "{text:?}: {err}");
    }
    let ok = perft_file::parse(
        "dama.perft",
        "# c\nid s\nfen start   # trailing comment\ncount moves\nperft 1 8\nperft 7 10_782_308\nsource x\nvariant keny\nid t\nfen W:Wd4:Bh8\nperft 1 3\nsource y\n",
    )
    .expect("valid");
    assert_eq!(ok.len(), 2);
    assert_eq!(ok[0].variant, "dama");
    assert_eq!(ok[0].count, CountMode::Moves);
    assert_eq!(ok[0].figures[1].nodes, 10_782_308);
    assert_eq!(ok[1].variant, "keny");
    assert_eq!(ok[1].fen.as_deref(), Some("W:Wd4:Bh8"));
}
