//! The table file of one slice: a header, the entries, a checksum.
//!
//! ```text
//! magic        8 bytes  "DAMAEGTB"
//! version      u32      FORMAT_VERSION
//! fingerprint  u64      Rules::fingerprint() of the rules it was built for
//! material     4 × u8   White's men, White's kings, Black's men, Black's kings
//! pieces       u8       their sum
//! id length    u16, then the variant id in UTF-8
//! per side     u64      entries per side to move
//! wins, draws, losses   3 × u64  over the entries that name a position, both sides to move
//! longest win  u16 plies, u64 entry (u64::MAX: no win)
//! assumption   u16 length, then ASSUMPTION in UTF-8
//! entries      2 × per side × u16 (White to move first)
//! checksum     u64      FNV-1a of the entry bytes
//! ```
//!
//! All numbers are little-endian. A file is written to a temporary name
//! and renamed, so a reader never sees half of one; a reader checks every
//! field against the rules it is given.

use std::fs;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::endgame::index::Material;
use crate::endgame::value::{is_loss, is_win, plies, Entry, INVALID};
use crate::endgame::EgtbError;

const MAGIC: &[u8; 8] = b"DAMAEGTB";
/// The version of the table format this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// What the tables assume of the rules that depend on the game's history,
/// written in every file header and by `dama egtb probe`.
pub const ASSUMPTION: &str = "the tables ignore the draw clock: repetition, no-capture, kings-only and \
material-draw counters are not seen (a material draw that applies at once is); a draw means neither side \
can force the end of the game, so play goes on for ever";

/// The header of a table file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableHeader {
    /// The format version.
    pub version: u32,
    /// The variant id.
    pub variant: String,
    /// The fingerprint of the rules ([`Rules::fingerprint`](crate::Rules::fingerprint)).
    pub fingerprint: u64,
    /// The material of the slice.
    pub material: Material,
    /// Entries per side to move (some name no position).
    pub per_side: u64,
    /// Positions won for the side to move (both sides to move counted).
    pub wins: u64,
    /// Positions drawn.
    pub draws: u64,
    /// Positions lost for the side to move.
    pub losses: u64,
    /// The longest win, in plies, and its entry (`None`: no win).
    pub longest_win: Option<(u16, u64)>,
    /// What the table assumes of the history-level draw rules.
    pub assumption: String,
}

impl TableHeader {
    /// A header for `data`, counting its results.
    pub(crate) fn for_data(variant: &str, fingerprint: u64, material: Material, data: &[Entry]) -> TableHeader {
        let (mut wins, mut draws, mut losses) = (0, 0, 0);
        let mut longest: Option<(u16, u64)> = None;
        for (i, &e) in data.iter().enumerate() {
            if e == INVALID {
                continue;
            }
            if is_win(e) {
                wins += 1;
                if longest.is_none_or(|(d, _)| plies(e) > d) {
                    longest = Some((plies(e), i as u64));
                }
            } else if is_loss(e) {
                losses += 1;
            } else {
                draws += 1;
            }
        }
        TableHeader {
            version: FORMAT_VERSION,
            variant: variant.to_string(),
            fingerprint,
            material,
            per_side: data.len() as u64 / 2,
            wins,
            draws,
            losses,
            longest_win: longest,
            assumption: ASSUMPTION.to_string(),
        }
    }

