//! Endgame tables for any variant: every position with up to a few pieces,
//! solved by retrograde analysis on the compiled rules.
//!
//! - **Slices.** Positions are grouped by material ([`Material`]) and
//!   indexed inside a slice by ranking each group of pieces over the
//!   squares it may stand on (`index.rs`): men never stand on their own
//!   promotion squares, which the compiled rules give.
//! - **Order.** Fewer pieces first, then fewer men, so that every capture
//!   and every promotion leads into a slice already solved (`build.rs`).
//! - **Values.** Win, draw or loss for the side to move, and the distance
//!   to the end of the game in plies ([`TableValue`]).
//! - **The rules** are asked, never re-implemented: the generator lists the
//!   moves and confirms every predecessor, and `game/judge.rs` decides the
//!   positions where the game is over (`judge.rs`). What the draw clock
//!   decides (repetition, move counters) needs the history, which a table
//!   cannot see: the tables ignore it ([`ASSUMPTION`]).
//! - **Files**: one per slice, with a header that ties it to the rules
//!   (`file.rs`), written atomically and checked on load.

mod build;
mod file;
mod index;
mod judge;
mod probe;
mod symmetry;
mod value;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

pub use file::{TableHeader, ASSUMPTION, FORMAT_VERSION};
pub use index::{Material, MAX_EGTB_PIECES};
pub(crate) use probe::NodeTables;
pub use value::{TableValue, Wdl};

use crate::board::{Bits, Move, Node, PlyList, Position};
use crate::endgame::build::{SliceBuild, Solved, Unmoves};
use crate::endgame::index::Squares;
use crate::endgame::value::{is_loss, is_win, plies, Entry};
use crate::game::Outcome;
use crate::rules::{with_pack, Pack, Rules};

/// What can go wrong with endgame tables.
#[derive(Debug, thiserror::Error)]
pub enum EgtbError {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is not a table.
    #[error("{} is not an endgame table", path.display())]
    NotATable {
        /// The file.
        path: PathBuf,
    },
    /// The file was written in another version of the format.
    #[error("{} is in table format {found}; this program reads format {expected}", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: u32,
        /// The version read here.
        expected: u32,
    },
    /// The file was built for other rules.
    #[error(
        "{} was built for the rules of {found} ({found_fingerprint:016x}), not those of {expected} \
         ({expected_fingerprint:016x}): build the tables again",
        path.display()
    )]
    WrongRules {
        /// The file.
        path: PathBuf,
        /// The variant it was built for.
        found: String,
        /// The fingerprint of its rules.
        found_fingerprint: u64,
        /// The variant asked for.
        expected: String,
        /// The fingerprint of those rules.
        expected_fingerprint: u64,
    },
    /// The file is damaged.
    #[error("{} is damaged: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The tables would not fit.
    #[error("{what} needs {} of memory; the limit is {}", mib(*needed), mib(*limit))]
    TooLarge {
        /// What was to be built.
        what: String,
        /// The bytes it needs.
        needed: u64,
        /// The bytes available.
        limit: u64,
    },
    /// The rules have something the tables cannot index.
    #[error("endgame tables cannot be built for {variant}: {reason}")]
    Unsupported {
        /// The variant.
        variant: String,
        /// Why.
        reason: String,
    },
    /// No table holds the position.
    #[error("no table for {material} in {} (build it with `dama egtb build`)", dir.display())]
    Missing {
        /// The material asked for.
        material: Material,
        /// Where it was looked for.
        dir: PathBuf,
    },
    /// The position cannot be in a table.
    #[error("{0}")]
    BadPosition(String),
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

/// The folder of a variant's tables under `dir`: `dir/<variant id>`, with
/// any character of the id that is not a letter, a digit, `-` or `_` as `_`.
pub fn table_dir(dir: &Path, rules: &Rules) -> PathBuf {
    dir.join(crate::util::file_safe_name(rules.id()))
}

