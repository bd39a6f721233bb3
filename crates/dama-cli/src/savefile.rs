//! Saving files so that nothing is lost and nothing is overwritten by
//! mistake: atomic rewrites, appends, autosave names, dates.
//!
//! Every file the commands write (`play`'s records, `match --pdn`,
//! `dxp --pdn`, `analyze --pdn`, `tune --out`) goes through [`write_atomic`]
//! or an [`Appender`], which follow one policy (issue 38):
//!
//! - what is at the target must be a regular file: a directory, a fifo, a
//!   device (`/dev/full`) or a socket is refused, never replaced;
//! - an existing file must hold what the writer writes (a game record, or
//!   evaluation weights), or be empty: anything else (`notes.txt`) is refused;
//! - a symbolic link is written through: the file it points to is replaced
//!   and the link stays (a link to nothing is refused);
//! - a file with several hard links is refused: replacing it by a rename
//!   would leave the other names with the old content;
//! - the file keeps its permissions (a mode-600 record stays 600).
//!
//! The replacement goes through a temporary file `.NAME.tmp-PID` in the
//! same directory; temporary files of that pattern left by a process that
//! died (killed during a save) are removed at the next save of NAME, when
//! their process is gone or they are more than an hour old.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// What a file holds, so that a writer only replaces its own kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// PDN game records.
    GameRecord,
    /// Evaluation weights (`dama tune --out`).
    Weights,
    /// An SVG drawing (`dama diagram --svg`).
    Drawing,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::GameRecord => "a game record",
            Kind::Weights => "an evaluation weights file",
            Kind::Drawing => "an SVG drawing",
        }
    }
}

/// Why a file is not written.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The target is not a regular file.
    #[error("it is {0}, not a regular file; it is not replaced")]
    NotRegular(&'static str),
    /// The target holds something else than the writer writes.
    #[error("it exists and is not {0}; it is not overwritten")]
    NotOurs(&'static str),
    /// The target has several hard links.
    #[error("it has {0} hard links, and replacing it would part them; it is not replaced (save under another name)")]
    HardLinks(u64),
    /// A symbolic link to nothing.
    #[error("it is a symbolic link to a missing file; it is not followed")]
    DanglingLink,
    /// The path names no file.
    #[error("the path names no file")]
    NoFileName,
    /// Reading, writing or renaming failed.
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// Where a checked save goes.
#[derive(Debug)]
struct Target {
    /// The file to replace (a symbolic link resolved).
    path: PathBuf,
    /// Its permissions, when it exists.
    permissions: Option<fs::Permissions>,
}

/// The largest file read whole to check that it is a game record; of a
/// larger one, its beginning is checked.
const CHECK_WHOLE_BYTES: u64 = 16 << 20;

/// Checks `path` against the policy of the module and resolves it.
fn check(path: &Path, kind: Kind) -> Result<Target, SaveError> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            path.file_name().ok_or(SaveError::NoFileName)?;
            return Ok(Target {
                path: path.to_path_buf(),
                permissions: None,
            });
        }
        Err(e) => return Err(e.into()),
    };
    let (path, meta) = if meta.file_type().is_symlink() {
        match fs::canonicalize(path) {
            Ok(real) => {
                let meta = fs::metadata(&real)?;
                (real, meta)
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(SaveError::DanglingLink),
            Err(e) => return Err(e.into()),
        }
    } else {
        (path.to_path_buf(), meta)
    };
    if !meta.is_file() {
        return Err(SaveError::NotRegular(file_type_name(&meta)));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return Err(SaveError::HardLinks(meta.nlink()));
        }
    }
    if meta.len() > 0 && !holds(&path, kind, meta.len())? {
        return Err(SaveError::NotOurs(kind.name()));
    }
    Ok(Target {
        path,
        permissions: Some(meta.permissions()),
    })
}

/// What a file that is not a regular one is, in words.
fn file_type_name(meta: &fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a fifo";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "a special file"
}

