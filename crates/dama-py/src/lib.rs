//! # dama (Python)
//!
//! Python bindings over `dama-engine`'s public API (issue 17). This crate
//! holds no rules logic: every method converts its arguments, calls the
//! engine and converts the answer. See docs/python.md.

use std::sync::Arc;
use std::time::Duration;

use dama_engine as de;
use dama_engine::pdn::PdnError as EnginePdnError;
use pyo3::create_exception;
use pyo3::exceptions::{PyFileNotFoundError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use dama_play::source::{play_moves, RecordRules, StartError, VariantSource};
use dama_play::view::{GameView, SearchInfo};

/// The most moves of a search's line in `SearchResult.to_dict()`, as the
/// web page shows them.
const MAX_PV_SHOWN: usize = 16;

create_exception!(
    dama,
    VariantError,
    PyValueError,
    "A variant file (or built-in name) that cannot be loaded; `.diagnostics` lists every finding."
);
create_exception!(
    dama,
    FenError,
    PyValueError,
    "A FEN string that cannot be read; `.column` is the 1-based column."
);
create_exception!(
    dama,
    IllegalMove,
    PyValueError,
    "Move text (or a Move) that names no legal move here, or several."
);
create_exception!(
    dama,
    PdnError,
    PyValueError,
    "A PDN record that cannot be read or replayed; `.line` and `.column` locate it."
);
create_exception!(dama, GameOver, PyValueError, "A move played after the end of the game.");

fn variant_error(py: Python<'_>, e: &de::LoadError) -> PyErr {
    let err = VariantError::new_err(e.to_string());
    let diags: Vec<Diagnostic> = e.diagnostics.iter().map(Diagnostic::from_engine).collect();
    let set = err.value(py).setattr("diagnostics", diags);
    match set {
        Ok(()) => err,
        Err(other) => other,
    }
}

fn fen_error(py: Python<'_>, e: &de::FenError) -> PyErr {
    let err = FenError::new_err(e.to_string());
    let value = err.value(py);
    if let Err(other) = value
        .setattr("column", e.column)
        .and_then(|_| value.setattr("reason", e.message.clone()))
    {
        return other;
    }
    err
}

fn pdn_error(py: Python<'_>, e: &EnginePdnError) -> PyErr {
    let err = PdnError::new_err(e.to_string());
    let (line, column) = e.position();
    let value = err.value(py);
    if let Err(other) = value
        .setattr("line", line)
        .and_then(|_| value.setattr("column", column))
    {
        return other;
    }
    err
}

fn play_error(e: &de::PlayError) -> PyErr {
    match e {
        de::PlayError::GameOver(_) => GameOver::new_err(e.to_string()),
        _ => IllegalMove::new_err(e.to_string()),
    }
}

fn color_name(c: de::Color) -> &'static str {
    c.name()
}

fn piece_letter(p: de::Piece) -> &'static str {
    match p {
        de::Piece::Man(de::Color::White) => "w",
        de::Piece::King(de::Color::White) => "W",
        de::Piece::Man(de::Color::Black) => "b",
        de::Piece::King(de::Color::Black) => "B",
    }
}

/// One finding about a variant file: `code`, `severity`, `message`, `key`,
/// `file`, `line`, `column` (1-based, `None` when unknown) and `help`.
#[pyclass(module = "dama", frozen)]
#[derive(Debug, Clone)]
struct Diagnostic {
    /// A stable code such as `E0101` (docs/variant-format.md).
    #[pyo3(get)]
    code: String,
    /// `"error"` or `"warning"`.
    #[pyo3(get)]
    severity: String,
    /// What is wrong, in one sentence.
    #[pyo3(get)]
    message: String,
    /// The dotted key the finding is about, when there is one.
    #[pyo3(get)]
    key: Option<String>,
    /// The file as named (`<builtin:ID>` for shipped variants).
    #[pyo3(get)]
    file: Option<String>,
    /// 1-based line.
    #[pyo3(get)]
    line: Option<usize>,
    /// 1-based column.
    #[pyo3(get)]
    column: Option<usize>,
    /// A suggestion, such as the nearest valid key.
    #[pyo3(get)]
    help: Option<String>,
    /// The finding in the JSON shape every front end gives it.
    view: serde_json::Value,
}

