//! Every rule case under `tests/rules/` (at the repository root), rendered
//! and compared with its snapshot `<case>.snap` stored next to it.
//!
//! The snapshot files are in insta's format and are shared with
//! `dama cases --check`: accept new renderings with `cargo insta review`,
//! `INSTA_UPDATE=always cargo test --test rule_cases`, or
//! `dama cases tests/rules --update`. A case's `expect_moves`,
//! `expect_count` and `expect_result` are asserted as well, so a snapshot
//! cannot be accepted while it contradicts what the case says a source states.

use dama_cases::{FileKind, RuleCase};

#[test]
fn rule_cases() {
    let mut unmet: Vec<String> = Vec::new();
    let mut count = 0usize;
    insta::glob!("../../../tests/rules", "**/*.toml", |path: &std::path::Path| {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if dama_cases::classify(&text) == FileKind::Variant {
            return; // a variant file a case refers to
        }
        count += 1;
        let c = RuleCase::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let rules = c.load_rules(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let rendered = c.render(&rules).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for f in &rendered.failures {
            unmet.push(format!("{}: {f}", path.display()));
        }
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(path.parent().unwrap_or(std::path::Path::new(".")));
        settings.set_prepend_module_to_snapshot(false);
        settings.remove_snapshot_suffix();
        settings.set_omit_expression(true);
        settings.bind(|| insta::assert_snapshot!(name, rendered.text));
    });
    assert!(count > 0, "no rule cases found under tests/rules");
    assert!(unmet.is_empty(), "unmet expectations:\n{}", unmet.join("\n"));
}
