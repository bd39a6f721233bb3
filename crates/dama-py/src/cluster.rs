//! The pieces of work `dama.cluster` spreads over a Dask cluster
//! (docs/scale.md, docs/python.md): one endgame table slice, one game of a
//! match, one chunk of self-play, and what puts a match's games back
//! together. Each is a plain function of plain values, so that a task
//! pickles small and a worker needs nothing but the rules. The engine and
//! the play tier do the work; this file converts.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use dama_engine as de;
use dama_engine::egtb::{self, EgtbError, Material};
use dama_play::{
    match_openings, Contestant, LimitsRequest, MatchCollector, MatchConfig, MatchGame, MatchOptions, MatchPlayer,
    MatchSides, MoveCost, Opening, SelfPlay, Sprt, SprtDecision,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::{Game, Rules};

create_exception!(
    dama,
    TableError,
    PyRuntimeError,
    "An endgame table that cannot be built or read: damaged, for other rules, too large, or a table it needs is missing."
);

fn table_error(e: EgtbError) -> PyErr {
    let text = e.to_string();
    match e {
        EgtbError::Missing { .. } => PyFileNotFoundError::new_err(text),
        EgtbError::Io { .. } => PyOSError::new_err(text),
        EgtbError::BadPosition(_) => PyValueError::new_err(text),
        _ => TableError::new_err(text),
    }
}

fn material(text: &str) -> PyResult<Material> {
    text.parse::<Material>().map_err(PyValueError::new_err)
}

/// The slices a build solves, in order.
fn targets(pieces: Option<u8>, material_text: Option<&str>) -> PyResult<Vec<Material>> {
    match (pieces, material_text) {
        (Some(n), None) => {
            if n == 0 || n > egtb::MAX_EGTB_PIECES {
                return Err(PyValueError::new_err(format!(
                    "pieces must be 1 to {}, not {n}",
                    egtb::MAX_EGTB_PIECES
                )));
            }
            Ok(Material::up_to(n))
        }
        (None, Some(m)) => Ok(vec![material(m)?]),
        _ => Err(PyValueError::new_err("give pieces or material, one of them")),
    }
}

/// `egtb_plan(rules, pieces=None, material=None)`: the slices a build of
/// every material up to `pieces` pieces (or of `material` and what it
/// leads to) solves, in the order it solves them, each as `(material,
/// file_name, dependencies)`: the slices it reads, earlier in the list.
/// The plan of whole material slices is the same for every variant; the
/// rules are taken so that a plan of finer parts (docs/scale.md) keeps the
/// call.
#[pyfunction]
#[pyo3(signature = (rules, pieces=None, material=None))]
#[allow(unused_variables)]
fn egtb_plan(
    rules: &Rules,
    pieces: Option<u8>,
    material: Option<&str>,
) -> PyResult<Vec<(String, String, Vec<String>)>> {
    let t = targets(pieces, material)?;
    Ok(egtb::plan(&t)
        .into_iter()
        .map(|m| {
            let deps = m.dependencies().iter().map(|d| d.to_string()).collect();
            (m.to_string(), m.file_name(), deps)
        })
        .collect())
}

/// `egtb_folder(rules)`: the name of the subfolder of a tables folder that
/// holds this variant's tables (its id, made safe for a file name).
#[pyfunction]
fn egtb_folder(rules: &Rules) -> String {
    de::text::file_safe_name(rules.v.rules.id())
}

/// `egtb_build(rules, dir, pieces=None, material=None, only=False,
/// threads=0, max_memory_mib=None)`: builds tables into `dir` as `dama
/// egtb build` does (`only`: `--material M --only`, the slice alone, the
/// tables it leads to read from `dir`). Returns `{"built": n, "tables":
/// [{material, file, positions, wins, draws, losses}, ...]}`. The GIL is
/// released while it runs.
#[pyfunction]
#[pyo3(signature = (rules, dir, pieces=None, material=None, only=false, threads=0, max_memory_mib=None))]
#[allow(clippy::too_many_arguments)]
fn egtb_build<'py>(
    py: Python<'py>,
    rules: &Rules,
    dir: PathBuf,
    pieces: Option<u8>,
    material: Option<&str>,
    only: bool,
    threads: usize,
    max_memory_mib: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let t = targets(pieces, material)?;
    if only && (material.is_none() || t.len() != 1) {
        return Err(PyValueError::new_err(
            "only=True builds the slice of `material`: give material",
        ));
    }
    let r = Arc::clone(&rules.v.rules);
    let limit = max_memory_mib.map(|m| m.saturating_mul(1024 * 1024));
    let run = move || -> Result<egtb::BuildReport, EgtbError> {
        let work = || {
            let quiet = |_: egtb::BuildProgress| {};
            if only {
                egtb::build_only(&r, &dir, t[0], limit, &quiet)
            } else {
                egtb::build_for(&r, &dir, &t, limit, &quiet)
            }
        };
        let threads = if threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            threads
        };
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(work),
            Err(_) => work(),
        }
    };
    let report = py.allow_threads(run).map_err(table_error)?;
    let out = PyDict::new(py);
    out.set_item("built", report.built)?;
    let tables = PyList::empty(py);
    for h in &report.tables {
        let d = PyDict::new(py);
        d.set_item("material", h.material.to_string())?;
        d.set_item("file", h.material.file_name())?;
        d.set_item("positions", h.positions())?;
        d.set_item("wins", h.wins)?;
        d.set_item("draws", h.draws)?;
        d.set_item("losses", h.losses)?;
        tables.append(d)?;
    }
    out.set_item("tables", tables)?;
    Ok(out)
}

