//! docs/variant-format.md documents every key of the format and every
//! diagnostic code the loader and the compiler can produce.

use std::path::Path;

use dama_engine::spec::{KEYS, TABLE};

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
    for src in ["src/load.rs", "src/rules.rs"] {
        let text = read(src);
        for (i, _) in text.match_indices('"') {
            let code = text.get(i + 1..i + 6).unwrap_or("");
            let closed = text.get(i + 6..i + 7) == Some("\"");
            if closed
                && (code.starts_with('E') || code.starts_with('W'))
                && code[1..].bytes().all(|b| b.is_ascii_digit())
            {
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
