//! [`VariantSource`]: what a front end was handed to name a variant, and its
//! one way of loading it.

use std::path::Path;

use dama_engine::source::{builtin_names, looks_like_path};
use dama_engine::text::{clip, did_you_mean};
use dama_engine::{load, load_file, load_text, Code, Diagnostic, LoadError, Loaded, Location, Origin, SourceFile};

/// The name a pasted variant has in its diagnostics when its client gives
/// none.
pub const PASTED: &str = "variant.toml";

/// Where a variant comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VariantSource<'a> {
    /// A built-in variant by id or alias, and nothing else: a name that
    /// looks like a path is refused, and no file is looked at.
    Builtin(&'a str),
    /// What a user types where a variant is asked for: a built-in id or
    /// alias, or a path to a TOML file when it looks like one (ends in
    /// `.toml` or holds a path separator).
    Named(&'a str),
    /// A TOML file, whatever its name looks like; its `extends` chain is
    /// resolved next to it.
    File(&'a Path),
    /// TOML text shown in diagnostics as `name`; `path`, when given, resolves
    /// a relative `extends` and gives a file without `id` its id. Its
    /// `extends` may name files.
    Text {
        /// The name diagnostics give the text.
        name: &'a str,
        /// The TOML.
        text: &'a str,
        /// Where the text was read from, if anywhere.
        path: Option<&'a Path>,
    },
    /// TOML text from a client that may read no files (the web page): its
    /// `extends` may name a built-in variant only; one that names a file is
    /// finding E0103 at its line.
    Pasted {
        /// The name diagnostics give the text ([`PASTED`] when the client has none).
        name: &'a str,
        /// The TOML.
        text: &'a str,
    },
}

impl VariantSource<'_> {
    /// The variant loaded and compiled, or every finding that stops it.
    pub fn load(&self) -> Result<Loaded, LoadError> {
        match *self {
            VariantSource::Builtin(name) if looks_like_path(name) => Err(not_builtin(name)),
            VariantSource::Builtin(name) | VariantSource::Named(name) => load(name),
            VariantSource::File(path) => load_file(path),
            VariantSource::Text { name, text, path } => load_text(name, text, path),
            VariantSource::Pasted { name, text } => match file_parent(text) {
                Some(parent) => Err(names_a_file(name, text, &parent)),
                None => load_text(name, text, None),
            },
        }
    }
}

/// A built-in name that is a path.
fn not_builtin(name: &str) -> LoadError {
    let names = builtin_names();
    let mut d = Diagnostic::error(Code::E0001, None, format!("no built-in variant named `{}`", clip(name)));
    d = match did_you_mean(name, names.iter().map(String::as_str)) {
        Some(s) => d.with_help(format!("did you mean `{s}`?")),
        None => d.with_help("only a built-in variant can be named here (`dama variants` lists them)"),
    };
    LoadError {
        diagnostics: vec![d],
        files: vec![],
    }
}

/// The `extends` of `text` when it names a file, as the loader reads it.
fn file_parent(text: &str) -> Option<String> {
    let table = text.parse::<toml::Table>().ok()?;
    let parent = table.get("extends")?.as_str()?;
    looks_like_path(parent).then(|| parent.to_string())
}

/// The finding for a pasted variant whose `extends` names a file.
fn names_a_file(name: &str, text: &str, parent: &str) -> LoadError {
    let mut d = Diagnostic::error(
        Code::E0103,
        Some("extends"),
        format!(
            "`extends` names a file (`{}`): a pasted variant reads no files",
            clip(parent)
        ),
    )
    .with_help("extend a built-in variant (`extends = \"dama\"`), or paste the parent's keys here");
    d.location = extends_location(name, text);
    LoadError {
        diagnostics: vec![d],
        files: vec![SourceFile::new(Origin::Named(name.into()), text)],
    }
}

/// Where the `extends` key stands in `text`.
fn extends_location(name: &str, text: &str) -> Option<Location> {
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let lead = line.len() - line.trim_start().len();
        if line.trim_start().starts_with("extends") {
            return Some(Location {
                file: name.into(),
                line: i + 1,
                column: lead + 1,
                span: offset + lead..offset + line.trim_end().len(),
            });
        }
        offset += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_builtin_source_reads_no_file() {
        let e = VariantSource::Builtin("../variants/dama.toml").load().unwrap_err();
        assert_eq!(e.diagnostics[0].code, Code::E0001);
        assert!(VariantSource::Builtin("turkish").load().is_ok());
        let e = VariantSource::Builtin("damma").load().unwrap_err();
        assert!(e.diagnostics[0].help.as_deref().unwrap_or("").contains("dama"));
    }

    #[test]
    fn a_pasted_variant_never_names_a_file() {
        let text = "id = \"x\"\nextends = \"../../etc/passwd.toml\"\n";
        let e = VariantSource::Pasted { name: PASTED, text }.load().unwrap_err();
        assert_eq!(e.diagnostics[0].code, Code::E0103);
        assert_eq!(e.diagnostics[0].location.as_ref().map(|l| l.line), Some(2));
        let ok = "extends = \"dama\"\n[capture]\nmajority = \"none\"\n";
        assert!(VariantSource::Pasted { name: PASTED, text: ok }.load().is_ok());
    }

    #[test]
    fn a_file_is_read_whatever_its_name() {
        let dir = std::env::temp_dir().join(format!("dama-play-source-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("mine");
        std::fs::write(&path, "extends = \"dama\"\nname = \"Mine\"\n").unwrap();
        let loaded = VariantSource::File(&path).load().unwrap();
        assert_eq!(loaded.rules.name(), "Mine");
        // The same name typed by a user is a built-in name, and there is none.
        assert!(VariantSource::Named("mine").load().is_err());
        let _ = std::fs::remove_dir_all(dir);
    }
}
