//! Rendering a case as text: the board, the legal moves with their paths and
//! captures, and the checks of what the case expects.

use dama_engine::{Color, Game, GameResult, Piece, PlayError, Position, Rules, Square};

use crate::case::{clip, parse_expected_result, CaseError, RuleCase};

/// Most failures of one kind listed one by one; a last line counts the rest
/// (issue 38: 50,000 duplicate `expect_moves` made 50,000 lines).
const MAX_FAILURES: usize = 10;

/// A case rendered as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The rendering: what a snapshot stores.
    pub text: String,
    /// Expectations of the case (`expect_moves`, `expect_count`,
    /// `expect_result`) that the rules do not meet, one sentence each.
    pub failures: Vec<String>,
}

impl RuleCase {
    /// Renders the case under `rules`.
    pub fn render(&self, rules: &Rules) -> Result<Rendered, CaseError> {
        let mut out = String::new();
        let mut failures = Vec::new();
        field(&mut out, "variant", &self.variant);
        if let Some(s) = &self.section {
            field(&mut out, "section", s);
        }
        if let Some(d) = &self.description {
            wrapped(&mut out, "about", &d.split_whitespace().collect::<Vec<_>>());
        }

        // The start of the game.
        let start = match &self.fen {
            Some(f) => rules.parse_fen(f)?,
            None => rules.start_position(),
        };
        let mut game = Game::from_position(rules.clone(), start);
        if let Some(moves) = &self.moves {
            let played = play_all(&mut game, "moves", moves)?;
            let first = rules.start_position().side_to_move();
            wrapped(&mut out, "moves", &numbered(&played, start.side_to_move() != first));
        } else if !self.play.is_empty() {
            field(&mut out, "start", &rules.to_fen(&start));
        }
        if !self.play.is_empty() {
            let played = play_all(&mut game, "play", &self.play)?;
            wrapped(&mut out, "play", &played);
        }
        let pos = *game.position();
        field(&mut out, "position", &rules.to_fen(&pos));
        out.push('\n');
        out.push_str(&board_text(rules, &pos));
        out.push('\n');
        let listed = legal_move_lines(rules, &pos);
        out.push_str(&listed.text);

        if let Some(expected) = &self.expect_moves {
            failures.extend(check_expected_moves(expected, &listed.notations));
        }
        if let Some(n) = self.expect_count {
            if n != listed.notations.len() {
                failures.push(format!(
                    "expected {n} legal move{}, found {}",
                    plural(n),
                    listed.notations.len()
                ));
            }
        }

        if let Some(text) = &self.show_after {
            let m = game.resolve(text).map_err(|e| CaseError::Move {
                field: "show_after",
                number: 1,
                text: clip(text),
                error: Box::new(PlayError::Move(e)),
            })?;
            let full = rules.format_move_full(&pos, &m);
            game.play(m).map_err(|e| CaseError::Move {
                field: "show_after",
                number: 1,
                text: clip(text),
                error: Box::new(e),
            })?;
            let after = *game.position();
            out.push_str(&format!("\nafter {full}:\n"));
            field(&mut out, "position", &rules.to_fen(&after));
            out.push('\n');
            out.push_str(&board_text(rules, &after));
        }

        if self.show_result || self.expect_result.is_some() {
            let outcome = game.outcome();
            let line = match &outcome {
                Some(o) => format!("{o}"),
                None => "none, the game goes on".to_string(),
            };
            out.push('\n');
            field(&mut out, "result", &line);
            if let Some(want) = self.expect_result.as_deref().and_then(parse_expected_result) {
                let got = outcome.map(|o| o.result);
                if got != want {
                    failures.push(format!(
                        "expected result {}, found {}",
                        result_words(want),
                        result_words(got)
                    ));
                }
            }
        }
        Ok(Rendered { text: out, failures })
    }
}