impl Diagnostic {
    fn from_engine(d: &de::Diagnostic) -> Diagnostic {
        Diagnostic {
            code: d.code.to_string(),
            severity: match d.severity {
                de::Severity::Error => "error".into(),
                de::Severity::Warning => "warning".into(),
            },
            message: d.message.clone(),
            key: d.key.clone(),
            file: d.location.as_ref().map(|l| l.file.clone()),
            line: d.location.as_ref().map(|l| l.line),
            column: d.location.as_ref().map(|l| l.column),
            help: d.help.clone(),
            view: serde_json::to_value(d).unwrap_or_default(),
        }
    }
}

/// A JSON value of the play tier's views as Python objects (dict, list,
/// str, int, float, bool, None).
fn to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value as V;
    Ok(match v {
        V::Null => py.None().into_bound(py),
        V::Bool(b) => pyo3::types::PyBool::new(py, *b).to_owned().into_any(),
        V::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        V::String(s) => pyo3::types::PyString::new(py, s).into_any(),
        V::Array(a) => {
            let items = a.iter().map(|x| to_py(py, x)).collect::<PyResult<Vec<_>>>()?;
            pyo3::types::PyList::new(py, items)?.into_any()
        }
        V::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self) -> String {
        format!(
            "Diagnostic(code={:?}, line={:?}, column={:?}, message={:?}, help={:?})",
            self.code, self.line, self.column, self.message, self.help
        )
    }

    fn __str__(&self) -> String {
        let at = match (&self.file, self.line, self.column) {
            (Some(f), Some(l), Some(c)) => format!("{f}:{l}:{c}: "),
            _ => String::new(),
        };
        let help = self.help.as_ref().map(|h| format!(" (help: {h})")).unwrap_or_default();
        format!("{at}{}[{}]: {}{help}", self.severity, self.code, self.message)
    }

    /// The finding as a plain dict, in the shape of `dama validate --format
    /// json` and the web designer: `severity`, `code`, `message`, `key`,
    /// `location` (`file`, `line`, `column`, or `None`), `help`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.view)
    }
}

/// The compiled rules of one variant. Build with `Rules.builtin(id)`,
/// `Rules.from_toml(text)` or `Rules.from_file(path)`.
#[pyclass(module = "dama", frozen)]
#[derive(Debug, Clone)]
struct Rules {
    inner: Arc<de::Rules>,
}

impl Rules {
    /// The rules of `source` (the play tier's one loader).
    fn load(py: Python<'_>, source: VariantSource<'_>) -> PyResult<Rules> {
        source
            .load()
            .map(|l| Rules {
                inner: Arc::new(l.rules),
            })
            .map_err(|e| variant_error(py, &e))
    }

    fn position(&self, pos: de::Position) -> Position {
        Position {
            rules: self.inner.clone(),
            pos,
        }
    }

    fn make_move(&self, pos: &de::Position, m: &de::Move) -> Move {
        make_move(&self.inner, pos, m)
    }

    fn check_position(&self, pos: &Position) -> PyResult<()> {
        if pos.rules.fingerprint() != self.inner.fingerprint() {
            return Err(PyValueError::new_err(format!(
                "the position belongs to variant `{}`, not `{}`",
                pos.rules.id(),
                self.inner.id()
            )));
        }
        Ok(())
    }
}

fn make_move(rules: &de::Rules, pos: &de::Position, m: &de::Move) -> Move {
    let path = dama_play::view::move_path(rules, pos, m);
    let text = rules.format_move_full(pos, m);
    Move {
        view: dama_play::view::MoveView::with_path(rules, m, &path, text.clone()),
        mv: *m,
        before: *pos,
        text,
        from_square: rules.square_name(m.from()),
        to_square: rules.square_name(m.to()),
        path: path.landings.iter().map(|s| rules.square_name(*s)).collect(),
        captures: path.captures.iter().map(|s| rules.square_name(*s)).collect(),
    }
}

