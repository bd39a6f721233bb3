//! The groups of compiled rules, each as the generator reads it: the
//! board's geometry, each side's directions, the men's and kings' powers,
//! the capture rules and the end of the game.

use crate::board::{AbsDir, Bitboard, Bits, DirSet, Layout, Move, Node, Ply, Position, Square, Tables};
use crate::rules::SearchPlan;
use crate::spec::{
    CrowningEnd, KingVsKing, LonePiece, Majority, MidCapturePromotion, NoMoveResult, Preference, Removal,
};

/// The board: its size, its playable squares, the neighbour of every square
/// in every direction, how the generator numbers the squares (and the
/// word it is compiled for), and how squares are named.
#[derive(Debug, Clone)]
pub struct Geometry {
    pub(crate) width: u8,
    pub(crate) height: u8,
    /// The playable squares.
    pub(crate) board: Bitboard,
    /// `step[dir][sq]`: the playable neighbour of `sq` in `dir`.
    pub(crate) step: Box<[[Option<Square>; 256]; 8]>,
    /// The generator's numbering of the squares.
    pub(crate) layout: Layout,
    /// The generator's tables and sets, in the word the layout chose.
    pub(crate) packing: Packing,
    /// Whether squares are written as numbers.
    pub(crate) numeric: bool,
    /// Numeric notation: square number (1-based) - 1 -> square.
    pub(crate) numbers: Vec<Square>,
}

/// The board's tables and sets in the generator's numbering, for the word
/// the layout chose: the one place the word is decided at run time (see
/// [`with_pack`](crate::rules::with_pack)).
#[derive(Debug, Clone)]
pub(crate) enum Packing {
    W64(Box<Pack<u64>>),
    W128(Box<Pack<u128>>),
    W256(Box<Pack<Bitboard>>),
}

/// What the generator reads of the board, in its numbering and word `B`.
#[derive(Debug, Clone)]
pub(crate) struct Pack<B> {
    pub(crate) tables: Tables<B>,
    /// The playable squares.
    pub(crate) board: B,
    /// The squares on which each side's men are crowned (White first).
    pub(crate) promotion: [B; 2],
    pub(crate) layout: Layout,
    /// Whether the variant limits a king's consecutive moves
    /// (`kings.max_consecutive_moves`), so that its nodes track the runs.
    pub(crate) track_runs: bool,
    /// The capture rules as the search applies them.
    pub(crate) plan: SearchPlan,
}

impl<B: Bits> Pack<B> {
    /// `pos` in the generator's numbering.
    #[inline]
    pub(crate) fn node(&self, pos: &Position) -> Node<B> {
        let n = &pos.0;
        let bit = |s: u8| self.layout.bit_of(Square::from_index(s)).unwrap_or(0);
        let mut runs = n.runs.map(bit);
        runs.track = self.track_runs;
        Node {
            white: self.layout.pack(n.white),
            black: self.layout.pack(n.black),
            kings: self.layout.pack(n.kings),
            side: n.side,
            runs,
        }
    }
    /// A node as a position.
    #[inline]
    pub(crate) fn position(&self, n: &Node<B>) -> Position {
        Position(Node {
            white: self.layout.unpack(n.white),
            black: self.layout.unpack(n.black),
            kings: self.layout.unpack(n.kings),
            side: n.side,
            runs: n.runs.map(|b| self.layout.square_of(b).index()),
        })
    }
    /// A move of the generator as a move of the API.
    #[inline]
    pub(crate) fn export(&self, m: &Ply<B>) -> Move {
        if m.is_pass() {
            return Move::pass();
        }
        Move(Ply {
            captured: self.layout.unpack(m.captured),
            captured_kings: self.layout.unpack(m.captured_kings),
            from: self.layout.square_of(m.from).index(),
            to: self.layout.square_of(m.to).index(),
            flags: m.flags,
        })
    }
    /// A move of the API in the generator's numbering (its squares must be playable).
    #[inline]
    pub(crate) fn import(&self, m: &Move) -> Ply<B> {
        if m.is_pass() {
            return Ply::pass();
        }
        let bit = |s: Square| self.layout.bit_of(s).unwrap_or(0);
        Ply {
            captured: self.layout.pack(m.0.captured),
            captured_kings: self.layout.pack(m.0.captured_kings),
            from: bit(m.from()),
            to: bit(m.to()),
            flags: m.0.flags,
        }
    }
    /// The square of a bit.
    #[inline]
    pub(crate) fn square(&self, bit: u8) -> Square {
        self.layout.square_of(bit)
    }
}