/// A player of a match from its description: `{"kind": "engine" |
/// "random", "level": 1-10, "depth": n, "nodes": n, "name": str}`, the
/// engine's limits read as `dama match` reads `--level`, `--depth` and
/// `--nodes`.
fn player(d: &Bound<'_, PyDict>, default_name: &str) -> PyResult<MatchPlayer> {
    let get = |k: &str| d.get_item(k);
    let kind: String = match get("kind")? {
        Some(v) => v.extract()?,
        None => "engine".into(),
    };
    for key in d.keys() {
        let key: String = key.extract()?;
        if !["kind", "level", "depth", "nodes", "name"].contains(&key.as_str()) {
            return Err(PyValueError::new_err(format!(
                "a player has no `{key}` (kind, level, depth, nodes, name)"
            )));
        }
    }
    let name: String = match get("name")? {
        Some(v) => v.extract()?,
        None => default_name.into(),
    };
    let opt_u64 = |k: &str| -> PyResult<Option<u64>> { get(k)?.map(|v| v.extract()).transpose() };
    let level = opt_u64("level")?;
    if let Some(l) = level {
        if l == 0 || l > de::search::LEVELS as u64 {
            return Err(PyValueError::new_err(format!(
                "level must be 1 to {}, not {l}",
                de::search::LEVELS
            )));
        }
    }
    let depth = opt_u64("depth")?;
    if let Some(dp) = depth {
        if dp == 0 || dp > 100 {
            return Err(PyValueError::new_err(format!("depth must be 1 to 100, not {dp}")));
        }
    }
    let nodes = opt_u64("nodes")?;
    if nodes == Some(0) {
        return Err(PyValueError::new_err("nodes must be at least 1"));
    }
    let contestant = match kind.as_str() {
        "engine" => Contestant::Engine(
            LimitsRequest {
                level: Some(level.map_or(de::search::DEFAULT_LEVEL, |l| l as u8)),
                depth: depth.map(|d| d as u32),
                nodes,
                movetime: None,
            }
            .limits(),
        ),
        "random" => Contestant::Random,
        other => {
            return Err(PyValueError::new_err(format!(
                "a player's kind is \"engine\" or \"random\", not {other:?}"
            )))
        }
    };
    Ok(MatchPlayer {
        contestant,
        name,
        weights: None,
        search: Default::default(),
    })
}