/// How `rules.perft` counts: `"paths"` (one per capture path, as most
/// engines count), `"moves"` (one per distinct move) or `"jumps"` (paths,
/// with a king going on along one line counted once, as dctl counts).
fn count_mode(count: &str) -> PyResult<de::CountMode> {
    match count {
        "paths" => Ok(de::CountMode::Paths),
        "moves" => Ok(de::CountMode::Moves),
        "jumps" => Ok(de::CountMode::Jumps),
        other => Err(PyValueError::new_err(format!(
            "count must be \"paths\", \"moves\" or \"jumps\", not {other:?}"
        ))),
    }
}

#[pymethods]
impl Rules {
    /// A shipped variant by id or alias (`dama.variants()` lists the ids).
    #[staticmethod]
    fn builtin(py: Python<'_>, name: &str) -> PyResult<Rules> {
        Rules::load(py, VariantSource::Builtin(name))
    }

    /// A variant from TOML text (it may `extends` a built-in). `name` is
    /// the file name shown in diagnostics and gives a file without `id` its id.
    #[staticmethod]
    #[pyo3(signature = (text, name=None))]
    fn from_toml(py: Python<'_>, text: &str, name: Option<&str>) -> PyResult<Rules> {
        let name = name.unwrap_or("<string>");
        Rules::load(py, VariantSource::Text { name, text, path: None })
    }

    /// A variant from a TOML file (a relative `extends` is resolved next to it).
    #[staticmethod]
    fn from_file(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Rules> {
        if !path.is_file() {
            return Err(PyFileNotFoundError::new_err(format!(
                "no such variant file: {}",
                path.display()
            )));
        }
        Rules::load(py, VariantSource::File(&path))
    }

    /// The variant's id, e.g. `"dama"`.
    #[getter]
    fn id(&self) -> String {
        self.inner.id().to_string()
    }

    /// The variant's display name.
    #[getter]
    fn name(&self) -> String {
        self.inner.name().to_string()
    }

    /// Board width (files).
    #[getter]
    fn width(&self) -> u8 {
        self.inner.width()
    }

    /// Board height (ranks).
    #[getter]
    fn height(&self) -> u8 {
        self.inner.height()
    }

    /// The names of the squares played on, from a1 along rank 1, then rank 2...
    fn squares(&self) -> Vec<String> {
        de::Squares(self.inner.board())
            .map(|s| self.inner.square_name(s))
            .collect()
    }

    /// The start position.
    fn initial(&self) -> Position {
        self.position(self.inner.start_position())
    }

    /// Reads a PDN FEN position (`W:Wa2,b2,Kd4:Ba7,c7`); raises `FenError`.
    fn parse_fen(&self, py: Python<'_>, text: &str) -> PyResult<Position> {
        self.inner
            .parse_fen(text)
            .map(|p| self.position(p))
            .map_err(|e| fen_error(py, &e))
    }

    /// Writes `pos` as PDN FEN.
    fn to_fen(&self, pos: &Position) -> PyResult<String> {
        self.check_position(pos)?;
        Ok(self.inner.to_fen(&pos.pos))
    }

    /// The legal moves of `pos`, one `Move` per distinct move (origin,
    /// destination, captured set), in the generator's order.
    fn legal_moves(&self, pos: &Position) -> PyResult<Vec<Move>> {
        self.check_position(pos)?;
        let list = self.inner.legal_moves(&pos.pos);
        Ok(list.iter().map(|m| self.make_move(&pos.pos, m)).collect())
    }

    /// Finds the legal move that `text` names (`d3-d4`, `d4xd6xf6`, `12-16`);
    /// raises `IllegalMove` with the reason, as the CLI explains it.
    fn parse_move(&self, pos: &Position, text: &str) -> PyResult<Move> {
        self.check_position(pos)?;
        self.inner
            .resolve_move(&pos.pos, text)
            .map(|m| self.make_move(&pos.pos, &m))
            .map_err(|e| IllegalMove::new_err(e.to_string()))
    }

    /// The position after playing `move` (a `Move` or move text) in `pos`.
    /// `pos` is not changed.
    #[pyo3(name = "play")]
    fn play_move(&self, pos: &Position, r#move: &Bound<'_, PyAny>) -> PyResult<Position> {
        self.check_position(pos)?;
        let m = resolve(&self.inner, &pos.pos, r#move)?;
        Ok(self.position(pos.pos.after(&m)))
    }

    /// Counts the leaves of the move tree `depth` plies deep. `count` is
    /// `"paths"` (default) or `"moves"`; `threads` > 1 splits the first
    /// plies across threads. The GIL is released while counting.
    #[pyo3(signature = (pos, depth, count="paths", threads=1))]
    fn perft(&self, py: Python<'_>, pos: &Position, depth: u32, count: &str, threads: usize) -> PyResult<u64> {
        self.check_position(pos)?;
        let mode = count_mode(count)?;
        let rules = self.inner.clone();
        let p = pos.pos;
        let threads = threads.max(1);
        Ok(py.allow_threads(move || de::perft_parallel(&rules, &p, depth, mode, threads)))
    }

    /// The position as planes for machine learning: `bytes` of length
    /// `4 * height * width`, one byte per square (1 = occupied, 0 = not).
    /// Planes in order: white men, white kings, black men, black kings.
    /// Within a plane, row-major from rank 1: byte
    /// `plane * height * width + rank * width + file` (rank and file from 0,
    /// a1 = rank 0, file 0). The side to move is not encoded (see
    /// `pos.side_to_move`).
    fn encode<'py>(&self, py: Python<'py>, pos: &Position) -> PyResult<Bound<'py, PyBytes>> {
        self.check_position(pos)?;
        let (w, h) = (usize::from(self.inner.width()), usize::from(self.inner.height()));
        let plane = w * h;
        let mut out = vec![0u8; 4 * plane];
        for (sq, piece) in pos.pos.iter() {
            let k = match piece {
                de::Piece::Man(de::Color::White) => 0,
                de::Piece::King(de::Color::White) => 1,
                de::Piece::Man(de::Color::Black) => 2,
                de::Piece::King(de::Color::Black) => 3,
            };
            let (f, r) = (usize::from(sq.file()), usize::from(sq.rank()));
            if f < w && r < h {
                if let Some(b) = out.get_mut(k * plane + r * w + f) {
                    *b = 1;
                }
            }
        }
        Ok(PyBytes::new(py, &out))
    }

