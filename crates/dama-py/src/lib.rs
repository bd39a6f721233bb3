//! # dama (Python)
//!
//! Python bindings over `dama-engine`'s public API (issue 17). This crate
//! holds no rules logic: every method converts its arguments, calls the
//! engine and converts the answer. See docs/python.md.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, Weak};
use std::time::{Duration, Instant};

use dama_engine as de;
use dama_engine::pdn::PdnError as EnginePdnError;
use pyo3::create_exception;
use pyo3::exceptions::{PyFileNotFoundError, PyMemoryError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString, PyTuple};

mod cluster;

use dama_play::source::{play_moves, RecordRules, StartError, VariantSource};
use dama_play::view::{GameView, SearchInfo};

/// The most moves of a search's line in `SearchResult.to_dict()`, as the
/// web page shows them.
const MAX_PV_SHOWN: usize = 16;

/// How often a thread waiting for a search looks for a signal (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// A move time whose deadline the clock cannot hold with this much to spare
/// means no time limit.
const DEADLINE_MARGIN: Duration = Duration::from_secs(400 * 24 * 3600);

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
    diagnostics_error(py, e.to_string(), &e.diagnostics)
}

fn diagnostics_error(py: Python<'_>, message: String, diagnostics: &[de::Diagnostic]) -> PyErr {
    let err = VariantError::new_err(message);
    let diags: Vec<Diagnostic> = diagnostics.iter().map(Diagnostic::from_engine).collect();
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

/// `s` as Python writes it (`repr(s)`): `'d3-d4'`.
fn py_repr(py: Python<'_>, s: &str) -> String {
    PyString::new(py, s)
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| format!("{s:?}"))
}

/// An optional string as Python writes it: `None` or `'text'`.
fn py_repr_opt(py: Python<'_>, s: Option<&str>) -> String {
    s.map_or_else(|| "None".to_string(), |s| py_repr(py, s))
}

/// An optional number as Python writes it: `None` or `4`.
fn py_repr_num<T: std::fmt::Display>(n: Option<T>) -> String {
    n.map_or_else(|| "None".to_string(), |n| n.to_string())
}

/// A variant's compiled rules with what is worked out from them once, and
/// shared by every `Rules`, `Position`, `Move`, `Game` and `Engine` of it.
#[derive(Debug)]
struct Shared {
    rules: Arc<de::Rules>,
    /// The rules' fingerprint: [`de::Rules::fingerprint`] serializes the
    /// whole spec, too slow to call on every method that checks a
    /// position's variant.
    fp: u64,
    /// The spec as JSON, written the first time the rules are pickled: one
    /// Python string, which pickle writes once however many positions or
    /// moves of the variant a pickle holds.
    spec_json: OnceLock<Py<PyString>>,
}

/// A handle on [`Shared`].
#[derive(Debug, Clone)]
struct Variant(Arc<Shared>);

impl std::ops::Deref for Variant {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl Variant {
    fn new(rules: Arc<de::Rules>) -> Variant {
        let fp = rules.fingerprint();
        Variant(Arc::new(Shared {
            rules,
            fp,
            spec_json: OnceLock::new(),
        }))
    }

    /// Whether `other` is the same variant (the same rules, or rules with
    /// the same fingerprint).
    fn same(&self, other: &Variant) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || Arc::ptr_eq(&self.rules, &other.rules) || self.fp == other.fp
    }

    /// The spec as JSON (`Rules.__reduce__`), the same string each time.
    fn spec_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        if let Some(s) = self.spec_json.get() {
            return Ok(s.bind(py).clone());
        }
        let text = serde_json::to_string(self.rules.spec())
            .map_err(|e| PyValueError::new_err(format!("cannot write the rules' spec: {e}")))?;
        let s = PyString::new(py, &text);
        // Another thread may have set it meanwhile: either string will do.
        let _ = self.spec_json.set(s.clone().unbind());
        Ok(s)
    }

    fn py_rules(&self) -> Rules {
        Rules { v: self.clone() }
    }

    fn check(&self, other: &Variant, what: &str) -> PyResult<()> {
        if self.same(other) {
            return Ok(());
        }
        Err(PyValueError::new_err(format!(
            "{what} belongs to variant `{}`, not `{}`",
            other.rules.id(),
            self.rules.id()
        )))
    }
}

/// Rules unpickled in this process, by their spec's JSON text: unpickling
/// many positions or moves of one variant compiles it once.
static UNPICKLED_RULES: Mutex<Option<HashMap<String, Weak<Shared>>>> = Mutex::new(None);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A function of this module, for `__reduce__`.
fn module_fn<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("dama._dama")?.getattr(name)
}

