//! Compiled rules: a validated variant with the tables the move generator needs.

use crate::board::Color;
use crate::board::Position;
use crate::board::Tables;
use crate::board::OFF;
use crate::board::{shift, AbsDir, DirSet, Square, Squares};
use crate::spec::{
    CaptureRange, JumpOver, KingVsKing, Landing, LonePiece, Majority, MidCapturePromotion, NoMoveResult, PromotionRank,
    Range, RelDir, Removal, SquareNotation, SquareSet, VariantSpec,
};
use crate::spec::{Code, Diagnostic};
use crate::util::clip;

/// Per-side tables.
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
    pub promotion: u64,
}

/// The end-of-game rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
}

/// A variant ready to play: validated, with precomputed tables.
///
/// ```
/// let rules = dama_engine::Rules::builtin("dama").unwrap();
/// let start = rules.start_position();
/// assert_eq!(rules.legal_moves(&start).len(), 8);
/// ```
#[derive(Debug, Clone)]
pub struct Rules {
    spec: VariantSpec,
    width: u8,
    height: u8,
    board: u64,
    sides: [SideRules; 2],
    /// `step[dir][sq]`: the neighbour of `sq` in `dir`, or [`OFF`].
    step: [[u8; 64]; 8],
    /// Shift and ray tables for the move generator (see `tables.rs`).
    tables: Tables,
    king_range: u8,
    king_capture_flying: bool,
    landing_any: bool,
    landing_must_continue: bool,
    mandatory: bool,
    majority: Majority,
    removal: Removal,
    no_reversal: bool,
    promote_mid_capture: MidCapturePromotion,
    friendly_jump_over_kings: bool,
    friendly_jump_chain: bool,
    end: EndRules,
    start: Position,
    numeric: bool,
    /// Numeric notation: square number (1-based) -> square index.
    numbers: Vec<u8>,
}

