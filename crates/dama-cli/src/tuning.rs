//! Where `dama tune` learns from: the positions of a PDN file's finished
//! games, each with the game's result for White.

use std::path::Path;
use std::sync::Arc;

use dama_engine::pdn;
use dama_engine::{tune::Sample, Evaluator, GameResult, Rules};

use crate::error::CliError;
use crate::exit::Exit;

/// The weights of `--eval FILE` (or `derived`, the weights derived from
/// White's score in a game with this result.
pub(crate) fn white_score(r: GameResult) -> f64 {
    match r {
        GameResult::WhiteWins => 1.0,
        GameResult::BlackWins => 0.0,
        GameResult::Draw => 0.5,
    }
}

/// The samples of the finished games of a PDN file, and how many games gave them.
pub(crate) fn pdn_samples(rules: &Arc<Rules>, evaluator: &Evaluator, path: &Path) -> Result<(Vec<Sample>, u32), Exit> {
    let text = match crate::commands::read_text_bounded(path, crate::commands::MAX_POSITIONS_BYTES, "--positions") {
        Ok(t) => t,
        Err(e) => return Err(CliError::system(e).report(None)),
    };
    let games = match pdn::read_games(&text) {
        Ok(g) => g,
        Err(e) => {
            let (line, column) = e.position();
            return Err(CliError::system(format!("{}:{line}:{column}: {e}", path.display())).report(None));
        }
    };
    let mut out = Vec::new();
    let mut used = 0;
    for (i, g) in games.iter().enumerate() {
        let Some(result) = g.recorded_result().map(white_score) else {
            continue;
        };
        let game = match g.replay(Arc::clone(rules)) {
            Ok(game) => game,
            Err(e) => {
                return Err(CliError::system(format!("{}: game {}: {e}", path.display(), i + 1)).report(None));
            }
        };
        let positions: Vec<_> = game.positions().collect();
        out.extend(Sample::from_game(rules, evaluator, &positions, 8, result));
        used += 1;
    }
    Ok((out, used))
}