/// The legal move of `pos` whose full notation is `text` (the `index`-th
/// legal move when that one is it), else the move `text` names.
fn find_move(rules: &de::Rules, pos: &de::Position, text: &str, index: Option<usize>) -> PyResult<de::Move> {
    let legal = rules.legal_moves(pos);
    if let Some(m) = index.and_then(|i| legal.iter().nth(i)) {
        if rules.format_move_full(pos, m) == text {
            return Ok(*m);
        }
    }
    if let Some(m) = legal.iter().find(|m| rules.format_move_full(pos, m) == text) {
        return Ok(*m);
    }
    rules
        .resolve_move(pos, text)
        .map_err(|e| IllegalMove::new_err(e.to_string()))
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
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Diagnostic(code={}, line={}, column={}, message={}, help={})",
            py_repr(py, &self.code),
            py_repr_num(self.line),
            py_repr_num(self.column),
            py_repr(py, &self.message),
            py_repr_opt(py, self.help.as_deref())
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

    /// Pickled as its fields (so a `VariantError` pickles with its
    /// `diagnostics`, as `multiprocessing` sends it).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let args = (
            (self.code.clone(), self.severity.clone(), self.message.clone()),
            (self.key.clone(), self.file.clone(), self.line, self.column),
            self.help.clone(),
            serde_json::to_string(&self.view).unwrap_or_default(),
        )
            .into_pyobject(py)?;
        PyTuple::new(py, [module_fn(py, "_diagnostic_from_state")?, args.into_any()])
    }
}

/// Unpickles a `Diagnostic` (`Diagnostic.__reduce__`).
#[pyfunction]
#[pyo3(name = "_diagnostic_from_state")]
fn diagnostic_from_state(
    text: (String, String, String),
    location: (Option<String>, Option<String>, Option<usize>, Option<usize>),
    help: Option<String>,
    view: &str,
) -> PyResult<Diagnostic> {
    let (code, severity, message) = text;
    let (key, file, line, column) = location;
    Ok(Diagnostic {
        code,
        severity,
        message,
        key,
        file,
        line,
        column,
        help,
        view: serde_json::from_str(view)
            .map_err(|e| PyValueError::new_err(format!("not a pickled dama.Diagnostic: {e}")))?,
    })
}

/// The compiled rules of one variant. Build with `Rules.builtin(id)`,
/// `Rules.from_toml(text)` or `Rules.from_file(path)`.
#[pyclass(module = "dama", frozen)]
#[derive(Debug, Clone)]
struct Rules {
    v: Variant,
}

impl Rules {
    /// The rules of `source` (the play tier's one loader).
    fn load(py: Python<'_>, source: VariantSource<'_>) -> PyResult<Rules> {
        source
            .load()
            .map(|l| Variant::new(Arc::new(l.rules)).py_rules())
            .map_err(|e| variant_error(py, &e))
    }

    /// The rules compiled from a spec written as JSON (`Rules.__reduce__`);
    /// rules already unpickled from the same text are shared.
    fn from_spec_json(py: Python<'_>, spec_json: &Bound<'_, PyString>) -> PyResult<Rules> {
        let json = spec_json.to_cow()?;
        let json: &str = &json;
        let cached = lock(&UNPICKLED_RULES)
            .as_ref()
            .and_then(|m| m.get(json))
            .and_then(Weak::upgrade);
        if let Some(shared) = cached {
            return Ok(Variant(shared).py_rules());
        }
        let spec: de::VariantSpec = serde_json::from_str(json)
            .map_err(|e| PyValueError::new_err(format!("not the spec of a dama.Rules: {e}")))?;
        let (rules, _warnings) = de::Rules::compile(&spec)
            .map_err(|diags| diagnostics_error(py, format!("the variant `{}` does not compile", spec.id), &diags))?;
        let v = Variant::new(Arc::new(rules));
        let _ = v.spec_json.set(spec_json.clone().unbind());
        let mut cache = lock(&UNPICKLED_RULES);
        let map = cache.get_or_insert_with(HashMap::new);
        map.retain(|_, w| w.strong_count() > 0);
        map.insert(json.to_string(), Arc::downgrade(&v.0));
        Ok(v.py_rules())
    }

    fn position(&self, pos: de::Position) -> Position {
        Position { v: self.v.clone(), pos }
    }