impl Geometry {
    /// The playable neighbour of `sq` in `d`.
    #[inline]
    pub fn step(&self, sq: Square, d: AbsDir) -> Option<Square> {
        self.step[d.index()][sq.index() as usize]
    }

    /// The generator's numbering of the squares: how many bits it uses and
    /// the word it is compiled for.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The name of a square in this board's notation.
    pub fn square_name(&self, sq: Square) -> String {
        if self.numeric {
            match self.numbers.iter().position(|&i| i == sq) {
                Some(n) => (n + 1).to_string(),
                None => sq.to_string(),
            }
        } else {
            sq.to_string()
        }
    }

    /// The number of a square in the board's numbering (1 = the first
    /// playable square of the top rank), if it is playable.
    pub fn square_number(&self, sq: Square) -> Option<usize> {
        self.numbers.iter().position(|&i| i == sq).map(|n| n + 1)
    }

    /// The square with this number in the board's numbering.
    pub fn numbered_square(&self, n: usize) -> Option<Square> {
        self.numbers.get(n.checked_sub(1)?).copied()
    }

    /// Parses a square name in this board's notation; only playable squares are accepted.
    pub fn parse_square(&self, s: &str) -> Option<Square> {
        let sq = if self.numeric && s.bytes().all(|b| b.is_ascii_digit()) {
            let n: usize = s.parse().ok()?;
            self.numbered_square(n)?
        } else {
            let sq = Square::parse_algebraic(s)?;
            if sq.file() >= self.width || sq.rank() >= self.height {
                return None;
            }
            sq
        };
        self.board.contains(sq).then_some(sq)
    }

    /// Whether square numbers are read on this board (issue 18): always
    /// with numeric notation, and on a board played on its dark squares
    /// only, whose PDN numbering (the one `notation = "numeric"` writes) is
    /// the only one in use, so that `22-18` in a Russian record can mean
    /// nothing but `c3-d4`. A board played on every square has no PDN
    /// numbering: numbers are not read there.
    pub(crate) fn reads_square_numbers(&self) -> bool {
        let colour = |s: Square| (s.file() + s.rank()) % 2;
        let first = self.board.iter().next().map_or(0, colour);
        self.numeric || self.board.iter().all(|s| colour(s) == first)
    }

    /// Reads a square as people write it in positions and moves: a name in
    /// this board's notation, or, where [`reads_square_numbers`](Self::reads_square_numbers)
    /// says so, a square number.
    pub(crate) fn read_square(&self, s: &str) -> Option<Square> {
        if let Some(sq) = self.parse_square(s) {
            return Some(sq);
        }
        if self.numeric || !self.reads_square_numbers() || s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        self.numbered_square(s.parse().ok()?)
    }

    /// An example of a square name on this board, for messages: c3 when it
    /// is played on, else the first playable square.
    pub(crate) fn example_square(&self) -> String {
        let c3 = Square::new(
            2.min(self.width.saturating_sub(1)),
            2.min(self.height.saturating_sub(1)),
        );
        match c3.filter(|s| self.board.contains(*s)) {
            Some(s) => s.to_string(),
            None => self.board.first().map_or_else(|| "a1".to_string(), |s| s.to_string()),
        }
    }
}

/// One side's directions (absolute, as seen from White) and promotion squares.
#[derive(Debug, Clone, Copy, Default)]
pub struct SideRules {
    /// Men's step directions.
    pub man_steps: DirSet,
    /// Men's capture directions.
    pub man_captures: DirSet,
    /// Men's friendly-jump directions.
    pub man_friendly_jumps: DirSet,
    /// Men's linear-move directions.
    pub man_linear: DirSet,
    /// Kings' move directions.
    pub king_moves: DirSet,
    /// Kings' capture directions.
    pub king_captures: DirSet,
    /// The squares on which this side's men are crowned.
    pub promotion: Bitboard,
}

impl SideRules {
    /// Every direction a piece of this side moves or captures in.
    pub fn all_directions(&self) -> DirSet {
        DirSet(
            self.man_steps.0
                | self.man_captures.0
                | self.man_friendly_jumps.0
                | self.man_linear.0
                | self.king_moves.0
                | self.king_captures.0,
        )
    }
}