    /// Positions in the slice, both sides to move counted.
    pub fn positions(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

fn fnv(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}
const FNV0: u64 = 0xcbf2_9ce4_8422_2325;

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> EgtbError + '_ {
    move |source| EgtbError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes a table, atomically: to a temporary file beside it, then renamed.
pub(crate) fn write_table(path: &Path, header: &TableHeader, data: &[Entry]) -> Result<(), EgtbError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(io(dir))?;
    let tmp: PathBuf = path.with_extension(format!("tmp{}", std::process::id()));
    let result = (|| -> Result<(), std::io::Error> {
        let mut w = BufWriter::with_capacity(1 << 20, fs::File::create(&tmp)?);
        w.write_all(MAGIC)?;
        w.write_all(&header.version.to_le_bytes())?;
        w.write_all(&header.fingerprint.to_le_bytes())?;
        let m = header.material;
        w.write_all(&[m.white_men, m.white_kings, m.black_men, m.black_kings, m.pieces()])?;
        let id = header.variant.as_bytes();
        w.write_all(&(id.len().min(u16::MAX as usize) as u16).to_le_bytes())?;
        w.write_all(&id[..id.len().min(u16::MAX as usize)])?;
        w.write_all(&header.per_side.to_le_bytes())?;
        for n in [header.wins, header.draws, header.losses] {
            w.write_all(&n.to_le_bytes())?;
        }
        let (d, e) = header.longest_win.unwrap_or((0, u64::MAX));
        w.write_all(&d.to_le_bytes())?;
        w.write_all(&e.to_le_bytes())?;
        let a = header.assumption.as_bytes();
        w.write_all(&(a.len() as u16).to_le_bytes())?;
        w.write_all(a)?;
        let mut h = FNV0;
        let mut buf = Vec::with_capacity(1 << 16);
        for chunk in data.chunks(1 << 15) {
            buf.clear();
            for &e in chunk {
                buf.extend_from_slice(&e.to_le_bytes());
            }
            h = fnv(h, &buf);
            w.write_all(&buf)?;
        }
        w.write_all(&h.to_le_bytes())?;
        w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(io(path))
}

struct Reader<R> {
    r: R,
    path: PathBuf,
}

impl<R: Read> Reader<R> {
    fn bytes<const N: usize>(&mut self) -> Result<[u8; N], EgtbError> {
        let mut b = [0u8; N];
        self.r.read_exact(&mut b).map_err(|e| self.short(e))?;
        Ok(b)
    }
    fn short(&self, e: std::io::Error) -> EgtbError {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            EgtbError::Corrupt {
                path: self.path.clone(),
                reason: "the file ends early".into(),
            }
        } else {
            EgtbError::Io {
                path: self.path.clone(),
                source: e,
            }
        }
    }
    fn u16(&mut self) -> Result<u16, EgtbError> {
        Ok(u16::from_le_bytes(self.bytes()?))
    }
    fn u32(&mut self) -> Result<u32, EgtbError> {
        Ok(u32::from_le_bytes(self.bytes()?))
    }
    fn u64(&mut self) -> Result<u64, EgtbError> {
        Ok(u64::from_le_bytes(self.bytes()?))
    }
    fn string(&mut self) -> Result<String, EgtbError> {
        let n = self.u16()? as usize;
        let mut b = vec![0u8; n];
        self.r.read_exact(&mut b).map_err(|e| self.short(e))?;
        String::from_utf8(b).map_err(|_| EgtbError::Corrupt {
            path: self.path.clone(),
            reason: "a name is not UTF-8".into(),
        })
    }

    fn header(&mut self) -> Result<TableHeader, EgtbError> {
        let magic: [u8; 8] = self.bytes().map_err(|_| EgtbError::NotATable {
            path: self.path.clone(),
        })?;
        if &magic != MAGIC {
            return Err(EgtbError::NotATable {
                path: self.path.clone(),
            });
        }
        let version = self.u32()?;
        if version != FORMAT_VERSION {
            return Err(EgtbError::Version {
                path: self.path.clone(),
                found: version,
                expected: FORMAT_VERSION,
            });
        }
        let fingerprint = self.u64()?;
        let [wm, wk, bm, bk, n] = self.bytes()?;
        let material = Material {
            white_men: wm,
            white_kings: wk,
            black_men: bm,
            black_kings: bk,
        };
        if u16::from(wm) + u16::from(wk) + u16::from(bm) + u16::from(bk) != u16::from(n) {
            return Err(EgtbError::Corrupt {
                path: self.path.clone(),
                reason: "the piece count does not add up".into(),
            });
        }
        let variant = self.string()?;
        let per_side = self.u64()?;
        let (wins, draws, losses) = (self.u64()?, self.u64()?, self.u64()?);
        let d = self.u16()?;
        let e = self.u64()?;
        let assumption = self.string()?;
        Ok(TableHeader {
            version,
            variant,
            fingerprint,
            material,
            per_side,
            wins,
            draws,
            losses,
            longest_win: (e != u64::MAX).then_some((d, e)),
            assumption,
        })
    }
}

/// The header of a table file and whether it is the one expected: built
/// for these rules (`variant`, `fingerprint`) and this slice.
fn check(path: &Path, h: &TableHeader, variant: &str, fingerprint: u64, m: Material) -> Result<(), EgtbError> {
    if h.fingerprint != fingerprint || h.variant != variant {
        return Err(EgtbError::WrongRules {
            path: path.to_path_buf(),
            found: h.variant.clone(),
            found_fingerprint: h.fingerprint,
            expected: variant.to_string(),
            expected_fingerprint: fingerprint,
        });
    }
    if h.material != m {
        return Err(EgtbError::Corrupt {
            path: path.to_path_buf(),
            reason: format!("it holds {} where {} was expected", h.material, m),
        });
    }
    Ok(())
}

/// The length in bytes of the file of a table with header `h`, or `None`
/// when it overflows: the header, the entries and the checksum.
fn file_len(h: &TableHeader) -> Option<u64> {
    let id = h.variant.len().min(u16::MAX as usize) as u64;
    let header = 8 + 4 + 8 + 5 + 2 + id + 8 + 3 * 8 + 2 + 8 + 2 + h.assumption.len() as u64;
    h.per_side.checked_mul(4)?.checked_add(header + 8)
}

/// Checks that the file at `path`, `len` bytes long, has the size its
/// header `h` gives it: a longer or shorter file is damaged.
pub(crate) fn check_len(path: &Path, h: &TableHeader, len: u64) -> Result<(), EgtbError> {
    let corrupt = |reason: String| EgtbError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let want = file_len(h).ok_or_else(|| corrupt("its size overflows".into()))?;
    match len.cmp(&want) {
        std::cmp::Ordering::Equal => Ok(()),
        std::cmp::Ordering::Less => Err(corrupt(format!(
            "the file is shorter than its header says ({len} bytes, not {want})"
        ))),
        std::cmp::Ordering::Greater => Err(corrupt(format!(
            "the file is longer than its header says ({len} bytes, not {want})"
        ))),
    }
}

/// Reads the header of a table file and checks it and the file's size.
pub(crate) fn read_checked_header(path: &Path) -> Result<TableHeader, EgtbError> {
    let f = fs::File::open(path).map_err(io(path))?;
    let len = f.metadata().map_err(io(path))?.len();
    let h = Reader {
        r: BufReader::new(f),
        path: path.to_path_buf(),
    }
    .header()?;
    check_len(path, &h, len)?;
    Ok(h)
}

/// Wins, draws and losses among `data` (invalid entries left out).
fn counts(data: &[Entry]) -> (u64, u64, u64) {
    data.iter().filter(|&&e| e != INVALID).fold((0, 0, 0), |(w, d, l), &e| {
        if is_win(e) {
            (w + 1, d, l)
        } else if is_loss(e) {
            (w, d, l + 1)
        } else {
            (w, d + 1, l)
        }
    })
}

/// Reads a whole table, checked against the rules and the slice expected,
/// against its size and against its checksum; `per_side` is the slice's
/// size under these rules.
pub(crate) fn read_table(
    path: &Path,
    variant: &str,
    fingerprint: u64,
    m: Material,
    per_side: u64,
) -> Result<(TableHeader, Vec<Entry>), EgtbError> {
    scan_table(path, variant, fingerprint, m, per_side, true)
}

/// Checks a whole table as [`read_table`] does, keeping nothing in memory
/// but a buffer: its header.
pub(crate) fn verify_table(
    path: &Path,
    variant: &str,
    fingerprint: u64,
    m: Material,
    per_side: u64,
) -> Result<TableHeader, EgtbError> {
    scan_table(path, variant, fingerprint, m, per_side, false).map(|(h, _)| h)
}

/// [`read_table`], keeping the entries only with `keep`.
fn scan_table(
    path: &Path,
    variant: &str,
    fingerprint: u64,
    m: Material,
    per_side: u64,
    keep: bool,
) -> Result<(TableHeader, Vec<Entry>), EgtbError> {
    let f = fs::File::open(path).map_err(io(path))?;
    let len = f.metadata().map_err(io(path))?.len();
    let mut r = Reader {
        r: BufReader::with_capacity(1 << 20, f),
        path: path.to_path_buf(),
    };
    let h = r.header()?;
    check(path, &h, variant, fingerprint, m)?;
    let corrupt = |reason: &str| EgtbError::Corrupt {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    };
    if h.per_side != per_side {
        return Err(corrupt("its size is not the size of this slice"));
    }
    // The size before anything is read: a file too long (bytes appended,
    // a sparse extension) or too short is damaged.
    check_len(path, &h, len)?;
    let n = per_side.checked_mul(2).ok_or_else(|| corrupt("its size overflows"))?;
    let mut data = Vec::with_capacity(if keep { n as usize } else { 0 });
    let mut chunk: Vec<Entry> = Vec::with_capacity(1 << 15);
    let mut found = (0u64, 0u64, 0u64);
    let mut h64 = FNV0;
    let mut buf = vec![0u8; 1 << 16];
    let mut left = n as usize;
    while left > 0 {
        let k = left.min(buf.len() / 2);
        r.r.read_exact(&mut buf[..2 * k]).map_err(|e| r.short(e))?;
        h64 = fnv(h64, &buf[..2 * k]);
        chunk.clear();
        chunk.extend(buf[..2 * k].chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])));
        let (w, d, l) = counts(&chunk);
        found = (found.0 + w, found.1 + d, found.2 + l);
        if keep {
            data.extend_from_slice(&chunk);
        }
        left -= k;
    }
    let sum = r.u64()?;
    if sum != h64 {
        return Err(corrupt("its checksum does not match its entries"));
    }
    if found != (h.wins, h.draws, h.losses) {
        return Err(corrupt("its counts of wins, draws and losses do not match its entries"));
    }
    Ok((h, data))
}