    fn make_move(&self, pos: &de::Position, m: &de::Move) -> Move {
        make_move(&self.v, pos, m)
    }

    fn check_position(&self, pos: &Position) -> PyResult<()> {
        self.v.check(&pos.v, "the position")
    }
}

fn make_move(v: &Variant, pos: &de::Position, m: &de::Move) -> Move {
    let rules = &*v.rules;
    let path = dama_play::view::move_path(rules, pos, m);
    let text = rules.format_move_full(pos, m);
    Move {
        view: dama_play::view::MoveView::with_path(rules, m, &path, text.clone()),
        v: v.clone(),
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
        self.v.rules.id().to_string()
    }

    /// The variant's display name.
    #[getter]
    fn name(&self) -> String {
        self.v.rules.name().to_string()
    }

    /// Board width (files).
    #[getter]
    fn width(&self) -> u8 {
        self.v.rules.width()
    }

    /// Board height (ranks).
    #[getter]
    fn height(&self) -> u8 {
        self.v.rules.height()
    }

    /// The names of the squares played on, from a1 along rank 1, then rank 2...
    fn squares(&self) -> Vec<String> {
        de::Squares(self.v.rules.board())
            .map(|s| self.v.rules.square_name(s))
            .collect()
    }

    /// The start position.
    fn initial(&self) -> Position {
        self.position(self.v.rules.start_position())
    }

    /// Reads a PDN FEN position (`W:Wa2,b2,Kd4:Ba7,c7`); raises `FenError`.
    fn parse_fen(&self, py: Python<'_>, text: &str) -> PyResult<Position> {
        self.v
            .rules
            .parse_fen(text)
            .map(|p| self.position(p))
            .map_err(|e| fen_error(py, &e))
    }

    /// Writes `pos` as PDN FEN.
    fn to_fen(&self, pos: &Position) -> PyResult<String> {
        self.check_position(pos)?;
        Ok(self.v.rules.to_fen(&pos.pos))
    }

    /// The legal moves of `pos`, one `Move` per distinct move (origin,
    /// destination, captured set), in the generator's order.
    fn legal_moves(&self, pos: &Position) -> PyResult<Vec<Move>> {
        self.check_position(pos)?;
        let list = self.v.rules.legal_moves(&pos.pos);
        Ok(list.iter().map(|m| self.make_move(&pos.pos, m)).collect())
    }

    /// Finds the legal move that `text` names (`d3-d4`, `d4xd6xf6`, `12-16`);
    /// raises `IllegalMove` with the reason, as the CLI explains it.
    fn parse_move(&self, pos: &Position, text: &str) -> PyResult<Move> {
        self.check_position(pos)?;
        self.v
            .rules
            .resolve_move(&pos.pos, text)
            .map(|m| self.make_move(&pos.pos, &m))
            .map_err(|e| IllegalMove::new_err(e.to_string()))
    }

    /// The position after playing `move` (a `Move` or move text) in `pos`.
    /// `pos` is not changed.
    #[pyo3(name = "play")]
    fn play_move(&self, pos: &Position, r#move: &Bound<'_, PyAny>) -> PyResult<Position> {
        self.check_position(pos)?;
        let m = resolve(&self.v.rules, &pos.pos, r#move)?;
        Ok(self.position(pos.pos.after(&m)))
    }

    /// Counts the leaves of the move tree `depth` plies deep. `count` is
    /// `"paths"` (default: one per capture path), `"moves"` (one per
    /// distinct move) or `"jumps"` (paths, a king going on along one line
    /// counted once, as dctl counts); `threads` > 1 splits the first plies
    /// across threads. The GIL is released while counting.
    #[pyo3(signature = (pos, depth, count="paths", threads=1))]
    fn perft(&self, py: Python<'_>, pos: &Position, depth: u32, count: &str, threads: usize) -> PyResult<u64> {
        self.check_position(pos)?;
        let mode = count_mode(count)?;
        let rules = self.v.rules.clone();
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
        let (w, h) = (usize::from(self.v.rules.width()), usize::from(self.v.rules.height()));
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

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("Rules({})", py_repr(py, self.v.rules.id()))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.downcast::<Rules>().is_ok_and(|o| o.get().v.same(&self.v))
    }

    fn __hash__(&self) -> u64 {
        self.v.fp
    }

    /// The same rules (they are immutable).
    fn copy(&self) -> Rules {
        self.clone()
    }

    fn __copy__(&self) -> Rules {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Rules {
        self.clone()
    }

    /// Pickled as the whole resolved spec (JSON), compiled again on load:
    /// built-in, `from_toml` and `from_file` rules alike, with no file needed.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let json = self.v.spec_json(py)?;
        PyTuple::new(
            py,
            [module_fn(py, "_rules_from_spec")?, PyTuple::new(py, [json])?.into_any()],
        )
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
    v: Variant,
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
            d.set_item(self.v.rules.square_name(sq), piece_letter(p))?;
        }
        Ok(d)
    }

    /// The piece on `square` (`"w"`, `"W"`, `"b"`, `"B"`), or `None`.
    fn piece_at(&self, square: &str) -> PyResult<Option<&'static str>> {
        let sq = self
            .v
            .rules
            .parse_square(square)
            .ok_or_else(|| PyValueError::new_err(format!("`{square}` is not a square of this board")))?;
        Ok(self.pos.piece_at(sq).map(piece_letter))
    }

    /// The position as PDN FEN.
    #[getter]
    fn fen(&self) -> String {
        self.v.rules.to_fen(&self.pos)
    }

    /// The variant's id.
    #[getter]
    fn variant(&self) -> String {
        self.v.rules.id().to_string()
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
            o.pos == self.pos && o.v.same(&self.v)
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.pos.hash(&mut h);
        self.v.fp.hash(&mut h);
        h.finish()
    }

    fn __str__(&self) -> String {
        self.fen()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Position({}, {})",
            py_repr(py, self.v.rules.id()),
            py_repr(py, &self.fen())
        )
    }

    /// Pickled as its rules and its FEN.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let args = (self.v.py_rules(), self.fen()).into_pyobject(py)?;
        PyTuple::new(py, [module_fn(py, "_position_from_fen")?, args.into_any()])
    }
}