    fn __repr__(&self) -> String {
        format!("Rules({:?})", self.inner.id())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<Rules>()
            .is_ok_and(|o| o.get().inner.fingerprint() == self.inner.fingerprint())
    }

    fn __hash__(&self) -> u64 {
        self.inner.fingerprint()
    }
}

/// A `Move` of this position, or move text naming one.
fn resolve(rules: &de::Rules, pos: &de::Position, m: &Bound<'_, PyAny>) -> PyResult<de::Move> {
    if let Ok(mv) = m.downcast::<Move>() {
        let mv = mv.get();
        if mv.before == *pos && rules.legal_moves(pos).iter().any(|l| *l == mv.mv) {
            return Ok(mv.mv);
        }
        return Err(IllegalMove::new_err(format!("{} is not a legal move here", mv.text)));
    }
    if let Ok(text) = m.extract::<String>() {
        return rules
            .resolve_move(pos, &text)
            .map_err(|e| IllegalMove::new_err(e.to_string()));
    }
    Err(PyTypeError::new_err("expected a dama.Move or move text"))
}

/// A position: the pieces on the board and the side to move. Immutable;
/// `rules.play(pos, move)` returns a new one.
#[pyclass(module = "dama", frozen)]
#[derive(Debug, Clone)]
struct Position {
    rules: Arc<de::Rules>,
    pos: de::Position,
}

