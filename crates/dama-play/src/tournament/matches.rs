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
//!
//! [`play_match_with`] adds to that ([`MatchOptions`]): games on several
//! threads, openings from a list, and a sequential test that stops the
//! match. Threads do not change the games: game `g` takes its opening
//! (drawn pair after pair, in order, as the games are dealt), its random moves
//! and its engines' seeds from `g` alone, and every game starts with
//! cleared engines, so any number of threads plays the same games, reported
//! in index order. The statistics ([`EloEstimate`], [`Sprt`]) count pairs
//! (game `2k` and `2k+1`) when the games come in complete pairs.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use super::elo::{EloEstimate, ResultCounts};
use super::openings::Opening;
use super::sprt::{Sprt, SprtDecision, SprtStatus};
use dama_engine::egtb::Tablebase;
use dama_engine::{
    random_move, Color, EndReason, Engine, EvalWeights, Game, GameResult, Limits, Move, Outcome, Position, Rng, Rules,
    SearchOptions, SearchRoot,
};

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
    /// The engine's search switches.
    pub search: SearchOptions,
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

/// How far a match has gone, after each game. Games are reported in index
/// order, each as soon as it and all before it have finished (with several
/// threads a game that finishes early waits for those before it).
#[derive(Debug, Clone, Copy)]
pub struct MatchProgress<'a> {
    /// The game just played.
    pub last: &'a MatchGame,
    /// Its index in the match (0-based).
    pub index: u32,
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
    /// What its moves cost player A and player B.
    pub costs: [MoveCost; 2],
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
    /// The games, in the order played (none with
    /// [`MatchOptions::forget_games`]).
    pub games: Vec<MatchGame>,
    /// How many games the report counts (`games.len()` unless they were
    /// forgotten).
    pub played: usize,
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
    /// Pairs of games by the points player A scored in them (0, ½, 1, 1½,
    /// 2), when the games come in complete pairs.
    pub pairs: Option<[u32; 5]>,
    /// The Elo difference of A over B with its 95% interval and LOS: from
    /// the pairs when there are any, else from the games one by one.
    pub elo: EloEstimate,
    /// The sequential test, when one was asked for: its state after the
    /// last complete pair.
    pub sprt: Option<SprtStatus>,
    /// The number of threads the games were played on.
    pub threads: usize,
}

/// How to play a match besides what [`MatchConfig`] says.
#[derive(Debug, Clone, Default)]
pub struct MatchOptions {
    /// Games played at once, one per thread; 0 = one per core
    /// ([`std::thread::available_parallelism`]).
    pub threads: usize,
    /// Openings to play instead of random plies from the start position:
    /// pair `k` plays opening `k mod len` (each twice, colours swapped).
    pub openings: Vec<Opening>,
    /// A sequential test checked after every complete pair, in index
    /// order: when it decides, the match ends there. Games beyond that pair
    /// that were already being played are finished and left out of the
    /// report, so the result does not depend on the number of threads.
    pub sprt: Option<Sprt>,
    /// Keep no game in the report ([`MatchReport::games`] is empty; the
    /// statistics are counted as the games come): each game is only seen
    /// by the `progress` callback, which may write it out. The memory a
    /// match takes then does not grow with the number of games.
    pub forget_games: bool,
}

/// What the moves of one game cost a player.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MoveCost {
    /// Moves chosen (openings not counted).
    pub moves: u64,
    /// Time spent choosing them.
    pub thinking: Duration,
    /// The longest time spent on one move.
    pub longest: Duration,
}

/// One side of the match while it is played (one per thread).
struct Side {
    engine: Option<(Engine, Limits)>,
}

impl Side {
    /// The engine of `player`, if it is one.
    fn new(player: &MatchPlayer, rules: &Rules, tables: Option<&std::path::Path>) -> Side {
        Side {
            engine: match &player.contestant {
                Contestant::Engine(limits) => {
                    let mut engine = Engine::new(rules);
                    engine.set_tables(tables.map(|d| Tablebase::open(rules, d)));
                    if let Some(w) = &player.weights {
                        engine.set_weights(w);
                    }
                    engine.set_search_options(player.search);
                    Some((engine, limits.clone()))
                }
                Contestant::Random => None,
            },
        }
    }
}

