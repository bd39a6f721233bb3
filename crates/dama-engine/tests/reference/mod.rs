//! A second move generator, slow and plain, for differential testing.
//!
//! It is written from rules.md and the documented meaning of each variant
//! parameter, separately from `src/movegen.rs`: no bitboards, no step
//! tables, nothing shared with the engine's generator. The board is a plain
//! `[Option<Piece>; 256]` (a cell per square of a 16×16 grid, index
//! `rank * 16 + file`, of which a board uses its `width × height` corner),
//! captures are found by a recursive search that copies the board at every
//! jump, and every complete capture path is listed before the majority rule
//! and the grouping into moves are applied. It reads its parameters from the
//! [`VariantSpec`] only; [`Position`], [`Square`] and [`Bitboard`] are used
//! to convert to and from the engine's representation, by file and rank.
//!
//! Semantics in words (each line is one rule parameter):
//! - a man steps one square in a `men.moves` direction onto an empty square;
//! - a friendly jump passes over an adjacent own man (own piece with
//!   `friendly_jump_over = "any"`) onto the empty square beyond; with
//!   `friendly_jump_chain`, jumps repeat and every square reached is a
//!   destination, except that a man reaching its promotion rank stops there;
//! - a linear move: the man leaps over the unbroken line of one or more own
//!   men ahead of it in a `men.linear_moves` direction onto the empty square
//!   after the line;
//! - a king moves up to `kings.move_range` empty squares in a `kings.moves`
//!   direction;
//! - a capture jumps one enemy piece: a man only an adjacent one, landing
//!   right beyond; a king an adjacent one (`capture_range = "short"`) or the
//!   first piece along an empty line (`"flying"`), landing right beyond
//!   (`landing = "adjacent_beyond"`) or on any empty square beyond up to the
//!   next piece or the edge (`"any_beyond"`); with
//!   `landing_must_continue`, a king must pick a landing square from which
//!   it can jump again when one exists;
//! - a capture continues while the piece can jump again; the whole chain is
//!   one move; the moving piece's start square is empty during its chain;
//! - `removal = "immediate"`: a jumped piece leaves at once; `"end_of_move"`:
//!   it stays on its square (blocking lines and landings) and cannot be
//!   jumped again;
//! - `no_reversal`: no jump in the direction opposite to the previous jump;
//! - a man that lands on its promotion rank during a capture goes on as a man
//!   (`continue_as_man`, crowned if the move ends on that rank), is crowned
//!   and goes on as a king (`promote_and_continue`), or is crowned and stops
//!   (`stop`);
//! - `majority = "max_pieces"`: only the capture paths that take the most
//!   pieces (over all pieces of the side to move; kings count one) are legal;
//! - `mandatory`: when a capture exists, only captures are legal; otherwise
//!   captures and non-captures are both legal;
//! - a move is identified by origin, destination, captured set and whether
//!   it crowns; the number of paths that play it is kept;
//! - `end.no_legal_move = "pass"`: a side with pieces and no move has one
//!   move, the pass, which changes nothing but the side to move; it is
//!   written as a move from a1 to a1 capturing nothing (how the engine's
//!   `Move::pass` reports its squares).
//! - on a board of dark squares (`squares = "dark"`) an orthogonal
//!   direction (`F`, `B`, `L`, `R`) goes to the next dark square along the
//!   file or rank, two squares away (Frisian captures): a man jumps a piece
//!   two squares away and lands two squares beyond it;
//! - `kings.max_consecutive_moves = n` (n > 0): each side has a run, the
//!   king that made its last non-capturing moves and how many in a row; a
//!   non-capturing move by that king adds one, by another king starts a run
//!   of one, any other move (a capture, a man's move) ends it; a side with no
//!   men has no run, and neither has a side whose running king is captured.
//!   While its side has men, a king with a run of n makes no non-capturing
//!   move (it may still capture).

#![allow(dead_code)]

pub mod perft_file;

use std::collections::BTreeMap;

use dama_engine::format::{
    CaptureRange, JumpOver, Landing, Majority, MidCapturePromotion, NoMoveResult, Preference, PromotionRank, Range,
    RelDir, Removal, SquareColor, SquareSet,
};
use dama_engine::{Bitboard, Color, Piece, Position, Square, VariantSpec};

/// The most files and ranks of a board.
pub const SIDE: usize = 16;
/// The cells of a board: one per square of a `SIDE × SIDE` grid.
pub const CELLS: usize = SIDE * SIDE;