/// Checks that the rules can be tabled at all.
fn supported(rules: &Rules, pieces: u8) -> Result<(), EgtbError> {
    let unsupported = |reason: &str| EgtbError::Unsupported {
        variant: rules.id().to_string(),
        reason: reason.to_string(),
    };
    if rules.kings().max_consecutive_moves != 0 {
        return Err(unsupported(
            "kings.max_consecutive_moves makes a position depend on the king's last moves, which a table does not index",
        ));
    }
    if pieces == 0 || pieces > MAX_EGTB_PIECES {
        return Err(unsupported(&format!(
            "the number of pieces must be 1 to {MAX_EGTB_PIECES}"
        )));
    }
    Ok(())
}

/// The number of positions with 1 to `pieces` pieces (any mixture of men
/// and kings of either colour, men never on their own promotion squares),
/// side to move left out, per piece count (`out[n - 1]` for n pieces):
/// what the tables index, to compare with published counts.
///
/// ```
/// let rules = dama_engine::Rules::builtin("english").unwrap();
/// assert_eq!(dama_engine::egtb::position_counts(&rules, 2), vec![120, 6_972]);
/// ```
pub fn position_counts(rules: &Rules, pieces: u8) -> Vec<u64> {
    with_pack!(rules, p => {
        let sq = Squares::new(p);
        (1..=pieces.min(MAX_EGTB_PIECES))
            .map(|n| {
                Material::up_to(n)
                    .into_iter()
                    .filter(|m| m.pieces() == n)
                    .filter_map(|m| sq.shape(m))
                    .map(|s| sq.count(&s))
                    .sum()
            })
            .collect()
    })
}

/// How much memory a build up to `pieces` pieces needs, in bytes: every
/// slice's entries (kept to solve the larger ones) and the working arrays
/// of the largest.
pub fn memory_needed(rules: &Rules, pieces: u8) -> u64 {
    memory_for(rules, &Material::up_to(pieces.min(MAX_EGTB_PIECES)))
}

fn memory_for(rules: &Rules, slices: &[Material]) -> u64 {
    with_pack!(rules, p => {
        let sq = Squares::new(p);
        let mut all = 0u64;
        let mut largest = 0u64;
        for &m in slices {
            let n = sq.shape(m).map_or(u64::MAX / 64, |s| s.per_side * 2);
            all = all.saturating_add(n * 2);
            largest = largest.max(n);
        }
        // Values, counters, outside values (2 bytes each), the lists of a
        // level (about 6 bytes per entry at worst), and the files' buffers.
        all.saturating_add(largest.saturating_mul(12)).saturating_add(64 << 20)
    })
}

/// The state of a build, for a progress display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildProgress {
    /// The slice being solved.
    pub material: Material,
    /// Its number (from 1) and the number of slices.
    pub slice: usize,
    /// The number of slices.
    pub slices: usize,
    /// Positions (entries per side to move) done in all, of `total`.
    pub done: u64,
    /// Positions in all.
    pub total: u64,
    /// Whether the slice was read from its file rather than solved.
    pub loaded: bool,
}

/// What a build did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildReport {
    /// The header of every slice, in the order solved.
    pub tables: Vec<TableHeader>,
    /// How many were solved (the others were read from valid files).
    pub built: usize,
    /// The memory the build was allowed and needed, in bytes.
    pub memory_needed: u64,
}

