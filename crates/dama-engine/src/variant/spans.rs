//! Byte spans across the files of an `extends` chain: shifting them by
//! file, and turning them back into file, line and column.

// Panic audit (rel, issue 7): this module reads user input, so it may not
// unwrap; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use toml::de::{DeArray, DeTable, DeValue};
use toml::Spanned;

use super::load::*;
use crate::spec::Location;

pub(super) const FILE_SHIFT: u32 = 32;
pub(super) const LOCAL_MASK: usize = (1usize << FILE_SHIFT) - 1;

/// Resolves a shifted span; `None` for made-up values and for spans outside every file.
pub(super) fn locate_shifted(files: &[SourceFile], span: std::ops::Range<usize>) -> Option<Location> {
    if span.start == NOWHERE {
        return None;
    }
    let idx = span.start >> FILE_SHIFT;
    let file = files.get(idx)?;
    let start = span.start & LOCAL_MASK;
    let end = if span.end >> FILE_SHIFT == idx {
        span.end & LOCAL_MASK
    } else {
        start
    };
    Some(locate(file, start..end.max(start)))
}

pub(super) fn locate(file: &SourceFile, span: std::ops::Range<usize>) -> Location {
    let start = floor_char(&file.text, span.start.min(file.text.len()));
    let before = &file.text[..start];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Location {
        file: file.name.clone(),
        line,
        column,
        span: start..span.end.clamp(start, file.text.len()),
    }
}

pub(super) fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

pub(super) fn shift_span(s: std::ops::Range<usize>, file: usize) -> std::ops::Range<usize> {
    let off = file << FILE_SHIFT;
    (s.start + off)..(s.end + off)
}

/// Shifts every span of a table into file `file`'s range.
pub(super) fn shift_table(t: DeTable<'_>, file: usize) -> DeTable<'_> {
    let mut out = DeTable::new();
    for (k, v) in t {
        let ks = shift_span(k.span(), file);
        out.insert(Spanned::new(ks, k.into_inner()), shift_value(v, file));
    }
    out
}

pub(super) fn shift_value(v: Spanned<DeValue<'_>>, file: usize) -> Spanned<DeValue<'_>> {
    let span = shift_span(v.span(), file);
    let val = match v.into_inner() {
        DeValue::Array(a) => DeValue::Array(a.into_iter().map(|e| shift_value(e, file)).collect::<DeArray>()),
        DeValue::Table(t) => DeValue::Table(shift_table(t, file)),
        other => other,
    };
    Spanned::new(span, val)
}

/// Merges `child` over `base`: tables merge key by key, anything else is replaced.
pub(super) fn merge<'a>(base: &mut DeTable<'a>, child: DeTable<'a>) {
    for (k, v) in child {
        let (span, val) = (v.span(), v.into_inner());
        match (base.get_mut(k.get_ref().as_ref()), val) {
            (Some(existing), DeValue::Table(ct)) if existing.get_ref().is_table() => {
                let mut taken = std::mem::replace(existing, Spanned::new(0..0, DeValue::Boolean(false))).into_inner();
                if let DeValue::Table(bt) = &mut taken {
                    merge(bt, ct);
                }
                // The child's header: findings about the table point at the child-most file.
                *existing = Spanned::new(span, taken);
            }
            (_, val) => {
                base.insert(k, Spanned::new(span, val));
            }
        }
    }
}