/// A board: what stands on each square, index `rank * SIDE + file`
/// (see [`cell`]).
pub type Board = [Option<Piece>; CELLS];

/// The cell of the square on `file` and `rank` (both from 0).
pub fn cell(file: usize, rank: usize) -> usize {
    assert!(
        file < SIDE && rank < SIDE,
        "({file}, {rank}) is off a {SIDE}×{SIDE} grid"
    );
    rank * SIDE + file
}

/// The file of a cell (0 = a).
pub fn file_of(c: usize) -> usize {
    c % SIDE
}

/// The rank of a cell (0 = rank 1).
pub fn rank_of(c: usize) -> usize {
    c / SIDE
}

/// The engine's square of a cell.
pub fn square(c: usize) -> Square {
    Square::new(file_of(c) as u8, rank_of(c) as u8).expect("a cell of the grid")
}

/// The cell of an engine's square.
pub fn cell_of(sq: Square) -> usize {
    cell(sq.file() as usize, sq.rank() as usize)
}

/// The cells of an engine's set of squares, in increasing order.
pub fn cells_of(set: Bitboard) -> Vec<usize> {
    let mut out: Vec<usize> = set.iter().map(cell_of).collect();
    out.sort_unstable();
    out
}

/// A step on the board: (file delta, rank delta).
type Dir = (i8, i8);

/// One complete capture path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RefPath {
    /// Start square.
    pub from: usize,
    /// Landing squares in order.
    pub landings: Vec<usize>,
    /// Captured squares in the order taken.
    pub captures: Vec<usize>,
    /// Whether the man is crowned by this move.
    pub promotes: bool,
}

/// Each side's king run (White first): the king's square and how many
/// non-capturing moves in a row it made (see the module docs).
pub type Runs = [Option<(usize, u32)>; 2];

/// No run on either side.
pub const NO_RUNS: Runs = [None, None];

/// One legal move of the reference generator.
#[derive(Debug, Clone)]
pub struct RefMove {
    /// Start square.
    pub from: usize,
    /// Destination.
    pub to: usize,
    /// Captured squares, in increasing order (for comparison with the engine).
    pub captured: Vec<usize>,
    /// Whether a man is crowned.
    pub promotes: bool,
    /// How many distinct paths play this move (1 for a non-capture).
    pub paths: u64,
    /// The board after the move.
    pub after: Board,
    /// The king runs after the move.
    pub runs: Runs,
}

impl RefMove {
    /// The identity used for comparisons: (from, to, captured set, promotes).
    pub fn key(&self) -> (usize, usize, Vec<usize>, bool) {
        (self.from, self.to, self.captured.clone(), self.promotes)
    }
}

/// The reference rules: every parameter the generator honours.
#[derive(Debug, Clone)]
pub struct Reference {
    width: i8,
    height: i8,
    playable: [bool; CELLS],
    man_steps: [Vec<Dir>; 2],
    man_captures: [Vec<Dir>; 2],
    friendly_jumps: [Vec<Dir>; 2],
    linear: [Vec<Dir>; 2],
    king_moves: [Vec<Dir>; 2],
    king_captures: [Vec<Dir>; 2],
    /// Maximum squares per king move (`u32::MAX` = flying).
    king_range: u32,
    king_capture_flying: bool,
    king_landing_any: bool,
    landing_must_continue: bool,
    mandatory: bool,
    majority: Majority,
    man_value: u64,
    king_value: u64,
    priority: Vec<Preference>,
    men_capture_kings: bool,
    halt_behind_king: bool,
    end_of_move: bool,
    no_reversal: bool,
    mid: MidCapturePromotion,
    jump_over_kings: bool,
    jump_chain: bool,
    /// The promotion rank (0-based) of White and Black.
    promo_rank: [i8; 2],
    /// A blocked side with pieces passes (`end.no_legal_move = "pass"`).
    passes: bool,
    /// `kings.max_consecutive_moves` (0: no limit).
    king_limit: u32,
}

fn side_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The (file, rank) step of a direction seen from White.
fn white_delta(d: RelDir) -> Dir {
    match d {
        RelDir::F => (0, 1),
        RelDir::B => (0, -1),
        RelDir::L => (-1, 0),
        RelDir::R => (1, 0),
        RelDir::FL => (-1, 1),
        RelDir::FR => (1, 1),
        RelDir::BL => (-1, -1),
        RelDir::BR => (1, -1),
    }
}

