//! The game loop of `dama play`: reading commands and moves, the board,
//! the computer's moves and thinking, undo, redo, saving.

use std::path::{Path, PathBuf};

use dama_engine::pdn::PdnTags;
use dama_engine::{Color, Engine, Game, Limits, Move, PlayError, Position, Rules, SearchRoot, Square};
use dama_play::answer_draw_offer;
use dama_play::view::{line_text, move_path, outcome_text};

use super::Player;
use crate::error::CliError;
use crate::exit::Exit;
use crate::line::read_text_line;
use crate::out::{self, out, outln};
use crate::render;
use crate::savefile;

/// Longest line read as a command, in bytes; a longer line is refused.
const MAX_LINE: usize = 1024;
/// Bytes of a line kept in memory: a little over [`MAX_LINE`], so that a
/// line of [`MAX_LINE`] bytes and its line end fit whole. The rest of a longer
/// line is read and dropped.
const KEEP_LINE: usize = MAX_LINE + 8;

/// What the player typed.
enum Command<'a> {
    Moves,
    Hint,
    Undo,
    Redo,
    Board,
    Fen,
    Save(Option<&'a str>),
    Resign,
    Draw,
    Help,
    Quit,
    Move(&'a str),
    /// A word that is no command and cannot be a move (no square in it).
    Unknown(&'a str),
}

/// The command words, for suggestions.
const COMMANDS: &[&str] = &[
    "moves", "hint", "undo", "redo", "board", "fen", "save", "resign", "draw", "help", "quit",
];

fn parse_command(line: &str) -> Command<'_> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    match word.to_ascii_lowercase().as_str() {
        "moves" | "legal" => Command::Moves,
        "hint" => Command::Hint,
        "undo" | "takeback" | "back" => Command::Undo,
        "redo" => Command::Redo,
        "board" | "show" => Command::Board,
        "fen" => Command::Fen,
        "save" => Command::Save((!rest.is_empty()).then_some(rest)),
        "resign" => Command::Resign,
        "draw" => Command::Draw,
        "help" | "?" => Command::Help,
        "quit" | "exit" | "q" => Command::Quit,
        // Every square name and number has a digit: text without one is a
        // mistyped command, not a move.
        _ if !line.bytes().any(|b| b.is_ascii_digit()) => Command::Unknown(word),
        _ => Command::Move(line),
    }
}

pub(super) struct Session {
    pub(super) color: bool,
    pub(super) game: Game,
    pub(super) engine: Engine,
    pub(super) players: [Player; 2],
    pub(super) limits: Limits,
    pub(super) limits_text: String,
    pub(super) save_path: PathBuf,
    pub(super) autosave: bool,
    pub(super) resumed: bool,
    /// A record loaded with `--load` whose game is already over: it is
    /// shown, never written (issue 37).
    pub(super) finished: bool,
    pub(super) tags: PdnTags,
    pub(super) echo: bool,
    pub(super) save_failed: bool,
    /// Whether to show the computer's search as it goes.
    pub(super) thinking: bool,
    /// Whether standard output is a terminal (thinking is shown on one line, rewritten).
    pub(super) on_terminal: bool,
}

impl Session {
    fn player(&self, c: Color) -> Player {
        self.players[c.index()]
    }

    fn rules(&self) -> &Rules {
        self.game.rules()
    }

