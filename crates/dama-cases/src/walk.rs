//! Finding case files: every `.toml` file under the paths given.

use std::path::{Path, PathBuf};

use crate::case::CaseError;

/// Every `.toml` file under `paths` (files as given, directories searched
/// recursively), sorted. Hidden directories and `target` are skipped.
pub fn find_toml_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CaseError> {
    let mut out = Vec::new();
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|e| CaseError::Io {
            path: p.display().to_string(),
            message: e.to_string(),
        })?;
        if meta.is_dir() {
            walk(p, &mut out, 0)?;
        } else {
            out.push(p.clone());
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) -> Result<(), CaseError> {
    if depth > 32 {
        return Ok(());
    }
    let io = |e: std::io::Error| CaseError::Io {
        path: dir.display().to_string(),
        message: e.to_string(),
    };
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let ft = entry.file_type().map_err(io)?;
        if ft.is_dir() {
            if !name.starts_with('.') && name != "target" {
                walk(&path, out, depth + 1)?;
            }
        } else if name.ends_with(".toml") {
            out.push(path);
        }
    }
    Ok(())
}