/// A match as `dama match` plays it, from plain values.
fn config(
    py: Python<'_>,
    rules: &Rules,
    players: (Bound<'_, PyDict>, Bound<'_, PyDict>),
    games: u32,
    seed: u64,
    (opening_plies, max_plies): (u32, u32),
    start: Option<&str>,
) -> PyResult<MatchConfig> {
    if max_plies == 0 || max_plies as usize > de::Game::MAX_PLIES {
        return Err(PyValueError::new_err(format!(
            "max_plies must be 1 to {}, not {max_plies}",
            de::Game::MAX_PLIES
        )));
    }
    let start = match start {
        Some(fen) => rules.parse_fen(py, fen)?.pos,
        None => rules.v.rules.start_position(),
    };
    Ok(MatchConfig {
        players: [player(&players.0, "A")?, player(&players.1, "B")?],
        start,
        games,
        opening_plies,
        seed,
        max_plies,
        tables: None,
    })
}

/// The index of `m` among the legal moves of `pos`.
fn move_index(rules: &de::Rules, pos: &de::Position, m: &de::Move) -> usize {
    rules.legal_moves(pos).iter().position(|x| x == m).unwrap_or(usize::MAX)
}

/// Moves given by their indices among the legal moves, from `start`.
fn moves_from_indices(rules: &de::Rules, start: &de::Position, indices: &[usize]) -> PyResult<Vec<de::Move>> {
    let mut pos = *start;
    let mut out = Vec::with_capacity(indices.len());
    for (ply, &i) in indices.iter().enumerate() {
        let list = rules.legal_moves(&pos);
        let m = *list.iter().nth(i).ok_or_else(|| {
            PyValueError::new_err(format!(
                "ply {}: move {i} of {} legal moves does not exist",
                ply + 1,
                list.len()
            ))
        })?;
        pos = pos.after(&m);
        out.push(m);
    }
    Ok(out)
}

/// `match_openings(rules, pairs, seed=1, opening_plies=2, start=None,
/// openings=None)`: the openings of the first `pairs` pairs of a match, as
/// `dama match` draws them (random plies, or `openings`, a list of `Game`
/// such as `read_pdn` gives, in turn): each `(start_fen, move_indices)`.
#[pyfunction]
#[pyo3(name = "match_openings", signature = (rules, pairs, seed=1, opening_plies=2, start=None, openings=None))]
fn match_openings_of(
    py: Python<'_>,
    rules: &Rules,
    pairs: u32,
    seed: u64,
    opening_plies: u32,
    start: Option<&str>,
    openings: Option<Vec<PyRef<'_, Game>>>,
) -> PyResult<Vec<(String, Vec<usize>)>> {
    let r = &rules.v.rules;
    let start_pos = match start {
        Some(fen) => rules.parse_fen(py, fen)?.pos,
        None => r.start_position(),
    };
    let mut options = MatchOptions::default();
    for g in openings.unwrap_or_default() {
        rules.v.check(&g.v, "an opening")?;
        options.openings.push(Opening {
            start: *g.inner.start_position(),
            moves: g.inner.plies().iter().map(|p| p.mv).collect(),
        });
    }
    let player = MatchPlayer {
        contestant: Contestant::Random,
        name: String::new(),
        weights: None,
        search: Default::default(),
    };
    let c = MatchConfig {
        players: [player.clone(), player],
        start: start_pos,
        games: pairs.saturating_mul(2),
        opening_plies,
        seed,
        max_plies: 1,
        tables: None,
    };
    Ok(match_openings(r, &c, &options, pairs)
        .into_iter()
        .map(|o| {
            let mut pos = o.start;
            let idx = o
                .moves
                .iter()
                .map(|m| {
                    let i = move_index(r, &pos, m);
                    pos = pos.after(m);
                    i
                })
                .collect();
            (r.to_fen(&o.start), idx)
        })
        .collect())
}