/// A legal move of one position. `str(move)` is its full-path notation.
#[pyclass(module = "dama", frozen)]
#[derive(Debug, Clone)]
struct Move {
    v: Variant,
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

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("Move({})", py_repr(py, &self.text))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.downcast::<Move>().is_ok_and(|o| {
            let o = o.get();
            o.mv == self.mv && o.before == self.before && o.v.same(&self.v)
        })
    }

    /// The same move (moves are immutable).
    fn copy(&self) -> Move {
        self.clone()
    }

    fn __copy__(&self) -> Move {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Move {
        self.clone()
    }

    /// Pickled as its rules, the position it is played from (FEN) and its text.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let index = self
            .v
            .rules
            .legal_moves(&self.before)
            .iter()
            .position(|m| *m == self.mv);
        let args = (
            self.v.py_rules(),
            self.v.rules.to_fen(&self.before),
            self.text.clone(),
            index,
        )
            .into_pyobject(py)?;
        PyTuple::new(py, [module_fn(py, "_move_from_text")?, args.into_any()])
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
    /// The rules of `inner`, with their fingerprint.
    v: Variant,
    /// The tags of the record it was read from, in order (first of a name).
    tags: Vec<(String, String)>,
}

impl Game {
    /// `inner`, whose rules are `v`'s.
    fn with(inner: de::Game, v: Variant, tags: Vec<(String, String)>) -> Game {
        Game { inner, v, tags }
    }
}