/// What men may do besides stepping and capturing (`men.friendly_jump_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MenRules {
    /// Whether friendly jumps may pass over kings too (else only over men).
    pub friendly_jump_over_kings: bool,
    /// Whether friendly jumps chain into a sequence.
    pub friendly_jump_chain: bool,
    /// Whether men may capture kings (`men.capture_kings`).
    pub capture_kings: bool,
}

/// How far a king moves without capturing (`kings.move_range`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KingRange {
    /// Any number of empty squares along a line.
    Flying,
    /// At most this many squares (at least 1, and fewer than the board is
    /// long: a range that crosses the board is compiled as `Flying`).
    Steps(u8),
}

impl KingRange {
    /// The most squares a king moves in one direction (`usize::MAX` when flying).
    #[inline]
    pub fn max_steps(self) -> usize {
        match self {
            KingRange::Flying => usize::MAX,
            KingRange::Steps(n) => n as usize,
        }
    }
}

/// The kings' powers (`[kings]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KingRules {
    /// How far a king moves without capturing.
    pub range: KingRange,
    /// Whether kings capture from a distance (`capture_range = "flying"`).
    pub capture_flying: bool,
    /// Whether a king may land on any empty square beyond (`landing = "any_beyond"`).
    pub landing_any: bool,
    /// Whether a king must land where its capture can go on, when it can
    /// (`landing_must_continue`; only with `landing_any`).
    pub landing_must_continue: bool,
    /// Whether a king whose capture ends by taking a king lands right
    /// behind it (`halt_behind_king`; only with `landing_any`).
    pub halt_behind_king: bool,
    /// While its side has men, the most non-capturing moves the same king
    /// may make in a row (`max_consecutive_moves`; 0 = no limit). Positions
    /// of a variant with a limit carry each side's run ([`Position::king_run`]).
    pub max_consecutive_moves: u8,
}

/// The capture rules (`[capture]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaptureRules {
    /// Whether capturing is mandatory.
    pub mandatory: bool,
    /// The majority rule: which captures may be chosen.
    pub majority: Majority,
    /// When captured pieces leave the board.
    pub removal: Removal,
    /// Whether a piece may not turn 180° between two jumps.
    pub no_reversal: bool,
    /// What a man reaching its promotion rank during a capture does.
    pub promote_mid_capture: MidCapturePromotion,
    /// The value of a man and of a king for `majority = "max_value"`.
    pub values: PieceValues,
    /// The tie-breakers after the majority rule, in order (each at most once).
    pub priority: Priority,
}

/// The value of each kind of piece for the majority rule `"max_value"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieceValues {
    /// The value of a man.
    pub man: u32,
    /// The value of a king.
    pub king: u32,
}

/// The largest piece value (`capture.man_value`, `capture.king_value`):
/// small enough that the total value of any capture fits the bits the
/// generator gives it.
pub const MAX_PIECE_VALUE: u32 = 10_000;

/// The tie-breakers of `capture.priority`, in order, each at most once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Priority {
    list: [Option<Preference>; 3],
}

impl Priority {
    /// The preferences in order, duplicates dropped.
    pub fn new(prefs: &[Preference]) -> Priority {
        let mut list = [None; 3];
        let mut n = 0;
        for &p in prefs {
            if !list.contains(&Some(p)) && n < list.len() {
                list[n] = Some(p);
                n += 1;
            }
        }
        Priority { list }
    }

    /// The preferences in order.
    pub fn iter(&self) -> impl Iterator<Item = Preference> + '_ {
        self.list.iter().map_while(|p| *p)
    }

    /// Whether there is no tie-breaker.
    pub fn is_empty(&self) -> bool {
        self.list[0].is_none()
    }

    /// Whether `p` is one of the tie-breakers.
    pub fn contains(&self, p: Preference) -> bool {
        self.list.contains(&Some(p))
    }
}

impl CaptureRules {
    /// How the generator ranks the captures of a position.
    #[inline]
    pub(crate) fn ranking(&self) -> Ranking {
        match (self.majority, self.priority.is_empty()) {
            (Majority::None, true) => Ranking::Free,
            (Majority::MaxPieces, true) => Ranking::Pieces,
            _ => Ranking::Keyed,
        }
    }
}