/// A game of a match as plain values, for a task's answer: `{"index",
/// "a_color", "start", "moves" (indices among the legal moves), "result",
/// "reason", "costs": [(moves, thinking_s, longest_s)] × 2}`.
fn record<'py>(py: Python<'py>, rules: &de::Rules, g: u32, game: &MatchGame) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("index", g)?;
    d.set_item("a_color", crate::color_name(game.a_color))?;
    let start = *game.game.start_position();
    d.set_item("start", rules.to_fen(&start))?;
    let mut pos = start;
    let mut moves = Vec::with_capacity(game.game.plies().len());
    for p in game.game.plies() {
        moves.push(move_index(rules, &pos, &p.mv));
        pos = pos.after(&p.mv);
    }
    d.set_item("moves", moves)?;
    d.set_item("result", game.outcome.result.pdn())?;
    d.set_item("reason", game.outcome.reason.to_string())?;
    let costs: Vec<(u64, f64, f64)> = game
        .costs
        .iter()
        .map(|c| (c.moves, c.thinking.as_secs_f64(), c.longest.as_secs_f64()))
        .collect();
    d.set_item("costs", costs)?;
    Ok(d)
}

/// The game of a record, ended as the match ended it.
fn game_of_record(rules: &Arc<de::Rules>, rec: &Bound<'_, PyDict>, max_plies: u32) -> PyResult<(u32, MatchGame)> {
    let need = |k: &str| {
        rec.get_item(k)?
            .ok_or_else(|| PyValueError::new_err(format!("a match record has no `{k}`")))
    };
    let g: u32 = need("index")?.extract()?;
    let a_color = match need("a_color")?.extract::<String>()?.as_str() {
        "white" => de::Color::White,
        "black" => de::Color::Black,
        other => {
            return Err(PyValueError::new_err(format!(
                "a_color is white or black, not {other:?}"
            )))
        }
    };
    let fen: String = need("start")?.extract()?;
    let start = rules
        .parse_fen(&fen)
        .map_err(|e| PyValueError::new_err(format!("start: {e}")))?;
    let indices: Vec<usize> = need("moves")?.extract()?;
    let costs: Vec<(u64, f64, f64)> = need("costs")?.extract()?;
    let secs = |s: f64| Duration::try_from_secs_f64(s).unwrap_or_default();
    let mut cost = [MoveCost::default(); 2];
    for (c, (moves, thinking, longest)) in cost.iter_mut().zip(costs) {
        *c = MoveCost {
            moves,
            thinking: secs(thinking),
            longest: secs(longest),
        };
    }
    let mut game = de::Game::from_position(Arc::clone(rules), start);
    for m in moves_from_indices(rules, &start, &indices)? {
        game.play(m).map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    let limit = de::Outcome::new(de::GameResult::Draw, de::EndReason::PlyLimit(max_plies));
    if !game.is_over() {
        let _ = game.declare(limit);
    }
    let outcome = game.outcome().unwrap_or(limit);
    Ok((
        g,
        MatchGame {
            game,
            a_color,
            outcome,
            costs: cost,
        },
    ))
}

/// `match_games(rules, white, black, indices, openings, seed=1,
/// max_plies=300)`: games `indices` of a match (`openings[i]` is the
/// opening of `indices[i]`'s pair, as `match_openings` gives it), played
/// one after another as `dama match` plays them, whatever was played
/// before: a list of records (see `MatchCollector.add`). The GIL is
/// released while they are played.
#[pyfunction]
#[pyo3(signature = (rules, white, black, indices, openings, seed=1, max_plies=300))]
#[allow(clippy::too_many_arguments)]
fn match_games<'py>(
    py: Python<'py>,
    rules: &Rules,
    white: Bound<'py, PyDict>,
    black: Bound<'py, PyDict>,
    indices: Vec<u32>,
    openings: Vec<(String, Vec<usize>)>,
    seed: u64,
    max_plies: u32,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    if indices.len() != openings.len() {
        return Err(PyValueError::new_err("one opening per game index"));
    }
    let games = indices.iter().max().map_or(0, |g| g + 1);
    let c = config(py, rules, (white, black), games, seed, (0, max_plies), None)?;
    let r = Arc::clone(&rules.v.rules);
    let mut work = Vec::with_capacity(indices.len());
    for (&g, (fen, idx)) in indices.iter().zip(&openings) {
        let start = rules.parse_fen(py, fen)?.pos;
        let moves = moves_from_indices(&r, &start, idx)?;
        work.push((g, Opening { start, moves }));
    }
    let played: Vec<(u32, MatchGame)> = py.allow_threads(|| {
        let mut sides = MatchSides::new(&r, &c);
        work.iter().map(|(g, o)| (*g, sides.play(&r, &c, o, *g))).collect()
    });
    played.iter().map(|(g, game)| record(py, &r, *g, game)).collect()
}

