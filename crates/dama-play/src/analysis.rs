//! Game analysis: every move of a game searched again, compared with the
//! engine's best move, and judged by what it gave away.
//!
//! For each ply that is not forced (more than one legal move), the
//! position before it is searched twice within the same [`Limits`]: once
//! for the best move (its score and line), and once restricted to the move
//! played ([`Engine::search_move`]); when the move played is the best one,
//! the first search serves for both. The *loss* is the best score minus
//! the played move's score, from the mover's point of view, in hundredths
//! of a man, each score first clamped to ±[`LOSS_CAP`] so that a forced win
//! counts as ten men, not thirty thousand hundredths. A move is judged by
//! its loss against [`Thresholds`]: an inaccuracy (`?!`, NAG 6), a mistake
//! (`?`, NAG 2) or a blunder (`??`, NAG 4). A move that turns a forced win
//! into anything less, or walks into a forced loss the best move avoided, is
//! a blunder whatever the numbers say. A forced move is never judged.
//!
//! ```
//! use dama_engine::{Game, Limits, Rules};
//! use dama_play::{analyze_game, Judgement};
//!
//! let rules = Rules::builtin("dama").unwrap();
//! let mut game = Game::new(rules);
//! game.play_text("d3-d4").unwrap();
//! game.play_text("d6-d5").unwrap();
//! let analysis = analyze_game(&game, &Limits::depth(3));
//! assert_eq!(analysis.plies.len(), 2);
//! let first = &analysis.plies[0];
//! assert_eq!(first.notation, "d3-d4");
//! assert!(first.loss >= 0);
//! assert_eq!(Judgement::Blunder.nag(), 4);
//! ```

use crate::view::line_text;
use dama_engine::search::{MAN, MATE_BOUND};
use dama_engine::{Color, Engine, Game, Limits, Move, Position, Rules, SearchRoot};

/// Scores are clamped to ± this (ten men) before the loss is taken.
pub const LOSS_CAP: i32 = 10 * MAN;

/// The longest best line kept per ply, in plies.
pub const MAX_LINE: usize = 12;

/// How much a move may lose (hundredths of a man, from the mover's view)
/// before it is judged an inaccuracy, a mistake or a blunder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Thresholds {
    /// The least loss of an inaccuracy (`?!`). Default 30.
    pub inaccuracy: i32,
    /// The least loss of a mistake (`?`). Default 80.
    pub mistake: i32,
    /// The least loss of a blunder (`??`). Default 200.
    pub blunder: i32,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds {
            inaccuracy: 30,
            mistake: 80,
            blunder: 200,
        }
    }
}

impl Thresholds {
    /// The judgement of a move scored `played` where the best move scores
    /// `best` (both for the mover), and the loss it is judged by.
    ///
    /// ```
    /// use dama_engine::search::MATE;
    /// use dama_play::{Judgement, Thresholds};
    ///
    /// let t = Thresholds::default();
    /// assert_eq!(t.judge(50, 40), (None, 10));
    /// assert_eq!(t.judge(50, 0), (Some(Judgement::Inaccuracy), 50));
    /// assert_eq!(t.judge(50, -50), (Some(Judgement::Mistake), 100));
    /// assert_eq!(t.judge(MATE - 9, 100), (Some(Judgement::Blunder), 900));
    /// // A slower win is still a win.
    /// assert_eq!(t.judge(MATE - 5, MATE - 21), (None, 0));
    /// ```
    pub fn judge(&self, best: i32, played: i32) -> (Option<Judgement>, i32) {
        let clamp = |s: i32| s.clamp(-LOSS_CAP, LOSS_CAP);
        let loss = (clamp(best) - clamp(played)).max(0);
        let threw_win = best > MATE_BOUND && played <= MATE_BOUND;
        let walked_into_loss = played < -MATE_BOUND && best >= -MATE_BOUND;
        let judgement = if threw_win || walked_into_loss || loss >= self.blunder {
            Some(Judgement::Blunder)
        } else if loss >= self.mistake {
            Some(Judgement::Mistake)
        } else if loss >= self.inaccuracy {
            Some(Judgement::Inaccuracy)
        } else {
            None
        };
        (judgement, loss)
    }
}

