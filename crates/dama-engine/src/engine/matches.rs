//! Matches: two players, the engine or a random mover, play a series of
//! games with colors alternating, from varied openings, and the tally.
//!
//! Player A is `players[0]` of the [`MatchConfig`], player B `players[1]`;
//! A has White in the first game of every pair and Black in the second,
//! and both games of a pair start from the same random opening. The tally
//! is for player A. Every game ends: besides the variant's own end rules, a
//! ply cap adjudicates a draw ([`EndReason::PlyLimit`]).
//!
//! Everything random comes from the seed: the openings, the random mover's
//! moves and the engines' variety, so a match played twice with the same
//! configuration (and limits that do not depend on time) plays the same
//! games.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::board::{Color, Move, Position};
use crate::egtb::Tablebase;
use crate::engine::{Engine, EvalWeights, Limits, SearchRoot};
use crate::game::{EndReason, Game, GameResult, Outcome};
use crate::movegen::random_move;
use crate::rules::Rules;
use crate::util::Rng;

/// Who plays a side of a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contestant {
    /// The search engine, thinking within these limits.
    Engine(Limits),
    /// Picks a legal move uniformly at random.
    Random,
}

/// A player of a match: who plays, and the name reports and game records
/// give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchPlayer {
    /// Who plays.
    pub contestant: Contestant,
    /// The name, for reports and the White and Black tags of records.
    pub name: String,
    /// The engine's evaluation weights; `None`: the engine's own
    /// ([`EvalWeights::for_rules`]).
    pub weights: Option<EvalWeights>,
}

/// A match to play.
#[derive(Debug, Clone)]
pub struct MatchConfig {
    /// Player A (White in the first game of every pair) and player B.
    pub players: [MatchPlayer; 2],
    /// The position every game starts from (before its opening).
    pub start: Position,
    /// Number of games.
    pub games: u32,
    /// Random plies played from `start` at the beginning of each pair of
    /// games, for variety (fewer when the game would end).
    pub opening_plies: u32,
    /// Seed of the openings, the random movers and the engines' variety.
    pub seed: u64,
    /// A game still going after this many plies is a draw
    /// ([`EndReason::PlyLimit`]).
    pub max_plies: u32,
    /// The folder of endgame tables both engines play with
    /// ([`Engine::set_tables`], [`Tablebase::open`]), if any.
    pub tables: Option<std::path::PathBuf>,
}

/// Wins, draws and losses of player A.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MatchTally {
    /// Games A won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games A lost.
    pub losses: u32,
}

/// How far a match has gone, after each game.
#[derive(Debug, Clone, Copy)]
pub struct MatchProgress<'a> {
    /// The game just played.
    pub last: &'a MatchGame,
    /// Games played so far.
    pub played: u32,
    /// Games in the match.
    pub games: u32,
    /// Player A's tally so far.
    pub tally: MatchTally,
    /// Time since the match began.
    pub elapsed: Duration,
}

/// One game of a match.
#[derive(Debug, Clone)]
pub struct MatchGame {
    /// The game, ended (ready to be written as PDN).
    pub game: Game,
    /// The color player A had.
    pub a_color: Color,
    /// How it ended: the game's outcome, or a draw by the ply cap.
    pub outcome: Outcome,
}

impl MatchGame {
    /// Player A's score: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn a_score(&self) -> f64 {
        match self.outcome.result.winner() {
            Some(c) if c == self.a_color => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

/// A player and what its moves cost.
#[derive(Debug, Clone)]
pub struct MatchPlayerStats {
    /// The player.
    pub player: MatchPlayer,
    /// Moves chosen (openings not counted).
    pub moves: u64,
    /// Time spent choosing them.
    pub thinking: Duration,
    /// The longest time spent on one move.
    pub longest: Duration,
}

impl MatchPlayerStats {
    /// Average time per move, in seconds (0 without moves).
    pub fn seconds_per_move(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.thinking.as_secs_f64() / self.moves as f64
        }
    }
}

/// How many games ended one way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchEnding {
    /// The reason, without the side it names (`no legal move`,
    /// `move limit (300 plies)`, `threefold repetition`).
    pub reason: String,
    /// Games that ended so.
    pub games: u32,
}