/// A record's tags, the first of each name.
fn record_tags(rec: &de::pdn::PdnGame) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::with_capacity(rec.tags.len());
    for t in &rec.tags {
        if !out.iter().any(|(k, _)| *k == t.name) {
            out.push((t.name.clone(), t.value.clone()));
        }
    }
    out
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (rules, position=None, moves=None))]
    fn new(rules: &Rules, position: Option<&Position>, moves: Option<Vec<String>>) -> PyResult<Game> {
        let mut inner = match position {
            Some(p) => {
                rules.check_position(p)?;
                de::Game::from_position(rules.v.rules.clone(), p.pos)
            }
            None => de::Game::new(rules.v.rules.clone()),
        };
        play_moves(&mut inner, &moves.unwrap_or_default()).map_err(|e| match &e {
            StartError::Move { error, .. } => match error {
                de::PlayError::GameOver(_) => GameOver::new_err(e.to_string()),
                _ => IllegalMove::new_err(e.to_string()),
            },
            StartError::Fen(_) => PyValueError::new_err(e.to_string()),
        })?;
        Ok(Game::with(inner, rules.v.clone(), Vec::new()))
    }

    /// The game as a plain dict, in the shape of `dama replay --format
    /// json` and the web API's game: `variant`, `start_fen`, `fen`, `side`,
    /// `plies` (`text`, `full`, `side`, `fen`), `moves` (full notation),
    /// `result` (`pdn`, `winner`, `reason`, `text`, or `None`), `passed_end`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(
            py,
            &serde_json::to_value(GameView::new(&self.inner)).unwrap_or_default(),
        )
    }

    /// Plays a `Move` or move text; returns the `Move` played. Raises
    /// `IllegalMove` (with the reason) or `GameOver`.
    fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<Move> {
        let pos = *self.inner.position();
        if let Some(o) = self.inner.outcome() {
            return Err(GameOver::new_err(format!("the game is over ({o})")));
        }
        let m = resolve(&self.v.rules, &pos, r#move)?;
        self.inner.play(m).map_err(|e| play_error(&e))?;
        Ok(make_move(&self.v, &pos, &m))
    }

    /// Takes back the last move; returns it, or `None` at the start.
    fn undo(&mut self) -> Option<Move> {
        let before = self.inner.last_ply().map(|p| p.before)?;
        let m = self.inner.undo()?;
        Some(make_move(&self.v, &before, &m))
    }

    /// The legal moves of the current position (none once the game is over).
    fn legal_moves(&self) -> Vec<Move> {
        if self.inner.is_over() {
            return vec![];
        }
        let pos = *self.inner.position();
        self.inner
            .legal_moves()
            .iter()
            .map(|m| make_move(&self.v, &pos, m))
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
            v: self.v.clone(),
            pos: *self.inner.position(),
        }
    }

    /// The position the game started from.
    #[getter]
    fn start_position(&self) -> Position {
        Position {
            v: self.v.clone(),
            pos: *self.inner.start_position(),
        }
    }

    /// The rules the game is played under.
    #[getter(rules)]
    fn get_rules(&self) -> Rules {
        self.v.py_rules()
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

    /// The tags of the PDN record the game was read from (`read_pdn`), in
    /// their order, the first of each name; `{}` for a game not read from
    /// a record. A new dict each time.
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.tags {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// An independent copy: moves played on one do not change the other.
    fn copy(&self) -> Game {
        self.clone()
    }

    fn __copy__(&self) -> Game {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.clone()
    }

    /// Pickled as its rules, its PDN record (start position, moves,
    /// result) and its tags; moves taken back are not kept.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let pdn = self.inner.to_pdn(&de::pdn::PdnTags::default());
        let args = (self.v.py_rules(), pdn, self.tags.clone()).into_pyobject(py)?;
        PyTuple::new(py, [module_fn(py, "_game_from_pdn")?, args.into_any()])
    }

    fn __len__(&self) -> usize {
        self.inner.ply_count()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Game({}, plies={}, result={})",
            py_repr(py, self.v.rules.id()),
            self.inner.ply_count(),
            py_repr_opt(py, self.result())
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
        Some(r) => RecordRules::given(r.v.rules.clone()),
        None => RecordRules::named(None).or_default("dama"),
    };
    // The records of one variant share its rules: their fingerprint is
    // computed once.
    let mut last: Option<Variant> = rules.map(|r| r.v.clone());
    for rec in &records {
        let g = record_rules.replay(rec, strict).map_err(|e| pdn_error(py, &e))?;
        let shared = g.shared_rules();
        let v = match last.take() {
            Some(v) if Arc::ptr_eq(&v.rules, &shared) => v,
            _ => Variant::new(shared),
        };
        last = Some(v.clone());
        if let Some(pe) = rec.past_end(&g) {
            let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
            PyErr::warn(
                py,
                category.as_any(),
                &std::ffi::CString::new(pe.to_string()).unwrap_or_default(),
                1,
            )?;
        }
        out.push(Game::with(g, v, record_tags(rec)));
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
    /// The rules and the position searched (for pickling).
    v: Variant,
    root: de::Position,
    /// The report in the JSON shape every front end gives it (`to_dict`).
    view: serde_json::Value,
}

#[pymethods]
impl SearchResult {
    /// The result as a plain dict, in the shape of the web page's analysis
    /// reports: `depth`, `score`, `score_text`, `for`, `nodes`, `ms`, `pv`
    /// (short notation), `best` (`squares`, `text`, or `None`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.view)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let best = match &self.best {
            Some(m) => m.__repr__(py),
            None => "None".to_string(),
        };
        format!(
            "SearchResult(best={best}, score={}, depth={}, nodes={})",
            self.score, self.depth, self.nodes
        )
    }

    /// Pickled as the rules, the position searched (FEN), the moves' text
    /// and the figures.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let view = serde_json::to_string(&self.view).unwrap_or_default();
        let args = (
            self.v.py_rules(),
            self.v.rules.to_fen(&self.root),
            self.best.as_ref().map(|m| m.text.clone()),
            self.pv.iter().map(|m| m.text.clone()).collect::<Vec<_>>(),
            (self.score, self.depth, self.nodes, self.elapsed),
            self.score_text.clone(),
            view,
        )
            .into_pyobject(py)?;
        PyTuple::new(py, [module_fn(py, "_search_result_from_state")?, args.into_any()])
    }
}