#[pymethods]
impl Position {
    /// `"white"` or `"black"`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        color_name(self.pos.side_to_move())
    }

    /// The pieces by square name: `"w"` white man, `"W"` white king, `"b"`
    /// black man, `"B"` black king. Empty squares are left out.
    fn pieces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (sq, p) in self.pos.iter() {
            d.set_item(self.rules.square_name(sq), piece_letter(p))?;
        }
        Ok(d)
    }

    /// The piece on `square` (`"w"`, `"W"`, `"b"`, `"B"`), or `None`.
    fn piece_at(&self, square: &str) -> PyResult<Option<&'static str>> {
        let sq = self
            .rules
            .parse_square(square)
            .ok_or_else(|| PyValueError::new_err(format!("`{square}` is not a square of this board")))?;
        Ok(self.pos.piece_at(sq).map(piece_letter))
    }

    /// The position as PDN FEN.
    #[getter]
    fn fen(&self) -> String {
        self.rules.to_fen(&self.pos)
    }

    /// The variant's id.
    #[getter]
    fn variant(&self) -> String {
        self.rules.id().to_string()
    }

    /// A copy (positions are immutable, so this is the same value).
    fn copy(&self) -> Position {
        self.clone()
    }

    fn __copy__(&self) -> Position {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Position {
        self.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.downcast::<Position>().is_ok_and(|o| {
            let o = o.get();
            o.pos == self.pos && o.rules.fingerprint() == self.rules.fingerprint()
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.pos.hash(&mut h);
        self.rules.fingerprint().hash(&mut h);
        h.finish()
    }

    fn __str__(&self) -> String {
        self.fen()
    }

    fn __repr__(&self) -> String {
        format!("Position({:?}, {:?})", self.rules.id(), self.fen())
    }
}

/// A legal move of one position. `str(move)` is its full-path notation.
#[pyclass(module = "dama", frozen)]
#[derive(Debug, Clone)]
struct Move {
    mv: de::Move,
    before: de::Position,
    text: String,
    /// The origin square's name.
    #[pyo3(get)]
    from_square: String,
    /// The destination square's name.
    #[pyo3(get)]
    to_square: String,
    /// The landing squares in order (the last is `to_square`).
    #[pyo3(get)]
    path: Vec<String>,
    /// The captured squares, in the order taken.
    #[pyo3(get)]
    captures: Vec<String>,
    /// The move in the JSON shape every front end gives it.
    view: dama_play::view::MoveView,
}

#[pymethods]
impl Move {
    /// Whether the moving man is crowned.
    #[getter]
    fn promotes(&self) -> bool {
        self.mv.promotes()
    }

    /// Whether the move captures.
    #[getter]
    fn is_capture(&self) -> bool {
        self.mv.is_capture()
    }

    /// Whether a king moves.
    #[getter]
    fn is_king_move(&self) -> bool {
        self.mv.is_king_move()
    }

    fn __str__(&self) -> String {
        self.text.clone()
    }

    /// The move as a plain dict, in the shape of `dama moves --format json`:
    /// `notation`, `from`, `to`, `path`, `captures`, `promotes`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &serde_json::to_value(&self.view).unwrap_or_default())
    }

    fn __repr__(&self) -> String {
        format!("Move({:?})", self.text)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.downcast::<Move>().is_ok_and(|o| {
            let o = o.get();
            o.mv == self.mv && o.before == self.before
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.mv.hash(&mut h);
        self.before.hash(&mut h);
        h.finish()
    }
}

/// A game: the rules, the start position, the moves played (with undo)
/// and, once over, its result. `Game(rules)` starts from the initial
/// position, `Game(rules, pos)` from `pos`.
#[pyclass(module = "dama")]
#[derive(Debug, Clone)]
struct Game {
    inner: de::Game,
}

impl Game {
    fn rules(&self) -> Arc<de::Rules> {
        self.inner.shared_rules()
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (rules, position=None, moves=None))]
    fn new(rules: &Rules, position: Option<&Position>, moves: Option<Vec<String>>) -> PyResult<Game> {
        let mut inner = match position {
            Some(p) => {
                rules.check_position(p)?;
                de::Game::from_position(rules.inner.clone(), p.pos)
            }
            None => de::Game::new(rules.inner.clone()),
        };
        play_moves(&mut inner, &moves.unwrap_or_default()).map_err(|e| match &e {
            StartError::Move { error, .. } => match error {
                de::PlayError::GameOver(_) => GameOver::new_err(e.to_string()),
                _ => IllegalMove::new_err(e.to_string()),
            },
            StartError::Fen(_) => PyValueError::new_err(e.to_string()),
        })?;
        Ok(Game { inner })
    }

    /// The game as a plain dict, in the shape of `dama replay --format
    /// json` and the web API's game: `variant`, `start_fen`, `fen`, `side`,
    /// `plies` (`text`, `full`, `side`, `fen`), `moves` (full notation),
    /// `result` (`pdn`, `winner`, `reason`, `text`, or `None`), `passed_end`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &serde_json::to_value(GameView::new(&self.inner)).unwrap_or_default())
    }

    /// Plays a `Move` or move text; returns the `Move` played. Raises
    /// `IllegalMove` (with the reason) or `GameOver`.
    fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<Move> {
        let rules = self.rules();
        let pos = *self.inner.position();
        if let Some(o) = self.inner.outcome() {
            return Err(GameOver::new_err(format!("the game is over ({o})")));
        }
        let m = resolve(&rules, &pos, r#move)?;
        self.inner.play(m).map_err(|e| play_error(&e))?;
        Ok(make_move(&rules, &pos, &m))
    }

    /// Takes back the last move; returns it, or `None` at the start.
    fn undo(&mut self) -> Option<Move> {
        let before = self.inner.last_ply().map(|p| p.before)?;
        let m = self.inner.undo()?;
        Some(make_move(&self.rules(), &before, &m))
    }

    /// The legal moves of the current position (none once the game is over).
    fn legal_moves(&self) -> Vec<Move> {
        if self.inner.is_over() {
            return vec![];
        }
        let rules = self.rules();
        let pos = *self.inner.position();
        self.inner
            .legal_moves()
            .iter()
            .map(|m| make_move(&rules, &pos, m))
            .collect()
    }

    /// The moves played, in the shortest unambiguous notation.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.inner.plies().iter().map(|p| p.notation.clone()).collect()
    }

    /// The current position.
    #[getter]
    fn position(&self) -> Position {
        Position {
            rules: self.rules(),
            pos: *self.inner.position(),
        }
    }

    /// The position the game started from.
    #[getter]
    fn start_position(&self) -> Position {
        Position {
            rules: self.rules(),
            pos: *self.inner.start_position(),
        }
    }

    /// The rules the game is played under.
    #[getter(rules)]
    fn get_rules(&self) -> Rules {
        Rules { inner: self.rules() }
    }

    /// Whether the game has ended.
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// `"1-0"`, `"0-1"`, `"1/2-1/2"`, or `None` while the game goes on.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.inner.outcome().map(|o| o.result.pdn())
    }

    /// Why the game ended, in words, or `None` while it goes on.
    #[getter]
    fn reason(&self) -> Option<String> {
        self.inner.outcome().map(|o| o.reason.to_string())
    }

    /// `(ply, reason)` when the game went on after the rules ended it (a
    /// record read with `read_pdn` that goes on after a threefold
    /// repetition or a draw by a ply count): the number (from 1) of the
    /// first ply played past that end and the end in words; else `None`.
    #[getter]
    fn passed_end(&self) -> Option<(usize, String)> {
        self.inner.passed_end().map(|p| (p.ply + 1, p.outcome.to_string()))
    }

    /// The game as PDN text. Tags `event`, `site`, `date`, `round`,
    /// `white`, `black` are optional.
    #[pyo3(signature = (*, event=None, site=None, date=None, round=None, white=None, black=None))]
    #[allow(clippy::too_many_arguments)]
    fn to_pdn(
        &self,
        event: Option<String>,
        site: Option<String>,
        date: Option<String>,
        round: Option<String>,
        white: Option<String>,
        black: Option<String>,
    ) -> String {
        let mut t = de::pdn::PdnTags::default();
        let set = |slot: &mut String, v: Option<String>| {
            if let Some(v) = v {
                *slot = v;
            }
        };
        set(&mut t.event, event);
        set(&mut t.site, site);
        set(&mut t.date, date);
        set(&mut t.round, round);
        set(&mut t.white, white);
        set(&mut t.black, black);
        self.inner.to_pdn(&t)
    }

    fn __len__(&self) -> usize {
        self.inner.ply_count()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game({:?}, plies={}, result={:?})",
            self.inner.rules().id(),
            self.inner.ply_count(),
            self.result()
        )
    }
}