fn result_words(r: Option<GameResult>) -> String {
    match r {
        Some(r) => format!("`{}`", r.to_string().to_lowercase()),
        None => "`none` (the game goes on)".into(),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Plays each move of `texts` and returns their full-path notation.
fn play_all(game: &mut Game, field: &'static str, texts: &[String]) -> Result<Vec<String>, CaseError> {
    let mut played = Vec::new();
    for (i, t) in texts.iter().enumerate() {
        let err = |e: PlayError| CaseError::Move {
            field,
            number: i + 1,
            text: clip(t),
            error: Box::new(e),
        };
        game.play_text(t).map_err(err)?;
        played.push(game.last_ply().map(|p| p.full.clone()).unwrap_or_default());
    }
    Ok(played)
}

/// `1. e3-e4 f6-f5 2. b3-b4`; a game started by the second player begins `1...`.
fn numbered(moves: &[String], second_first: bool) -> Vec<String> {
    let mut words = Vec::new();
    let offset = usize::from(second_first);
    for (i, m) in moves.iter().enumerate() {
        let ply = i + offset;
        // The number stays on the line of its move.
        if ply % 2 == 0 {
            words.push(format!("{}. {m}", ply / 2 + 1));
        } else if i == 0 {
            words.push(format!("{}... {m}", ply / 2 + 1));
        } else {
            words.push(m.clone());
        }
    }
    words
}

const LABEL: usize = 10;
const WIDTH: usize = 78;

fn field(out: &mut String, label: &str, value: &str) {
    out.push_str(&format!("{:<LABEL$}{}\n", format!("{label}:"), value.trim_end()));
}

/// `label: words...`, wrapped at [`WIDTH`] columns with a hanging indent.
fn wrapped<S: AsRef<str>>(out: &mut String, label: &str, words: &[S]) {
    let mut line = format!("{:<LABEL$}", format!("{label}:"));
    let mut empty = true;
    for w in words {
        let w = w.as_ref();
        if !empty && line.chars().count() + 1 + w.chars().count() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = " ".repeat(LABEL);
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(w);
        empty = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
}

/// The board as text: ranks from the top, `w b W B` for pieces, `.` for an
/// empty playable square, a blank for a square that is not played on, and
/// the files lettered underneath.
///
/// ```
/// let rules = dama_engine::Rules::builtin("dama").unwrap();
/// let pos = rules.parse_fen("W:WKd4:Bd7").unwrap();
/// let text = dama_cases::board_text(&rules, &pos);
/// assert!(text.contains("7 . . . b . . . ."));
/// assert!(text.contains("4 . . . W . . . ."));
/// assert!(text.ends_with("  a b c d e f g h\n"));
/// ```
pub fn board_text(rules: &Rules, pos: &Position) -> String {
    let (w, h) = (rules.width(), rules.height());
    let num_w = h.to_string().len();
    let mut out = String::new();
    for r in (0..h).rev() {
        let mut line = format!("{:>num_w$}", r + 1);
        for f in 0..w {
            let ch = match Square::new(f, r) {
                Some(sq) => match pos.piece_at(sq) {
                    Some(Piece::Man(Color::White)) => 'w',
                    Some(Piece::King(Color::White)) => 'W',
                    Some(Piece::Man(Color::Black)) => 'b',
                    Some(Piece::King(Color::Black)) => 'B',
                    None if rules.board().contains(sq) => '.',
                    None => ' ',
                },
                None => ' ',
            };
            line.push(' ');
            line.push(ch);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&" ".repeat(num_w));
    for f in 0..w {
        out.push(' ');
        out.push((b'a' + f) as char);
    }
    out.push('\n');
    out
}

struct Listed {
    text: String,
    /// For each legal move, the full notation of each of its paths.
    notations: Vec<Vec<String>>,
}

/// The legal moves of `pos`, one line per move (one more line per extra path).
fn legal_move_lines(rules: &Rules, pos: &Position) -> Listed {
    let legal = rules.legal_moves(pos);
    struct Row {
        key: Vec<(u8, u8)>,
        paths: Vec<(String, String)>,
        promotes: bool,
    }
    let names = |sqs: &[Square]| sqs.iter().map(|s| rules.square_name(*s)).collect::<Vec<_>>().join(", ");
    let mut rows: Vec<Row> = Vec::new();
    for m in legal.iter() {
        let paths = rules.move_paths(pos, m);
        let key = paths.first().map_or_else(
            || vec![(m.from().file(), m.from().rank()), (m.to().file(), m.to().rank())],
            |p| {
                std::iter::once(p.from)
                    .chain(p.landings.iter().copied())
                    .map(|s| (s.file(), s.rank()))
                    .collect()
            },
        );
        let paths: Vec<(String, String)> = if paths.is_empty() {
            vec![(rules.format_move_full(pos, m), String::new())]
        } else {
            paths
                .iter()
                .map(|p| {
                    let caps = if p.captures.is_empty() {
                        String::new()
                    } else {
                        format!("captures {}", names(&p.captures))
                    };
                    (rules.format_path(p, m.is_capture()), caps)
                })
                .collect()
        };
        rows.push(Row {
            key,
            paths,
            promotes: m.promotes(),
        });
    }
    rows.sort_by(|a, b| a.key.cmp(&b.key));
    let total: usize = rows.iter().map(|r| r.paths.len()).sum();
    let side = pos.side_to_move();
    let mut text = match rows.len() {
        0 => format!("{side} to move: no legal move\n"),
        n if total > n => format!("{side} to move: {n} legal move{}, {total} paths\n", plural(n)),
        n => format!("{side} to move: {n} legal move{}\n", plural(n)),
    };
    let w_not = rows
        .iter()
        .flat_map(|r| r.paths.iter().map(|p| p.0.chars().count()))
        .max()
        .unwrap_or(0);
    let w_cap = rows
        .iter()
        .flat_map(|r| r.paths.iter().map(|p| p.1.chars().count()))
        .max()
        .unwrap_or(0);
    for r in &rows {
        let mut flags = Vec::new();
        if r.promotes {
            flags.push("promotes".to_string());
        }
        if r.paths.len() > 1 {
            flags.push(format!("{} paths", r.paths.len()));
        }
        for (i, (n, c)) in r.paths.iter().enumerate() {
            let (lead, tail) = if i == 0 {
                ("  ", flags.join(", "))
            } else {
                ("  ", "(same move)".to_string())
            };
            let line = if w_cap == 0 {
                format!("{lead}{n:<w_not$}  {tail}")
            } else {
                format!("{lead}{n:<w_not$}  {c:<w_cap$}  {tail}")
            };
            text.push_str(line.trim_end());
            text.push('\n');
        }
    }
    Listed {
        text,
        notations: rows
            .into_iter()
            .map(|r| r.paths.into_iter().map(|p| p.0).collect())
            .collect(),
    }
}

/// Compares `expected` with the legal moves (each given as the notations of its paths).
/// Each kind of failure is listed [`MAX_FAILURES`] times at most, then counted.
fn check_expected_moves(expected: &[String], legal: &[Vec<String>]) -> Vec<String> {
    let (mut twice, mut illegal, mut missing) = (Vec::new(), Vec::new(), Vec::new());
    let mut matched = vec![false; legal.len()];
    for e in expected {
        let e = e.trim();
        match legal.iter().position(|paths| paths.iter().any(|p| p == e)) {
            Some(i) if matched[i] => twice.push(format!("expected move `{}` is listed twice", clip(e))),
            Some(i) => matched[i] = true,
            None => illegal.push(format!("expected move `{}` is not legal", clip(e))),
        }
    }
    for (paths, ok) in legal.iter().zip(&matched) {
        if !ok {
            missing.push(format!(
                "legal move `{}` is not among the expected moves",
                paths.first().map_or("?", String::as_str)
            ));
        }
    }
    let mut failures = Vec::new();
    for (kind, list) in [
        ("expected moves listed twice", twice),
        ("expected moves that are not legal", illegal),
        ("legal moves not among the expected moves", missing),
    ] {
        let more = list.len().saturating_sub(MAX_FAILURES);
        failures.extend(list.into_iter().take(MAX_FAILURES));
        if more > 0 {
            failures.push(format!("and {} more {kind}", thousands(more)));
        }
    }
    failures
}

/// `49990` as `49,990`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dama() -> Rules {
        Rules::builtin("dama").unwrap()
    }

    #[test]
    fn illegal_moves_say_which_field() {
        let c = RuleCase::parse("variant = \"dama\"\nfen = \"W:Wd4:Bd6\"\nplay = [\"d4-d5\", \"d4-d3\"]\n").unwrap();
        match c.render(&dama()).unwrap_err() {
            CaseError::Move { field, number, .. } => assert_eq!((field, number), ("play", 2)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn expectations_are_checked() {
        let c = RuleCase::parse(
            "variant = \"dama\"\nfen = \"W:Wd4:Bh8\"\nexpect_moves = [\"d4-d5\", \"d4-d3\"]\nexpect_count = 2\n",
        )
        .unwrap();
        let r = c.render(&dama()).unwrap();
        assert_eq!(r.failures.len(), 4, "{:?}", r.failures);
    }

    /// (issue 38) Hostile expectations make a bounded report: 50,000
    /// duplicates are ten lines and a count, a huge move is clipped.
    #[test]
    fn failures_are_bounded() {
        let dupes = vec!["\"d4-d5\""; 50_000].join(", ");
        let long = "x".repeat(500_000);
        let text = format!("variant = \"dama\"\nfen = \"W:Wd4:Bh8\"\nexpect_moves = [{dupes}, \"{long}\"]\n");
        let r = RuleCase::parse(&text).unwrap().render(&dama()).unwrap();
        assert!(r.failures.len() <= 3 * (MAX_FAILURES + 1), "{}", r.failures.len());
        assert!(
            r.failures
                .contains(&"and 49,989 more expected moves listed twice".to_string()),
            "{:?}",
            &r.failures
        );
        assert!(r.failures.iter().map(String::len).sum::<usize>() < 5_000);
        // A show_after (or play) move of 500 KB is clipped in the error.
        let c = RuleCase::parse(&format!(
            "variant = \"dama\"\nfen = \"W:Wd4:Bh8\"\nshow_after = \"{long}\"\n"
        ))
        .unwrap();
        let e = c.render(&dama()).unwrap_err().to_string();
        assert!(e.len() < 1_000, "{} bytes", e.len());
        let c = RuleCase::parse(&format!(
            "variant = \"dama\"\nfen = \"W:Wd4:Bh8\"\nplay = [\"{long}\"]\n"
        ))
        .unwrap();
        let e = c.render(&dama()).unwrap_err().to_string();
        assert!(e.len() < 1_000, "{} bytes", e.len());
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn several_paths_are_all_listed() {
        let c = RuleCase::parse("variant = \"dama\"\nfen = \"W:WKa5:Bb5,e5\"\nexpect_count = 3\n").unwrap();
        let r = c.render(&dama()).unwrap();
        assert!(r.failures.is_empty());
        assert!(r.text.contains("3 legal moves, 6 paths"), "{}", r.text);
        assert!(r.text.contains("(same move)"), "{}", r.text);
    }
}
