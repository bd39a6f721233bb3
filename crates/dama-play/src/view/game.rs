//! [`GameView`]: a game as every front end's JSON gives it.

use dama_engine::{Game, Outcome};
use serde::Serialize;

use super::{color_name, outcome_text};

/// A game: its variant, where it started, where it stands, every ply and
/// its result (`dama replay --format json`, the web API's game, Python's
/// `Game.to_dict()`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameView {
    /// The variant's id.
    pub variant: String,
    /// The position it started from, as a FEN.
    pub start_fen: String,
    /// The position now, as a FEN.
    pub fen: String,
    /// The side to move now: `white` or `black`.
    pub side: &'static str,
    /// Every ply played, in order.
    pub plies: Vec<PlyView>,
    /// Every move played, in full notation (as a record is replayed).
    pub moves: Vec<String>,
    /// How it ended; `null` while it goes on.
    pub result: Option<ResultView>,
    /// Where the game went on after the rules had ended it (a record the
    /// arbiter did not stop); `null` when it never did.
    pub passed_end: Option<PassedEndView>,
}

/// One ply of a [`GameView`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlyView {
    /// The move in short notation.
    pub text: String,
    /// The move in full notation (every landing square of a capture).
    pub full: String,
    /// Who played it: `white` or `black`.
    pub side: &'static str,
    /// The position after it, as a FEN.
    pub fen: String,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResultView {
    /// `1-0`, `0-1` or `1/2-1/2` (as PDN writes it).
    pub pdn: &'static str,
    /// `white`, `black`, or `null` for a draw.
    pub winner: Option<&'static str>,
    /// Why, as the rules say it (`no legal move`, `threefold repetition`).
    pub reason: String,
    /// The outcome in words ([`outcome_text`]).
    pub text: String,
}

impl ResultView {
    /// `o` as the views give it.
    pub fn new(o: &Outcome) -> ResultView {
        ResultView {
            pdn: o.result.pdn(),
            winner: o.result.winner().map(color_name),
            reason: o.reason.to_string(),
            text: outcome_text(o),
        }
    }
}

/// Where a game went past an end by the rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PassedEndView {
    /// The first ply played after that end, counted from 1.
    pub ply: usize,
    /// The rule that had ended the game.
    pub rule: String,
    /// That end in words.
    pub text: String,
}

impl GameView {
    /// `game` as the views give it.
    pub fn new(game: &Game) -> GameView {
        let r = game.rules();
        let pos = game.position();
        GameView {
            variant: r.id().to_string(),
            start_fen: r.to_fen(game.start_position()),
            fen: r.to_fen(pos),
            side: color_name(pos.side_to_move()),
            plies: game
                .plies()
                .iter()
                .map(|p| PlyView {
                    text: p.notation.clone(),
                    full: p.full.clone(),
                    side: color_name(p.side()),
                    fen: r.to_fen(&p.after()),
                })
                .collect(),
            moves: game.plies().iter().map(|p| p.full.clone()).collect(),
            result: game.outcome().map(|o| ResultView::new(&o)),
            passed_end: game.passed_end().map(|p| PassedEndView {
                ply: p.ply + 1,
                rule: p.outcome.reason.to_string(),
                text: outcome_text(&p.outcome),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dama_engine::Rules;

    #[test]
    fn a_game_view_lists_its_plies_and_result() {
        let r = Rules::builtin("dama").unwrap();
        let pos = r.parse_fen("W:Wd6:Bd7,c8").unwrap();
        let mut g = Game::from_position(r, pos);
        g.play_text("d6xd8xb8").unwrap();
        let v = GameView::new(&g);
        assert_eq!(v.variant, "dama");
        assert_eq!(v.moves, ["d6xd8xb8"]);
        assert_eq!(v.plies[0].side, "white");
        let result = v.result.unwrap();
        assert_eq!((result.pdn, result.winner), ("1-0", Some("white")));
    }
}
