//! The engine's layers: every top-level module of `src/` uses only the
//! modules declared before it in `src/lib.rs`, so the module graph has no
//! cycle, and `src/` keeps its plan visible (few files at the top).
//!
//! A use is any `crate::NAME` path outside comments and outside the
//! `#[cfg(test)]` module at the end of a file (a unit test may drive the
//! whole engine).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The layer a file belongs to: its folder under `src/`, or its file stem.
fn layer(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy()
        .to_string();
    first.trim_end_matches(".rs").to_string()
}

/// The top-level modules a file's code (not its comments or unit tests) names.
fn uses(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        let code = code.split("//").next().unwrap_or("");
        for (i, _) in code.match_indices("crate::") {
            let name: String = code[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
                out.insert(name);
            }
        }
    }
    out
}

#[test]
fn each_layer_uses_only_the_layers_before_it() {
    let src = Path::new("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let order: Vec<String> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("mod "))
        .map(|l| l.trim_end_matches(';').trim().to_string())
        .collect();
    assert!(order.len() >= 8, "the layer list in lib.rs was not found: {order:?}");
    let rank: BTreeMap<&str, usize> = order.iter().enumerate().map(|(i, m)| (m.as_str(), i)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut wrong = Vec::new();
    for file in sources(src) {
        let from = layer(src, &file);
        if from == "lib" {
            continue;
        }
        let Some(&r) = rank.get(from.as_str()) else {
            panic!("{} is in no layer declared in lib.rs", file.display());
        };
        let text = std::fs::read_to_string(&file).unwrap();
        for to in uses(&text) {
            if to == from {
                continue;
            }
            let Some(&t) = rank.get(to.as_str()) else {
                panic!("{} uses crate::{to}, which lib.rs does not declare", file.display());
            };
            if t > r {
                wrong.push(format!("{} ({from}) uses {to}, a later layer", file.display()));
            }
            graph.entry(from.clone()).or_default().insert(to);
        }
    }
    assert!(wrong.is_empty(), "layering broken:\n{}", wrong.join("\n"));
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