/// The two players of a match ready to play its games, one game after
/// another (a thread's, a worker's): game `g` is the same whoever plays
/// it, and whatever was played before.
pub struct MatchSides {
    sides: [Side; 2],
}

impl std::fmt::Debug for MatchSides {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MatchSides").finish_non_exhaustive()
    }
}

impl MatchSides {
    /// The players of `config`, with its tables.
    pub fn new(rules: &Rules, config: &MatchConfig) -> MatchSides {
        let tables = config.tables.as_deref();
        MatchSides {
            sides: [
                Side::new(&config.players[0], rules, tables),
                Side::new(&config.players[1], rules, tables),
            ],
        }
    }

    /// Game `g` of the match from `opening` (that of its pair,
    /// [`match_openings`]): its colours and seeds come from `g` alone, and
    /// the engines are cleared first.
    pub fn play(&mut self, rules: &Arc<Rules>, config: &MatchConfig, opening: &Opening, g: u32) -> MatchGame {
        play_indexed(rules, config, opening, g, &mut self.sides)
    }
}

/// Plays the match `config` describes under `rules`, calling `progress`
/// after every game.
///
/// ```
/// use dama_engine::{Limits, Rules};
/// use dama_play::{play_match, Contestant, MatchConfig, MatchPlayer};
///
/// let rules = Rules::builtin("dama").unwrap();
/// let player = |contestant, name: &str| MatchPlayer { contestant, name: name.to_string(), weights: None, search: Default::default() };
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
    progress: impl FnMut(&MatchProgress),
) -> MatchReport {
    play_match_with(rules, config, &MatchOptions::default(), progress)
}