/// Whether the regular file at `path` (`len` bytes) holds `kind`.
fn holds(path: &Path, kind: Kind, len: u64) -> io::Result<bool> {
    let limit = match kind {
        Kind::GameRecord => CHECK_WHOLE_BYTES,
        Kind::Weights => 1 << 20,
        Kind::Drawing => 4096,
    };
    let mut bytes = Vec::new();
    File::open(path)?.take(limit.min(len)).read_to_end(&mut bytes)?;
    let whole = (bytes.len() as u64) == len;
    Ok(match kind {
        Kind::GameRecord => {
            if whole {
                std::str::from_utf8(&bytes)
                    .ok()
                    .and_then(|t| dama_engine::pdn::read_games(t).ok())
                    .is_some_and(|g| !g.is_empty())
            } else {
                // Too large to read whole: it begins as a record does (a tag pair).
                let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]);
                let head = head.trim_start_matches('\u{feff}').trim_start();
                head.starts_with('[') && head.lines().next().is_some_and(|l| l.trim_end().ends_with("\"]"))
            }
        }
        Kind::Weights => {
            whole
                && std::str::from_utf8(&bytes)
                    .ok()
                    .and_then(|t| t.parse::<toml::Table>().ok())
                    .is_some_and(|t| t.get("weights").is_some_and(toml::Value::is_table))
        }
        // What `dama diagram` writes begins with the SVG element.
        Kind::Drawing => String::from_utf8_lossy(&bytes)
            .trim_start_matches('\u{feff}')
            .trim_start()
            .starts_with("<svg"),
    })
}

/// Whether `path` may be written as a file of `kind` (the policy of the
/// module), for commands that check before long work rather than after it.
pub fn check_target(path: &Path, kind: Kind) -> Result<(), SaveError> {
    check(path, kind).map(|_| ())
}

/// The temporary file beside `target` that [`write_atomic`] writes first.
fn temp_name(name: &std::ffi::OsStr, pid: u32) -> std::ffi::OsString {
    let mut tmp = std::ffi::OsString::from(".");
    tmp.push(name);
    tmp.push(format!(".tmp-{pid}"));
    tmp
}