/// Keeps the paths with the highest `score`.
fn keep_best(paths: &mut Vec<RefPath>, score: impl Fn(&RefPath) -> u64) {
    let best = paths.iter().map(&score).max().unwrap_or(0);
    paths.retain(|p| score(p) == best);
}

/// Directions for both sides: Black's board is White's turned half round.
/// On a board of dark squares an orthogonal step goes two squares.
fn both(list: &[RelDir], dark: bool) -> [Vec<Dir>; 2] {
    let mut white: Vec<Dir> = Vec::new();
    for &d in list {
        let mut v = white_delta(d);
        if dark && (v.0 == 0 || v.1 == 0) {
            v = (2 * v.0, 2 * v.1);
        }
        if !white.contains(&v) {
            white.push(v);
        }
    }
    let black = white.iter().map(|&(f, r)| (-f, -r)).collect();
    [white, black]
}

impl Reference {
    /// Reads the parameters of `spec`.
    pub fn new(spec: &VariantSpec) -> Reference {
        assert!(
            (1..=SIDE).contains(&(spec.board.width as usize)) && (1..=SIDE).contains(&(spec.board.height as usize)),
            "the reference plays on boards of up to {SIDE}×{SIDE}, not {}×{}",
            spec.board.width,
            spec.board.height
        );
        let width = spec.board.width as i8;
        let height = spec.board.height as i8;
        let mut playable = [false; CELLS];
        for r in 0..height {
            for f in 0..width {
                // With a dark a1, dark squares have file + rank even.
                let light_a1 = spec.board.lower_left == SquareColor::Light;
                let dark = (f + r) % 2 == i8::from(light_a1);
                playable[cell(f as usize, r as usize)] = spec.board.squares == SquareSet::All || dark;
            }
        }
        let promo_rank = match spec.promotion.rank {
            PromotionRank::Last => [height - 1, 0],
            PromotionRank::Nth(n) => [n as i8 - 1, height - n as i8],
        };
        let dark = spec.board.squares == SquareSet::Dark;
        Reference {
            king_limit: spec.kings.max_consecutive_moves as u32,
            width,
            height,
            playable,
            man_steps: both(&spec.men.moves, dark),
            man_captures: both(&spec.men.captures, dark),
            friendly_jumps: both(&spec.men.friendly_jumps, dark),
            linear: both(&spec.men.linear_moves, dark),
            king_moves: both(&spec.kings.moves, dark),
            king_captures: both(&spec.kings.captures, dark),
            king_range: match spec.kings.move_range {
                Range::Flying => u32::MAX,
                Range::Squares(n) => n,
            },
            king_capture_flying: spec.kings.capture_range == CaptureRange::Flying,
            king_landing_any: spec.kings.landing == Landing::AnyBeyond,
            landing_must_continue: spec.kings.landing_must_continue,
            mandatory: spec.capture.mandatory,
            majority: spec.capture.majority,
            man_value: spec.capture.man_value as u64,
            king_value: spec.capture.king_value as u64,
            priority: spec.capture.priority.clone(),
            men_capture_kings: spec.men.capture_kings,
            halt_behind_king: spec.kings.halt_behind_king && spec.kings.landing == Landing::AnyBeyond,
            end_of_move: spec.capture.removal == Removal::EndOfMove,
            no_reversal: spec.capture.no_reversal,
            mid: spec.capture.promote_mid_capture,
            jump_over_kings: spec.men.friendly_jump_over == JumpOver::Any,
            jump_chain: spec.men.friendly_jump_chain,
            promo_rank,
            passes: spec.end.no_legal_move == NoMoveResult::Pass,
        }
    }

    /// The number of files.
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// The number of ranks.
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// Whether `sq` is a square of the game.
    pub fn is_playable(&self, sq: usize) -> bool {
        sq < CELLS && self.playable[sq]
    }

    /// The playable squares, a1 first, rank by rank.
    pub fn playable_squares(&self) -> Vec<usize> {
        (0..CELLS).filter(|&s| self.playable[s]).collect()
    }