/// The engine's alpha-beta search with its transposition table.
/// `Engine(rules)`; `engine.search(pos_or_game, depth=, movetime=, nodes=)`.
/// One engine may be shared between threads: its searches run one at a
/// time, in turn, and `stop()` ends the running one.
#[pyclass(module = "dama", frozen)]
#[derive(Debug)]
struct Engine {
    v: Variant,
    /// As given to the constructor (for pickling).
    table_mb: Option<usize>,
    seed: Option<u64>,
    /// The engine, locked by the thread that searches with it.
    inner: Arc<Mutex<de::Engine>>,
    /// The stop flag of the search running now, if any: outside `inner`,
    /// so that `stop()` does not wait for the search to end.
    running: Arc<Mutex<Option<Arc<AtomicBool>>>>,
    /// The engine's evaluation, for `evaluate` without waiting for a search.
    evaluator: de::Evaluator,
}

/// Refuses a transposition table that cannot be allocated, with
/// `MemoryError`, instead of letting the allocation abort the interpreter:
/// the table takes at most `mb` MiB, so a block of that size is reserved
/// (and freed) first.
fn check_table_size(mb: usize) -> PyResult<()> {
    let too_big = || PyMemoryError::new_err(format!("cannot allocate a transposition table of {mb} MB"));
    let bytes = mb.max(1).checked_mul(1 << 20).ok_or_else(too_big)?;
    let mut probe: Vec<u8> = Vec::new();
    probe.try_reserve_exact(bytes).map_err(|_| too_big())?;
    // Keeps the allocation from being optimised away.
    std::hint::black_box(probe.as_mut_ptr());
    Ok(())
}

/// `movetime` as the search's time limit: `Ok(None)` for a time too large
/// for the clock (such as `float("inf")`), which means no limit.
fn time_limit(movetime: f64) -> PyResult<Option<Duration>> {
    if movetime.is_nan() || movetime < 0.0 {
        return Err(PyValueError::new_err(
            "movetime must be a non-negative number of seconds",
        ));
    }
    Ok(Duration::try_from_secs_f64(movetime).ok().filter(|d| {
        d.checked_add(DEADLINE_MARGIN)
            .and_then(|far| Instant::now().checked_add(far))
            .is_some()
    }))
}

impl Engine {
    fn build(py: Python<'_>, v: Variant, table_mb: Option<usize>, seed: Option<u64>) -> PyResult<Engine> {
        if let Some(mb) = table_mb {
            check_table_size(mb)?;
        }
        let rules = v.rules.clone();
        let inner = py.allow_threads(move || {
            dama_play::EngineConfig {
                table_mb,
                seed,
                ..dama_play::EngineConfig::default()
            }
            .engine(&rules)
        });
        let evaluator = inner.evaluator().clone();
        Ok(Engine {
            v,
            table_mb,
            seed,
            inner: Arc::new(Mutex::new(inner)),
            running: Arc::new(Mutex::new(None)),
            evaluator,
        })
    }