/// Builds (or reads, where a valid file exists) every table of `rules` up
/// to `pieces` pieces into [`table_dir`]`(dir, rules)`, using the threads
/// of the current rayon pool. `memory_limit`, if given, is checked first.
pub fn build(
    rules: &Rules,
    dir: &Path,
    pieces: u8,
    memory_limit: Option<u64>,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Result<BuildReport, EgtbError> {
    supported(rules, pieces)?;
    build_for(rules, dir, &Material::up_to(pieces), memory_limit, progress)
}

/// Builds the tables of `targets` and of every slice they can lead to by
/// captures and promotions (see [`Material::reachable`]), like [`build`].
pub fn build_for(
    rules: &Rules,
    dir: &Path,
    targets: &[Material],
    memory_limit: Option<u64>,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Result<BuildReport, EgtbError> {
    build_with_mirror(rules, dir, targets, memory_limit, progress, true, None)
}

/// Builds the table of `material` alone: every slice it leads to by
/// captures and promotions ([`Material::dependencies`]) must have a valid
/// file in `dir` already (built before, here or by another process), and
/// is read, never built; a missing one is [`EgtbError::Missing`]. The
/// slice itself is read if its file is valid, else solved and written
/// (atomically, as [`build`] does). This is one task of a build spread
/// over processes or machines, and gives the same file as [`build_for`].
pub fn build_only(
    rules: &Rules,
    dir: &Path,
    material: Material,
    memory_limit: Option<u64>,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Result<BuildReport, EgtbError> {
    build_with_mirror(rules, dir, &[material], memory_limit, progress, true, Some(material))
}

/// The slices a build of `targets` solves, in the order it solves them
/// (each after every slice it leads to): `targets` and every material
/// their captures and promotions can lead to.
///
/// ```
/// use dama_engine::egtb::{plan, Material};
/// let kk_k: Material = "KK v K".parse().unwrap();
/// let names: Vec<String> = plan(&[kk_k]).iter().map(|m| m.to_string()).collect();
/// assert_eq!(names, ["- v K", "K v -", "K v K", "KK v -", "KK v K"]);
/// ```
pub fn plan(targets: &[Material]) -> Vec<Material> {
    let pieces = targets.iter().map(Material::pieces).max().unwrap_or(0);
    Material::up_to(pieces.min(MAX_EGTB_PIECES))
        .into_iter()
        .filter(|m| targets.iter().any(|t| t.reachable(m)))
        .collect()
}

/// [`build_for`], using the mirror where the rules keep it only with
/// `use_mirror` (the tests compare the two builds); with `only`, every
/// slice but that one is read from its file ([`build_only`]).
fn build_with_mirror(
    rules: &Rules,
    dir: &Path,
    targets: &[Material],
    memory_limit: Option<u64>,
    progress: &(dyn Fn(BuildProgress) + Sync),
    use_mirror: bool,
    only: Option<Material>,
) -> Result<BuildReport, EgtbError> {
    let pieces = targets.iter().map(Material::pieces).max().unwrap_or(0);
    supported(rules, pieces)?;
    let slices = plan(targets);
    let needed = memory_for(rules, &slices);
    if let Some(limit) = memory_limit {
        if needed > limit {
            return Err(EgtbError::TooLarge {
                what: format!("{} with up to {pieces} pieces", rules.id()),
                needed,
                limit,
            });
        }
    }
    let out = table_dir(dir, rules);
    with_pack!(rules, p => {
        let mirror = if use_mirror { symmetry::Mirror::of(rules, p) } else { None };
        let plan = BuildPlan { slices: &slices, needed, only };
        build_in(rules, p, &out, &plan, progress, mirror.as_ref())
    })
}

/// What a build solves: the slices in order, the memory they need, and
/// the one slice to build alone ([`build_only`]), if any.
struct BuildPlan<'a> {
    slices: &'a [Material],
    needed: u64,
    only: Option<Material>,
}

fn build_in<B: Bits>(
    rules: &Rules,
    p: &Pack<B>,
    out: &Path,
    plan: &BuildPlan<'_>,
    progress: &(dyn Fn(BuildProgress) + Sync),
    mirror: Option<&symmetry::Mirror>,
) -> Result<BuildReport, EgtbError> {
    let BuildPlan { slices, needed, only } = *plan;
    let sq = Squares::new(p);
    let unmoves = Unmoves::new(rules, p, &sq);
    let mut solved = Solved::new(slices.iter().map(Material::pieces).max().unwrap_or(0));
    let mut shapes = Vec::new();
    for &m in slices {
        let shape = sq.shape(m).ok_or_else(|| EgtbError::TooLarge {
            what: format!("the slice {m}"),
            needed: u64::MAX,
            limit: u32::MAX as u64,
        })?;
        shapes.push(shape);
    }
    let total: u64 = shapes.iter().map(|s| s.per_side).sum();
    let fp = rules.fingerprint();
    let mut report = BuildReport {
        tables: Vec::new(),
        built: 0,
        memory_needed: needed,
    };
    let mut before = 0u64;
    for (i, shape) in shapes.into_iter().enumerate() {
        let m = shape.material;
        let path = out.join(m.file_name());
        let base = BuildProgress {
            material: m,
            slice: i + 1,
            slices: slices.len(),
            done: before,
            total,
            loaded: false,
        };
        let (header, data) = match file::read_table(&path, rules.id(), fp, m, shape.per_side) {
            Ok(t) => {
                progress(BuildProgress { loaded: true, ..base });
                t
            }
            // A slice that only leads to the one asked for is read, never built.
            Err(_) if !path.exists() && only.is_some_and(|t| t != m) => {
                return Err(EgtbError::Missing {
                    material: m,
                    dir: out.to_path_buf(),
                })
            }
            Err(e) if only.is_some_and(|t| t != m) => return Err(e),
            Err(_) => {
                progress(base);
                let last = AtomicU64::new(0);
                let tick = |d: u64| {
                    // At most a hundred calls a slice.
                    let step = (shape.per_side / 100).max(1);
                    if d / step != last.swap(d, Ordering::Relaxed) / step {
                        progress(BuildProgress {
                            done: before + d.min(shape.per_side),
                            ..base
                        });
                    }
                };
                let build = SliceBuild {
                    rules,
                    p,
                    sq: &sq,
                    solved: &solved,
                    unmoves: &unmoves,
                    mirror,
                };
                let data = build.solve(&shape, &tick)?;
                let header = TableHeader::for_data(rules.id(), fp, m, &data);
                file::write_table(&path, &header, &data)?;
                report.built += 1;
                (header, data)
            }
        };
        before += shape.per_side;
        report.tables.push(header);
        solved.insert(shape, data);
    }
    Ok(report)
}

/// The headers of the tables of `rules` in `dir` (see [`table_dir`]), in
/// the order they are solved; slices without a file are left out, and a
/// file built for other rules or whose size is not the one its header
/// gives is an error. The entries are not read ([`verify`] reads them).
pub fn headers(rules: &Rules, dir: &Path) -> Result<Vec<TableHeader>, EgtbError> {
    let d = table_dir(dir, rules);
    let fp = rules.fingerprint();
    let mut out = Vec::new();
    for m in Material::up_to(MAX_EGTB_PIECES) {
        let path = d.join(m.file_name());
        if !path.exists() {
            continue;
        }
        let h = file::read_checked_header(&path)?;
        if h.fingerprint != fp || h.variant != rules.id() {
            return Err(EgtbError::WrongRules {
                path,
                found: h.variant,
                found_fingerprint: h.fingerprint,
                expected: rules.id().to_string(),
                expected_fingerprint: fp,
            });
        }
        out.push(h);
    }
    Ok(out)
}

/// Every table of `rules` in `dir` (see [`table_dir`]) checked whole, in
/// the order they are solved: its header, rules, slice, size, checksum and
/// counts, the entries streamed through a buffer and never kept. One
/// answer per slice with a file: its header, or what is wrong with it.
pub fn verify(rules: &Rules, dir: &Path) -> Vec<(Material, Result<TableHeader, EgtbError>)> {
    let d = table_dir(dir, rules);
    let fp = rules.fingerprint();
    with_pack!(rules, p => {
        let sq = Squares::new(p);
        Material::up_to(MAX_EGTB_PIECES)
            .into_iter()
            .filter_map(|m| {
                let path = d.join(m.file_name());
                if !path.exists() {
                    return None;
                }
                let checked = match sq.shape(m) {
                    Some(shape) => file::verify_table(&path, rules.id(), fp, m, shape.per_side),
                    None => Err(EgtbError::Corrupt {
                        path,
                        reason: format!("the slice {m} is too large to be a table"),
                    }),
                };
                Some((m, checked))
            })
            .collect()
    })
}

/// The position of entry `entry` of a slice (White to move in the first
/// half), or `None` for an entry that names no position.
pub fn position(rules: &Rules, material: Material, entry: u64) -> Option<Position> {
    with_pack!(rules, p => {
        let sq = Squares::new(p);
        let shape = sq.shape(material)?;
        if entry >= shape.per_side * 2 {
            return None;
        }
        sq.node(&shape, entry).map(|n| rules.track_runs(p.position(&n)))
    })
}

/// One side to move of a slice, summed up ([`summary`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideSummary {
    /// Positions won for the side to move.
    pub wins: u64,
    /// Positions drawn.
    pub draws: u64,
    /// Positions lost for the side to move.
    pub losses: u64,
    /// Positions where the side to move has a capture.
    pub with_capture: u64,
    /// Of the positions without a capture for the side to move: wins, draws, losses.
    pub without_capture: (u64, u64, u64),
    /// The longest win (plies) and a position where it stands.
    pub longest_win: Option<(u32, Position)>,
    /// A drawn position, one without a capture for the side to move when
    /// there is one.
    pub a_draw: Option<Position>,
}

/// A slice's results by side to move (White first), read from its table.
pub fn summary(rules: &Rules, dir: &Path, material: Material) -> Result<[SideSummary; 2], EgtbError> {
    let mut tb = Tablebase::open(rules, dir);
    with_pack!(rules, p => {
        let sq = Squares::new(p);
        Ok([
            side_summary(rules, p, &sq, &mut tb, material, 0)?,
            side_summary(rules, p, &sq, &mut tb, material, 1)?,
        ])
    })
}

fn side_summary<B: Bits>(
    rules: &Rules,
    p: &Pack<B>,
    sq: &Squares,
    tb: &mut Tablebase,
    material: Material,
    side: u64,
) -> Result<SideSummary, EgtbError> {
    let shape = sq.shape(material).ok_or_else(|| EgtbError::Missing {
        material,
        dir: tb.dir.clone(),
    })?;
    let mut s = SideSummary {
        wins: 0,
        draws: 0,
        losses: 0,
        with_capture: 0,
        without_capture: (0, 0, 0),
        longest_win: None,
        a_draw: None,
    };
    let mut draw_capture: Option<Position> = None;
    for e in side * shape.per_side..(side + 1) * shape.per_side {
        let Some(n) = sq.node::<B>(&shape, e) else {
            continue;
        };
        let v = TableValue::from_entry(tb.entry(sq, &n)?);
        let capture = rules.has_capture_in(p, &n);
        let pos = || rules.track_runs(p.position(&n));
        match v.wdl {
            Wdl::Win => {
                s.wins += 1;
                if s.longest_win.as_ref().is_none_or(|(d, _)| v.plies > *d) {
                    s.longest_win = Some((v.plies, pos()));
                }
            }
            Wdl::Draw => {
                s.draws += 1;
                if !capture && s.a_draw.is_none() {
                    s.a_draw = Some(pos());
                }
                if capture && draw_capture.is_none() {
                    draw_capture = Some(pos());
                }
            }
            Wdl::Loss => s.losses += 1,
        }
        if capture {
            s.with_capture += 1;
        } else {
            let w = &mut s.without_capture;
            match v.wdl {
                Wdl::Win => w.0 += 1,
                Wdl::Draw => w.1 += 1,
                Wdl::Loss => w.2 += 1,
            }
        }
    }
    if s.a_draw.is_none() {
        s.a_draw = draw_capture;
    }
    Ok(s)
}

/// A variant's tables in a folder, read as they are needed.
#[derive(Debug)]
pub struct Tablebase {
    rules: Rules,
    dir: PathBuf,
    loaded: std::collections::HashMap<Material, Vec<Entry>>,
}

impl Tablebase {
    /// The tables of `rules` in `dir` (see [`table_dir`]); nothing is read yet.
    pub fn open(rules: &Rules, dir: &Path) -> Tablebase {
        Tablebase {
            rules: rules.clone(),
            dir: table_dir(dir, rules),
            loaded: Default::default(),
        }
    }

    fn entry<B: Bits>(&mut self, sq: &Squares, n: &Node<B>) -> Result<Entry, EgtbError> {
        let m = Material::of(n);
        let missing = || EgtbError::Missing {
            material: m,
            dir: self.dir.clone(),
        };
        // The piece count first: a position with more pieces than any
        // table is no table's, whatever else it is.
        if m.pieces() > MAX_EGTB_PIECES {
            return Err(missing());
        }
        let shape = sq.shape(m).ok_or_else(missing)?;
        if !self.loaded.contains_key(&m) {
            let path = self.dir.join(m.file_name());
            if !path.exists() {
                return Err(missing());
            }
            let (_, data) = file::read_table(&path, self.rules.id(), self.rules.fingerprint(), m, shape.per_side)?;
            self.loaded.insert(m, data);
        }
        let not_indexed = || EgtbError::BadPosition(format!("the position is not one of the slice {m}"));
        let i = sq.index_of(&shape, n).ok_or_else(not_indexed)?;
        self.loaded
            .get(&m)
            .and_then(|d| d.get(i as usize))
            .copied()
            .ok_or_else(not_indexed)
    }

    fn check(&self, pos: &Position) -> Result<(), EgtbError> {
        self.rules.check_position(pos).map_err(EgtbError::BadPosition)?;
        if self.rules.kings().max_consecutive_moves != 0 {
            supported(&self.rules, 1)?;
        }
        Ok(())
    }

    /// The rules the tables are for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The value of `pos` for its side to move.
    pub fn probe(&mut self, pos: &Position) -> Result<TableValue, EgtbError> {
        self.check(pos)?;
        let rules = self.rules.clone();
        with_pack!(rules, p => {
            let sq = Squares::new(p);
            let n = p.node(pos);
            self.entry(&sq, &n).map(TableValue::from_entry)
        })
    }

    /// How the end rules decide `pos`, if the game is over there (as the
    /// tables judged it while building).
    pub fn outcome(&self, pos: &Position) -> Option<Outcome> {
        let rules = &self.rules;
        with_pack!(rules, p => judge::outcome(rules, p, &p.node(pos), &mut PlyList::new()))
    }

    /// A best move of `pos` and the value of the position it leads to (for
    /// the other side): the quickest win, the slowest loss, or a move that
    /// keeps the draw. `None` when the game is over.
    pub fn best_move(&mut self, pos: &Position) -> Result<Option<(Move, TableValue)>, EgtbError> {
        self.check(pos)?;
        let rules = self.rules.clone();
        let rules = &rules;
        with_pack!(rules, p => {
            let sq = Squares::new(p);
            let n = p.node(pos);
            let mut list = PlyList::new();
            if judge::outcome(rules, p, &n, &mut list).is_some() {
                return Ok(None);
            }
            let mut best: Option<(i64, Move, Entry)> = None;
            for (m, _) in list.iter() {
                let child = n.after(m);
                let e = self.entry(&sq, &child)?;
                let key = match value::back(e) {
                    v if is_win(v) => 100_000 - plies(v) as i64,
                    v if is_loss(v) => -100_000 + plies(v) as i64,
                    _ => 0,
                };
                if best.as_ref().is_none_or(|(k, _, _)| key > *k) {
                    best = Some((key, p.export(m), e));
                }
            }
            Ok(best.map(|(_, m, e)| (m, TableValue::from_entry(e))))
        })
    }

    /// The line of best moves from `pos` to the end of the game (at most
    /// `max_plies` of them: a draw goes on for ever).
    pub fn line(&mut self, pos: &Position, max_plies: usize) -> Result<Vec<Move>, EgtbError> {
        let mut out = Vec::new();
        let mut cur = *pos;
        while out.len() < max_plies {
            let Some((m, _)) = self.best_move(&cur)? else {
                break;
            };
            cur = cur.after(&m);
            out.push(m);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests;