    /// The square one step from `sq` in `d`, if it is a square of the game.
    fn next(&self, sq: usize, d: Dir) -> Option<usize> {
        let f = file_of(sq) as i8 + d.0;
        let r = rank_of(sq) as i8 + d.1;
        if f < 0 || r < 0 || f >= self.width || r >= self.height {
            return None;
        }
        let t = cell(f as usize, r as usize);
        self.playable[t].then_some(t)
    }

    /// Whether a man of `side` standing on `sq` is on its promotion rank.
    pub fn on_promotion_rank(&self, side: Color, sq: usize) -> bool {
        rank_of(sq) as i8 == self.promo_rank[side_index(side)]
    }

    /// Every complete capture path of the side to move, before the majority rule.
    pub fn capture_paths(&self, board: &Board, side: Color) -> Vec<RefPath> {
        let mut out = Vec::new();
        for from in 0..CELLS {
            let Some(piece) = board[from] else { continue };
            if piece.color() != side {
                continue;
            }
            let mut b = *board;
            b[from] = None; // the start square is empty during the piece's own chain
            let mut chain = Chain {
                from,
                started_king: piece.is_king(),
                crowned: false,
                landings: Vec::new(),
                captures: Vec::new(),
            };
            self.extend(&b, side, from, piece.is_king(), None, &mut chain, &mut out);
        }
        out
    }

    /// The jumps open to a piece on `at`: for each, the direction, the
    /// square jumped and the landing squares allowed by range and landing
    /// rules (before `landing_must_continue`). `dead` lists the pieces
    /// already jumped in this move.
    #[allow(clippy::too_many_arguments)]
    fn jumps(
        &self,
        b: &Board,
        side: Color,
        at: usize,
        king: bool,
        last: Option<Dir>,
        dead: &[usize],
    ) -> Vec<(Dir, usize, Vec<usize>)> {
        let s = side_index(side);
        let dirs = if king {
            &self.king_captures[s]
        } else {
            &self.man_captures[s]
        };
        let mut out = Vec::new();
        for &d in dirs {
            if self.no_reversal && last == Some((-d.0, -d.1)) {
                continue;
            }
            // The piece to jump: adjacent, or the first one along the line.
            let mut victim = self.next(at, d);
            if king && self.king_capture_flying {
                while let Some(v) = victim {
                    if b[v].is_some() {
                        break;
                    }
                    victim = self.next(v, d);
                }
            }
            let Some(v) = victim else { continue };
            let Some(p) = b[v] else { continue };
            if p.color() == side || dead.contains(&v) {
                continue; // own piece, or a dead piece that stays until the move ends
            }
            if !king && p.is_king() && !self.men_capture_kings {
                continue;
            }
            // Landing squares beyond it.
            let mut landings = Vec::new();
            let mut landing = self.next(v, d);
            while let Some(l) = landing {
                if b[l].is_some() {
                    break;
                }
                landings.push(l);
                if !(king && self.king_landing_any) {
                    break;
                }
                landing = self.next(l, d);
            }
            if !landings.is_empty() {
                out.push((d, v, landings));
            }
        }
        out
    }

    /// The board after jumping `v` (the captured piece stays until the move
    /// ends with end-of-move removal).
    fn after_jump(&self, b: &Board, v: usize) -> Board {
        let mut nb = *b;
        if !self.end_of_move {
            nb[v] = None;
        }
        nb
    }