    /// Runs the search on a thread of its own (with the stack a search
    /// needs) once the engine is free, while this thread, without the GIL,
    /// waits for it and looks for signals every `SIGNAL_POLL`: on Ctrl-C
    /// the search is stopped (or, still waiting for the engine, dropped)
    /// and `KeyboardInterrupt` raised.
    fn run(&self, py: Python<'_>, root: de::SearchRoot, limits: de::Limits) -> PyResult<de::SearchResult> {
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        let (inner, running, flag) = (self.inner.clone(), self.running.clone(), stop.clone());
        std::thread::Builder::new()
            .name("dama-search".into())
            .stack_size(dama_play::SEARCH_STACK)
            .spawn(move || {
                let mut engine = lock(&inner);
                if flag.load(Ordering::SeqCst) {
                    return; // interrupted while waiting for the engine
                }
                *lock(&running) = Some(flag.clone());
                engine.set_stop_flag(Some(flag));
                let r = engine.search(&root, &limits);
                engine.set_stop_flag(None);
                *lock(&running) = None;
                drop(engine);
                let _ = tx.send(r);
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start the search thread: {e}")))?;
        let mut rx = rx;
        loop {
            let (got, back) = py.allow_threads(move || (rx.recv_timeout(SIGNAL_POLL), rx));
            rx = back;
            match got {
                Ok(r) => return Ok(r),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        stop.store(true, Ordering::SeqCst);
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err("the search failed"));
                }
            }
        }
    }
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (rules, table_mb=None, seed=None))]
    fn new(py: Python<'_>, rules: &Rules, table_mb: Option<usize>, seed: Option<u64>) -> PyResult<Engine> {
        Engine::build(py, rules.v.clone(), table_mb, seed)
    }

    /// Searches a `Position` or a `Game` (whose history counts for
    /// repetitions and the draw clock). Limits: `depth` (plies),
    /// `movetime` (seconds; one too large for the clock, such as
    /// `float("inf")`, is no time limit), `nodes`; with none given, the
    /// CLI's default level. The GIL is released while searching; Ctrl-C
    /// stops the search and raises `KeyboardInterrupt`.
    #[pyo3(signature = (root, depth=None, movetime=None, nodes=None))]
    fn search(
        &self,
        py: Python<'_>,
        root: &Bound<'_, PyAny>,
        depth: Option<u32>,
        movetime: Option<f64>,
        nodes: Option<u64>,
    ) -> PyResult<SearchResult> {
        let search_root = if let Ok(p) = root.downcast::<Position>() {
            let p = p.get();
            if !p.v.same(&self.v) {
                return Err(PyValueError::new_err("the position belongs to another variant"));
            }
            de::SearchRoot::new(p.pos)
        } else if let Ok(g) = root.downcast::<Game>() {
            let g = g.try_borrow()?;
            if !g.v.same(&self.v) {
                return Err(PyValueError::new_err("the game is played under another variant"));
            }
            de::SearchRoot::from_game(&g.inner)
        } else {
            return Err(PyTypeError::new_err("expected a dama.Position or a dama.Game"));
        };
        let time = movetime.map(time_limit).transpose()?.flatten();
        let limits = if depth.is_some() || nodes.is_some() || movetime.is_some() {
            de::Limits {
                depth: depth.map(|d| d.max(1)),
                movetime: time,
                nodes,
                noise: 0,
            }
        } else {
            dama_play::LimitsRequest::default().limits()
        };
        let pos = search_root.pos;
        let r = self.run(py, search_root, limits)?;
        let mut pv = Vec::with_capacity(r.pv.len());
        let mut p = pos;
        for m in &r.pv {
            pv.push(make_move(&self.v, &p, m));
            p = p.after(m);
        }
        Ok(SearchResult {
            best: r.best.map(|m| make_move(&self.v, &pos, &m)),
            score: r.score,
            pv,
            depth: r.depth,
            nodes: r.nodes,
            elapsed: r.elapsed.as_secs_f64(),
            score_text: r.score_text(),
            view: serde_json::to_value(SearchInfo::new(&self.v.rules, &pos, &r, MAX_PV_SHOWN)).unwrap_or_default(),
            v: self.v.clone(),
            root: pos,
        })
    }

    /// Ends the search running now, from any thread: it returns at once
    /// with its best move so far. Searches waiting for the engine are not
    /// affected; without a running search, nothing happens.
    fn stop(&self) {
        if let Some(flag) = lock(&self.running).as_ref() {
            flag.store(true, Ordering::SeqCst);
        }
    }

    /// Forgets the transposition table (after the running search, if any).
    fn clear(&self, py: Python<'_>) {
        let inner = self.inner.clone();
        py.allow_threads(move || lock(&inner).clear());
    }

    /// The static evaluation of `pos` for the side to move, in hundredths of
    /// a man; a position of another variant raises `ValueError`.
    fn evaluate(&self, pos: &Position) -> PyResult<i32> {
        self.v.check(&pos.v, "the position")?;
        Ok(self.evaluator.evaluate(&self.v.rules, &pos.pos))
    }

    /// The rules the engine plays.
    #[getter]
    fn rules(&self) -> Rules {
        self.v.py_rules()
    }

    /// The transposition table's size in MB as given (`None`: the default, 16).
    #[getter]
    fn table_mb(&self) -> Option<usize> {
        self.table_mb
    }

    /// The seed as given.
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.seed
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("Engine({})", py_repr(py, self.v.rules.id()))
    }

    /// Pickled as its rules and settings (`table_mb`, `seed`); what its
    /// table learnt is not kept.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let args = (self.v.py_rules(), self.table_mb, self.seed).into_pyobject(py)?;
        PyTuple::new(py, [py.get_type::<Engine>().into_any(), args.into_any()])
    }
}

