//! Checking rule cases against their snapshots (`dama cases`): each case
//! rendered and compared, the snapshot written when asked, and the diff
//! shown when they differ.

use std::path::{Path, PathBuf};

use dama_cases::{CaseError, RuleCase};
use dama_engine::{text::printable, text::printable_lines, Rules};

use crate::commands::Ctx;
use crate::out::{out, outln};
use crate::render;

/// How one case fared.
pub(crate) enum Status {
    Ok,
    Changed,
    New,
    Updated,
    /// Not written: the case's expectations are not met.
    Refused,
    Error,
}

pub(crate) fn list(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

pub(crate) fn err_label(ctx: &Ctx) -> String {
    paint("error", "1;31", ctx.color_err)
}

pub(crate) fn paint(s: &str, code: &str, on: bool) -> String {
    if on {
        format!("\x1b[{code}m{s}\x1b[0m")
    } else {
        s.to_string()
    }
}

/// Renders one case; in check/update mode compares with / writes its snapshot.
pub(crate) fn one(
    ctx: &Ctx,
    path: &Path,
    override_rules: Option<&Rules>,
    mode: &str,
    many: bool,
    separate: bool,
    context: usize,
) -> (Status, Vec<String>) {
    let rendered = render_case(path, override_rules);
    let rendered = match rendered {
        Ok(r) => r,
        Err(e) => {
            report_error(ctx, path, &e);
            return (Status::Error, Vec::new());
        }
    };
    let snap = dama_cases::snapshot_path(path);
    match mode {
        "render" => {
            if many {
                if separate {
                    outln!();
                }
                outln!("{}", paint(&format!("==> {} <==", path.display()), "1", ctx.color_out));
            }
            // (issue 38) A case's text (its variant's name and description
            // among it) is shown with its control characters as `�`.
            out!("{}", printable_lines(&rendered.text));
            (Status::Ok, rendered.failures)
        }
        _ => {
            let existing = dama_cases::read_bounded(&snap, dama_cases::MAX_SNAPSHOT_BYTES, "snapshot files").ok();
            let same = existing
                .as_deref()
                .is_some_and(|t| dama_cases::snapshot_matches(t, &rendered.text));
            if same {
                if mode == "check" {
                    outln!("{} {}", paint("ok     ", "32", ctx.color_out), path.display());
                }
                return (Status::Ok, rendered.failures);
            }
            if mode == "update" && !rendered.failures.is_empty() {
                outln!(
                    "{} {} (its expectations are not met; fix the case or the variant first)",
                    paint("refused", "1;31", ctx.color_out),
                    snap.display()
                );
                return (Status::Refused, rendered.failures);
            }
            if mode == "update" {
                let header = existing.as_deref().and_then(dama_cases::snapshot_header);
                let text = dama_cases::snapshot_file(header, &input_name(path), &rendered.text);
                return match std::fs::write(&snap, text) {
                    Ok(()) => {
                        outln!(
                            "{} {}",
                            paint(
                                if existing.is_some() { "updated" } else { "created" },
                                "33",
                                ctx.color_out
                            ),
                            snap.display()
                        );
                        (Status::Updated, rendered.failures)
                    }
                    Err(e) => {
                        eprintln!("{}: cannot write {}: {e}", err_label(ctx), snap.display());
                        (Status::Error, rendered.failures)
                    }
                };
            }
            match existing {
                None => {
                    outln!(
                        "{} {} (no snapshot at {})",
                        paint("new    ", "33", ctx.color_out),
                        path.display(),
                        snap.display()
                    );
                    for l in rendered.text.lines() {
                        outln!("  {}", paint(&format!("+{}", printable(l)), "32", ctx.color_out));
                    }
                    (Status::New, rendered.failures)
                }
                Some(old) => {
                    outln!("{} {}", paint("CHANGED", "1;31", ctx.color_out), path.display());
                    out!(
                        "{}",
                        diff_text(
                            &printable_lines(dama_cases::snapshot_body(&old)),
                            &printable_lines(rendered.text.trim_end()),
                            context,
                            ctx.color_out
                        )
                    );
                    (Status::Changed, rendered.failures)
                }
            }
        }
    }
}

/// The snapshot's `input_file`: the case path relative to the current directory.
pub(crate) fn input_name(path: &Path) -> String {
    let cwd = std::env::current_dir().ok();
    let p = cwd
        .as_deref()
        .and_then(|c| {
            path.canonicalize()
                .ok()
                .and_then(|p| p.strip_prefix(c).ok().map(Path::to_path_buf))
        })
        .unwrap_or_else(|| path.to_path_buf());
    p.display().to_string()
}

pub(crate) fn render_case(path: &Path, override_rules: Option<&Rules>) -> Result<dama_cases::Rendered, CaseError> {
    let c = RuleCase::read(path)?;
    match override_rules {
        Some(r) => c.render(r),
        None => c.render(&c.load_rules(path)?),
    }
}

pub(crate) fn report_error(ctx: &Ctx, path: &Path, e: &CaseError) {
    match e {
        CaseError::Toml { message, line, column } if *line > 0 => {
            eprintln!(
                "{}: {}:{line}:{column}: {}",
                err_label(ctx),
                path.display(),
                printable_lines(message)
            );
            if let Ok(text) = dama_cases::read_bounded(path, dama_cases::MAX_CASE_BYTES, "case files") {
                if let Some(src) = text.lines().nth(line - 1) {
                    let src = printable(src);
                    let num = line.to_string();
                    let pad = " ".repeat(num.len());
                    eprintln!(
                        "{pad} |\n{num} | {src}\n{pad} | {}^",
                        " ".repeat(column.saturating_sub(1))
                    );
                }
            }
        }
        CaseError::Variant { name, error } => {
            eprintln!(
                "{}: {}: variant `{}` does not load",
                err_label(ctx),
                path.display(),
                printable(name)
            );
            for d in &error.diagnostics {
                eprint!("{}", render::diagnostic(d, &error.files, ctx.color_err));
            }
        }
        CaseError::Several(all) => {
            for e in all {
                report_error(ctx, path, e);
            }
        }
        other => eprintln!(
            "{}: {}: {}",
            err_label(ctx),
            path.display(),
            printable_lines(&other.to_string())
        ),
    }
}

// ---------------------------------------------------------------------------
// A small line diff (longest common subsequence; renderings are short).

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op<'a> {
    Same(&'a str),
    Del(&'a str),
    Add(&'a str),
}

pub(crate) fn diff_lines<'a>(old: &[&'a str], new: &[&'a str]) -> Vec<Op<'a>> {
    let (n, m) = (old.len(), new.len());
    // lcs[i][j] = LCS length of old[i..] and new[j..]
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if old[i] == new[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut ops = Vec::new();
    while i < n && j < m {
        if old[i] == new[j] {
            ops.push(Op::Same(old[i]));
            i += 1;
            j += 1;
        } else if lcs[i + 1][j] >= lcs[i][j + 1] {
            ops.push(Op::Del(old[i]));
            i += 1;
        } else {
            ops.push(Op::Add(new[j]));
            j += 1;
        }
    }
    ops.extend(old[i..].iter().map(|l| Op::Del(l)));
    ops.extend(new[j..].iter().map(|l| Op::Add(l)));
    ops
}

/// `-old` / `+new` lines with `context` unchanged lines around each change,
/// and `@@ line N @@` markers (line numbers of the stored snapshot).
pub(crate) fn diff_text(old: &str, new: &str, context: usize, color: bool) -> String {
    let old_l: Vec<&str> = old.lines().collect();
    let new_l: Vec<&str> = new.lines().collect();
    let ops = diff_lines(&old_l, &new_l);
    let changed: Vec<usize> = ops
        .iter()
        .enumerate()
        .filter(|(_, o)| !matches!(o, Op::Same(_)))
        .map(|(i, _)| i)
        .collect();
    let mut show = vec![false; ops.len()];
    for &c in &changed {
        let lo = c.saturating_sub(context);
        let hi = (c + context).min(ops.len().saturating_sub(1));
        for s in show.iter_mut().take(hi + 1).skip(lo) {
            *s = true;
        }
    }
    let mut out = String::new();
    let mut old_no = 0usize;
    let mut last_shown: Option<usize> = None;
    for (i, op) in ops.iter().enumerate() {
        if show[i] {
            if last_shown.is_none_or(|l| l + 1 != i) {
                out.push_str(&format!(
                    "  {}\n",
                    paint(&format!("@@ line {} @@", old_no + 1), "36", color)
                ));
            }
            last_shown = Some(i);
            match op {
                Op::Same(l) => out.push_str(&format!("{}\n", format!("   {l}").trim_end())),
                Op::Del(l) => out.push_str(&format!("  {}\n", paint(&format!("-{l}"), "31", color))),
                Op::Add(l) => out.push_str(&format!("  {}\n", paint(&format!("+{l}"), "32", color))),
            }
        }
        if !matches!(op, Op::Add(_)) {
            old_no += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_shows_only_changes_with_context() {
        let old = "a\nb\nc\nd\ne\nf\ng";
        let new = "a\nb\nc\nD\ne\nf\ng";
        let d = diff_text(old, new, 1, false);
        assert_eq!(d, "  @@ line 3 @@\n   c\n  -d\n  +D\n   e\n");
    }

    #[test]
    fn diff_of_insertions_and_deletions() {
        let d = diff_text("x\ny", "x\ny\nz", 0, false);
        assert_eq!(d, "  @@ line 3 @@\n  +z\n");
        let d = diff_text("x\ny\nz", "y", 0, false);
        assert_eq!(d, "  @@ line 1 @@\n  -x\n  @@ line 3 @@\n  -z\n");
    }
}