/// Reads every game of a PDN text and replays it (each move checked).
/// Each record's variant comes from its `VariantFile`, `Variant` or
/// `GameType` tag, else from `rules` (default: Turkish `dama`); given
/// `rules` overrides the tags. Raises `PdnError` with `line` and `column`.
/// A record that goes on after the rules ended the game (a threefold
/// repetition, a draw by a ply count) is replayed to its end with a
/// `UserWarning` naming the ply and the rule (`Game.passed_end`); with
/// `strict=True` it raises `PdnError` instead.
#[pyfunction]
#[pyo3(signature = (text, rules=None, *, strict=false))]
fn read_pdn(py: Python<'_>, text: &str, rules: Option<&Rules>, strict: bool) -> PyResult<Vec<Game>> {
    let records = de::pdn::read_games(text).map_err(|e| pdn_error(py, &e))?;
    let mut out = Vec::with_capacity(records.len());
    let mut record_rules = match rules {
        Some(r) => RecordRules::given(r.inner.clone()),
        None => RecordRules::named(None).or_default("dama"),
    };
    for rec in &records {
        let g = record_rules.replay(rec, strict).map_err(|e| pdn_error(py, &e))?;
        if let Some(pe) = rec.past_end(&g) {
            let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
            PyErr::warn(
                py,
                category.as_any(),
                &std::ffi::CString::new(pe.to_string()).unwrap_or_default(),
                1,
            )?;
        }
        out.push(Game { inner: g });
    }
    Ok(out)
}