/// What a move that was not the best gave away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Judgement {
    /// `?!`: lost a little.
    Inaccuracy,
    /// `?`: lost a fair amount.
    Mistake,
    /// `??`: lost a lot, or a forced result.
    Blunder,
}

impl Judgement {
    /// The PDN (PGN) numeric annotation glyph: 6 (`?!`), 2 (`?`), 4 (`??`).
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// The move suffix: `?!`, `?` or `??`.
    pub fn mark(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// The word: `inaccuracy`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// The analysis of one ply of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlyAnalysis {
    /// The ply's index in the game (0 = the first move).
    pub index: usize,
    /// The move number, as the game counts them.
    pub move_number: u32,
    /// The side that played it.
    pub side: Color,
    /// The position it was played in.
    pub before: Position,
    /// The move played.
    pub played: Move,
    /// The move played, in the game's notation (shortest unambiguous).
    pub notation: String,
    /// The engine's best move.
    pub best: Move,
    /// The best move, in the shortest unambiguous notation.
    pub best_notation: String,
    /// The engine's line from `before`, starting with the best move (at most [`MAX_LINE`] plies).
    pub best_line: Vec<String>,
    /// The best move's score for the mover, in hundredths of a man
    /// (beyond ±[`MATE_BOUND`] a forced win or loss).
    pub best_score: i32,
    /// The played move's score for the mover.
    pub played_score: i32,
    /// `best_score - played_score`, each clamped to ±[`LOSS_CAP`], at least 0
    /// (0 for a forced move or the best move).
    pub loss: i32,
    /// The only legal move: not judged.
    pub forced: bool,
    /// The judgement (`None`: a good enough move, or a forced one).
    pub judgement: Option<Judgement>,
    /// The depth of the best move's search.
    pub depth: u32,
    /// Positions visited by this ply's searches.
    pub nodes: u64,
}

impl PlyAnalysis {
    /// Whether the move played is the engine's best move.
    pub fn is_best(&self) -> bool {
        self.played.same_identity(&self.best)
    }

    /// The played move's score from White's point of view (positive: White is better).
    pub fn white_score(&self) -> i32 {
        match self.side {
            Color::White => self.played_score,
            Color::Black => -self.played_score,
        }
    }

    /// The best move's score from White's point of view.
    pub fn white_best_score(&self) -> i32 {
        match self.side {
            Color::White => self.best_score,
            Color::Black => -self.best_score,
        }
    }
}

/// How one side played: its moves, the judgements and the average loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AnalysisTally {
    /// Moves played.
    pub moves: usize,
    /// Moves judged (not forced).
    pub judged: usize,
    /// Inaccuracies.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
    /// The sum of the losses of the judged moves.
    pub total_loss: i64,
}

impl AnalysisTally {
    /// The average loss per judged move, in hundredths of a man (0 when none was judged).
    pub fn average_loss(&self) -> f64 {
        if self.judged == 0 {
            0.0
        } else {
            self.total_loss as f64 / self.judged as f64
        }
    }
}

/// A whole game analysed: one [`PlyAnalysis`] per ply, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameAnalysis {
    /// Every ply.
    pub plies: Vec<PlyAnalysis>,
    /// The limits of every search.
    pub limits: Limits,
    /// The thresholds the moves were judged by.
    pub thresholds: Thresholds,
}

impl GameAnalysis {
    /// How `side` played.
    pub fn tally(&self, side: Color) -> AnalysisTally {
        let mut t = AnalysisTally::default();
        for p in self.plies.iter().filter(|p| p.side == side) {
            t.moves += 1;
            if p.forced {
                continue;
            }
            t.judged += 1;
            t.total_loss += p.loss as i64;
            match p.judgement {
                Some(Judgement::Inaccuracy) => t.inaccuracies += 1,
                Some(Judgement::Mistake) => t.mistakes += 1,
                Some(Judgement::Blunder) => t.blunders += 1,
                None => {}
            }
        }
        t
    }
}

/// Analyses games ply by ply with one engine (its tables carry over from
/// one position to the next).
#[derive(Debug)]
pub struct Analyzer {
    engine: Engine,
    limits: Limits,
    thresholds: Thresholds,
}