/// Plays the match `config` describes under `rules` as `options` say (on
/// several threads, from a list of openings, until a sequential test
/// decides), calling `progress` after every game as games finish.
///
/// ```
/// use dama_engine::{Limits, Rules};
/// use dama_play::{play_match_with, Contestant, MatchConfig, MatchOptions, MatchPlayer, Sprt};
///
/// let rules = Rules::builtin("dama").unwrap();
/// let player = |contestant, name: &str| MatchPlayer { contestant, name: name.to_string(), weights: None, search: Default::default() };
/// let config = MatchConfig {
///     players: [
///         player(Contestant::Engine(Limits::depth(1)), "engine"),
///         player(Contestant::Random, "random mover"),
///     ],
///     start: rules.start_position(),
///     games: 4,
///     opening_plies: 2,
///     seed: 1,
///     max_plies: 40,
///     tables: None,
/// };
/// let options = MatchOptions { threads: 2, sprt: Some(Sprt::new(0.0, 100.0)), ..MatchOptions::default() };
/// let report = play_match_with(rules, &config, &options, |_| {});
/// // The test may decide before every game is played: the games after the
/// // pair where it decides are not reported.
/// assert!(report.games.len() == 2 || report.games.len() == 4);
/// assert!(report.pairs.is_some());
/// assert!(report.sprt.is_some());
/// ```
pub fn play_match_with(
    rules: impl Into<Arc<Rules>>,
    config: &MatchConfig,
    options: &MatchOptions,
    mut progress: impl FnMut(&MatchProgress),
) -> MatchReport {
    let rules: Arc<Rules> = rules.into();
    let total = config.games;
    let threads = match options.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .clamp(1, total.max(1) as usize);

    // Games are dealt in index order with their openings, drawn in order
    // as the pairs begin (nothing is drawn or kept ahead: memory does not
    // depend on the number of games).
    let dealer = Mutex::new(Dealer {
        next: 0,
        rng: Rng::new(config.seed),
        current: None,
    });
    let stop = AtomicBool::new(false);
    let mut collector = MatchCollector::new(config, options);
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(u32, MatchGame)>();
        for _ in 0..threads {
            let tx = tx.clone();
            let (rules, dealer, stop) = (&rules, &dealer, &stop);
            scope.spawn(move || {
                let mut sides = MatchSides::new(rules, config);
                while !stop.load(Ordering::Relaxed) {
                    let Some((g, opening)) = deal(dealer, rules, config, options, total) else {
                        break;
                    };
                    let game = sides.play(rules, config, &opening, g);
                    if tx.send((g, game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (g, game) in rx {
            collector.add(g, game, &mut progress);
            if collector.decided() {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    collector.report(threads)
}

/// The games of a match as they come, from threads, processes or machines
/// in any order: it reports them in index order, counts the statistics and
/// runs the sequential test, and says when the match needs no more games.
/// [`play_match_with`] plays a match through one; a front end that spreads
/// the games over machines ([`match_openings`], [`MatchSides::play`]) does
/// the same and gets the same report.
#[derive(Debug)]
pub struct MatchCollector {
    config: MatchConfig,
    sprt: Option<Sprt>,
    forget_games: bool,
    began: Instant,
    total: u32,
    // Games finished before an earlier one, waiting to be reported in order.
    waiting: BTreeMap<u32, MatchGame>,
    stats: Running,
    games: Vec<MatchGame>,
    // The games kept: all, or those up to the pair where the test decided.
    kept: usize,
    reported: usize,
    pairs: [u32; 5],
    tested_pairs: usize,
    // The score of the first game of the pair being tested, once in.
    pair_first: Option<f64>,
    sprt_status: Option<SprtStatus>,
}

impl MatchCollector {
    /// A collector for the match `config` describes, played as `options`
    /// say (its test and [`MatchOptions::forget_games`]; the threads and
    /// openings are the player's business).
    pub fn new(config: &MatchConfig, options: &MatchOptions) -> MatchCollector {
        MatchCollector {
            config: config.clone(),
            sprt: options.sprt,
            forget_games: options.forget_games,
            began: Instant::now(),
            total: config.games,
            waiting: BTreeMap::new(),
            stats: Running::default(),
            games: Vec::new(),
            kept: config.games as usize,
            reported: 0,
            pairs: [0; 5],
            tested_pairs: 0,
            pair_first: None,
            sprt_status: options.sprt.map(|t| t.status(&ResultCounts::Pairs([0; 5]))),
        }
    }

    /// Takes game `g` (once each, in any order) and reports, in index
    /// order, every game now due: the test first (so that no game past the
    /// deciding pair is reported), then `progress`. A game past the pair
    /// where the test decided is dropped.
    pub fn add(&mut self, g: u32, game: MatchGame, progress: &mut impl FnMut(&MatchProgress)) {
        if (g as usize) < self.kept && g as usize >= self.reported {
            self.waiting.insert(g, game);
        }
        while self.reported < self.kept {
            let Some(game) = self.waiting.remove(&(self.reported as u32)) else {
                break;
            };
            if let Some(test) = self.sprt.filter(|_| self.kept == self.total as usize) {
                match self.pair_first.take() {
                    None if self.reported + 1 < self.total as usize => self.pair_first = Some(game.a_score()),
                    None => {}
                    Some(first) => {
                        self.pairs[((first + game.a_score()) * 2.0).round() as usize] += 1;
                        self.tested_pairs += 1;
                        let status = test.status(&ResultCounts::Pairs(self.pairs));
                        self.sprt_status = Some(status);
                        if status.decision != SprtDecision::Inconclusive {
                            self.kept = 2 * self.tested_pairs;
                        }
                    }
                }
            }
            self.stats.add(&game, game.costs);
            self.reported += 1;
            progress(&MatchProgress {
                last: &game,
                index: self.reported as u32 - 1,
                played: self.reported as u32,
                games: self.total,
                tally: self.stats.tally,
                elapsed: self.began.elapsed(),
            });
            if !self.forget_games {
                self.games.push(game);
            }
        }
        // Past the decision, later games are dropped as they come.
        if self.reported >= self.kept {
            self.waiting.clear();
        }
    }

    /// Whether the match needs no more games: every game is reported, or
    /// the test decided and every game up to its pair is.
    pub fn decided(&self) -> bool {
        self.reported >= self.kept
    }

    /// Whether game `g` is still wanted (not past the pair where the test
    /// decided, nor reported already).
    pub fn wants(&self, g: u32) -> bool {
        (g as usize) < self.kept && g as usize >= self.reported && !self.waiting.contains_key(&g)
    }

    /// The report of the games reported, played on `threads` threads
    /// (workers).
    pub fn report(self, threads: usize) -> MatchReport {
        let elapsed = self.began.elapsed();
        self.stats
            .report(&self.config, self.games, elapsed, self.sprt_status, threads)
    }
}

/// The openings of the first `pairs` pairs of a match, drawn as
/// [`play_match_with`] draws them: random plies from the start position
/// (one draw of the match's generator after another), or
/// `options.openings` in turn. Pair `k` (games `2k` and `2k + 1`) plays
/// opening `k`.
pub fn match_openings(rules: &Rules, config: &MatchConfig, options: &MatchOptions, pairs: u32) -> Vec<Opening> {
    let mut rng = Rng::new(config.seed);
    (0..pairs)
        .map(|k| draw_opening(rules, config, options, k, &mut rng))
        .collect()
}

/// The opening of pair `k`.
fn draw_opening(rules: &Rules, config: &MatchConfig, options: &MatchOptions, k: u32, rng: &mut Rng) -> Opening {
    if options.openings.is_empty() {
        Opening {
            start: config.start,
            moves: random_opening(rules, &config.start, config.opening_plies, rng),
        }
    } else {
        options.openings[k as usize % options.openings.len()].clone()
    }
}

/// Deals games in index order: the next index and its opening.
struct Dealer {
    /// The next game's index.
    next: u32,
    /// The random openings' generator, drawn pair after pair.
    rng: Rng,
    /// The opening of the pair being dealt.
    current: Option<Opening>,
}

/// The next game to play and its opening, or `None` when all are dealt.
fn deal(
    dealer: &Mutex<Dealer>,
    rules: &Rules,
    config: &MatchConfig,
    options: &MatchOptions,
    total: u32,
) -> Option<(u32, Opening)> {
    let mut d = dealer.lock().unwrap_or_else(|e| e.into_inner());
    let g = d.next;
    if g >= total {
        return None;
    }
    d.next += 1;
    if g % 2 == 0 || d.current.is_none() {
        let opening = draw_opening(rules, config, options, g / 2, &mut d.rng);
        d.current = Some(opening);
    }
    d.current.clone().map(|o| (g, o))
}

/// The statistics of the games reported so far, counted as they come.
#[derive(Debug, Default)]
struct Running {
    games: usize,
    tally: MatchTally,
    costs: [MoveCost; 2],
    white_wins: u32,
    black_wins: u32,
    plies: u64,
    shortest: Option<usize>,
    longest: usize,
    endings: Vec<MatchEnding>,
    pairs: [u32; 5],
    /// Player A's score in the first game of an incomplete pair.
    pair_first: Option<f64>,
}

impl Running {
    /// Counts one more game, in index order.
    fn add(&mut self, game: &MatchGame, cost: [MoveCost; 2]) {
        for (total, c) in self.costs.iter_mut().zip(cost) {
            total.moves += c.moves;
            total.thinking += c.thinking;
            total.longest = total.longest.max(c.longest);
        }
        match game.outcome.result.winner() {
            Some(c) if c == game.a_color => self.tally.wins += 1,
            Some(_) => self.tally.losses += 1,
            None => self.tally.draws += 1,
        }
        match game.outcome.result {
            GameResult::WhiteWins => self.white_wins += 1,
            GameResult::BlackWins => self.black_wins += 1,
            GameResult::Draw => {}
        }
        let plies = game.game.ply_count();
        self.plies += plies as u64;
        self.shortest = Some(self.shortest.map_or(plies, |s| s.min(plies)));
        self.longest = self.longest.max(plies);
        let reason = reason_kind(&game.outcome.reason);
        match self.endings.iter_mut().find(|e| e.reason == reason) {
            Some(e) => e.games += 1,
            None => self.endings.push(MatchEnding { reason, games: 1 }),
        }
        match self.pair_first.take() {
            None => self.pair_first = Some(game.a_score()),
            Some(first) => self.pairs[((first + game.a_score()) * 2.0).round() as usize] += 1,
        }
        self.games += 1;
    }

    /// The report of a match that counted these games (`games`: those
    /// kept, if any).
    fn report(
        mut self,
        config: &MatchConfig,
        games: Vec<MatchGame>,
        elapsed: Duration,
        sprt: Option<SprtStatus>,
        threads: usize,
    ) -> MatchReport {
        let tally = self.tally;
        let pairs = (self.games > 0 && self.games % 2 == 0).then_some(self.pairs);
        let elo = EloEstimate::from_counts(&match pairs {
            Some(p) => ResultCounts::Pairs(p),
            None => ResultCounts::Games {
                wins: tally.wins,
                draws: tally.draws,
                losses: tally.losses,
            },
        });
        let n = self.games.max(1) as f64;
        // Why games ended, most frequent first.
        self.endings
            .sort_by(|a, b| b.games.cmp(&a.games).then(a.reason.cmp(&b.reason)));
        let costs = self.costs;
        let players = [0, 1].map(|i| MatchPlayerStats {
            player: config.players[i].clone(),
            moves: costs[i].moves,
            thinking: costs[i].thinking,
            longest: costs[i].longest,
        });
        MatchReport {
            white_wins: self.white_wins,
            black_wins: self.black_wins,
            score: (f64::from(tally.wins) + f64::from(tally.draws) / 2.0) / n,
            draw_rate: f64::from(tally.draws) / n,
            average_plies: self.plies as f64 / n,
            shortest_plies: self.shortest.unwrap_or(0),
            longest_plies: self.longest,
            endings: self.endings,
            tally,
            elapsed,
            players,
            played: self.games,
            games,
            pairs,
            elo,
            sprt,
            threads,
        }
    }
}

/// Game `g` of the match from `opening`: its colours, its seeds, the game.
fn play_indexed(
    rules: &Arc<Rules>,
    config: &MatchConfig,
    opening: &Opening,
    g: u32,
    sides: &mut [Side; 2],
) -> MatchGame {
    // A plays White in the first game of each pair.
    let a_color = if g % 2 == 0 { Color::White } else { Color::Black };
    let mut rng = Rng::new(config.seed ^ (u64::from(g) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    for s in sides.iter_mut() {
        if let Some((e, _)) = s.engine.as_mut() {
            e.clear();
            e.set_seed(rng.next_u64());
        }
    }
    let mut cost = [MoveCost::default(); 2];
    let game = play_game(rules, opening, a_color, sides, &mut cost, &mut rng, config.max_plies);
    let outcome = game
        .outcome()
        .unwrap_or(Outcome::new(GameResult::Draw, EndReason::PlyLimit(config.max_plies)));
    MatchGame {
        game,
        a_color,
        outcome,
        costs: cost,
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
    opening: &Opening,
    a_color: Color,
    sides: &mut [Side; 2],
    cost: &mut [MoveCost; 2],
    rng: &mut Rng,
    max_plies: u32,
) -> Game {
    let mut game = Game::from_position(Arc::clone(rules), opening.start);
    for m in &opening.moves {
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
        let who = usize::from(to_move != a_color);
        let side = &mut sides[who];
        let t = Instant::now();
        let m = match side.engine.as_mut() {
            Some((e, limits)) => e.search(&SearchRoot::from_game(&game), limits).best,
            None => random_move(rules, game.position(), rng),
        };
        let spent = t.elapsed();
        let c = &mut cost[who];
        c.thinking += spent;
        c.longest = c.longest.max(spent);
        c.moves += 1;
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
                    search: SearchOptions::default(),
                },
                MatchPlayer {
                    contestant: b,
                    name: "B".into(),
                    weights: None,
                    search: SearchOptions::default(),
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

    /// A match spread over workers: the openings drawn up front, the games
    /// played in any order by players of their own, collected: the games,
    /// the tally and the test's verdict are those of one match.
    #[test]
    fn games_played_apart_and_collected_make_the_same_match() {
        let rules = Arc::new(Rules::builtin("dama").unwrap());
        let c = config(
            &rules,
            Contestant::Engine(Limits::depth(1)),
            Contestant::Random,
            40,
            120,
        );
        for sprt in [None, Some(Sprt::new(0.0, 100.0)), Some(Sprt::new(300.0, 400.0))] {
            let options = MatchOptions {
                threads: 1,
                sprt,
                ..MatchOptions::default()
            };
            let whole = play_match_with(Arc::clone(&rules), &c, &options, |_| {});
            let openings = match_openings(&rules, &c, &options, c.games.div_ceil(2));
            let mut collector = MatchCollector::new(&c, &options);
            let mut seen = Vec::new();
            // Backwards, each by players that played other games before.
            let mut sides = MatchSides::new(&rules, &c);
            for g in (0..c.games).rev() {
                let game = sides.play(&rules, &c, &openings[(g / 2) as usize], g);
                collector.add(g, game, &mut |p| seen.push(p.index));
            }
            assert!(collector.decided());
            let apart = collector.report(2);
            let moves = |r: &MatchReport| -> Vec<Vec<Move>> {
                r.games
                    .iter()
                    .map(|g| g.game.plies().iter().map(|p| p.mv).collect())
                    .collect()
            };
            assert_eq!(moves(&whole), moves(&apart));
            assert_eq!(whole.tally, apart.tally);
            assert_eq!(seen, (0..whole.played as u32).collect::<Vec<_>>());
            assert_eq!(whole.sprt.map(|s| s.decision), apart.sprt.map(|s| s.decision));
            if sprt.is_some() {
                // The engine beats the random mover: either test decides
                // before the 40th game, and the games after it are dropped.
                assert!(whole.played < c.games as usize, "{}", whole.played);
            }
        }
    }

    #[test]
    fn any_number_of_threads_plays_the_same_games() {
        let rules = Arc::new(Rules::builtin("dama").unwrap());
        let c = config(
            &rules,
            Contestant::Engine(Limits::depth(2)),
            Contestant::Engine(Limits::depth(1)),
            6,
            60,
        );
        let plies = |r: &MatchReport| -> Vec<Vec<Move>> {
            r.games
                .iter()
                .map(|g| g.game.plies().iter().map(|p| p.mv).collect())
                .collect()
        };
        let with = |threads| MatchOptions {
            threads,
            ..MatchOptions::default()
        };
        let mut seen = Vec::new();
        let one = play_match_with(Arc::clone(&rules), &c, &with(1), |p| seen.push(p.index));
        let three = play_match_with(Arc::clone(&rules), &c, &with(3), |_| {});
        assert_eq!(seen, [0, 1, 2, 3, 4, 5]);
        assert_eq!(three.threads, 3);
        assert_eq!(plies(&one), plies(&three));
        assert_eq!(one.tally, three.tally);
        assert_eq!(one.pairs, three.pairs);
        assert_eq!(one.pairs.map(|p| p.iter().sum::<u32>()), Some(3));
        assert_eq!(one.players[0].moves, three.players[0].moves);
        // The old entry point plays the same games too.
        assert_eq!(plies(&play_match(Arc::clone(&rules), &c, |_| {})), plies(&one));
    }

    #[test]
    fn a_decided_test_ends_the_match_at_the_same_pair_for_any_threads() {
        let rules = Arc::new(Rules::builtin("dama").unwrap());
        // Depth 2 against a random mover wins nearly everything: H1 of a
        // large margin is accepted long before 200 games.
        let c = config(
            &rules,
            Contestant::Engine(Limits::depth(2)),
            Contestant::Random,
            200,
            120,
        );
        let with = |threads| MatchOptions {
            threads,
            sprt: Some(Sprt::new(0.0, 200.0)),
            ..MatchOptions::default()
        };
        let one = play_match_with(Arc::clone(&rules), &c, &with(1), |_| {});
        let two = play_match_with(Arc::clone(&rules), &c, &with(2), |_| {});
        let st = one.sprt.unwrap();
        assert_eq!(st.decision, SprtDecision::H1);
        assert!(st.llr >= st.upper);
        assert!(one.games.len() < 200 && one.games.len() % 2 == 0);
        assert_eq!(one.games.len(), two.games.len());
        assert_eq!(one.tally, two.tally);
        assert_eq!(one.sprt, two.sprt);
        assert_eq!(one.pairs.unwrap().iter().sum::<u32>() as usize * 2, one.games.len());
    }

    #[test]
    fn openings_from_a_list_are_cycled_and_played_with_both_colours() {
        let rules = Arc::new(Rules::builtin("dama").unwrap());
        let c = config(&rules, Contestant::Random, Contestant::Random, 5, 20);
        let list = crate::tournament::read_openings(
            &rules,
            "W:Wa3,b3,c3:Ba6,b6,c6
B:Wa2,b3:Ba7,b6
",
        )
        .unwrap();
        let options = MatchOptions {
            openings: list.clone(),
            ..MatchOptions::default()
        };
        let r = play_match_with(Arc::clone(&rules), &c, &options, |_| {});
        let starts: Vec<Position> = r.games.iter().map(|g| *g.game.start_position()).collect();
        let (x, y) = (list[0].start, list[1].start);
        assert_eq!(starts, [x, x, y, y, x]);
        // Five games: no complete pairs, the games one by one.
        assert_eq!(r.pairs, None);
        assert_eq!(r.elo.model, crate::tournament::ScoreModel::Trinomial);
    }

    #[test]
    fn a_match_that_forgets_its_games_reports_the_same() {
        let rules = Arc::new(Rules::builtin("dama").unwrap());
        let c = config(&rules, Contestant::Engine(Limits::depth(1)), Contestant::Random, 7, 40);
        let moves = |g: &MatchGame| g.game.plies().iter().map(|p| p.mv).collect::<Vec<_>>();
        let with = |forget_games| MatchOptions {
            threads: 2,
            forget_games,
            ..MatchOptions::default()
        };
        let kept = play_match_with(Arc::clone(&rules), &c, &with(false), |_| {});
        let mut seen = Vec::new();
        let forgot = play_match_with(Arc::clone(&rules), &c, &with(true), |p| seen.push(moves(p.last)));
        assert!(forgot.games.is_empty());
        assert_eq!((kept.played, forgot.played), (7, 7));
        assert_eq!(seen, kept.games.iter().map(moves).collect::<Vec<_>>());
        assert_eq!(kept.tally, forgot.tally);
        assert_eq!(kept.endings, forgot.endings);
        assert_eq!(kept.pairs, forgot.pairs);
        assert_eq!(
            (kept.white_wins, kept.black_wins),
            (forgot.white_wins, forgot.black_wins)
        );
        assert_eq!(
            (kept.shortest_plies, kept.longest_plies),
            (forgot.shortest_plies, forgot.longest_plies)
        );
        assert_eq!(kept.average_plies, forgot.average_plies);
        assert_eq!(kept.elo.elo, forgot.elo.elo);
        assert_eq!(kept.players[0].moves, forgot.players[0].moves);
    }

    #[test]
    fn endings_name_no_side() {
        assert_eq!(reason_kind(&EndReason::NoPieces(Color::White)), "no pieces left");
        assert_eq!(reason_kind(&EndReason::PlyLimit(12)), "move limit (12 plies)");
        assert_eq!(reason_kind(&EndReason::Threefold), "threefold repetition");
    }
}
