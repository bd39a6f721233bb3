//! `dama cases <dir>...`: render rule cases, or check them against their snapshots.
//!
//! A case `foo.toml` keeps its snapshot next to it in `foo.snap` (insta's
//! file format: a `---` header, then the rendering), so the same files serve
//! `cargo test` and this command. See docs/testing-rules.md.

use std::path::PathBuf;

use dama_cases::FileKind;

use super::Ctx;
use crate::case_check::{err_label, list, one, Status};
use crate::exit::Exit;
use crate::out::{self};

/// Arguments of `dama cases`.
#[derive(Debug, clap::Args)]
pub struct CasesArgs {
    /// Case files, or directories searched (recursively) for `.toml` case files.
    /// Variant files found there are skipped.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Compare each rendering with the stored snapshot (`<case>.snap`); show
    /// what changed and exit 1 on any difference.
    #[arg(long, conflicts_with = "update")]
    pub check: bool,
    /// Write (accept) the snapshot of every case that is new or changed.
    #[arg(long)]
    pub update: bool,
    /// Play every case under this variant (a built-in id or a .toml file)
    /// instead of the one each case names: see which cases a rule change moves.
    #[arg(long, value_name = "VARIANT")]
    pub variant: Option<String>,
    /// Lines of unchanged context shown around each change.
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub context: usize,
}

pub fn run(ctx: &Ctx, args: CasesArgs) -> Exit {
    let files = match dama_cases::find_toml_files(&args.paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{}: {e}", err_label(ctx));
            return Exit::Failure;
        }
    };
    let override_rules = match &args.variant {
        Some(v) => match ctx.load_variant(v) {
            Ok(l) => Some(l.rules),
            Err(e) => return e,
        },
        None => None,
    };
    if let Some(v) = &args.variant {
        eprintln!("note: every case is played under `{v}` instead of the variant it names");
    }
    let mut cases: Vec<PathBuf> = Vec::new();
    for f in files {
        // Bounded: an oversized file is refused when it is read as a case.
        let text = dama_cases::read_bounded(&f, dama_cases::MAX_CASE_BYTES, "case files").unwrap_or_default();
        match dama_cases::classify(&text) {
            FileKind::Variant => {
                if args.paths.iter().any(|p| p == &f) {
                    eprintln!("note: skipping {}: it is a variant file, not a rule case", f.display());
                }
            }
            _ => cases.push(f),
        }
    }
    if cases.is_empty() {
        eprintln!("{}: no rule cases found in {}", err_label(ctx), list(&args.paths));
        return Exit::Failure;
    }

    let mode = if args.check {
        "check"
    } else if args.update {
        "update"
    } else {
        "render"
    };
    let (mut ok, mut changed, mut new, mut updated, mut refused, mut errors, mut unmet) = (0, 0, 0, 0, 0, 0, 0);
    // Changed or new renderings that `--update` would refuse: their expectations are not met.
    let mut blocked = 0;
    let many = cases.len() > 1;
    for (i, path) in cases.iter().enumerate() {
        // (issue 18) The output cannot be written: no more cases.
        if out::failed() {
            return Exit::Success;
        }
        let (status, failures) = one(ctx, path, override_rules.as_ref(), mode, many, i > 0, args.context);
        if !failures.is_empty() {
            unmet += 1;
            if matches!(status, Status::Changed | Status::New) {
                blocked += 1;
            }
            for f in &failures {
                eprintln!("{}: {}: {f}", err_label(ctx), path.display());
            }
        }
        match status {
            Status::Ok => ok += 1,
            Status::Changed => changed += 1,
            Status::New => new += 1,
            Status::Updated => updated += 1,
            Status::Refused => refused += 1,
            Status::Error => errors += 1,
        }
    }
    let n = cases.len();
    let mut parts = Vec::new();
    match mode {
        "check" => {
            parts.push(format!("{ok} ok"));
            if changed > 0 {
                parts.push(format!("{changed} changed"));
            }
            if new > 0 {
                parts.push(format!("{new} without a snapshot"));
            }
        }
        "update" => {
            parts.push(format!("{ok} unchanged"));
            parts.push(format!("{updated} written"));
            if refused > 0 {
                parts.push(format!("{refused} refused"));
            }
        }
        _ => parts.push(format!("{} rendered", n - errors)),
    }
    if errors > 0 {
        parts.push(format!("{errors} failed to render"));
    }
    if unmet > 0 {
        parts.push(format!("{unmet} with unmet expectations"));
    }
    eprintln!("{n} case{}: {}", if n == 1 { "" } else { "s" }, parts.join(", "));
    // (issue 37) `--update` refuses a case whose expectations are not met:
    // advise it only for the renderings it would accept.
    if changed + new > blocked {
        eprintln!(
            "run `dama cases {} --update` to accept the new renderings{}",
            list(&args.paths),
            if blocked > 0 {
                " of the cases whose expectations are met"
            } else {
                ""
            }
        );
    }
    if blocked > 0 {
        eprintln!(
            "{blocked} changed or new case{} {} unmet expectations, which `--update` refuses: fix the case (its `expect_*` keys) or the variant first",
            if blocked == 1 { "" } else { "s" },
            if blocked == 1 { "has" } else { "have" }
        );
    }
    if changed + new + errors + unmet > 0 {
        Exit::Failure
    } else {
        Exit::Success
    }
}