/// `self_play_games(rules, chunk, games, nodes=2000, openings=8, seed=1,
/// max_plies=300)`: chunk `chunk` of `dama tune`'s self-play games (ten
/// games a chunk, seeded by its index), as records (`MatchCollector.add`;
/// `record_game` makes a `Game` of one).
#[pyfunction]
#[pyo3(signature = (rules, chunk, games, nodes=2000, openings=8, seed=1, max_plies=300))]
#[allow(clippy::too_many_arguments)]
fn self_play_games<'py>(
    py: Python<'py>,
    rules: &Rules,
    chunk: u32,
    games: u32,
    nodes: u64,
    openings: u32,
    seed: u64,
    max_plies: u32,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    if nodes == 0 {
        return Err(PyValueError::new_err("nodes must be at least 1"));
    }
    let r = Arc::clone(&rules.v.rules);
    let plan = SelfPlay {
        games,
        nodes,
        openings,
        seed,
        max_plies,
        weights: de::EvalWeights::derived(&r),
    };
    if chunk >= plan.chunks() {
        return Err(PyValueError::new_err(format!(
            "chunk {chunk} of {} (games {games}, ten a chunk)",
            plan.chunks()
        )));
    }
    let played = py.allow_threads(|| plan.play_chunk(&r, chunk, || {}));
    let first = chunk * dama_play::SELF_PLAY_CHUNK;
    played
        .iter()
        .enumerate()
        .map(|(i, game)| record(py, &r, first + i as u32, game))
        .collect()
}

/// `record_game(rules, record, max_plies=300)`: the `Game` of a record,
/// ended as the match ended it (a draw at the ply cap is declared).
#[pyfunction]
#[pyo3(signature = (rules, record, max_plies=300))]
fn record_game(rules: &Rules, record: &Bound<'_, PyDict>, max_plies: u32) -> PyResult<Game> {
    let (_, g) = game_of_record(&rules.v.rules, record, max_plies)?;
    Ok(Game::with(g.game, rules.v.clone(), Vec::new()))
}

/// A match's games as they come back from the workers, in any order: it
/// counts them in index order, runs the sequential test and writes the
/// report, as `dama match` does.
#[pyclass(module = "dama", name = "MatchCollector", unsendable)]
pub(crate) struct PyMatchCollector {
    rules: Rules,
    max_plies: u32,
    inner: Option<MatchCollector>,
    games: Vec<Game>,
}

impl std::fmt::Debug for PyMatchCollector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MatchCollector").finish_non_exhaustive()
    }
}