/// What a match gave: every game and the totals. The rates divide by the
/// number of games (by 1 when there are none).
#[derive(Debug, Clone)]
pub struct MatchReport {
    /// Players A and B.
    pub players: [MatchPlayerStats; 2],
    /// The games, in the order played.
    pub games: Vec<MatchGame>,
    /// Player A's wins, draws and losses.
    pub tally: MatchTally,
    /// Player A's score: (wins + draws / 2) / games.
    pub score: f64,
    /// Draws / games.
    pub draw_rate: f64,
    /// Games White won.
    pub white_wins: u32,
    /// Games Black won.
    pub black_wins: u32,
    /// The average length of a game, in plies.
    pub average_plies: f64,
    /// The shortest game, in plies (0 without games).
    pub shortest_plies: usize,
    /// The longest game, in plies (0 without games).
    pub longest_plies: usize,
    /// Why games ended, most frequent first (ties by reason).
    pub endings: Vec<MatchEnding>,
    /// Time the match took.
    pub elapsed: Duration,
}

/// One side of the match while it is played.
struct Side {
    engine: Option<(Engine, Limits)>,
    stats: MatchPlayerStats,
}

/// Plays the match `config` describes under `rules`, calling `progress`
/// after every game.
///
/// ```
/// use dama_engine::{play_match, Contestant, Limits, MatchConfig, MatchPlayer, Rules};
///
/// let rules = Rules::builtin("dama").unwrap();
/// let player = |contestant, name: &str| MatchPlayer { contestant, name: name.to_string(), weights: None };
/// let config = MatchConfig {
///     players: [
///         player(Contestant::Engine(Limits::depth(1)), "engine"),
///         player(Contestant::Random, "random mover"),
///     ],
///     start: rules.start_position(),
///     games: 2,
///     opening_plies: 2,
///     seed: 1,
///     max_plies: 40,
///     tables: None,
/// };
/// let mut seen = 0;
/// let report = play_match(rules, &config, |p| seen = p.played);
/// assert_eq!(seen, 2);
/// assert_eq!(report.games.len(), 2);
/// let t = report.tally;
/// assert_eq!(t.wins + t.draws + t.losses, 2);
/// assert!(report.games.iter().all(|g| g.game.ply_count() <= 40));
/// ```
pub fn play_match(
    rules: impl Into<Arc<Rules>>,
    config: &MatchConfig,
    mut progress: impl FnMut(&MatchProgress),
) -> MatchReport {
    let rules: Arc<Rules> = rules.into();
    let mut sides = config.players.clone().map(|player| Side {
        engine: match &player.contestant {
            Contestant::Engine(limits) => {
                let mut engine = Engine::new(&rules);
                engine.set_tables(config.tables.as_deref().map(|d| Tablebase::open(&rules, d)));
                if let Some(w) = &player.weights {
                    engine.set_weights(w);
                }
                Some((engine, limits.clone()))
            }
            Contestant::Random => None,
        },
        stats: MatchPlayerStats {
            player,
            moves: 0,
            thinking: Duration::ZERO,
            longest: Duration::ZERO,
        },
    });
    let began = Instant::now();
    let mut games: Vec<MatchGame> = Vec::with_capacity(config.games as usize);
    let mut opening_rng = Rng::new(config.seed);
    let mut opening: Vec<Move> = Vec::new();
    let mut tally = MatchTally::default();
    for g in 0..config.games {
        // A new opening for every pair of games; A plays White in the first of the pair.
        if g % 2 == 0 {
            opening = random_opening(&rules, &config.start, config.opening_plies, &mut opening_rng);
        }
        let a_color = if g % 2 == 0 { Color::White } else { Color::Black };
        let mut rng = Rng::new(config.seed ^ (u64::from(g) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        for s in sides.iter_mut() {
            if let Some((e, _)) = s.engine.as_mut() {
                e.clear();
                e.set_seed(rng.next_u64());
            }
        }
        let game = play_game(
            &rules,
            config.start,
            &opening,
            a_color,
            &mut sides,
            &mut rng,
            config.max_plies,
        );
        let outcome = game
            .outcome()
            .unwrap_or(Outcome::new(GameResult::Draw, EndReason::PlyLimit(config.max_plies)));
        match outcome.result.winner() {
            Some(c) if c == a_color => tally.wins += 1,
            Some(_) => tally.losses += 1,
            None => tally.draws += 1,
        }
        games.push(MatchGame { game, a_color, outcome });
        let Some(last) = games.last() else { continue };
        progress(&MatchProgress {
            last,
            played: g + 1,
            games: config.games,
            tally,
            elapsed: began.elapsed(),
        });
    }
    let elapsed = began.elapsed();

    let n = games.len().max(1) as f64;
    let lengths: Vec<usize> = games.iter().map(|p| p.game.ply_count()).collect();
    // Why games ended, most frequent first.
    let mut endings: Vec<MatchEnding> = Vec::new();
    for p in &games {
        let reason = reason_kind(&p.outcome.reason);
        match endings.iter_mut().find(|e| e.reason == reason) {
            Some(e) => e.games += 1,
            None => endings.push(MatchEnding { reason, games: 1 }),
        }
    }
    endings.sort_by(|a, b| b.games.cmp(&a.games).then(a.reason.cmp(&b.reason)));
    let count = |r: GameResult| games.iter().filter(|p| p.outcome.result == r).count() as u32;
    MatchReport {
        white_wins: count(GameResult::WhiteWins),
        black_wins: count(GameResult::BlackWins),
        score: (f64::from(tally.wins) + f64::from(tally.draws) / 2.0) / n,
        draw_rate: f64::from(tally.draws) / n,
        average_plies: lengths.iter().sum::<usize>() as f64 / n,
        shortest_plies: lengths.iter().copied().min().unwrap_or(0),
        longest_plies: lengths.iter().copied().max().unwrap_or(0),
        endings,
        tally,
        elapsed,
        players: sides.map(|s| s.stats),
        games,
    }
}

/// `plies` random legal moves from `start` (fewer if the game ends).
fn random_opening(rules: &Rules, start: &Position, plies: u32, rng: &mut Rng) -> Vec<Move> {
    let mut pos = *start;
    let mut out = Vec::new();
    for _ in 0..plies {
        let Some(m) = random_move(rules, &pos, rng) else { break };
        pos.play(&m);
        out.push(m);
        // Keep openings where both sides can still move.
        if rules.legal_moves(&pos).is_empty() {
            out.pop();
            break;
        }
    }
    out
}

/// One game: the opening, then the players in turn until the game ends or
/// reaches the ply cap.
fn play_game(
    rules: &Arc<Rules>,
    start: Position,
    opening: &[Move],
    a_color: Color,
    sides: &mut [Side; 2],
    rng: &mut Rng,
    max_plies: u32,
) -> Game {
    let mut game = Game::from_position(Arc::clone(rules), start);
    for m in opening {
        if game.is_over() || game.play(*m).is_err() {
            break;
        }
    }
    while !game.is_over() {
        if game.ply_count() >= max_plies as usize {
            let _ = game.declare(Outcome::new(GameResult::Draw, EndReason::PlyLimit(max_plies)));
            break;
        }
        let to_move = game.side_to_move();
        let side = &mut sides[usize::from(to_move != a_color)];
        let t = Instant::now();
        let m = match side.engine.as_mut() {
            Some((e, limits)) => e.search(&SearchRoot::from_game(&game), limits).best,
            None => random_move(rules, game.position(), rng),
        };
        let spent = t.elapsed();
        side.stats.thinking += spent;
        side.stats.longest = side.stats.longest.max(spent);
        side.stats.moves += 1;
        let Some(m) = m else { break };
        if game.play(m).is_err() {
            // The engine only plays legal moves; stop rather than loop if that ever fails.
            break;
        }
    }
    game
}

/// The reason, without the side it names.
fn reason_kind(r: &EndReason) -> String {
    match r {
        EndReason::NoLegalMove(_) => "no legal move".into(),
        EndReason::NoPieces(_) => "no pieces left".into(),
        EndReason::Resignation(_) => "resignation".into(),
        EndReason::TimeForfeit(_) => "time forfeit".into(),
        EndReason::Crowned(_) => "crowned a king".into(),
        EndReason::PlyLimit(n) => format!("move limit ({n} plies)"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(rules: &Rules, a: Contestant, b: Contestant, games: u32, max_plies: u32) -> MatchConfig {
        MatchConfig {
            players: [
                MatchPlayer {
                    contestant: a,
                    name: "A".into(),
                    weights: None,
                },
                MatchPlayer {
                    contestant: b,
                    name: "B".into(),
                    weights: None,
                },
            ],
            start: rules.start_position(),
            games,
            opening_plies: 2,
            seed: 5,
            max_plies,
            tables: None,
        }
    }

    #[test]
    fn colors_alternate_and_the_tally_adds_up() {
        let rules = Rules::builtin("croda").unwrap();
        let c = config(&rules, Contestant::Random, Contestant::Random, 5, 12);
        let mut calls = Vec::new();
        let report = play_match(rules, &c, |p| calls.push((p.played, p.games)));
        assert_eq!(calls, [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]);
        let colors: Vec<Color> = report.games.iter().map(|g| g.a_color).collect();
        use Color::{Black, White};
        assert_eq!(colors, [White, Black, White, Black, White]);
        let t = report.tally;
        assert_eq!(t.wins + t.draws + t.losses, 5);
        let score: f64 = report.games.iter().map(MatchGame::a_score).sum();
        assert!((report.score - score / 5.0).abs() < 1e-12);
        assert_eq!(report.endings.iter().map(|e| e.games).sum::<u32>(), 5);
        for g in &report.games {
            assert!(g.game.ply_count() <= 12);
            assert_eq!(g.game.outcome(), Some(g.outcome));
        }
        // Both games of a pair start from the same opening.
        let first = |g: &MatchGame| g.game.plies().iter().take(2).map(|p| p.mv).collect::<Vec<_>>();
        assert_eq!(first(&report.games[0]), first(&report.games[1]));
        // Random movers do not think, but their moves are counted.
        assert!(report.players.iter().all(|p| p.moves > 0));
    }

    #[test]
    fn the_same_seed_plays_the_same_games() {
        let rules = Arc::new(Rules::builtin("dama").unwrap());
        let c = config(&rules, Contestant::Engine(Limits::depth(2)), Contestant::Random, 2, 60);
        let plies = |r: &MatchReport| -> Vec<Vec<Move>> {
            r.games
                .iter()
                .map(|g| g.game.plies().iter().map(|p| p.mv).collect())
                .collect()
        };
        let one = play_match(Arc::clone(&rules), &c, |_| {});
        let two = play_match(Arc::clone(&rules), &c, |_| {});
        assert_eq!(plies(&one), plies(&two));
        assert_eq!(one.tally, two.tally);
    }

    #[test]
    fn endings_name_no_side() {
        assert_eq!(reason_kind(&EndReason::NoPieces(Color::White)), "no pieces left");
        assert_eq!(reason_kind(&EndReason::PlyLimit(12)), "move limit (12 plies)");
        assert_eq!(reason_kind(&EndReason::Threefold), "threefold repetition");
    }
}