/// What a search found.
#[pyclass(module = "dama", frozen)]
#[derive(Debug, Clone)]
struct SearchResult {
    /// The move to play, or `None` when there is no legal move.
    #[pyo3(get)]
    best: Option<Move>,
    /// Its score for the side to move, in hundredths of a man.
    #[pyo3(get)]
    score: i32,
    /// The expected continuation, starting with `best`.
    #[pyo3(get)]
    pv: Vec<Move>,
    /// The last completed iteration (plies).
    #[pyo3(get)]
    depth: u32,
    /// Positions visited.
    #[pyo3(get)]
    nodes: u64,
    /// Seconds spent.
    #[pyo3(get)]
    elapsed: f64,
    /// The score in words (`+1.25`, `win in 7`).
    #[pyo3(get)]
    score_text: String,
    /// The report in the JSON shape every front end gives it (`to_dict`).
    view: SearchInfo,
}

#[pymethods]
impl SearchResult {
    /// The result as a plain dict, in the shape of the web page's analysis
    /// reports: `depth`, `score`, `score_text`, `for`, `nodes`, `ms`, `pv`
    /// (short notation), `best` (`squares`, `text`, or `None`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &serde_json::to_value(&self.view).unwrap_or_default())
    }

    fn __repr__(&self) -> String {
        format!(
            "SearchResult(best={:?}, score={}, depth={}, nodes={})",
            self.best.as_ref().map(|m| m.text.clone()),
            self.score,
            self.depth,
            self.nodes
        )
    }
}