/// How captures are ranked, as the generator sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ranking {
    /// Any capture may be chosen.
    Free,
    /// Only the captures taking the most pieces: the rank is the count.
    Pieces,
    /// The rank is a key built from the majority rule and the priorities.
    Keyed,
}

/// One side's pieces in a material pattern of `end.material_draw`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SideMaterial {
    /// Kings.
    pub kings: u32,
    /// Men.
    pub men: u32,
}

impl std::fmt::Display for SideMaterial {
    /// `KKM`: a `K` per king, then an `M` per man.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for _ in 0..self.kings {
            f.write_str("K")?;
        }
        for _ in 0..self.men {
            f.write_str("M")?;
        }
        Ok(())
    }
}

/// A material pattern: what one side has against what the other has,
/// whichever side has which (`KKK v K`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MaterialPattern {
    /// The side written first (the one with more pieces, once compiled).
    pub first: SideMaterial,
    /// The side written second.
    pub second: SideMaterial,
}

impl MaterialPattern {
    /// Whether `white` against `black` is this material, either way round.
    #[inline]
    pub fn matches(&self, white: SideMaterial, black: SideMaterial) -> bool {
        (self.first == white && self.second == black) || (self.first == black && self.second == white)
    }

    /// The same pattern with its sides in the order written out
    /// (the stronger side first), so that equal patterns compare equal.
    pub fn normalized(self) -> MaterialPattern {
        let key = |s: SideMaterial| (s.kings + s.men, s.kings, s.men);
        if key(self.second) > key(self.first) {
            MaterialPattern {
                first: self.second,
                second: self.first,
            }
        } else {
            self
        }
    }
}

impl std::fmt::Display for MaterialPattern {
    /// `KKM v K`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} v {}", self.first, self.second)
    }
}

/// One draw by material (`[[end.material_draw]]`, one entry per pattern):
/// the game is drawn once `pattern` has stood on the board for `plies`
/// plies (counted by [`DrawClock::reversible`](crate::DrawClock::reversible):
/// since the last capture or promotion, which is when that material arose).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MaterialDraw {
    /// The material.
    pub pattern: MaterialPattern,
    /// The plies after which it draws (0: at once).
    pub plies: u32,
}

/// The end-of-game rules (`[end]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndRules {
    /// Result for a side with no legal move.
    pub no_legal_move: NoMoveResult,
    /// Threefold repetition draws.
    pub threefold_repetition: bool,
    /// The lone-piece rule.
    pub lone_piece: LonePiece,
    /// Apply the lone-piece rule only when the side to move has no capture.
    pub lone_piece_unless_capture: bool,
    /// King against king.
    pub king_vs_king: KingVsKing,
    /// Plies without capture that draw (0 = off).
    pub no_capture_draw_plies: u32,
    /// Plies of king-only, capture-free moves that draw (0 = off).
    pub kings_only_draw_plies: u32,
    /// What crowning a king does (`end.crowning`).
    pub crowning: CrowningEnd,
    /// The draws by material, one per pattern, in the order written.
    pub material_draw: Vec<MaterialDraw>,
    /// The smallest limit of `material_draw` (`u32::MAX` when there is none):
    /// below it no material draw needs looking at.
    pub(crate) material_min_plies: u32,
    /// The most pieces on the board in any pattern of `material_draw`.
    pub(crate) material_max_pieces: u32,
}

impl EndRules {
    /// Whether a blocked side passes (`end.no_legal_move = "pass"`).
    #[inline(always)]
    pub fn passes(&self) -> bool {
        self.no_legal_move == NoMoveResult::Pass
    }

    /// The material draw that applies `reversible` plies after the last
    /// capture or promotion, if any: its limit. `count` is asked only when
    /// some rule's limit has been reached and then gives each side's
    /// material (White first), so a search pays for it only in the
    /// positions the rule can concern.
    #[inline]
    pub(crate) fn material_draw_after(
        &self,
        reversible: u32,
        count: impl FnOnce() -> (SideMaterial, SideMaterial),
    ) -> Option<u32> {
        if reversible < self.material_min_plies {
            return None;
        }
        let (white, black) = count();
        if white.kings + white.men + black.kings + black.men > self.material_max_pieces {
            return None;
        }
        self.material_draw
            .iter()
            .filter(|d| reversible >= d.plies && d.pattern.matches(white, black))
            .map(|d| d.plies)
            .min()
    }
}
