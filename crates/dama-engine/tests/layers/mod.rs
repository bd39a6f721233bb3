//! Reading a crate's layers: the modules `src/lib.rs` declares, in order,
//! and the `crate::NAME` paths each file's code (not its comments or unit
//! tests) uses. Shared by the engine's and the play tier's
//! `tests/module_graph.rs` (included by path).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
pub fn sources(dir: &Path) -> Vec<PathBuf> {
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
pub fn layer(src: &Path, file: &Path) -> String {
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

/// The names that follow `prefix` (`crate::`, `super::`, …) in a file's
/// code: not in its comments, nor in the `#[cfg(test)]` module at its end
/// (a unit test may drive anything), in order, each once.
pub fn named_after(text: &str, prefix: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        let code = code.split("//").next().unwrap_or("");
        for (i, _) in code.match_indices(prefix) {
            let name: String = code[i + prefix.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// The top-level modules a file's code (not its comments or unit tests) names.
pub fn uses(text: &str) -> BTreeSet<String> {
    named_after(text, "crate::")
        .into_iter()
        .filter(|name| name.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
        .collect()
}

/// The file modules `lib` declares (`mod x;` or `pub mod x;`), in order:
/// the layers, lowest first.
pub fn declared_layers(lib: &str) -> Vec<String> {
    lib.lines()
        .filter_map(|l| l.strip_prefix("pub ").unwrap_or(l).strip_prefix("mod "))
        .filter(|l| l.ends_with(';'))
        .map(|l| l.trim_end_matches(';').trim().to_string())
        .collect()
}

/// Checks that every layer of the crate in the current directory uses only
/// the layers declared before it in `src/lib.rs`; the graph of uses, by
/// layer.
pub fn check_layers() -> (Vec<String>, BTreeMap<String, BTreeSet<String>>) {
    let src = Path::new("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let order = declared_layers(&lib);
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
    (order, graph)
}
