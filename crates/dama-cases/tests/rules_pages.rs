//! The rules pages (`docs/rules/<variant>.md`) against the variant files and
//! the rule cases (`tests/rules/<variant>/*.toml`):
//!
//! - the parameter table between `<!-- params:begin -->` and
//!   `<!-- params:end -->` is exactly what the compiled variant gives;
//! - every numbered section (`## 4.` / `### 4.3`) has at least one case, and
//!   every case names an existing section, carries the section number in its
//!   file name (`4_3_...toml`) and plays the page's variant;
//! - the `Cases:` line of each section lists exactly the cases of that section;
//! - every variant has at least 15 cases, and every link and image exists.
//!
//! `DAMA_UPDATE_DOCS=1 cargo test --test rules_pages` rewrites the generated
//! parts (parameter tables and `Cases:` lines) instead of failing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use dama_cases::{FileKind, RuleCase};
use dama_engine::Rules;

const VARIANTS: [&str; 17] = [
    "dama",
    "armenian",
    "keny",
    "croda",
    "dameo",
    "international",
    "canadian",
    "dama-10x10",
    "antidraughts",
    "breakthrough",
    "frisian",
    "italian",
    "spanish",
    "czech",
    "pool",
    "thai",
    "killer",
];
const PARAMS_BEGIN: &str = "<!-- params:begin -->";
const PARAMS_END: &str = "<!-- params:end -->";
const CASES_PREFIX: &str = "**Cases:**";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn updating() -> bool {
    std::env::var("DAMA_UPDATE_DOCS").is_ok_and(|v| !v.is_empty() && v != "0")
}

fn page_path(variant: &str) -> PathBuf {
    root().join("docs/rules").join(format!("{variant}.md"))
}

fn read_page(variant: &str) -> String {
    let p = page_path(variant);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A numbered heading: its number, and the line range of its body (up to the next heading).
#[derive(Debug)]
struct Section {
    number: String,
    heading_line: usize,
    end_line: usize,
}

/// `## 4. Capturing` -> "4"; `### 4.3 The majority rule` -> "4.3".
fn section_number(line: &str) -> Option<String> {
    let t = line.trim_start();
    if !t.starts_with('#') {
        return None;
    }
    let rest = t.trim_start_matches('#').trim_start();
    let first = rest.split_whitespace().next()?;
    let num = first.trim_end_matches('.');
    let ok = !num.is_empty()
        && num
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    ok.then(|| num.to_string())
}

fn sections(text: &str) -> Vec<Section> {
    let lines: Vec<&str> = text.lines().collect();
    let headings: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].trim_start().starts_with('#') && !in_code_block(&lines, i))
        .collect();
    let mut out = Vec::new();
    for (k, &i) in headings.iter().enumerate() {
        if let Some(number) = section_number(lines[i]) {
            let end = headings.get(k + 1).copied().unwrap_or(lines.len());
            out.push(Section {
                number,
                heading_line: i,
                end_line: end,
            });
        }
    }
    out
}

fn in_code_block(lines: &[&str], i: usize) -> bool {
    lines[..i].iter().filter(|l| l.trim_start().starts_with("```")).count() % 2 == 1
}

/// The cases of a variant: stem -> case.
fn cases(variant: &str) -> BTreeMap<String, RuleCase> {
    let dir = root().join("tests/rules").join(variant);
    let files =
        dama_cases::find_toml_files(std::slice::from_ref(&dir)).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut out = BTreeMap::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        if dama_cases::classify(&text) == FileKind::Variant {
            continue;
        }
        let c = RuleCase::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let stem = f
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.insert(stem, c);
    }
    out
}

fn cases_line(variant: &str, stems: &[&String]) -> String {
    let links: Vec<String> = stems
        .iter()
        .map(|s| format!("[`{s}`](../../tests/rules/{variant}/{s}.toml)"))
        .collect();
    format!("{CASES_PREFIX} {}", links.join(", "))
}

/// The page with its generated parts regenerated.
fn regenerate(variant: &str, text: &str) -> String {
    let rules = Rules::builtin(variant).unwrap_or_else(|e| panic!("{variant}: {e}"));
    // Parameter table.
    let mut text = text.to_string();
    if let (Some(b), Some(e)) = (text.find(PARAMS_BEGIN), text.find(PARAMS_END)) {
        if b < e {
            let table = dama_cases::params_markdown(&rules);
            text = format!("{}{PARAMS_BEGIN}\n{table}{}", &text[..b], &text[e..]);
        }
    }
    // Cases lines.
    let all = cases(variant);
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let secs = sections(&text);
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    for s in &secs {
        out.extend(lines[i..s.heading_line].iter().cloned());
        let stems: Vec<&String> = all
            .iter()
            .filter(|(_, c)| c.section.as_deref() == Some(s.number.as_str()))
            .map(|(k, _)| k)
            .collect();
        let mut body: Vec<String> = lines[s.heading_line..s.end_line].to_vec();
        let existing = body.iter().position(|l| l.starts_with(CASES_PREFIX));
        match (existing, stems.is_empty()) {
            (Some(p), true) => {
                body.remove(p);
            }
            (Some(p), false) => body[p] = cases_line(variant, &stems),
            (None, false) => {
                while body.last().is_some_and(|l| l.trim().is_empty()) {
                    body.pop();
                }
                body.push(String::new());
                body.push(cases_line(variant, &stems));
                body.push(String::new());
            }
            (None, true) => {}
        }
        out.extend(body);
        i = s.end_line;
    }
    out.extend(lines[i..].iter().cloned());
    let mut joined = out.join("\n");
    joined.push('\n');
    joined
}

