//! docs/variant-format.md documents every key of the format and every
//! diagnostic code the loader and the compiler can produce.

use std::path::Path;

use dama_engine::format::{KEYS, TABLE};

fn read(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn every_key_is_documented() {
    let doc = read("../../docs/variant-format.md");
    for k in KEYS {
        if k.ty == TABLE {
            let heading = format!("### `[{}]`", k.path);
            assert!(
                doc.contains(&heading),
                "docs/variant-format.md has no heading {heading}"
            );
            continue;
        }
        // Each key has a row in its section's table: | `section.key` | type | default | ...
        let row = format!("| `{}` | {} |", k.path, k.ty);
        assert!(doc.contains(&row), "docs/variant-format.md has no row `{row}`");
        for v in k.allowed {
            assert!(
                doc.contains(&format!("`{v}`")) || doc.contains(&format!("\"{v}\"")),
                "{}: value {v} undocumented",
                k.path
            );
        }
    }
}

#[test]
fn every_code_is_documented() {
    let doc = read("../../docs/variant-format.md");
    let mut found = 0;
    // Every `Code::…` the engine uses, in any source file.
    let mut sources = vec![std::path::PathBuf::from("src")];
    let mut files = Vec::new();
    while let Some(dir) = sources.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    for path in &files {
        let src = path.display().to_string();
        let text = read(&src);
        for (i, _) in text.match_indices("Code::") {
            let code = text.get(i + 6..i + 11).unwrap_or("");
            if (code.starts_with('E') || code.starts_with('W')) && code[1..].bytes().all(|b| b.is_ascii_digit()) {
                found += 1;
                assert!(
                    doc.contains(&format!("| `{code}` |")),
                    "{code} (used in {src}) is not in the table of codes in docs/variant-format.md"
                );
            }
        }
    }
    assert!(found > 30, "only {found} codes found: the scan is broken");
}