#[pymethods]
impl PyMatchCollector {
    /// `MatchCollector(rules, white, black, games, seed=1, max_plies=300,
    /// sprt=None, alpha=0.05, beta=0.05)`.
    #[new]
    #[pyo3(signature = (rules, white, black, games, seed=1, max_plies=300, sprt=None, alpha=0.05, beta=0.05))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rules: &Rules,
        white: Bound<'_, PyDict>,
        black: Bound<'_, PyDict>,
        games: u32,
        seed: u64,
        max_plies: u32,
        sprt: Option<(f64, f64)>,
        alpha: f64,
        beta: f64,
    ) -> PyResult<PyMatchCollector> {
        if games == 0 {
            return Err(PyValueError::new_err("a match has at least one game"));
        }
        if let Some((e0, e1)) = sprt {
            if !(e0.is_finite() && e1.is_finite() && e0 < e1) {
                return Err(PyValueError::new_err("sprt is (elo0, elo1) with elo0 < elo1"));
            }
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(PyValueError::new_err(format!("{name} must be between 0 and 0.5")));
            }
        }
        let c = config(py, rules, (white, black), games, seed, (0, max_plies), None)?;
        let options = MatchOptions {
            sprt: sprt.map(|(elo0, elo1)| Sprt {
                elo0,
                elo1,
                alpha,
                beta,
            }),
            forget_games: true,
            ..MatchOptions::default()
        };
        Ok(PyMatchCollector {
            rules: rules.clone(),
            max_plies,
            inner: Some(MatchCollector::new(&c, &options)),
            games: Vec::new(),
        })
    }

    /// Takes a game's record (from `match_games`); games are counted in
    /// index order, and those past the pair where the test decided are
    /// dropped.
    fn add(&mut self, record: &Bound<'_, PyDict>) -> PyResult<()> {
        let r = Arc::clone(&self.rules.v.rules);
        let (g, game) = game_of_record(&r, record, self.max_plies)?;
        let v = self.rules.v.clone();
        let games = &mut self.games;
        let inner = self
            .inner
            .as_mut()
            .ok_or_else(|| PyRuntimeError::new_err("the match was reported already"))?;
        if !inner.wants(g) {
            return Ok(());
        }
        inner.add(g, game, &mut |p| {
            games.push(Game::with(p.last.game.clone(), v.clone(), Vec::new()));
        });
        Ok(())
    }

    /// Whether game `index` is still wanted.
    fn wants(&self, index: u32) -> bool {
        self.inner.as_ref().is_some_and(|c| c.wants(index))
    }

    /// Whether the match needs no more games (all in, or the test decided).
    #[getter]
    fn decided(&self) -> bool {
        self.inner.as_ref().is_none_or(MatchCollector::decided)
    }

    /// The games counted so far, in index order.
    #[getter]
    fn games(&self) -> Vec<Game> {
        self.games.clone()
    }

    /// The report, once: `{"played", "wins", "draws", "losses", "score",
    /// "draw_rate", "white_wins", "black_wins", "average_plies", "elo",
    /// "elo_low", "elo_high", "los", "sprt": None | {"llr", "lower",
    /// "upper", "decision"}, "workers"}` (wins for player A).
    #[pyo3(signature = (workers=1))]
    fn report<'py>(&mut self, py: Python<'py>, workers: usize) -> PyResult<Bound<'py, PyDict>> {
        let inner = self
            .inner
            .take()
            .ok_or_else(|| PyRuntimeError::new_err("the match was reported already"))?;
        let r = inner.report(workers);
        let d = PyDict::new(py);
        d.set_item("played", r.played)?;
        d.set_item("wins", r.tally.wins)?;
        d.set_item("draws", r.tally.draws)?;
        d.set_item("losses", r.tally.losses)?;
        d.set_item("score", r.score)?;
        d.set_item("draw_rate", r.draw_rate)?;
        d.set_item("white_wins", r.white_wins)?;
        d.set_item("black_wins", r.black_wins)?;
        d.set_item("average_plies", r.average_plies)?;
        d.set_item("elo", r.elo.elo)?;
        d.set_item("elo_low", r.elo.low)?;
        d.set_item("elo_high", r.elo.high)?;
        d.set_item("los", r.elo.los)?;
        match r.sprt {
            Some(s) => {
                let t = PyDict::new(py);
                t.set_item("llr", s.llr)?;
                t.set_item("lower", s.lower)?;
                t.set_item("upper", s.upper)?;
                t.set_item(
                    "decision",
                    match s.decision {
                        SprtDecision::H0 => "H0",
                        SprtDecision::H1 => "H1",
                        SprtDecision::Inconclusive => "inconclusive",
                    },
                )?;
                d.set_item("sprt", t)?;
            }
            None => d.set_item("sprt", py.None())?,
        }
        d.set_item("workers", workers)?;
        Ok(d)
    }
}

/// Adds this file's functions and classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(egtb_plan, m)?)?;
    m.add_function(wrap_pyfunction!(egtb_folder, m)?)?;
    m.add_function(wrap_pyfunction!(egtb_build, m)?)?;
    m.add_function(wrap_pyfunction!(match_openings_of, m)?)?;
    m.add_function(wrap_pyfunction!(match_games, m)?)?;
    m.add_function(wrap_pyfunction!(self_play_games, m)?)?;
    m.add_function(wrap_pyfunction!(record_game, m)?)?;
    m.add_class::<PyMatchCollector>()?;
    m.add("TableError", py.get_type::<TableError>())?;
    Ok(())
}