impl Rules {
    /// Compiles a spec, checking it for consistency. Returns every problem
    /// found (errors and warnings) on failure, and the warnings on success.
    pub fn compile(spec: &VariantSpec) -> Result<(Rules, Vec<Diagnostic>), Vec<Diagnostic>> {
        let mut diags = Vec::new();
        let err =
            |d: &mut Vec<Diagnostic>, code, key: &str, msg: String| d.push(Diagnostic::error(code, Some(key), msg));

        // Board.
        let (w, h) = (spec.board.width, spec.board.height);
        let mut size_ok = true;
        for (v, key, what) in [(w, "board.width", "file"), (h, "board.height", "rank")] {
            if v == 0 {
                err(
                    &mut diags,
                    Code::E0201,
                    key,
                    format!("the board must have at least one {what}, not {w}×{h}"),
                );
                size_ok = false;
            } else if v > 8 {
                err(
                    &mut diags,
                    Code::E0202,
                    key,
                    format!("boards larger than 8×8 are not supported yet ({w}×{h} asked)"),
                );
                size_ok = false;
            }
        }
        let (width, height) = if size_ok { (w as u8, h as u8) } else { (8, 8) };
        let mut board = 0u64;
        for r in 0..height {
            for f in 0..width {
                let dark = (r + f) % 2 == 0;
                if spec.board.squares == SquareSet::All || dark {
                    board |= 1u64 << (r * 8 + f);
                }
            }
        }
        let numeric = spec.board.notation == SquareNotation::Numeric;
        let mut numbers = Vec::new();
        for r in (0..height).rev() {
            for f in 0..width {
                let i = r * 8 + f;
                if board & (1u64 << i) != 0 {
                    numbers.push(i);
                }
            }
        }

        // Step table.
        let mut step = [[OFF; 64]; 8];
        for d in AbsDir::ALL {
            let (df, dr) = d.delta();
            for sq in Squares(board) {
                let f = sq.file() as i8 + df;
                let r = sq.rank() as i8 + dr;
                if (0..width as i8).contains(&f) && (0..height as i8).contains(&r) {
                    let t = (r * 8 + f) as u8;
                    if board & (1u64 << t) != 0 {
                        step[d.index()][sq.index() as usize] = t;
                    }
                }
            }
        }

        // Directions.
        let dirs = |list: &[RelDir], key: &str, diags: &mut Vec<Diagnostic>| -> [DirSet; 2] {
            let mut out = [DirSet::EMPTY; 2];
            // Bit d: direction d seen; bit 8 + d: its repetition reported.
            let mut seen = 0u16;
            for (i, &r) in list.iter().enumerate() {
                let bit = 1u16 << (r as u16);
                if seen & bit != 0 {
                    if seen & (bit << 8) == 0 {
                        diags.push(Diagnostic::warning(
                            Code::W0301,
                            Some(&format!("{key}[{i}]")),
                            format!("direction {r} is listed twice"),
                        ));
                    }
                    seen |= bit << 8;
                    continue;
                }
                seen |= bit;
                for c in Color::ALL {
                    out[c.index()].insert(absolute(r, c));
                }
            }
            out
        };
        let man_steps = dirs(&spec.men.moves, "men.moves", &mut diags);
        let man_captures = dirs(&spec.men.captures, "men.captures", &mut diags);
        let man_friendly = dirs(&spec.men.friendly_jumps, "men.friendly_jumps", &mut diags);
        let man_linear = dirs(&spec.men.linear_moves, "men.linear_moves", &mut diags);
        let king_moves = dirs(&spec.kings.moves, "kings.moves", &mut diags);
        let king_captures = dirs(&spec.kings.captures, "kings.captures", &mut diags);

        let king_range = match spec.kings.move_range {
            Range::Flying => 8,
            Range::Squares(0) => {
                err(
                    &mut diags,
                    Code::E0401,
                    "kings.move_range",
                    "a king's move range must be at least 1 or \"flying\"".into(),
                );
                1
            }
            Range::Squares(n) => {
                let across = width.max(height) as u32 - 1;
                if size_ok && n > 1 && n >= across {
                    diags.push(Diagnostic::warning(
                        Code::W0405,
                        Some("kings.move_range"),
                        format!(
                            "a move range of {n} crosses the whole {width}×{height} board: it is the same as \"flying\""
                        ),
                    ));
                }
                n.min(8) as u8
            }
        };

        // Promotion ranks.
        let prom_rank = match spec.promotion.rank {
            PromotionRank::Last => height,
            PromotionRank::Nth(n) => {
                if n == 0 || n > height as u32 {
                    if size_ok {
                        let msg = if n == 0 {
                            "promotion ranks are counted from 1 (the mover's own back rank)".to_string()
                        } else {
                            format!("promotion rank {n} is not on a board of {height} ranks")
                        };
                        err(&mut diags, Code::E0501, "promotion.rank", msg);
                    }
                    height
                } else {
                    n as u8
                }
            }
        };
        let rank_mask = |r: u8| -> u64 { (0xFFu64 << (r as u32 * 8)) & board };
        let white_prom = rank_mask(prom_rank - 1);
        let black_prom = rank_mask(height - prom_rank);

        let sides = [
            SideRules {
                man_steps: man_steps[0],
                man_captures: man_captures[0],
                man_friendly_jumps: man_friendly[0],
                man_linear: man_linear[0],
                king_moves: king_moves[0],
                king_captures: king_captures[0],
                promotion: white_prom,
            },
            SideRules {
                man_steps: man_steps[1],
                man_captures: man_captures[1],
                man_friendly_jumps: man_friendly[1],
                man_linear: man_linear[1],
                king_moves: king_moves[1],
                king_captures: king_captures[1],
                promotion: black_prom,
            },
        ];

        // Every piece kind can move somehow.
        if spec.men.moves.is_empty() && spec.men.linear_moves.is_empty() && spec.men.friendly_jumps.is_empty() {
            if spec.men.captures.is_empty() {
                err(
                    &mut diags,
                    Code::E0302,
                    "men",
                    "men can neither move nor capture".into(),
                );
            } else {
                diags.push(Diagnostic::warning(
                    Code::W0303,
                    Some("men.moves"),
                    "men have no non-capturing move: they can only ever capture",
                ));
            }
        }
        if spec.kings.moves.is_empty() && spec.kings.captures.is_empty() {
            err(
                &mut diags,
                Code::E0402,
                "kings",
                "kings can neither move nor capture".into(),
            );
        }
        if spec.men.captures.is_empty() && spec.kings.captures.is_empty() {
            diags.push(Diagnostic::warning(
                Code::W0304,
                Some("capture"),
                "no piece can capture: the capture rules never apply",
            ));
        }
        // A man that can never reach its promotion rank.
        let forwardish = [RelDir::F, RelDir::FL, RelDir::FR];
        let reaches = men_use_any(spec, &forwardish);
        let men_stuck = spec.men.moves.is_empty()
            && spec.men.captures.is_empty()
            && spec.men.linear_moves.is_empty()
            && spec.men.friendly_jumps.is_empty();
        if !reaches && !men_stuck {
            diags.push(Diagnostic::warning(
                Code::W0305,
                Some("men"),
                "men never move forward, so they can never be crowned",
            ));
        }
        if spec.men.friendly_jumps.is_empty()
            && (spec.men.friendly_jump_chain || spec.men.friendly_jump_over == JumpOver::Any)
        {
            diags.push(Diagnostic::warning(
                Code::W0306,
                Some("men.friendly_jumps"),
                "friendly_jump_over / friendly_jump_chain are set but men.friendly_jumps is empty",
            ));
        }
        if spec.capture.removal == Removal::EndOfMove && !spec.capture.no_reversal {
            // Harmless: reversal is impossible anyway when jumped pieces block.
        }
        if !spec.capture.mandatory && spec.capture.majority != Majority::None {
            diags.push(Diagnostic::warning(
                Code::W0601,
                Some("capture.mandatory"),
                "the majority rule has little meaning when capturing is optional",
            ));
        }
        if spec.kings.landing_must_continue && spec.kings.landing == Landing::AdjacentBeyond {
            diags.push(Diagnostic::warning(
                Code::W0404,
                Some("kings.landing_must_continue"),
                "landing_must_continue has no effect with landing = \"adjacent_beyond\": there is only one landing square",
            ));
        }
        if spec.kings.capture_range == CaptureRange::Short && spec.kings.landing == Landing::AnyBeyond {
            diags.push(Diagnostic::warning(
                Code::W0403,
                Some("kings.landing"),
                "with short king captures, landing = \"any_beyond\" still lets the king land anywhere beyond; use \"adjacent_beyond\" for a plain short leap",
            ));
        }

        // Setup. Its squares mean nothing on a board of an unsupported size.
        let mut placed: Vec<(u64, &str)> = Vec::new();
        let mut parse_list = |list: &[String], key: &'static str, diags: &mut Vec<Diagnostic>| -> u64 {
            let mut bb = 0u64;
            if !size_ok {
                return bb;
            }
            for (i, item) in list.iter().enumerate() {
                let k = format!("{key}[{i}]");
                let item_shown = clip(item);
                match parse_square_set(item, width, height, board, numeric, &numbers) {
                    Ok(set) => {
                        if set == 0 {
                            diags.push(Diagnostic::warning(
                                Code::W0707,
                                Some(&k),
                                format!("the range `{item_shown}` holds no playable square"),
                            ));
                        }
                        if set & bb != 0 {
                            diags.push(Diagnostic::error(
                                Code::E0703,
                                Some(&k),
                                format!(
                                    "`{item_shown}` repeats squares already listed for this side: {}",
                                    names(set & bb, numeric, &numbers)
                                ),
                            ));
                        }
                        for (other, okey) in &placed {
                            if set & other != 0 {
                                diags.push(Diagnostic::error(
                                    Code::E0703,
                                    Some(&k),
                                    format!(
                                        "`{item_shown}` puts a piece on {} which `{okey}` already uses",
                                        names(set & other, numeric, &numbers)
                                    ),
                                ));
                            }
                        }
                        bb |= set;
                    }
                    Err(SquareError::NotPlayable(msg)) => diags.push(Diagnostic::error(Code::E0702, Some(&k), msg)),
                    Err(SquareError::Invalid(msg)) => diags.push(Diagnostic::error(Code::E0701, Some(&k), msg)),
                }
            }
            placed.push((bb, key));
            bb
        };
        let white_men = parse_list(&spec.setup.white, "setup.white", &mut diags);
        let black_men = parse_list(&spec.setup.black, "setup.black", &mut diags);
        let white_kings = parse_list(&spec.setup.white_kings, "setup.white_kings", &mut diags);
        let black_kings = parse_list(&spec.setup.black_kings, "setup.black_kings", &mut diags);
        let setup_clean = size_ok && !diags.iter().any(|d| d.code.is_setup_error());
        // The first item of a list that puts a piece on `mask`, so a finding points at it.
        let item_key = |list: &[String], key: &str, mask: u64| -> String {
            list.iter()
                .position(|item| {
                    parse_square_set(item, width, height, board, numeric, &numbers).is_ok_and(|set| set & mask != 0)
                })
                .map_or_else(|| key.to_string(), |i| format!("{key}[{i}]"))
        };
        for (c, men, kings, prom, key, list) in [
            (
                Color::White,
                white_men,
                white_kings,
                white_prom,
                "setup.white",
                &spec.setup.white,
            ),
            (
                Color::Black,
                black_men,
                black_kings,
                black_prom,
                "setup.black",
                &spec.setup.black,
            ),
        ] {
            if !setup_clean {
                break;
            }
            if men | kings == 0 {
                let listed = if c == Color::White {
                    spec.setup.white.len() + spec.setup.white_kings.len()
                } else {
                    spec.setup.black.len() + spec.setup.black_kings.len()
                };
                let msg = if listed == 0 {
                    format!("{c} has no pieces in the initial position")
                } else {
                    format!("{c} has no pieces in the initial position: the squares listed are not playable")
                };
                err(&mut diags, Code::E0704, key, msg);
            }
            if men & prom != 0 {
                err(
                    &mut diags,
                    Code::E0705,
                    &item_key(list, key, men & prom),
                    format!(
                        "{c} men on {} stand on their own promotion rank",
                        names(men & prom, numeric, &numbers)
                    ),
                );
            }
            // Men beyond their promotion rank that can never come back to it.
            let beyond = men & !prom & beyond_rank(c, prom_rank, height, board);
            let backward = [RelDir::B, RelDir::BL, RelDir::BR];
            let goes_back = men_use_any(spec, &backward);
            if beyond != 0 && !goes_back {
                diags.push(Diagnostic::warning(
                    Code::W0502,
                    Some(&item_key(list, key, beyond)),
                    format!(
                        "{c} men on {} stand beyond their promotion rank and can never be crowned",
                        names(beyond, numeric, &numbers)
                    ),
                ));
            }
        }
        for (plies, key) in [
            (spec.end.no_capture_draw_plies, "end.no_capture_draw_plies"),
            (spec.end.kings_only_draw_plies, "end.kings_only_draw_plies"),
        ] {
            if plies == 1 {
                diags.push(Diagnostic::warning(
                    Code::W0801,
                    Some(key),
                    "a limit of 1 ply draws every game after its first move",
                ));
            }
        }
        let (nc, ko) = (spec.end.no_capture_draw_plies, spec.end.kings_only_draw_plies);
        if nc != 0 && ko != 0 && ko >= nc {
            diags.push(Diagnostic::warning(
                Code::W0802,
                Some("end.kings_only_draw_plies"),
                format!("a kings-only limit of {ko} plies never applies: {nc} plies without a capture draw first"),
            ));
        }
        if diags.iter().any(Diagnostic::is_error) {
            return Err(diags);
        }
        let start = Position::from_parts(
            white_men | white_kings,
            black_men | black_kings,
            white_kings | black_kings,
            spec.setup.first.into(),
        );
        let rules = Rules {
            spec: spec.clone(),
            width,
            height,
            board,
            sides,
            tables: Tables::new(
                &step,
                [sides[0].king_moves, sides[1].king_moves],
                [sides[0].king_captures, sides[1].king_captures],
                DirSet(sides.iter().fold(0u8, |acc, s| {
                    acc | s.man_steps.0
                        | s.man_captures.0
                        | s.man_friendly_jumps.0
                        | s.man_linear.0
                        | s.king_moves.0
                        | s.king_captures.0
                })),
            ),
            step,
            king_range,
            king_capture_flying: spec.kings.capture_range == CaptureRange::Flying,
            landing_any: spec.kings.landing == Landing::AnyBeyond,
            landing_must_continue: spec.kings.landing_must_continue && spec.kings.landing == Landing::AnyBeyond,
            mandatory: spec.capture.mandatory,
            majority: spec.capture.majority,
            removal: spec.capture.removal,
            no_reversal: spec.capture.no_reversal,
            promote_mid_capture: spec.capture.promote_mid_capture,
            friendly_jump_over_kings: spec.men.friendly_jump_over == JumpOver::Any,
            friendly_jump_chain: spec.men.friendly_jump_chain,
            end: EndRules {
                no_legal_move: spec.end.no_legal_move,
                threefold_repetition: spec.end.threefold_repetition,
                lone_piece: spec.end.lone_piece,
                lone_piece_unless_capture: spec.end.lone_piece_unless_capture,
                king_vs_king: spec.end.king_vs_king,
                no_capture_draw_plies: spec.end.no_capture_draw_plies,
                kings_only_draw_plies: spec.end.kings_only_draw_plies,
            },
            start,
            numeric,
            numbers,
        };
        if rules.legal_moves(&start).is_empty() {
            let c = Color::from(spec.setup.first);
            diags.push(Diagnostic::warning(
                Code::W0706,
                Some("setup.first"),
                format!("{c} moves first but has no legal move in the initial position: the game is over at once"),
            ));
        }
        Ok((rules, diags))
    }

    /// The raw spec this was compiled from.
    pub fn spec(&self) -> &VariantSpec {
        &self.spec
    }
    /// The variant id.
    pub fn id(&self) -> &str {
        &self.spec.id
    }
    /// The variant's human name.
    pub fn name(&self) -> &str {
        &self.spec.name
    }
    /// Number of files.
    pub fn width(&self) -> u8 {
        self.width
    }
    /// Number of ranks.
    pub fn height(&self) -> u8 {
        self.height
    }
    /// The playable squares.
    #[inline]
    pub fn board(&self) -> u64 {
        self.board
    }
    /// Per-side tables.
    #[inline]
    pub fn side(&self, c: Color) -> &SideRules {
        &self.sides[c.index()]
    }
    /// The move generator's precomputed shift and ray tables.
    #[inline]
    pub fn tables(&self) -> &Tables {
        &self.tables
    }
    /// The neighbour of `sq` in `d`, or [`OFF`].
    #[inline]
    pub fn step(&self, sq: u8, d: AbsDir) -> u8 {
        self.step[d.index()][sq as usize]
    }
    /// Shifts a bitboard one step, staying on playable squares.
    #[inline]
    pub fn shift(&self, bb: u64, d: AbsDir) -> u64 {
        shift(bb, d) & self.board
    }
    /// Maximum squares a king moves (8 = flying).
    #[inline]
    pub fn king_range(&self) -> u8 {
        self.king_range
    }
    /// Whether kings capture from a distance.
    #[inline]
    pub fn king_capture_flying(&self) -> bool {
        self.king_capture_flying
    }
    /// Whether a king may land on any empty square beyond.
    #[inline]
    pub fn landing_any(&self) -> bool {
        self.landing_any
    }
    /// Whether a king must land where its capture can go on (see
    /// [`crate::spec::KingsSpec::landing_must_continue`]).
    #[inline]
    pub fn landing_must_continue(&self) -> bool {
        self.landing_must_continue
    }
    /// Whether capturing is mandatory.
    #[inline]
    pub fn mandatory(&self) -> bool {
        self.mandatory
    }
    /// The majority rule.
    #[inline]
    pub fn majority(&self) -> Majority {
        self.majority
    }
    /// Removal timing.
    #[inline]
    pub fn removal(&self) -> Removal {
        self.removal
    }
    /// The no-180° rule.
    #[inline]
    pub fn no_reversal(&self) -> bool {
        self.no_reversal
    }
    /// Promotion during a capture.
    #[inline]
    pub fn promote_mid_capture(&self) -> MidCapturePromotion {
        self.promote_mid_capture
    }
    /// Whether friendly jumps may pass over kings.
    #[inline]
    pub fn friendly_jump_over_kings(&self) -> bool {
        self.friendly_jump_over_kings
    }
    /// Whether friendly jumps chain.
    #[inline]
    pub fn friendly_jump_chain(&self) -> bool {
        self.friendly_jump_chain
    }
    /// End-of-game rules.
    pub fn end(&self) -> &EndRules {
        &self.end
    }
    /// The initial position.
    pub fn start_position(&self) -> Position {
        self.start
    }

    /// The name of a square in this variant's notation.
    pub fn square_name(&self, sq: Square) -> String {
        if self.numeric {
            match self.numbers.iter().position(|&i| i == sq.index()) {
                Some(n) => (n + 1).to_string(),
                None => sq.to_string(),
            }
        } else {
            sq.to_string()
        }
    }

    /// Parses a square name in this variant's notation; only playable squares are accepted.
    pub fn parse_square(&self, s: &str) -> Option<Square> {
        let sq = if self.numeric && s.bytes().all(|b| b.is_ascii_digit()) {
            let n: usize = s.parse().ok()?;
            Square::from_index(*self.numbers.get(n.checked_sub(1)?)?)?
        } else {
            let sq = Square::parse_algebraic(s)?;
            if sq.file() >= self.width || sq.rank() >= self.height {
                return None;
            }
            sq
        };
        (self.board & sq.bit() != 0).then_some(sq)
    }

    /// Whether squares are written as numbers.
    pub fn numeric_notation(&self) -> bool {
        self.numeric
    }
}

