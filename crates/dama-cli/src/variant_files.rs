//! The variant files named on `dama validate`'s command line: folders and
//! built-in ids expanded, and each file checked (loaded, with every finding).

use std::path::Path;

use dama_engine::source::read_text;
use dama_engine::{load, load_text, Diagnostic, LoadError, SourceFile};

/// Directories stand for the `.toml` files in them, in name order.
pub(crate) fn expand(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for a in args {
        let p = Path::new(a);
        if a != "-" && p.is_dir() {
            let mut found: Vec<String> = std::fs::read_dir(p)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "toml") && p.is_file())
                .map(|p| p.display().to_string())
                .collect();
            found.sort();
            if found.is_empty() {
                // Let the loader say what is wrong with it.
                out.push(a.clone());
            }
            out.extend(found);
        } else {
            out.push(a.clone());
        }
    }
    out
}

pub(crate) fn check(f: &str) -> (bool, Vec<Diagnostic>, Vec<SourceFile>) {
    let result = if f == "-" {
        match read_text("<stdin>", std::io::stdin().lock()) {
            Ok(text) => load_text("<stdin>", &text, None),
            Err(d) => Err(LoadError {
                diagnostics: vec![*d],
                files: vec![],
            }),
        }
    } else {
        load(f)
    };
    match result {
        Ok(l) => (true, l.warnings, l.files),
        Err(e) => (false, e.diagnostics, e.files),
    }
}