impl Analyzer {
    /// An analyzer for `rules` searching every position within `limits`,
    /// with the default [`Thresholds`].
    pub fn new(rules: &Rules, limits: Limits) -> Analyzer {
        Analyzer {
            engine: Engine::new(rules),
            limits,
            thresholds: Thresholds::default(),
        }
    }

    /// Searches with `engine` (set up with tables, weights, switches) instead
    /// of a new one; it must be for the rules of the games analysed.
    pub fn with_engine(mut self, engine: Engine) -> Analyzer {
        self.engine = engine;
        self
    }

    /// Judges moves by `thresholds` instead.
    pub fn with_thresholds(mut self, thresholds: Thresholds) -> Analyzer {
        self.thresholds = thresholds;
        self
    }

    /// The engine, to give it endgame tables ([`Engine::set_tables`]) for example.
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// Analyses every ply of `game` (whose rules must be the analyzer's),
    /// calling `progress` with each ply's analysis and the number of plies
    /// as soon as it is done.
    pub fn analyze(&mut self, game: &Game, progress: &mut dyn FnMut(&PlyAnalysis, usize)) -> GameAnalysis {
        let rules = game.shared_rules();
        let total = game.ply_count();
        // The game replayed move by move, so that each search knows the
        // history (repetitions, the draw clock) as the game did.
        let mut so_far = Game::from_position(rules.clone(), *game.start_position());
        let mut plies = Vec::with_capacity(total);
        for (index, ply) in game.plies().iter().enumerate() {
            let root = SearchRoot::from_game(&so_far);
            let forced = so_far.legal_moves().len() <= 1;
            let best = self.engine.search(&root, &self.limits);
            let mut nodes = best.nodes;
            let best_move = best.best.unwrap_or(ply.mv);
            let (played_score, loss, judgement) = if forced || best_move.same_identity(&ply.mv) {
                (best.score, 0, None)
            } else {
                match self.engine.search_move(&root, &self.limits, &ply.mv) {
                    Some(r) => {
                        nodes += r.nodes;
                        let (judgement, loss) = self.thresholds.judge(best.score, r.score);
                        (r.score, loss, judgement)
                    }
                    // Not a legal move here: the game would not hold it.
                    None => (best.score, 0, None),
                }
            };
            let a = PlyAnalysis {
                index,
                move_number: game.move_number_of(index),
                side: ply.side(),
                before: ply.before,
                played: ply.mv,
                notation: ply.notation.clone(),
                best: best_move,
                best_notation: rules.format_move_short(&ply.before, &best_move),
                best_line: line_text(&rules, &ply.before, &best.pv, MAX_LINE),
                best_score: best.score,
                played_score,
                loss,
                forced,
                judgement,
                depth: best.depth,
                nodes,
            };
            progress(&a, total);
            plies.push(a);
            // A record that went on past an end the rules gave (a repetition
            // nobody claimed) goes on past it here too.
            if so_far.is_over() && game.passed_end().is_some() {
                let _ = so_far.go_past_end();
            }
            if so_far.play(ply.mv).is_err() {
                // The game's own plies are legal; stop rather than analyse a different game.
                break;
            }
        }
        GameAnalysis {
            plies,
            limits: self.limits.clone(),
            thresholds: self.thresholds,
        }
    }
}