/// The absolute direction of `r` for side `c` (Black's view is White's turned 180°).
pub fn absolute(r: RelDir, c: Color) -> AbsDir {
    let d = match r {
        RelDir::F => AbsDir::N,
        RelDir::B => AbsDir::S,
        RelDir::L => AbsDir::W,
        RelDir::R => AbsDir::E,
        RelDir::FL => AbsDir::NW,
        RelDir::FR => AbsDir::NE,
        RelDir::BL => AbsDir::SW,
        RelDir::BR => AbsDir::SE,
    };
    match c {
        Color::White => d,
        Color::Black => d.opposite(),
    }
}

fn names(bb: u64, numeric: bool, numbers: &[u8]) -> String {
    Squares(bb)
        .map(|s| {
            if numeric {
                numbers
                    .iter()
                    .position(|&i| i == s.index())
                    .map_or(s.to_string(), |n| (n + 1).to_string())
            } else {
                s.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why a setup item was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SquareError {
    /// Not a square name or number, or off the board.
    Invalid(String),
    /// A square of the board that is not played on.
    NotPlayable(String),
}

/// The squares beyond `c`'s promotion rank (farther from `c`'s side).
fn beyond_rank(c: Color, prom_rank: u8, height: u8, board: u64) -> u64 {
    let mut bb = 0u64;
    for r in 0..height {
        let beyond = match c {
            Color::White => r >= prom_rank,
            Color::Black => r + prom_rank < height,
        };
        if beyond {
            bb |= 0xFFu64 << (r as u32 * 8);
        }
    }
    bb & board
}

/// Parses a setup item: a square (`d4`, or `12` on numeric boards) or a
/// range (`a2-h3`: the rectangle with these corners; `1-12` on numeric
/// boards: the squares numbered 1 to 12). Ranges take only the playable
/// squares; a single square must be playable.
pub fn parse_square_set(
    item: &str,
    width: u8,
    height: u8,
    board: u64,
    numeric: bool,
    numbers: &[u8],
) -> Result<u64, SquareError> {
    let is_number = |t: &str| numeric && !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let one = |s: &str| -> Result<Square, SquareError> {
        let s = s.trim();
        let name = clip(s);
        if is_number(s) {
            return s
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| numbers.get(i))
                .and_then(|&i| Square::from_index(i))
                .ok_or_else(|| {
                    SquareError::Invalid(format!(
                        "square {name} is not on the board (squares are numbered 1 to {})",
                        numbers.len()
                    ))
                });
        }
        let mut chars = s.chars();
        let first = chars.next();
        let rest = chars.as_str();
        let last_file = (b'a' + width.saturating_sub(1)) as char;
        match first {
            Some(c) if c.is_ascii_alphabetic() && !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) => {
                let file = u32::from(c.to_ascii_lowercase() as u8 - b'a');
                let rank: u32 = rest.parse().unwrap_or(u32::MAX);
                if rank == 0 {
                    return Err(SquareError::Invalid(format!(
                        "`{name}` is not a square: ranks are numbered from 1"
                    )));
                }
                if file >= u32::from(width) || rank > u32::from(height) {
                    return Err(SquareError::Invalid(format!(
                        "square {name} is off the {width}×{height} board (files a to {last_file}, ranks 1 to {height})"
                    )));
                }
                Square::new(file as u8, (rank - 1) as u8)
                    .ok_or_else(|| SquareError::Invalid(format!("square {name} is off the board")))
            }
            _ => Err(SquareError::Invalid(format!(
                "`{name}` is not a square name (expected a file letter and a rank number, such as d4{})",
                if numeric { ", or a square number" } else { "" }
            ))),
        }
    };
    match item.split_once('-') {
        Some((a, b)) => {
            let (sa, sb) = (one(a)?, one(b)?);
            match (is_number(a.trim()), is_number(b.trim())) {
                (true, true) => {
                    let na = numbers.iter().position(|&i| i == sa.index()).unwrap_or(0);
                    let nb = numbers.iter().position(|&i| i == sb.index()).unwrap_or(0);
                    let (lo, hi) = (na.min(nb), na.max(nb));
                    Ok(numbers
                        .get(lo..=hi)
                        .unwrap_or(&[])
                        .iter()
                        .fold(0u64, |bb, &i| bb | (1u64 << i)))
                }
                (false, false) => {
                    let (f0, f1) = (sa.file().min(sb.file()), sa.file().max(sb.file()));
                    let (r0, r1) = (sa.rank().min(sb.rank()), sa.rank().max(sb.rank()));
                    let mut bb = 0u64;
                    for r in r0..=r1 {
                        for f in f0..=f1 {
                            bb |= 1u64 << (r * 8 + f);
                        }
                    }
                    Ok(bb & board)
                }
                _ => Err(SquareError::Invalid(format!(
                    "`{}` mixes a square number and a square name; write `1-12` or `a1-h3`",
                    clip(item)
                ))),
            }
        }
        None => {
            let sq = one(item)?;
            if board & sq.bit() == 0 {
                return Err(SquareError::NotPlayable(format!(
                    "square {} is not played on in this variant (board.squares)",
                    clip(item.trim())
                )));
            }
            Ok(sq.bit())
        }
    }
}

/// Whether any of the men's step, capture, linear or friendly-jump directions is in `dirs`.
fn men_use_any(spec: &VariantSpec, dirs: &[RelDir]) -> bool {
    let m = &spec.men;
    m.moves
        .iter()
        .chain(&m.captures)
        .chain(&m.linear_moves)
        .chain(&m.friendly_jumps)
        .any(|d| dirs.contains(d))
}