    /// Tries every jump from `at`; records the chain when none exists.
    #[allow(clippy::too_many_arguments)]
    fn extend(
        &self,
        b: &Board,
        side: Color,
        at: usize,
        king: bool,
        last: Option<Dir>,
        chain: &mut Chain,
        out: &mut Vec<RefPath>,
    ) {
        let jumps = self.jumps(b, side, at, king, last, &chain.captures);
        if jumps.is_empty() {
            if !chain.captures.is_empty() {
                out.push(chain.finish(at, self, side));
            }
            return;
        }
        for (d, v, mut landings) in jumps {
            let nb = self.after_jump(b, v);
            let took_king = b[v].is_some_and(|p| p.is_king());
            if king && (self.landing_must_continue || (self.halt_behind_king && took_king)) {
                // The landings from which the capture goes on.
                let mut dead = chain.captures.clone();
                dead.push(v);
                let go_on: Vec<usize> = landings
                    .iter()
                    .copied()
                    .filter(|&l| !self.jumps(&nb, side, l, true, Some(d), &dead).is_empty())
                    .collect();
                if self.landing_must_continue && !go_on.is_empty() {
                    // Only those, if any.
                    landings = go_on;
                } else if self.halt_behind_king && took_king {
                    // Where the capture ends after taking a king: right behind it.
                    let behind = landings[0];
                    landings.retain(|l| *l == behind || go_on.contains(l));
                }
            }
            for l in landings {
                chain.landings.push(l);
                chain.captures.push(v);
                let reaches_rank = !king && self.on_promotion_rank(side, l);
                match (reaches_rank, self.mid) {
                    (true, MidCapturePromotion::Stop) => {
                        let saved = chain.crowned;
                        chain.crowned = true;
                        out.push(chain.finish(l, self, side));
                        chain.crowned = saved;
                    }
                    (true, MidCapturePromotion::PromoteAndContinue) => {
                        let saved = chain.crowned;
                        chain.crowned = true;
                        self.extend(&nb, side, l, true, Some(d), chain, out);
                        chain.crowned = saved;
                    }
                    (true, MidCapturePromotion::PromoteAndContinueAnyDirection) => {
                        // The new king's first jump may go any way, straight back too.
                        let saved = chain.crowned;
                        chain.crowned = true;
                        self.extend(&nb, side, l, true, None, chain, out);
                        chain.crowned = saved;
                    }
                    _ => self.extend(&nb, side, l, king, Some(d), chain, out),
                }
                chain.landings.pop();
                chain.captures.pop();
            }
        }
    }

    /// The non-capturing moves: (from, to, promotes), each once.
    pub fn quiet_moves(&self, board: &Board, side: Color) -> Vec<(usize, usize, bool)> {
        let s = side_index(side);
        let mut out: Vec<(usize, usize, bool)> = Vec::new();
        let add = |out: &mut Vec<(usize, usize, bool)>, m: (usize, usize, bool)| {
            if !out.iter().any(|o| o.0 == m.0 && o.1 == m.1) {
                out.push(m);
            }
        };
        for from in 0..CELLS {
            let Some(piece) = board[from] else { continue };
            if piece.color() != side {
                continue;
            }
            if piece.is_king() {
                for &d in &self.king_moves[s] {
                    let mut t = self.next(from, d);
                    let mut n = 0;
                    while let Some(x) = t {
                        if board[x].is_some() || n >= self.king_range {
                            break;
                        }
                        add(&mut out, (from, x, false));
                        n += 1;
                        t = self.next(x, d);
                    }
                }
                continue;
            }
            // Steps.
            for &d in &self.man_steps[s] {
                if let Some(t) = self.next(from, d) {
                    if board[t].is_none() {
                        add(&mut out, (from, t, self.on_promotion_rank(side, t)));
                    }
                }
            }
            // Friendly jumps (the man has left its square while it jumps).
            if !self.friendly_jumps[s].is_empty() {
                let mut b = *board;
                b[from] = None;
                let mut reached: Vec<usize> = Vec::new();
                let mut todo = vec![from];
                while let Some(at) = todo.pop() {
                    for &d in &self.friendly_jumps[s] {
                        let Some(over) = self.next(at, d) else { continue };
                        let ok_over = match b[over] {
                            Some(Piece::Man(c)) => c == side,
                            Some(Piece::King(c)) => c == side && self.jump_over_kings,
                            None => false,
                        };
                        if !ok_over {
                            continue;
                        }
                        let Some(l) = self.next(over, d) else { continue };
                        if b[l].is_some() || l == from || reached.contains(&l) {
                            continue;
                        }
                        reached.push(l);
                        if self.jump_chain && !self.on_promotion_rank(side, l) {
                            todo.push(l);
                        }
                    }
                }
                for l in reached {
                    add(&mut out, (from, l, self.on_promotion_rank(side, l)));
                }
            }
            // Linear moves: over one or more own men in a line.
            for &d in &self.linear[s] {
                let mut t = self.next(from, d);
                let mut over = 0;
                while let Some(x) = t {
                    if board[x] != Some(Piece::Man(side)) {
                        break;
                    }
                    over += 1;
                    t = self.next(x, d);
                }
                if let Some(x) = t {
                    if over > 0 && board[x].is_none() {
                        add(&mut out, (from, x, self.on_promotion_rank(side, x)));
                    }
                }
            }
        }
        out
    }

