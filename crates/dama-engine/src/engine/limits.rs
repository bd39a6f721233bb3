//! How long the engine thinks: depth, time, nodes and the strength levels.

use std::time::Duration;

/// How long to think.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration (plies); `None` = until time runs out (or [`MAX_PLY`](crate::MAX_PLY)).
    pub depth: Option<u32>,
    /// Time budget for the move.
    pub movetime: Option<Duration>,
    /// Node budget (deterministic, unlike time).
    pub nodes: Option<u64>,
    /// Random noise added to evaluations, in hundredths of a man (0 = none):
    /// gives variety among near-equal moves. Deterministic for a given seed.
    pub noise: i32,
}

/// The number of strength levels.
pub const LEVELS: u8 = 10;
/// The level the CLI uses unless told otherwise.
pub const DEFAULT_LEVEL: u8 = 5;

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d.max(1)),
            movetime: None,
            nodes: None,
            noise: 0,
        }
    }

    /// Search for a fixed time.
    pub fn movetime(t: Duration) -> Limits {
        Limits {
            depth: None,
            movetime: Some(t),
            nodes: None,
            noise: 0,
        }
    }

    /// The limits of strength level `level` (1 = weakest, [`LEVELS`] = strongest;
    /// out-of-range levels are clamped). Levels 1–6 are fixed depths with a
    /// node budget, so they play the same moves on every machine; levels
    /// 7–10 think for a fixed time (0.5 s, 1 s, 2 s, 5 s).
    pub fn level(level: u8) -> Limits {
        let level = level.clamp(1, LEVELS);
        let (depth, ms, nodes, noise) = match level {
            1 => (Some(1), None, Some(20_000), 60),
            2 => (Some(2), None, Some(50_000), 30),
            3 => (Some(3), None, Some(100_000), 15),
            4 => (Some(4), None, Some(200_000), 5),
            5 => (Some(6), None, Some(400_000), 0),
            6 => (Some(8), None, Some(1_500_000), 0),
            7 => (None, Some(500), None, 0),
            8 => (None, Some(1_000), None, 0),
            9 => (None, Some(2_000), None, 0),
            _ => (None, Some(5_000), None, 0),
        };
        Limits {
            depth,
            movetime: ms.map(Duration::from_millis),
            nodes,
            noise,
        }
    }

    /// A one-line description, such as `depth 6`, `1.0 s per move` or
    /// `20 ms per move`.
    ///
    /// ```
    /// use dama_engine::Limits;
    /// use std::time::Duration;
    ///
    /// assert_eq!(Limits::level(8).describe(), "1.0 s per move");
    /// assert_eq!(Limits::movetime(Duration::from_millis(5)).describe(), "5 ms per move");
    /// ```
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(t) = self.movetime {
            // Below a tenth of a second, in milliseconds (`0.0 s` would say nothing).
            if t < Duration::from_millis(100) {
                parts.push(format!("{} ms per move", t.as_millis()));
            } else {
                parts.push(format!("{:.1} s per move", t.as_secs_f64()));
            }
        }
        if parts.is_empty() {
            parts.push("unlimited".into());
        }
        parts.join(", ")
    }
}