    pub(super) fn run(&mut self) -> Exit {
        if self.finished {
            return self.view_finished();
        }
        self.intro();
        // The record exists from the start, so even an empty game can be resumed.
        if let Err(e) = savefile::write_atomic(&self.save_path, &self.record()) {
            return CliError::system(format!(
                "cannot write the game record to {}: {e}",
                self.save_path.display()
            ))
            .help("choose a writable place with --save FILE")
            .report(None);
        }
        if self.game.is_over() {
            self.show_board();
            self.announce_end();
            return Exit::Success;
        }
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut buf = Vec::with_capacity(KEEP_LINE);
        let mut shown = false;
        loop {
            // (issue 18) Output that cannot be written ends the session; the
            // record is saved after every move.
            if out::failed() {
                return Exit::Success;
            }
            if self.game.is_over() {
                self.show_board();
                self.announce_end();
                return Exit::Success;
            }
            let side = self.game.side_to_move();
            if self.player(side) == Player::Computer {
                self.computer_move();
                shown = false;
                if self.players.iter().all(|&p| p == Player::Computer) && !self.game.is_over() {
                    self.show_board();
                }
                continue;
            }
            if !shown {
                self.show_board();
                shown = true;
            }
            out!("{side}> ");
            out::flush();
            let (line, read) = match read_text_line(&mut input, &mut buf, KEEP_LINE) {
                Ok(None) => {
                    outln!();
                    self.save();
                    outln!(
                        "End of input: the game is saved in {}; resume it with `dama play --load {}`.",
                        self.save_path.display(),
                        self.save_path.display()
                    );
                    return Exit::Success;
                }
                Ok(Some(line)) => line,
                Err(e) => {
                    outln!();
                    let exit = CliError::system(format!("cannot read input: {e}")).report(None);
                    self.save();
                    return exit;
                }
            };
            // (rel, issue 7) A hostile line is neither kept, echoed nor quoted whole.
            if read.cut || line.len() > MAX_LINE {
                if self.echo {
                    outln!("{}…", line.chars().take(40).collect::<String>());
                }
                let chars = if read.cut {
                    read.chars
                } else {
                    line.chars().count() as u64
                };
                outln!(
                    "That line is {chars} characters long; moves and commands are short. Type `help` for the commands."
                );
                continue;
            }
            if self.echo {
                outln!("{}", line.trim_end());
            }
            if line.trim().is_empty() {
                continue;
            }
            match parse_command(&line) {
                Command::Quit => {
                    self.save();
                    outln!(
                        "Game saved in {}; resume it with `dama play --load {}`.",
                        self.save_path.display(),
                        self.save_path.display()
                    );
                    return Exit::Success;
                }
                Command::Help => self.help(),
                Command::Moves => self.list_moves(),
                Command::Board => self.show_board(),
                Command::Fen => outln!("{}", self.rules().to_fen(self.game.position())),
                Command::Hint => self.hint(),
                Command::Undo => {
                    if self.undo() {
                        shown = false;
                    }
                }
                Command::Redo => {
                    if self.redo() {
                        shown = false;
                    }
                }
                Command::Save(file) => self.save_as(file),
                Command::Resign => {
                    let _ = self.game.resign(side);
                    self.save();
                }
                Command::Draw => self.offer_draw(side),
                Command::Unknown(word) => {
                    let word = word.chars().take(40).collect::<String>();
                    match dama_engine::text::did_you_mean(&word, COMMANDS.iter().copied()) {
                        Some(c) => {
                            outln!("Unknown command `{word}`: did you mean `{c}`? Type `help` for the commands.")
                        }
                        None => {
                            outln!("Unknown command `{word}`. Type `help` for the commands, or a move such as d3-d4.")
                        }
                    }
                }
                Command::Move(text) => match self.game.play_text(text) {
                    Ok(_) => {
                        self.save();
                        shown = false;
                        if let Some(p) = self.game.last_ply() {
                            outln!("{side} played {}.", p.full);
                        }
                    }
                    Err(e) => self.explain(&e),
                },
            }
        }
    }