/// Analyses every ply of `game` within `limits`, with the default
/// [`Thresholds`] (see [`Analyzer`] for progress reports and other thresholds).
pub fn analyze_game(game: &Game, limits: &Limits) -> GameAnalysis {
    Analyzer::new(game.rules(), limits.clone()).analyze(game, &mut |_, _| {})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(rules: &Rules, fen: Option<&str>, moves: &[&str]) -> Game {
        let mut g = match fen {
            Some(f) => Game::from_position(rules.clone(), rules.parse_fen(f).unwrap()),
            None => Game::new(rules.clone()),
        };
        for m in moves {
            g.play_text(m).unwrap();
        }
        g
    }

    #[test]
    fn a_blunder_is_marked() {
        let rules = Rules::builtin("russian").unwrap();
        // Black's last man steps before White's man on h4, which takes it:
        // Black has no piece left and loses; f6-e5 was safe.
        let g = game(&rules, Some("B:Wh4,a1:Bf6"), &["f6-g5", "h4xf6"]);
        assert!(g.is_over());
        let a = analyze_game(&g, &Limits::depth(4));
        assert_eq!(a.plies.len(), 2);
        let black = &a.plies[0];
        assert!(!black.forced);
        assert!(!black.is_best(), "{black:?}");
        assert_eq!(black.best_notation, "f6-e5");
        assert_eq!(black.judgement, Some(Judgement::Blunder), "{black:?}");
        assert!(black.played_score < -MATE_BOUND, "{black:?}");
        assert!(black.loss >= 200, "{black:?}");
        assert_eq!(a.tally(Color::Black).blunders, 1);
        // White's capture was its only legal move.
        assert!(a.plies[1].forced);
        assert_eq!(a.plies[1].judgement, None);
    }

    #[test]
    fn a_lost_man_is_a_mistake_or_worse() {
        let rules = Rules::builtin("russian").unwrap();
        // Black's f6-g5 gives a man for nothing (h4xf6); h8-g7 keeps it.
        let g = game(&rules, Some("B:Wh4,c3,a1:Bf6,h8,b8"), &["f6-g5"]);
        let a = analyze_game(&g, &Limits::depth(6));
        let p = &a.plies[0];
        assert!(!p.is_best(), "{p:?}");
        assert!(p.loss >= 80, "{p:?}");
        assert!(p.judgement >= Some(Judgement::Mistake), "{p:?}");
    }

    #[test]
    fn a_forced_move_is_not_judged() {
        let rules = Rules::builtin("russian").unwrap();
        // White's only move is the capture c3xe5xg7; then Black's h8 takes it back.
        let g = game(&rules, Some("W:Wc3,g1:Bd4,f6,h8"), &["c3xe5xg7", "h8xf6"]);
        let a = analyze_game(&g, &Limits::depth(4));
        assert!(a.plies[0].forced, "{:?}", a.plies[0]);
        assert_eq!(a.plies[0].judgement, None);
        assert_eq!(a.plies[0].loss, 0);
        assert!(a.plies[0].is_best());
        let t = a.tally(Color::White);
        assert_eq!((t.moves, t.judged), (1, 0));
    }

    #[test]
    fn the_best_move_loses_nothing() {
        let rules = Rules::builtin("dama").unwrap();
        let g = game(&rules, None, &["d3-d4"]);
        let a = analyze_game(&g, &Limits::depth(2));
        let p = &a.plies[0];
        // Whatever the engine prefers, the played move's score is no better than the best.
        assert!(p.played_score <= p.best_score || p.is_best(), "{p:?}");
        assert_eq!(p.best_line.first(), Some(&p.best_notation));
        assert_eq!(p.white_score(), p.played_score);
    }

    #[test]
    fn thresholds_and_forced_results() {
        let t = Thresholds::default();
        assert_eq!(t.judge(0, -29).0, None);
        assert_eq!(t.judge(0, -30).0, Some(Judgement::Inaccuracy));
        assert_eq!(t.judge(0, -80).0, Some(Judgement::Mistake));
        assert_eq!(t.judge(0, -200).0, Some(Judgement::Blunder));
        // Walking into a forced loss is a blunder even when already far behind.
        assert_eq!(
            t.judge(-5 * LOSS_CAP, -(dama_engine::search::MATE - 12)).0,
            Some(Judgement::Blunder)
        );
        // Losing more slowly than the best defence is no fault.
        let m = dama_engine::search::MATE;
        assert_eq!(t.judge(-(m - 20), -(m - 8)), (None, 0));
        let strict = Thresholds {
            inaccuracy: 5,
            mistake: 10,
            blunder: 15,
        };
        assert_eq!(strict.judge(0, -12).0, Some(Judgement::Mistake));
    }

    #[test]
    fn progress_is_reported_per_ply() {
        let rules = Rules::builtin("dama").unwrap();
        let g = game(&rules, None, &["d3-d4", "a6-a5", "c3-c4"]);
        let mut seen = Vec::new();
        let a = Analyzer::new(&rules, Limits::depth(2)).analyze(&g, &mut |p, total| seen.push((p.index, total)));
        assert_eq!(seen, [(0, 3), (1, 3), (2, 3)]);
        assert_eq!(a.plies.iter().map(|p| p.move_number).collect::<Vec<_>>(), [1, 1, 2]);
    }
}
