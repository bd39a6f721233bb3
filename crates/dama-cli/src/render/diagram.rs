//! What `dama diagram` draws from a rule case: the position after its
//! moves and the moves to draw (its `show_after` move, else all legal moves
//! when few), as arrows along their paths. The rules pages' diagrams are
//! drawn from the cases (the test below keeps them current).

use dama_cases::RuleCase;
use dama_engine::Game;
use dama_engine::{Position, Rules};

use crate::commands::Ctx;
use crate::error::CliError;
use crate::exit::Exit;
use crate::json::Code;
use crate::svg::Drawn;
#[cfg(test)]
use crate::svg::{self, Options};

/// Most moves drawn by default for a case without `show_after`.
pub(crate) const CASE_MAX_ARROWS: usize = 6;

/// The rules, the position after the case's `moves`/`play`, and the moves to
/// draw: its `show_after` move, else every legal move when there are at most
/// [`CASE_MAX_ARROWS`].
pub(crate) fn from_case(
    ctx: &Ctx,
    path: &std::path::Path,
    variant: Option<&str>,
) -> Result<(Rules, Position, Vec<String>), Exit> {
    let fail =
        |e: &dyn std::fmt::Display| CliError::failed(Code::Read, format!("{}: {e}", path.display())).report(Some(ctx));
    let case = RuleCase::read(path).map_err(|e| fail(&e))?;
    let rules = match variant {
        Some(v) => ctx.load_variant(v)?.rules,
        None => case.load_rules(path).map_err(|e| fail(&e))?,
    };
    let pos = case_position(&rules, &case).map_err(|e| fail(&e))?;
    let moves = case_moves(&rules, &pos, &case);
    Ok((rules, pos, moves))
}

/// The moves a case diagram draws (as full-path text).
pub(crate) fn case_moves(rules: &Rules, pos: &Position, case: &RuleCase) -> Vec<String> {
    if let Some(m) = &case.show_after {
        return vec![m.clone()];
    }
    let legal = rules.legal_moves(pos);
    if legal.len() > CASE_MAX_ARROWS {
        return Vec::new();
    }
    rules.format_moves_full(pos, legal.as_slice())
}

/// The diagram of a case, as `dama diagram --case FILE --svg -` draws it.
#[cfg(test)]
pub(crate) fn case_svg(path: &std::path::Path) -> Result<String, String> {
    let quiet = Ctx {
        color_err: false,
        color_out: false,
        json: false,
    };
    let (rules, pos, moves) =
        from_case(&quiet, path, None).map_err(|_| format!("{} does not render", path.display()))?;
    let drawn = drawn_moves(&rules, &pos, &moves)?;
    Ok(svg::diagram(
        &rules,
        &pos,
        &drawn,
        &Options {
            flip: false,
            caption: Some(format!("{} to move", pos.side_to_move())),
        },
    ))
}

/// Resolves move texts to the moves and paths to draw.
pub(crate) fn drawn_moves(rules: &Rules, pos: &Position, texts: &[String]) -> Result<Vec<Drawn>, String> {
    let mut drawn = Vec::new();
    for t in texts {
        let m = rules.resolve_move(pos, t).map_err(|e| e.to_string())?;
        let paths = rules.move_paths(pos, &m);
        // The path the text names, when it names landing squares; else the first.
        let path = dama_engine::MoveText::parse(rules, t)
            .ok()
            .and_then(|mt| paths.iter().find(|p| mt.matches_path(p)).cloned())
            .or_else(|| paths.first().cloned());
        if let Some(path) = path {
            drawn.push(Drawn { mv: m, path });
        }
    }
    Ok(drawn)
}

/// The position a case renders: its FEN or the initial position, after `moves` and `play`.
pub(crate) fn case_position(rules: &Rules, case: &RuleCase) -> Result<Position, String> {
    let start = match &case.fen {
        Some(f) => rules.parse_fen(f).map_err(|e| e.to_string())?,
        None => rules.start_position(),
    };
    let mut game = Game::from_position(rules.clone(), start);
    for t in case.moves.iter().flatten().chain(&case.play) {
        game.play_text(t).map_err(|e| format!("`{t}`: {e}"))?;
    }
    Ok(*game.position())
}

#[cfg(test)]
mod tests {
    //! The diagrams in docs/rules/img are drawn from the rule cases; this
    //! checks they are current. `DAMA_UPDATE_DOCS=1 cargo test -p dama-cli`
    //! (re)draws every diagram the rules pages reference.
    use std::path::{Path, PathBuf};

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    /// `img/<variant>/<case>.svg` references in docs/rules/*.md.
    fn referenced_images() -> Vec<String> {
        let mut out = Vec::new();
        let dir = root().join("docs/rules");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return out;
        };
        let mut pages: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        pages.sort();
        for p in pages.iter().filter(|p| p.extension().is_some_and(|e| e == "md")) {
            let text = std::fs::read_to_string(p).unwrap_or_default();
            for (i, _) in text.match_indices("](img/") {
                let rest = &text[i + 2..];
                if let Some(end) = rest.find(')') {
                    let target = &rest[..end];
                    if target.ends_with(".svg") && !out.iter().any(|t| t == target) {
                        out.push(target.to_string());
                    }
                }
            }
        }
        out
    }

    #[test]
    fn rules_page_diagrams_are_drawn_from_their_cases() {
        let update = std::env::var("DAMA_UPDATE_DOCS").is_ok_and(|v| !v.is_empty() && v != "0");
        let mut stale = Vec::new();
        for target in referenced_images() {
            // img/<variant>/<stem>.svg  <-  tests/rules/<variant>/<stem>.toml
            let rel = target.trim_start_matches("img/");
            let case = root().join("tests/rules").join(rel).with_extension("toml");
            let svg = super::case_svg(&case).unwrap_or_else(|e| panic!("{target}: {}: {e}", case.display()));
            let file = root().join("docs/rules").join(&target);
            let current = std::fs::read_to_string(&file).ok();
            if current.as_deref() != Some(svg.as_str()) {
                if update {
                    if let Some(d) = file.parent() {
                        std::fs::create_dir_all(d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
                    }
                    std::fs::write(&file, &svg).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                    eprintln!("drew docs/rules/{target}");
                } else {
                    stale.push(target);
                }
            }
        }
        assert!(
            stale.is_empty(),
            "diagrams missing or out of date (run `DAMA_UPDATE_DOCS=1 cargo test -p dama-cli`):\n  {}",
            stale.join("\n  ")
        );
    }
}