    /// A finished game loaded with `--load`: says that it is over and lets
    /// the player look at it (`board`, `fen`, `help`) until `quit` or the
    /// end of input. Its record is never written: not its players, not its
    /// result, not a byte of it.
    fn view_finished(&mut self) -> Exit {
        let r = self.rules();
        outln!("{} ({})", r.name(), r.id());
        let n = self.game.ply_count();
        outln!(
            "The game in {} is over after {n} {}; its record is left as it is.",
            self.save_path.display(),
            if n == 1 { "ply" } else { "plies" }
        );
        self.show_board();
        if let Some(o) = self.game.outcome() {
            outln!("Game over: {}.", outcome_text(&o));
            outln!("Result {}.", o.result.pdn());
        }
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut buf = Vec::with_capacity(KEEP_LINE);
        loop {
            if out::failed() {
                return Exit::Success;
            }
            out!("> ");
            out::flush();
            let (line, read) = match read_text_line(&mut input, &mut buf, KEEP_LINE) {
                Ok(None) => {
                    outln!();
                    return Exit::Success;
                }
                Ok(Some(line)) => line,
                Err(e) => {
                    outln!();
                    return CliError::system(format!("cannot read input: {e}")).report(None);
                }
            };
            let line = if read.cut || line.len() > MAX_LINE {
                String::new()
            } else {
                line
            };
            if self.echo {
                outln!("{}", line.chars().take(40).collect::<String>().trim_end());
            }
            match parse_command(&line) {
                Command::Quit => return Exit::Success,
                Command::Board => self.show_board(),
                Command::Fen => outln!("{}", self.rules().to_fen(self.game.position())),
                Command::Help => {
                    outln!("The game is over. Commands:");
                    outln!("  board        show the board again");
                    outln!("  fen          print the position in PDN FEN");
                    outln!("  help         this text");
                    outln!("  quit         stop (the record is left as it is)");
                }
                _ if line.trim().is_empty() => {}
                _ => outln!(
                    "The game is over and its record is left as it is. Type `board`, `fen`, `help` or `quit`; start a new game with `dama play {}`.",
                    self.rules().id()
                ),
            }
        }
    }

    fn intro(&self) {
        let r = self.rules();
        outln!("{} ({})", dama_engine::text::printable(r.name()), r.id());
        let who = |c: Color| match self.player(c) {
            Player::Human => "a person".to_string(),
            Player::Computer => format!("the computer ({})", self.limits_text),
        };
        outln!("White: {}. Black: {}.", who(Color::White), who(Color::Black));
        if self.resumed {
            let n = self.game.ply_count();
            outln!(
                "Resuming the game in {} after {n} {}.",
                self.save_path.display(),
                if n == 1 { "ply" } else { "plies" }
            );
        }
        let what = if self.autosave { "autosaved" } else { "saved" };
        outln!("The game is {what} to {} after every move.", self.save_path.display());
        if self.player(self.game.side_to_move()) == Player::Human {
            match self.game.legal_moves().iter().next() {
                Some(m) => outln!(
                    "Type a move such as {}, or `help` for the commands.",
                    self.rules().format_move_short(self.game.position(), m)
                ),
                None => outln!("Type `help` for the commands."),
            }
        } else if self.players.contains(&Player::Human) {
            outln!("Type your moves in the variant's notation (`moves` lists them), or `help` for the commands.");
        }
    }

    fn help(&self) {
        outln!("Enter a move in the variant's notation: origin and destination (`d3-d4`, `d4xd6`),");
        outln!("with every landing square when a capture could go several ways (`d4xd6xf6`).");
        outln!("Commands:");
        outln!("  moves        list the legal moves");
        outln!("  hint         ask the computer for a move");
        outln!("  undo         take back your last move (and the computer's reply)");
        outln!("  redo         play again what undo took back");
        outln!("  board        show the board again");
        outln!("  fen          print the position in PDN FEN");
        outln!("  save FILE    write the game record to FILE as well");
        outln!("  resign       give up the game");
        outln!("  draw         offer a draw");
        outln!("  help         this text");
        outln!("  quit         stop (the game stays saved and can be resumed with --load)");
    }

    fn record(&self) -> String {
        self.game.to_pdn(&self.tags)
    }

    fn save(&mut self) {
        match savefile::write_atomic(&self.save_path, &self.record()) {
            Ok(()) => self.save_failed = false,
            Err(e) => {
                // Say it once per failure streak; keep playing.
                if !self.save_failed {
                    eprintln!(
                        "warning: cannot save the game to {}: {e} (the game goes on; try `save FILE`)",
                        self.save_path.display()
                    );
                }
                self.save_failed = true;
            }
        }
    }

