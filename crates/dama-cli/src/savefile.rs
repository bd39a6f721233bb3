//! Saving game records so that nothing is lost: atomic rewrites, autosave
//! names, dates.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Replaces the contents of `path` with `text` atomically: the text goes to
/// a temporary file in the same directory, which is flushed to disk and then
/// renamed over `path`. A crash leaves either the old file or the new one,
/// never a truncated mix.
pub fn write_atomic(path: &Path, text: &str) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".tmp-{}", std::process::id()));
    let tmp = dir.join(tmp_name);
    let result = (|| {
        let mut f = File::create(&tmp)?;
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
    let safe = dama_engine::file_safe_name(variant_id);
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
        write_atomic(&p, "one").unwrap();
        write_atomic(&p, "two").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "two");
        let leftovers = fs::read_dir(&dir).unwrap().count();
        assert_eq!(leftovers, 1);
        fs::remove_dir_all(&dir).unwrap();
    }
}