/// The engine's alpha-beta search with its transposition table.
/// `Engine(rules)`; `engine.search(pos_or_game, depth=, movetime=, nodes=)`.
#[pyclass(module = "dama")]
#[derive(Debug)]
struct Engine {
    rules: Arc<de::Rules>,
    inner: de::Engine,
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (rules, table_mb=None, seed=None))]
    fn new(rules: &Rules, table_mb: Option<usize>, seed: Option<u64>) -> Engine {
        let inner = dama_play::EngineConfig {
            table_mb,
            seed,
            ..dama_play::EngineConfig::default()
        }
        .engine(&rules.inner);
        Engine {
            rules: rules.inner.clone(),
            inner,
        }
    }

    /// Searches a `Position` or a `Game` (whose history counts for
    /// repetitions and the draw clock). Limits: `depth` (plies),
    /// `movetime` (seconds), `nodes`; with none given, the CLI's default
    /// level. The GIL is released while searching.
    #[pyo3(signature = (root, depth=None, movetime=None, nodes=None))]
    fn search(
        &mut self,
        py: Python<'_>,
        root: &Bound<'_, PyAny>,
        depth: Option<u32>,
        movetime: Option<f64>,
        nodes: Option<u64>,
    ) -> PyResult<SearchResult> {
        let search_root = if let Ok(p) = root.downcast::<Position>() {
            let p = p.get();
            if p.rules.fingerprint() != self.rules.fingerprint() {
                return Err(PyValueError::new_err("the position belongs to another variant"));
            }
            de::SearchRoot::new(p.pos)
        } else if let Ok(g) = root.downcast::<Game>() {
            let g = g.borrow();
            if g.inner.rules().fingerprint() != self.rules.fingerprint() {
                return Err(PyValueError::new_err("the game is played under another variant"));
            }
            de::SearchRoot::from_game(&g.inner)
        } else {
            return Err(PyTypeError::new_err("expected a dama.Position or a dama.Game"));
        };
        if let Some(t) = movetime {
            if !(t.is_finite() && t >= 0.0) {
                return Err(PyValueError::new_err(
                    "movetime must be a non-negative number of seconds",
                ));
            }
        }
        let limits = dama_play::LimitsRequest {
            level: None,
            depth: depth.map(|d| d.max(1)),
            nodes,
            movetime: movetime.map(Duration::from_secs_f64),
        }
        .limits();
        let engine = &mut self.inner;
        let r = py.allow_threads(|| engine.search(&search_root, &limits));
        let pos = search_root.pos;
        let mut pv = Vec::with_capacity(r.pv.len());
        let mut p = pos;
        for m in &r.pv {
            pv.push(make_move(&self.rules, &p, m));
            p = p.after(m);
        }
        Ok(SearchResult {
            best: r.best.map(|m| make_move(&self.rules, &pos, &m)),
            score: r.score,
            pv,
            depth: r.depth,
            nodes: r.nodes,
            elapsed: r.elapsed.as_secs_f64(),
            score_text: r.score_text(),
            view: SearchInfo::new(&self.rules, &pos, &r, MAX_PV_SHOWN),
        })
    }

    /// Forgets the transposition table.
    fn clear(&mut self) {
        self.inner.clear();
    }

    /// The static evaluation of `pos` for the side to move, in hundredths of a man.
    fn evaluate(&self, pos: &Position) -> i32 {
        self.inner.evaluate(&pos.pos)
    }

    fn __repr__(&self) -> String {
        format!("Engine({:?})", self.rules.id())
    }
}

/// The ids of the shipped variants.
#[pyfunction]
fn variants() -> Vec<String> {
    de::source::builtin_names()
}

/// The extension module `dama._dama`; `python/dama/__init__.py` re-exports it.
#[pymodule]
fn _dama(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Rules>()?;
    m.add_class::<Position>()?;
    m.add_class::<Move>()?;
    m.add_class::<Game>()?;
    m.add_class::<Engine>()?;
    m.add_class::<SearchResult>()?;
    m.add_class::<Diagnostic>()?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(read_pdn, m)?)?;
    m.add("VariantError", py.get_type::<VariantError>())?;
    m.add("FenError", py.get_type::<FenError>())?;
    m.add("IllegalMove", py.get_type::<IllegalMove>())?;
    m.add("PdnError", py.get_type::<PdnError>())?;
    m.add("GameOver", py.get_type::<GameOver>())?;
    Ok(())
}