    fn save_as(&mut self, file: Option<&str>) {
        let Some(file) = file else {
            self.save();
            if !self.save_failed {
                outln!("Saved to {}.", self.save_path.display());
            }
            return;
        };
        let path = Path::new(file);
        match savefile::write_atomic(path, &self.record()) {
            Ok(()) => outln!("Saved to {file}."),
            Err(e) => outln!("Cannot save to {file}: {e}"),
        }
    }

    fn marks(&self) -> Vec<Square> {
        let Some(ply) = self.game.last_ply().filter(|p| !p.mv.is_pass()) else {
            // Nothing moved (no move yet, or a pass).
            return Vec::new();
        };
        let path = move_path(self.rules(), &ply.before, &ply.mv);
        std::iter::once(path.from).chain(path.landings).collect()
    }

    /// The squares the last move captured on.
    fn captured(&self) -> Vec<Square> {
        self.game
            .last_ply()
            .map(|p| p.mv.captured_squares().collect())
            .unwrap_or_default()
    }

    fn show_board(&self) {
        let pos = self.game.position();
        outln!();
        out!(
            "{}",
            with_number_key(
                self.rules(),
                &render::board(self.rules(), pos, &self.marks(), &self.captured(), self.color)
            )
        );
        if let Some(p) = self.game.last_ply() {
            let n = self.game.move_number_of(self.game.ply_count() - 1);
            let dots = if p.side() == self.rules().start_position().side_to_move() {
                "."
            } else {
                "..."
            };
            let how = if p.mv.is_capture() {
                "marked with brackets; x where it captured"
            } else {
                "marked with brackets"
            };
            outln!("Last move: {n}{dots} {} ({how})", p.full);
        }
        outln!("{}", material_line(pos));
        if !self.game.is_over() {
            outln!("{} to move.", self.game.side_to_move());
        }
    }

    fn announce_end(&self) {
        if let Some(o) = self.game.outcome() {
            outln!("Game over: {}.", outcome_text(&o));
            outln!(
                "Result {}. The record is in {}.",
                o.result.pdn(),
                self.save_path.display()
            );
        }
    }

    fn explain(&self, e: &PlayError) {
        match e {
            PlayError::Move(m) => {
                outln!("{m}");
            }
            other => outln!("{other}"),
        }
        outln!("Type `moves` for the legal moves, `help` for the commands.");
    }

    fn list_moves(&self) {
        let pos = self.game.position();
        let mut moves = self.rules().format_moves_full(pos, self.game.legal_moves().as_slice());
        moves.sort();
        let n = moves.len();
        let head = format!("{n} legal move{}:", if n == 1 { "" } else { "s" });
        out!("{}", render::wrapped(&head, &moves, 78));
    }

    fn think(&mut self) -> dama_engine::SearchResult {
        let root = SearchRoot::from_game(&self.game);
        if !self.thinking {
            return self.engine.search(&root, &self.limits);
        }
        let side = self.game.side_to_move();
        let (rules, pos, on_terminal) = (self.game.shared_rules(), root.pos, self.on_terminal);
        if on_terminal {
            out!("{side} is thinking…");
            out::flush();
        }
        let mut report = |r: &dama_engine::SearchResult| {
            let line = thinking_line(&rules, &pos, r);
            if on_terminal {
                out!("\r\x1b[2K{side} is thinking: {line}");
                out::flush();
            } else {
                outln!("  thinking: {line}");
            }
        };
        let r = self.engine.search_reporting(&root, &self.limits, &mut report);
        if on_terminal {
            out!("\r\x1b[2K");
            out::flush();
        }
        r
    }

    fn hint(&mut self) {
        let pos = *self.game.position();
        let r = self.think();
        match r.best {
            Some(m) => outln!(
                "Hint: {} (evaluation {} for {}).",
                self.rules().format_move_full(&pos, &m),
                r.score_text(),
                pos.side_to_move()
            ),
            None => outln!("There is no legal move."),
        }
    }

