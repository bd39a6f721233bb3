//! The engine's layers: every top-level module of `src/` uses only the
//! modules declared before it in `src/lib.rs`, so the module graph has no
//! cycle, and `src/` keeps its plan visible (few files at the top).
//!
//! A use is any `crate::NAME` path outside comments and outside the
//! `#[cfg(test)]` module at the end of a file (a unit test may drive the
//! whole engine).

use std::collections::BTreeSet;

mod layers;

#[test]
fn each_layer_uses_only_the_layers_before_it() {
    let (order, graph) = layers::check_layers();
    assert!(order.len() >= 8, "the layer list in lib.rs was not found: {order:?}");
    // No layer is unused by the layers above it, except the top ones: the
    // list is a real stack, not a flat list renamed.
    let used: BTreeSet<&String> = graph.values().flatten().collect();
    for m in &order[..order.len() - 2] {
        assert!(used.contains(m), "no layer uses {m}");
    }
}

#[test]
fn the_source_folder_shows_its_plan() {
    let top: Vec<String> = std::fs::read_dir("src")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    assert!(top.len() <= 8, "{} files at the top of src/: {top:?}", top.len());
    // The modules are private: lib.rs re-exports items, and its only public
    // modules are inline namespaces of re-exports (`pub mod pdn { pub use … }`).
    let lib = std::fs::read_to_string("src/lib.rs").unwrap();
    for line in lib.lines().filter(|l| l.starts_with("pub mod ")) {
        assert!(line.ends_with('{'), "lib.rs makes a whole module public: {line}");
    }
}

/// The engine's root stays narrow (issue 31: it had 154 names, shakmaty
/// about 31): at most 60 names at the root of `lib.rs`, the rest in its
/// inline modules of names (`egtb`, `pdn`, `search`, …).
#[test]
fn the_root_exports_at_most_sixty_names() {
    let lib = std::fs::read_to_string("src/lib.rs").unwrap();
    let mut names = Vec::new();
    let mut rest = lib.as_str();
    // Only the top-level `pub use` items (a line that starts the statement).
    while let Some(start) = rest.find("\npub use ") {
        rest = &rest[start + "\npub use ".len()..];
        let end = rest.find(';').expect("a pub use ends with `;`");
        let item = &rest[..end];
        match item.split_once('{') {
            Some((_, list)) => names.extend(
                list.trim_end_matches('}')
                    .split(',')
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                    .map(str::to_string),
            ),
            None => names.push(item.rsplit("::").next().unwrap_or(item).trim().to_string()),
        }
        rest = &rest[end..];
    }
    assert!(names.len() >= 20, "the root's names were not found: {names:?}");
    assert!(
        names.len() <= 60,
        "{} names at the engine's root: {names:?}",
        names.len()
    );
}

/// The workspace denies unsafe code, and one place allows it: perft's call
/// of its walk compiled for the processor's bit instructions, after asking
/// the processor (`src/perft.rs`, `walk` and `perft_bmi`). A new
/// `allow(unsafe_code)` anywhere in `crates/` fails here until it is
/// argued for.
#[test]
fn unsafe_code_is_allowed_in_one_place() {
    fn visit(dir: &std::path::Path, found: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let path = e.path();
            let name = e.file_name().to_string_lossy().to_string();
            if path.is_dir() {
                if name != "target" && !name.starts_with('.') {
                    visit(&path, found);
                }
            } else if name.ends_with(".rs") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                let n = text.matches("allow(unsafe_code").count();
                for _ in 0..n {
                    found.push(path.display().to_string().replace('\\', "/"));
                }
            }
        }
    }
    let mut found = Vec::new();
    visit(std::path::Path::new(".."), &mut found);
    found.retain(|p| !p.ends_with("tests/module_graph.rs"));
    found.sort();
    assert_eq!(
        found,
        vec!["../dama-engine/src/perft.rs".to_string(); 2],
        "allow(unsafe_code) outside perft's walk"
    );
}