/// The folder of `path` (`.` for a bare name).
fn folder(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Replaces the contents of `path` with the game record `text` atomically
/// ([`write_atomic_as`] with [`Kind::GameRecord`]).
pub fn write_atomic(path: &Path, text: &str) -> Result<(), SaveError> {
    write_atomic_as(path, text, Kind::GameRecord)
}

/// Replaces the contents of `path` with `text` atomically, under the
/// policy of the module: the text goes to a temporary file in the same
/// directory, which is flushed to disk and then renamed over `path`. A
/// crash leaves either the old file or the new one, never a truncated mix.
pub fn write_atomic_as(path: &Path, text: &str, kind: Kind) -> Result<(), SaveError> {
    let target = check(path, kind)?;
    replace(&target, text)?;
    remove_stale_temps(&target.path);
    Ok(())
}

/// Writes `text` through a temporary file renamed over `target`.
fn replace(target: &Target, text: &str) -> io::Result<()> {
    let path = &target.path;
    let dir = folder(path);
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
    let tmp = dir.join(temp_name(name, std::process::id()));
    let result = (|| {
        // `create_new` after removing a leftover of a process that had our
        // PID: never writes through whatever may sit at the temporary name.
        match fs::remove_file(&tmp) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        let mut f = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        if let Some(p) = &target.permissions {
            f.set_permissions(p.clone())?;
        }
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)?;
        // Make the rename itself durable where the platform allows it.
        #[cfg(unix)]
        if let Ok(d) = File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// How old a temporary file must be to be removed even when a process
/// with its PID is running (the PID may have been reused).
const STALE_AFTER: Duration = Duration::from_secs(3600);

/// Removes the temporary files `.NAME.tmp-PID` beside `path` that a
/// process which died during a save left: those whose process is gone (on
/// systems with `/proc`) or that are older than [`STALE_AFTER`]. Only
/// regular files of exactly that pattern, never our own PID's; failures
/// are ignored (it is tidying).
pub fn remove_stale_temps(path: &Path) {
    let Some(name) = path.file_name() else { return };
    let prefix = temp_name(name, 0);
    let prefix = prefix.to_string_lossy();
    let prefix = prefix.trim_end_matches('0');
    let Ok(entries) = fs::read_dir(folder(path)) else {
        return;
    };
    let proc_fs = Path::new("/proc/self").exists();
    let own = std::process::id();
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(rest) = file.to_str().and_then(|f| f.strip_prefix(prefix)) else {
            continue;
        };
        let Some(pid) = rest
            .parse::<u32>()
            .ok()
            .filter(|p| *p != own && !rest.starts_with('+') && !rest.starts_with('0'))
        else {
            continue;
        };
        let Ok(meta) = entry.path().symlink_metadata() else {
            continue;
        };
        if !meta.is_file() {
            continue;
        }
        let old = meta
            .modified()
            .ok()
            .and_then(|m| m.elapsed().ok())
            .is_some_and(|age| age > STALE_AFTER);
        let gone = proc_fs && !Path::new("/proc").join(pid.to_string()).exists();
        if gone || old {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// A file that grows one piece at a time (`match --pdn`, `dxp --pdn`: one
/// game each), so that a match stopped at any point (Ctrl-C, `kill -9`)
/// leaves every finished game on disk.
///
/// The target is checked when the appender is made ([`Appender::new`]),
/// before anything is played. The first piece replaces whatever was there
/// atomically ([`write_atomic_as`]: an old record stays whole until then);
/// each later one is appended with a single write and flushed to disk
/// before the next is played.
#[derive(Debug)]
pub struct Appender {
    path: PathBuf,
    kind: Kind,
    file: Option<File>,
}

impl Appender {
    /// An appender to `path`, checked against the policy of the module.
    pub fn new(path: &Path, kind: Kind) -> Result<Appender, SaveError> {
        let target = check(path, kind)?;
        Ok(Appender {
            path: target.path,
            kind,
            file: None,
        })
    }

    /// Adds `text` at the end of the file and flushes it to disk.
    pub fn append(&mut self, text: &str) -> Result<(), SaveError> {
        match &mut self.file {
            Some(f) => {
                f.write_all(text.as_bytes())?;
                f.sync_data()?;
            }
            None => {
                write_atomic_as(&self.path, text, self.kind)?;
                self.file = Some(OpenOptions::new().append(true).open(&self.path)?);
            }
        }
        Ok(())
    }

    /// Whether nothing has been written yet.
    pub fn is_empty(&self) -> bool {
        self.file.is_none()
    }
}

/// A UTC date and time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateTime {
    /// Year.
    pub year: i64,
    /// Month, 1–12.
    pub month: u32,
    /// Day, 1–31.
    pub day: u32,
    /// Hour.
    pub hour: u32,
    /// Minute.
    pub minute: u32,
    /// Second.
    pub second: u32,
}

impl DateTime {
    /// The current UTC time.
    pub fn now() -> DateTime {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        DateTime::from_unix(secs)
    }

    /// The UTC time `secs` seconds after 1970-01-01.
    pub fn from_unix(secs: i64) -> DateTime {
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400);
        // Howard Hinnant's civil-from-days algorithm.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = yoe + era * 400 + i64::from(month <= 2);
        DateTime {
            year,
            month,
            day,
            hour: (rem / 3600) as u32,
            minute: (rem % 3600 / 60) as u32,
            second: (rem % 60) as u32,
        }
    }

    /// `YYYY.MM.DD`, as the PDN `Date` tag wants it.
    pub fn pdn_date(&self) -> String {
        format!("{:04}.{:02}.{:02}", self.year, self.month, self.day)
    }

    /// `YYYYMMDD-HHMMSS`, for file names.
    pub fn stamp(&self) -> String {
        format!(
            "{:04}{:02}{:02}-{:02}{:02}{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }
}

/// A fresh autosave path in the current directory:
/// `./dama-<variant>-<timestamp>.dama-autosave.pdn` (with `-2`, `-3`… if taken).
pub fn autosave_path(variant_id: &str, now: &DateTime) -> PathBuf {
    let safe = dama_engine::text::file_safe_name(variant_id);
    let base = format!("dama-{safe}-{}", now.stamp());
    let mut n = 1;
    loop {
        let name = if n == 1 {
            format!("{base}.dama-autosave.pdn")
        } else {
            format!("{base}-{n}.dama-autosave.pdn")
        };
        let p = Path::new(".").join(name);
        if !p.exists() || n > 1000 {
            return p;
        }
        n += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        let d = DateTime::from_unix(0);
        assert_eq!((d.year, d.month, d.day), (1970, 1, 1));
        let d = DateTime::from_unix(951_782_400); // 2000-02-29
        assert_eq!((d.year, d.month, d.day), (2000, 2, 29));
        let d = DateTime::from_unix(1_735_689_599); // 2024-12-31 23:59:59
        assert_eq!(d.pdn_date(), "2024.12.31");
        assert_eq!(d.stamp(), "20241231-235959");
    }

    #[test]
    fn atomic_write_replaces() {
        let dir = std::env::temp_dir().join(format!("dama-save-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let p = dir.join("g.pdn");
        // (issue 38) Only a game record is replaced: two records.
        write_atomic(&p, ONE).unwrap();
        write_atomic(&p, TWO).unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), TWO);
        let leftovers = fs::read_dir(&dir).unwrap().count();
        assert_eq!(leftovers, 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    const ONE: &str = "[Event \"one\"]\n[Result \"*\"]\n\n1. c3-d4 *\n";
    const TWO: &str = "[Event \"two\"]\n[Result \"*\"]\n\n1. c3-b4 *\n";

    /// A fresh empty folder for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("dama-save-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_file_that_is_not_a_record_is_not_replaced() {
        let dir = scratch("notes");
        let p = dir.join("notes.txt");
        fs::write(&p, "my notes\n").unwrap();
        let e = write_atomic(&p, ONE).unwrap_err();
        assert!(matches!(e, SaveError::NotOurs("a game record")), "{e}");
        assert_eq!(fs::read_to_string(&p).unwrap(), "my notes\n");
        // A record is not weights either, and the other way round.
        let w = dir.join("w.toml");
        fs::write(&w, ONE).unwrap();
        assert!(matches!(
            write_atomic_as(&w, "[weights]\n", Kind::Weights),
            Err(SaveError::NotOurs(_))
        ));
        fs::write(&w, "format = 1\n[weights]\nmen = 100\n").unwrap();
        write_atomic_as(&w, "format = 1\n[weights]\nmen = 90\n", Kind::Weights).unwrap();
        assert!(matches!(write_atomic(&w, ONE), Err(SaveError::NotOurs(_))));
        // An empty file holds nothing to lose.
        let empty = dir.join("empty.pdn");
        fs::write(&empty, "").unwrap();
        write_atomic(&empty, ONE).unwrap();
        assert!(matches!(
            Appender::new(&p, Kind::GameRecord),
            Err(SaveError::NotOurs(_))
        ));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn special_files_are_never_replaced() {
        let dir = scratch("special");
        let e = write_atomic(&dir, ONE).unwrap_err();
        assert!(matches!(e, SaveError::NotRegular("a directory")), "{e}");
        // A device node: /dev/full stays what it is (no write is even tried).
        if Path::new("/dev/full").exists() {
            let e = write_atomic(Path::new("/dev/full"), ONE).unwrap_err();
            assert!(matches!(e, SaveError::NotRegular("a character device")), "{e}");
            assert!(matches!(
                Appender::new(Path::new("/dev/full"), Kind::GameRecord),
                Err(SaveError::NotRegular(_))
            ));
        }
        // A fifo (made with mkfifo when the system has it).
        let fifo = dir.join("fifo.pdn");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        if made {
            let e = write_atomic(&fifo, ONE).unwrap_err();
            assert!(matches!(e, SaveError::NotRegular("a fifo")), "{e}");
            use std::os::unix::fs::FileTypeExt;
            assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn symbolic_links_are_written_through_and_modes_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("links");
        let real = dir.join("real.pdn");
        fs::write(&real, ONE).unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o600)).unwrap();
        let link = dir.join("link.pdn");
        std::os::unix::fs::symlink("real.pdn", &link).unwrap();
        write_atomic(&link, TWO).unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), TWO);
        assert_eq!(fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o600);
        // A link to nothing is refused.
        let dangling = dir.join("dangling.pdn");
        std::os::unix::fs::symlink("nowhere.pdn", &dangling).unwrap();
        assert!(matches!(write_atomic(&dangling, ONE), Err(SaveError::DanglingLink)));
        assert!(!dir.join("nowhere.pdn").exists());
        // Several hard links: refused, both names keep the record.
        let other = dir.join("other.pdn");
        fs::hard_link(&real, &other).unwrap();
        assert!(matches!(write_atomic(&real, ONE), Err(SaveError::HardLinks(2))));
        assert_eq!(fs::read_to_string(&other).unwrap(), TWO);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn temporary_files_of_dead_processes_are_removed() {
        let dir = scratch("stale");
        let p = dir.join("g.pdn");
        // A PID no process has (above Linux's maximum), one that is alive
        // (ours is skipped; PID 1 is always running), and look-alikes.
        let dead = dir.join(".g.pdn.tmp-4294967295");
        let alive = dir.join(".g.pdn.tmp-1");
        let other = dir.join(".h.pdn.tmp-4294967295");
        let odd = dir.join(".g.pdn.tmp-12x");
        for f in [&dead, &alive, &other, &odd] {
            fs::write(f, "x").unwrap();
        }
        write_atomic(&p, ONE).unwrap();
        let left: Vec<_> = [&dead, &alive, &other, &odd].iter().map(|f| f.exists()).collect();
        let proc_fs = Path::new("/proc/self").exists();
        assert_eq!(left, [!proc_fs, true, true, true]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_appender_replaces_the_old_record_at_its_first_piece() {
        let dir = scratch("append");
        let p = dir.join("m.pdn");
        fs::write(&p, ONE).unwrap();
        let mut a = Appender::new(&p, Kind::GameRecord).unwrap();
        assert!(a.is_empty());
        // Nothing is touched before the first piece.
        assert_eq!(fs::read_to_string(&p).unwrap(), ONE);
        a.append(TWO).unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), TWO);
        a.append("\n").unwrap();
        a.append(ONE).unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), format!("{TWO}\n{ONE}"));
        fs::remove_dir_all(&dir).unwrap();
    }
}