    /// The capture paths that are legal (majority rule and priorities
    /// applied, one criterion after the other).
    pub fn legal_capture_paths(&self, board: &Board, side: Color) -> Vec<RefPath> {
        let mut paths = self.capture_paths(board, side);
        let is_king = |sq: usize| board[sq].is_some_and(|p| p.is_king());
        let kings = |p: &RefPath| p.captures.iter().filter(|&&c| is_king(c)).count() as u64;
        match self.majority {
            Majority::None => {}
            Majority::MaxPieces => keep_best(&mut paths, |p| p.captures.len() as u64),
            Majority::MaxValue => keep_best(&mut paths, |p| {
                let k = kings(p);
                (p.captures.len() as u64 - k) * self.man_value + k * self.king_value
            }),
        }
        for pref in &self.priority {
            match pref {
                Preference::ByKing => keep_best(&mut paths, |p| u64::from(is_king(p.from))),
                Preference::MostKings => keep_best(&mut paths, kings),
                Preference::KingsFirst => {
                    // Compared jump by jump: which jumps take a king, a
                    // shorter sequence padded with jumps that take none.
                    let len = paths.iter().map(|p| p.captures.len()).max().unwrap_or(0);
                    let order = |p: &RefPath| -> Vec<bool> {
                        let mut o: Vec<bool> = p.captures.iter().map(|&c| is_king(c)).collect();
                        o.resize(len, false);
                        o
                    };
                    let best = paths.iter().map(order).max().unwrap_or_default();
                    paths.retain(|p| order(p) == best);
                }
            }
        }
        paths
    }

    /// The legal moves, sorted by (from, to, captured, promotes), in a
    /// position without king runs.
    pub fn legal_moves(&self, board: &Board, side: Color) -> Vec<RefMove> {
        self.legal_moves_with_runs(board, side, &NO_RUNS)
    }

    /// Whether `side` has a man on `board`.
    fn has_men(board: &Board, side: Color) -> bool {
        board.contains(&Some(Piece::Man(side)))
    }

    /// The king of `side` that may make no non-capturing move: its run has
    /// reached the limit and its side has men.
    fn frozen(&self, board: &Board, side: Color, runs: &Runs) -> Option<usize> {
        match runs[side_index(side)] {
            Some((sq, n)) if self.king_limit > 0 && n >= self.king_limit && Self::has_men(board, side) => Some(sq),
            _ => None,
        }
    }

    /// The runs after `side` plays from `from` to `to` on `board` (giving
    /// `after`), capturing `captured`.
    #[allow(clippy::too_many_arguments)]
    fn runs_after(
        &self,
        board: &Board,
        after: &Board,
        side: Color,
        from: usize,
        to: usize,
        captured: &[usize],
        runs: &Runs,
    ) -> Runs {
        if self.king_limit == 0 {
            return NO_RUNS;
        }
        let (s, o) = (side_index(side), 1 - side_index(side));
        let mut r = *runs;
        let king = board[from].is_some_and(|p| p.is_king());
        r[s] = if king && captured.is_empty() {
            match runs[s] {
                Some((sq, n)) if sq == from => Some((to, n + 1)),
                _ => Some((to, 1)),
            }
        } else {
            None
        };
        if !Self::has_men(after, side) {
            r[s] = None;
        }
        if let Some((sq, _)) = r[o] {
            if captured.contains(&sq) || !Self::has_men(after, !side) {
                r[o] = None;
            }
        }
        r
    }

    /// The legal moves, sorted by (from, to, captured, promotes), given each
    /// side's king run.
    pub fn legal_moves_with_runs(&self, board: &Board, side: Color, runs: &Runs) -> Vec<RefMove> {
        let paths = self.legal_capture_paths(board, side);
        let mut groups: BTreeMap<(usize, usize, Vec<usize>, bool), u64> = BTreeMap::new();
        let has_capture = !paths.is_empty();
        for p in &paths {
            let to = *p.landings.last().unwrap_or(&p.from);
            *groups.entry((p.from, to, p.captured_set(), p.promotes)).or_insert(0) += 1;
        }
        if !has_capture || !self.mandatory {
            let frozen = self.frozen(board, side, runs);
            for (from, to, promotes) in self.quiet_moves(board, side) {
                if Some(from) == frozen {
                    continue;
                }
                *groups.entry((from, to, Vec::new(), promotes)).or_insert(0) += 1;
            }
        }
        let has_piece = board.iter().flatten().any(|p| p.color() == side);
        if groups.is_empty() && self.passes && has_piece {
            // The pass: a1 to a1, nothing captured, the board unchanged.
            return vec![RefMove {
                from: 0,
                to: 0,
                captured: Vec::new(),
                promotes: false,
                paths: 1,
                after: *board,
                // A pass moves no piece: the runs stay as they are.
                runs: *runs,
            }];
        }
        groups
            .into_iter()
            .map(|((from, to, captured, promotes), paths)| {
                let after = apply(board, from, to, &captured, promotes);
                RefMove {
                    from,
                    to,
                    runs: self.runs_after(board, &after, side, from, to, &captured, runs),
                    after,
                    captured,
                    promotes,
                    paths,
                }
            })
            .collect()
    }

