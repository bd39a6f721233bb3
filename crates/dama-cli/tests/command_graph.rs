//! The CLI's layers (issue 31): a command is its arguments and what it
//! does; what several commands share lives outside `src/commands/`
//! (`engine_setup.rs`, `records.rs`, `render.rs`, …). So no file of the CLI
//! names a command's module but `cli.rs`, which lists the commands, and
//! `commands/mod.rs`, which runs them.
//!
//! A use is any `super::NAME` or `crate::commands::NAME` path outside
//! comments and outside the `#[cfg(test)]` module at the end of a file.

use std::path::Path;

// The same reader of a crate's sources as the engine's and the play tier's
// layer tests.
#[allow(dead_code)]
#[path = "../../dama-engine/tests/layers/mod.rs"]
mod layers;

use layers::{named_after, sources};

/// The command modules `text` (a file under `src/`) names: `super::NAME` in
/// a file of `commands/`, `crate::commands::NAME` anywhere.
fn named_commands(text: &str, in_commands: bool, commands: &[String]) -> Vec<String> {
    let mut prefixes = vec!["crate::commands::"];
    if in_commands {
        prefixes.push("super::");
    }
    let mut out: Vec<String> = Vec::new();
    for prefix in prefixes {
        for name in named_after(text, prefix) {
            if commands.contains(&name) && !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

#[test]
fn no_command_uses_another() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let commands: Vec<String> = sources(&src.join("commands"))
        .iter()
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().to_string()))
        .filter(|s| s != "mod")
        .collect();
    assert!(commands.len() > 10, "{commands:?}");
    let mut bad = Vec::new();
    for file in sources(&src) {
        let rel = file.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
        if rel == "cli.rs" || rel == "commands/mod.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let in_commands = rel.starts_with("commands/");
        let own = file.file_stem().unwrap().to_string_lossy().to_string();
        for name in named_commands(&text, in_commands, &commands) {
            if !(in_commands && name == own) {
                bad.push(format!("{rel} uses commands::{name}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "what several commands share belongs outside src/commands/:\n{}",
        bad.join("\n")
    );
}