#[test]
fn generated_parts_of_the_rules_pages_are_current() {
    let mut stale = Vec::new();
    for v in VARIANTS {
        let text = read_page(v);
        assert!(
            text.contains(PARAMS_BEGIN) && text.contains(PARAMS_END),
            "docs/rules/{v}.md has no {PARAMS_BEGIN} ... {PARAMS_END} block"
        );
        let fresh = regenerate(v, &text);
        if fresh != text {
            if updating() {
                std::fs::write(page_path(v), &fresh).unwrap_or_else(|e| panic!("{v}: {e}"));
                eprintln!("rewrote docs/rules/{v}.md");
            } else {
                let first = text
                    .lines()
                    .zip(fresh.lines())
                    .position(|(a, b)| a != b)
                    .map_or(text.lines().count().min(fresh.lines().count()) + 1, |n| n + 1);
                stale.push(format!("docs/rules/{v}.md (first difference at line {first})"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "the parameter table or a Cases line is out of date in:\n  {}\nrun `DAMA_UPDATE_DOCS=1 cargo test --test rules_pages` and review the diff",
        stale.join("\n  ")
    );
}

#[test]
fn every_numbered_section_has_a_case() {
    let mut missing = Vec::new();
    for v in VARIANTS {
        let text = read_page(v);
        let secs = sections(&text);
        assert!(!secs.is_empty(), "docs/rules/{v}.md has no numbered sections");
        let all = cases(v);
        for s in &secs {
            let covered = all.values().any(|c| {
                c.section
                    .as_deref()
                    .is_some_and(|n| n == s.number || n.starts_with(&format!("{}.", s.number)))
            });
            if !covered {
                missing.push(format!("docs/rules/{v}.md section {}", s.number));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "sections without a rule case:\n  {}",
        missing.join("\n  ")
    );
}

#[test]
fn every_case_illustrates_a_section_and_is_named_after_it() {
    let mut bad = Vec::new();
    for v in VARIANTS {
        let text = read_page(v);
        let numbers: Vec<String> = sections(&text).into_iter().map(|s| s.number).collect();
        let all = cases(v);
        assert!(
            all.len() >= 15,
            "tests/rules/{v} has {} cases; at least 15 expected",
            all.len()
        );
        for (stem, c) in &all {
            if c.variant != v {
                bad.push(format!("tests/rules/{v}/{stem}.toml plays `{}`, not `{v}`", c.variant));
            }
            let Some(sec) = &c.section else {
                bad.push(format!("tests/rules/{v}/{stem}.toml has no `section`"));
                continue;
            };
            if !numbers.contains(sec) {
                bad.push(format!(
                    "tests/rules/{v}/{stem}.toml: section {sec} is not in docs/rules/{v}.md"
                ));
            }
            let prefix = format!("{}_", sec.replace('.', "_"));
            if !stem.starts_with(&prefix) {
                bad.push(format!(
                    "tests/rules/{v}/{stem}.toml: the name should start with `{prefix}`"
                ));
            }
            if c.description.as_deref().is_none_or(|d| d.trim().is_empty()) {
                bad.push(format!("tests/rules/{v}/{stem}.toml has no description"));
            }
            if c.expect_moves.is_none() && c.expect_count.is_none() && c.expect_result.is_none() {
                bad.push(format!(
                    "tests/rules/{v}/{stem}.toml states no expected answer (expect_moves, expect_count or expect_result)"
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn links_and_images_in_the_rules_pages_exist() {
    let mut broken = Vec::new();
    let docs = root().join("docs/rules");
    for v in VARIANTS {
        let text = read_page(v);
        // Markdown link targets: `](target)`.
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = rest[..end].split('#').next().unwrap_or("").trim();
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            if !docs.join(target).exists() {
                broken.push(format!("docs/rules/{v}.md links to {target}, which does not exist"));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn section_numbers_are_parsed() {
    assert_eq!(section_number("## 4. Capturing").as_deref(), Some("4"));
    assert_eq!(section_number("### 4.3 The majority rule").as_deref(), Some("4.3"));
    assert_eq!(section_number("## Rule parameters"), None);
    assert_eq!(section_number("#### 6.2. Lone pieces").as_deref(), Some("6.2"));
    assert_eq!(section_number("text # 4.3"), None);
}