    /// Perft: leaves `depth` plies below, counting paths or distinct moves.
    pub fn perft(&self, board: &Board, side: Color, depth: u32, paths: bool) -> u64 {
        self.perft_with_runs(board, side, &NO_RUNS, depth, paths)
    }

    /// [`Reference::perft`] from a position with king runs.
    pub fn perft_with_runs(&self, board: &Board, side: Color, runs: &Runs, depth: u32, paths: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves_with_runs(board, side, runs);
        let mut total = 0;
        for m in &moves {
            let sub = if depth == 1 {
                1
            } else {
                self.perft_with_runs(&m.after, !side, &m.runs, depth - 1, paths)
            };
            total += if paths { sub * m.paths } else { sub };
        }
        total
    }
}

impl RefPath {
    /// The captured squares in increasing order.
    pub fn captured_set(&self) -> Vec<usize> {
        let mut set = self.captures.clone();
        set.sort_unstable();
        set
    }
}

/// A capture chain being built.
struct Chain {
    from: usize,
    started_king: bool,
    crowned: bool,
    landings: Vec<usize>,
    captures: Vec<usize>,
}

impl Chain {
    fn finish(&self, at: usize, r: &Reference, side: Color) -> RefPath {
        RefPath {
            from: self.from,
            landings: self.landings.clone(),
            captures: self.captures.clone(),
            promotes: !self.started_king && (self.crowned || r.on_promotion_rank(side, at)),
        }
    }
}

/// The board after moving the piece on `from` to `to`, removing `captured`
/// and crowning it if `promotes`.
pub fn apply(board: &Board, from: usize, to: usize, captured: &[usize], promotes: bool) -> Board {
    let mut b = *board;
    let piece = b[from];
    b[from] = None;
    for &sq in captured {
        b[sq] = None;
    }
    b[to] = match piece {
        Some(Piece::Man(c)) if promotes => Some(Piece::King(c)),
        p => p,
    };
    b
}

/// The engine's position as a board and side to move.
pub fn board_of(pos: &Position) -> (Board, Color) {
    let mut b: Board = [None; CELLS];
    for (sq, piece) in pos.iter() {
        b[cell_of(sq)] = Some(piece);
    }
    (b, pos.side_to_move())
}

/// A board and side to move as the engine's position.
pub fn position_of(board: &Board, side: Color) -> Position {
    let (mut white, mut black, mut kings) = (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
    for (i, cell) in board.iter().enumerate() {
        let Some(p) = cell else { continue };
        match p.color() {
            Color::White => white.insert(square(i)),
            Color::Black => black.insert(square(i)),
        }
        if p.is_king() {
            kings.insert(square(i));
        }
    }
    Position::from_parts(white, black, kings, side)
}

/// The king runs of the engine's position.
pub fn runs_of(pos: &Position) -> Runs {
    Color::ALL.map(|c| pos.king_run(c).map(|(sq, n)| (cell_of(sq), n)))
}

/// A board, side to move and king runs as the engine's position.
pub fn position_with_runs(board: &Board, side: Color, runs: &Runs) -> Position {
    let mut pos = position_of(board, side);
    for c in Color::ALL {
        pos.set_king_run(c, runs[side_index(c)].map(|(sq, n)| (square(sq), n)));
    }
    pos
}

/// The algebraic name of a square index.
pub fn name(sq: usize) -> String {
    format!("{}{}", (b'a' + file_of(sq) as u8) as char, rank_of(sq) + 1)
}

/// A path in full notation (`d6xd8xb8`), for messages.
pub fn path_text(p: &RefPath) -> String {
    let mut s = name(p.from);
    for &l in &p.landings {
        s.push('x');
        s.push_str(&name(l));
    }
    s
}