    fn computer_move(&mut self) {
        let pos = *self.game.position();
        let side = pos.side_to_move();
        let r = self.think();
        let Some(m) = r.best else {
            // The rules judge a side without moves before asking it to move; nothing to do.
            return;
        };
        if self.game.play(m).is_err() {
            // Cannot happen: the engine plays legal moves. Fall back to the first legal move.
            let first: Option<Move> = self.game.legal_moves().iter().next().copied();
            if let Some(f) = first {
                let _ = self.game.play(f);
            }
        }
        self.save();
        if let Some(p) = self.game.last_ply() {
            outln!(
                "{side} plays {} (evaluation {} for {side}, depth {}).",
                p.full,
                r.score_text(),
                r.depth
            );
        }
    }

    /// Takes back plies until a person is to move again, with at least
    /// one of that person's moves taken back.
    fn undo(&mut self) -> bool {
        let Some(last_human) = self
            .game
            .plies()
            .iter()
            .rposition(|p| self.player(p.side()) == Player::Human)
        else {
            outln!("Nothing to take back.");
            return false;
        };
        let mut taken = Vec::new();
        while self.game.ply_count() > last_human {
            let Some(p) = self.game.last_ply().map(|p| p.full.clone()) else {
                break;
            };
            if self.game.undo().is_none() {
                break;
            }
            taken.push(p);
        }
        self.save();
        taken.reverse();
        outln!("Took back {}.", taken.join(" "));
        true
    }

    fn redo(&mut self) -> bool {
        if !self.game.can_redo() {
            outln!("Nothing to redo.");
            return false;
        }
        let mut again = Vec::new();
        loop {
            if self.game.redo().is_none() {
                break;
            }
            if let Some(p) = self.game.last_ply() {
                again.push(p.full.clone());
            }
            if self.player(self.game.side_to_move()) == Player::Human || !self.game.can_redo() {
                break;
            }
        }
        self.save();
        outln!("Played again {}.", again.join(" "));
        true
    }

    fn offer_draw(&mut self, side: Color) {
        let opponent = !side;
        if self.player(opponent) == Player::Human {
            // Both players sit at the same keyboard: the offer is the agreement.
            let _ = self.game.agree_draw();
            outln!("{opponent} accepts the draw.");
            self.save();
            return;
        }
        let r = self.think();
        let answer = answer_draw_offer(&self.game, &r);
        if answer.accept {
            let _ = self.game.agree_draw();
            outln!("{opponent} accepts the draw.");
            self.save();
        } else {
            outln!(
                "{opponent} declines the draw (its evaluation: {}). Play on.",
                dama_engine::search::score_text(answer.score)
            );
        }
    }
}

/// The most moves of the best line shown while the computer thinks.
const MAX_THINKING_LINE: usize = 8;

/// One finished iteration of the search in words: depth, score, best line.
fn thinking_line(rules: &Rules, pos: &Position, r: &dama_engine::SearchResult) -> String {
    let line = line_text(rules, pos, &r.pv, MAX_THINKING_LINE);
    format!("depth {}, {}, {}", r.depth, r.score_text(), line.join(" "))
}

/// On boards whose squares are numbered, the board with a key to the
/// square numbers beside it, rank by rank; other boards as they are.
fn with_number_key(rules: &Rules, board: &str) -> String {
    if !rules.numeric_notation() {
        return board.to_string();
    }
    let (w, h) = (rules.width(), rules.height());
    let mut out = String::new();
    for (i, line) in board.lines().enumerate() {
        out.push_str(line);
        if let Some(rank) = (i < h as usize).then(|| h - 1 - i as u8) {
            out.push_str("   ");
            for f in 0..w {
                let name = Square::new(f, rank)
                    .filter(|s| rules.board().contains(s))
                    .map(|s| rules.square_name(s))
                    .unwrap_or_default();
                out.push_str(&format!("{name:>3}"));
            }
        }
        out.push('\n');
    }
    out
}

fn material_line(pos: &Position) -> String {
    let side = |c: Color| {
        let men = pos.men(c).count();
        let kings = pos.kings(c).count();
        let mut s = format!("{men} {}", if men == 1 { "man" } else { "men" });
        if kings > 0 {
            s.push_str(&format!(", {kings} {}", if kings == 1 { "king" } else { "kings" }));
        }
        s
    };
    format!("White: {}. Black: {}.", side(Color::White), side(Color::Black))
}