/// The ids of the shipped variants.
#[pyfunction]
fn variants() -> Vec<String> {
    de::source::builtin_names()
}

/// Unpickles `Rules` (`Rules.__reduce__`).
#[pyfunction]
#[pyo3(name = "_rules_from_spec")]
fn rules_from_spec(py: Python<'_>, spec: &Bound<'_, PyString>) -> PyResult<Rules> {
    Rules::from_spec_json(py, spec)
}

/// Unpickles a `Position` (`Position.__reduce__`).
#[pyfunction]
#[pyo3(name = "_position_from_fen")]
fn position_from_fen(py: Python<'_>, rules: &Rules, fen: &str) -> PyResult<Position> {
    rules.parse_fen(py, fen)
}

/// Unpickles a `Move` (`Move.__reduce__`).
#[pyfunction]
#[pyo3(name = "_move_from_text", signature = (rules, fen, text, index=None))]
fn move_from_text(py: Python<'_>, rules: &Rules, fen: &str, text: &str, index: Option<usize>) -> PyResult<Move> {
    let pos = rules.parse_fen(py, fen)?.pos;
    let m = find_move(&rules.v.rules, &pos, text, index)?;
    Ok(rules.make_move(&pos, &m))
}

/// Unpickles a `Game` (`Game.__reduce__`): its record replayed under `rules`.
#[pyfunction]
#[pyo3(name = "_game_from_pdn", signature = (rules, pdn, tags=Vec::new()))]
fn game_from_pdn(py: Python<'_>, rules: &Rules, pdn: &str, tags: Vec<(String, String)>) -> PyResult<Game> {
    let records = de::pdn::read_games(pdn).map_err(|e| pdn_error(py, &e))?;
    let rec = records
        .first()
        .ok_or_else(|| PyValueError::new_err("no game in the pickled record"))?;
    let g = rec.replay(rules.v.rules.clone()).map_err(|e| pdn_error(py, &e))?;
    Ok(Game::with(g, rules.v.clone(), tags))
}

/// Unpickles a `SearchResult` (`SearchResult.__reduce__`).
#[pyfunction]
#[pyo3(name = "_search_result_from_state")]
#[allow(clippy::too_many_arguments)]
fn search_result_from_state(
    py: Python<'_>,
    rules: &Rules,
    fen: &str,
    best: Option<String>,
    pv: Vec<String>,
    figures: (i32, u32, u64, f64),
    score_text: String,
    view: &str,
) -> PyResult<SearchResult> {
    let root = rules.parse_fen(py, fen)?.pos;
    let best = best
        .map(|t| find_move(&rules.v.rules, &root, &t, None).map(|m| rules.make_move(&root, &m)))
        .transpose()?;
    let mut line = Vec::with_capacity(pv.len());
    let mut p = root;
    for t in &pv {
        let m = find_move(&rules.v.rules, &p, t, None)?;
        line.push(rules.make_move(&p, &m));
        p = p.after(&m);
    }
    let (score, depth, nodes, elapsed) = figures;
    Ok(SearchResult {
        best,
        score,
        pv: line,
        depth,
        nodes,
        elapsed,
        score_text,
        v: rules.v.clone(),
        root,
        view: serde_json::from_str(view)
            .map_err(|e| PyValueError::new_err(format!("not a pickled dama.SearchResult: {e}")))?,
    })
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
    m.add_function(wrap_pyfunction!(diagnostic_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(rules_from_spec, m)?)?;
    m.add_function(wrap_pyfunction!(position_from_fen, m)?)?;
    m.add_function(wrap_pyfunction!(move_from_text, m)?)?;
    m.add_function(wrap_pyfunction!(game_from_pdn, m)?)?;
    m.add_function(wrap_pyfunction!(search_result_from_state, m)?)?;
    m.add("VariantError", py.get_type::<VariantError>())?;
    m.add("FenError", py.get_type::<FenError>())?;
    m.add("IllegalMove", py.get_type::<IllegalMove>())?;
    m.add("PdnError", py.get_type::<PdnError>())?;
    m.add("GameOver", py.get_type::<GameOver>())?;
    cluster::register(m)?;
    Ok(())
}
