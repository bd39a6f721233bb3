//! Stage 6: the end of the game (`W0801`, `W0802`, `E0803`, `W0804`, `W0805`).

use crate::rules::compile::Findings;
use crate::rules::{EndRules, MaterialDraw, MaterialPattern, SideMaterial};
use crate::spec::{Code, CrowningEnd, VariantSpec};

/// The end-of-game rules.
pub(crate) fn end(spec: &VariantSpec, out: &mut Findings) -> EndRules {
    let e = &spec.end;
    for (plies, key) in [
        (e.no_capture_draw_plies, "end.no_capture_draw_plies"),
        (e.kings_only_draw_plies, "end.kings_only_draw_plies"),
    ] {
        if plies == 1 {
            out.warning(
                Code::W0801,
                key,
                "a limit of 1 ply draws every game after its first move",
            );
        }
    }
    let (nc, ko) = (e.no_capture_draw_plies, e.kings_only_draw_plies);
    if nc != 0 && ko != 0 && ko >= nc {
        out.warning(
            Code::W0802,
            "end.kings_only_draw_plies",
            format!("a kings-only limit of {ko} plies never applies: {nc} plies without a capture draw first"),
        );
    }
    if e.crowning == CrowningEnd::Wins && !(spec.setup.white_kings.is_empty() && spec.setup.black_kings.is_empty()) {
        out.warning(
            Code::W0805,
            "end.crowning",
            "the first side to crown a king wins, but the initial position already has kings: the game is over at once",
        );
    }
    let material_draw = material_draws(spec, out);
    EndRules {
        no_legal_move: e.no_legal_move,
        threefold_repetition: e.threefold_repetition,
        lone_piece: e.lone_piece,
        lone_piece_unless_capture: e.lone_piece_unless_capture,
        king_vs_king: e.king_vs_king,
        no_capture_draw_plies: e.no_capture_draw_plies,
        kings_only_draw_plies: e.kings_only_draw_plies,
        crowning: e.crowning,
        material_min_plies: material_draw.iter().map(|d| d.plies).min().unwrap_or(u32::MAX),
        material_max_pieces: material_draw
            .iter()
            .map(|d| d.pattern.first.kings + d.pattern.first.men + d.pattern.second.kings + d.pattern.second.men)
            .max()
            .unwrap_or(0),
        material_draw,
    }
}

/// `[[end.material_draw]]`, one entry per pattern that can be read.
fn material_draws(spec: &VariantSpec, out: &mut Findings) -> Vec<MaterialDraw> {
    let mut draws: Vec<(MaterialDraw, String)> = Vec::new();
    for (i, rule) in spec.end.material_draw.iter().enumerate() {
        for (j, text) in rule.material.iter().enumerate() {
            let key = format!("end.material_draw[{i}].material[{j}]");
            let pattern = match parse_pattern(text) {
                Ok(p) => p.normalized(),
                Err(reason) => {
                    let message = format!(
                        "cannot read the material pattern `{}`: {reason}",
                        crate::util::clip(text)
                    );
                    let help = match suggest_pattern(text) {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => "write each side's pieces, K for a king and M for a man, separated by v: \
                                 \"KKK v K\", \"KM v K\""
                            .to_string(),
                    };
                    out.0
                        .push(crate::spec::Diagnostic::error(Code::E0803, Some(&key), message).with_help(help));
                    continue;
                }
            };
            if let Some((earlier, at)) = draws.iter().find(|(d, _)| d.pattern == pattern) {
                out.warning(
                    Code::W0804,
                    &key,
                    format!(
                        "the material `{pattern}` is already listed ({at}, {} plies): only the smaller limit, {} plies, can apply",
                        earlier.plies,
                        earlier.plies.min(rule.plies)
                    ),
                );
            }
            draws.push((
                MaterialDraw {
                    pattern,
                    plies: rule.plies,
                },
                key,
            ));
        }
    }
    draws.into_iter().map(|(d, _)| d).collect()
}

/// Reads `"KKM v K"`: two sides of `K` and `M` letters (in any order),
/// separated by a `v`; spaces around the `v` are optional.
pub(crate) fn parse_pattern(text: &str) -> Result<MaterialPattern, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("it is empty".into());
    }
    let parts: Vec<&str> = t.split('v').collect();
    let [a, b] = parts[..] else {
        return Err(if parts.len() == 1 {
            "the two sides must be separated by `v`".into()
        } else {
            "it has more than one `v`: a pattern is two sides".into()
        });
    };
    let side = |s: &str, which: &str| -> Result<SideMaterial, String> {
        let s = s.trim();
        if s.is_empty() {
            return Err(format!("the {which} side has no piece"));
        }
        let mut m = SideMaterial { kings: 0, men: 0 };
        for c in s.chars() {
            match c {
                'K' => m.kings += 1,
                'M' => m.men += 1,
                _ if c.is_whitespace() => {}
                _ => {
                    return Err(format!(
                        "`{}` is not a piece: write K for a king and M for a man",
                        c.escape_default()
                    ))
                }
            }
        }
        if m.kings + m.men > 64 {
            return Err(format!("the {which} side has more than 64 pieces"));
        }
        Ok(m)
    };
    Ok(MaterialPattern {
        first: side(a, "first")?,
        second: side(b, "second")?,
    })
}

/// The pattern a misspelt one probably means: capitals, and `vs`,
/// `against`, `-`, `/`, `:` or `x` read as the `v` (`"kkk vs k"` is
/// `"KKK v K"`).
fn suggest_pattern(text: &str) -> Option<String> {
    let mut t = format!(" {} ", text.trim().to_ascii_lowercase());
    for sep in [" against ", " vs. ", " vs ", " v. ", " x ", "-", "/", ":"] {
        t = t.replace(sep, " v ");
    }
    let t: String = t
        .chars()
        .map(|c| match c {
            'k' => 'K',
            'm' => 'M',
            c => c,
        })
        .collect();
    let p = parse_pattern(&t).ok()?;
    Some(p.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_are_read() {
        let p = parse_pattern("KKM v K").unwrap();
        assert_eq!(p.to_string(), "KKM v K");
        assert_eq!(parse_pattern("MKK vK").unwrap().to_string(), "KKM v K");
        assert_eq!(parse_pattern("K v KM").unwrap().normalized().to_string(), "KM v K");
        for bad in ["", "KKK", "K v K v K", "KKQ v K", " v K", "kk v k"] {
            assert!(parse_pattern(bad).is_err(), "{bad}");
        }
        assert_eq!(suggest_pattern("kkk vs k").as_deref(), Some("KKK v K"));
        assert_eq!(suggest_pattern("KK-K").as_deref(), Some("KK v K"));
        assert_eq!(suggest_pattern("KQ v K"), None);
    }
}
