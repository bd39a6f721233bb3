//! The raw variant description: plain serde structs that mirror the TOML file.
//!
//! Nothing here is validated beyond its type: a `VariantSpec` may describe an
//! impossible game. [`crate::Rules::compile`] turns it into checked rules.
//! Every struct denies unknown fields, so a misspelled key is an error.

use serde::{Deserialize, Serialize};
use strum::{Display, EnumString, IntoStaticStr, VariantNames};

/// A whole variant file after inheritance has been resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantSpec {
    /// The parent this file was derived from, kept for the record only:
    /// the loader has already merged the parent's tables in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extends: Option<String>,
    /// Short identifier used on the command line (`dama`, `armenian`, ...).
    pub id: String,
    /// Human name.
    pub name: String,
    /// Other names accepted on the command line.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// One paragraph describing the game.
    #[serde(default)]
    pub description: String,
    /// Citations for the rules this file follows.
    #[serde(default)]
    pub sources: Vec<String>,
    /// Board size and square naming.
    pub board: BoardSpec,
    /// The initial position.
    pub setup: SetupSpec,
    /// How men move and capture.
    pub men: MenSpec,
    /// How kings move and capture.
    pub kings: KingsSpec,
    /// Capture rules.
    pub capture: CaptureSpec,
    /// Where men are crowned.
    pub promotion: PromotionSpec,
    /// How a game ends.
    pub end: EndSpec,
    /// Game-record settings.
    #[serde(default)]
    pub pdn: PdnSpec,
}

/// `[board]`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardSpec {
    /// Number of files (columns), 1 to 16.
    pub width: u32,
    /// Number of ranks (rows), 1 to 16.
    pub height: u32,
    /// Which squares are part of the game.
    #[serde(default)]
    pub squares: SquareSet,
    /// The colour of a1, the corner at White's left: with `squares =
    /// "dark"` the squares of a1's colour are played on when it is dark,
    /// the others when it is light (Italian and Spanish boards).
    #[serde(default, skip_serializing_if = "SquareColor::is_dark")]
    pub lower_left: SquareColor,
    /// How squares are named in notation.
    #[serde(default)]
    pub notation: SquareNotation,
    /// Whether the board is drawn checkered. Cosmetic only: which squares
    /// are played on is `squares`. Turkish boards are plain; Croda and
    /// Dameo are played on a checkered board with every square in use.
    #[serde(default)]
    pub checkered: bool,
}

/// Which squares of the board are played on.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, Display, EnumString, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum SquareSet {
    /// Every square (the orthogonal family).
    #[default]
    All,
    /// Only the dark squares (the diagonal family); a1 is dark unless
    /// `lower_left = "light"`.
    Dark,
}

/// The colour of a square.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, Display, EnumString, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum SquareColor {
    /// Dark (a1 in international, Russian and English draughts).
    #[default]
    Dark,
    /// Light (a1 in Italian and Spanish draughts: the dark corner is at White's right).
    Light,
}

impl SquareColor {
    /// Whether this is the default, dark (for `skip_serializing_if`).
    pub fn is_dark(&self) -> bool {
        *self == SquareColor::Dark
    }
}

/// How squares are written.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, Display, EnumString, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum SquareNotation {
    /// `a1` .. `h8`, a1 bottom left from White's side.
    #[default]
    Algebraic,
    /// Playable squares numbered 1.. row by row from the top, each row
    /// left to right, as seen by White: the PDN numeric convention. With
    /// dark squares on 8×8, 1 is b8, 4 is h8, 29 is a1 and 32 is g1.
    Numeric,
}

/// `[setup]`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupSpec {
    /// White's men: squares (`"a2"`) or rectangles (`"a2-h3"`).
    pub white: Vec<String>,
    /// Black's men, in the same form.
    pub black: Vec<String>,
    /// White's kings at the start (rare; empty by default).
    #[serde(default)]
    pub white_kings: Vec<String>,
    /// Black's kings at the start.
    #[serde(default)]
    pub black_kings: Vec<String>,
    /// Which side moves first.
    pub first: Side,
}

/// A side, as written in variant files.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Display, EnumString, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Side {
    /// White, at the bottom, moving up the board.
    White,
    /// Black, at the top, moving down.
    Black,
}

/// A direction relative to the moving side.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    Display,
    EnumString,
    IntoStaticStr,
    VariantNames,
)]
pub enum RelDir {
    /// Forward, towards the opponent.
    F,
    /// Backward.
    B,
    /// Left, seen from the mover's side.
    L,
    /// Right.
    R,
    /// Forward-left diagonal.
    FL,
    /// Forward-right diagonal.
    FR,
    /// Backward-left diagonal.
    BL,
    /// Backward-right diagonal.
    BR,
}

impl RelDir {
    /// All eight directions.
    pub const ALL: [RelDir; 8] = [
        RelDir::F,
        RelDir::B,
        RelDir::L,
        RelDir::R,
        RelDir::FL,
        RelDir::FR,
        RelDir::BL,
        RelDir::BR,
    ];

    /// The direction a word or words written out mean (`FORWARD`,
    /// `backward`, `Forward-Left`, `LEFT_FORWARD`, `forwardright`), for a
    /// did-you-mean: the abbreviations themselves are what a file states.
    pub(crate) fn from_words(text: &str) -> Option<RelDir> {
        const WORDS: &[(&str, char)] = &[
            ("forwards", 'F'),
            ("forward", 'F'),
            ("front", 'F'),
            ("ahead", 'F'),
            ("fwd", 'F'),
            ("backwards", 'B'),
            ("backward", 'B'),
            ("back", 'B'),
            ("bwd", 'B'),
            ("left", 'L'),
            ("right", 'R'),
            ("diagonally", ' '),
            ("diagonal", ' '),
            ("diag", ' '),
            ("and", ' '),
        ];
        let mut rest: String = text
            .chars()
            .filter(|c| !matches!(c, '_' | '-' | ' ' | '.'))
            .collect::<String>()
            .to_ascii_lowercase();
        let (mut ahead, mut side) = (None, None);
        while !rest.is_empty() {
            let &(w, d) = WORDS.iter().find(|(w, _)| rest.starts_with(w))?;
            let slot = match d {
                'F' | 'B' => &mut ahead,
                'L' | 'R' => &mut side,
                _ => {
                    rest.drain(..w.len());
                    continue;
                }
            };
            if slot.is_some_and(|s| s != d) {
                return None; // forward and backward, left and right
            }
            *slot = Some(d);
            rest.drain(..w.len());
        }
        Some(match (ahead, side) {
            (Some('F'), None) => RelDir::F,
            (Some('B'), None) => RelDir::B,
            (None, Some('L')) => RelDir::L,
            (None, Some('R')) => RelDir::R,
            (Some('F'), Some('L')) => RelDir::FL,
            (Some('F'), Some('R')) => RelDir::FR,
            (Some('B'), Some('L')) => RelDir::BL,
            (Some('B'), Some('R')) => RelDir::BR,
            _ => return None,
        })
    }
}

/// `[men]`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MenSpec {
    /// Directions of a one-square step onto an empty square.
    pub moves: Vec<RelDir>,
    /// Directions of a short capture (jump an adjacent enemy, land right beyond).
    pub captures: Vec<RelDir>,
    /// Directions in which a man may jump over an adjacent friendly piece
    /// onto the empty square beyond, without capturing (Keny).
    #[serde(default)]
    pub friendly_jumps: Vec<RelDir>,
    /// What a friendly jump may pass over.
    #[serde(default)]
    pub friendly_jump_over: JumpOver,
    /// Whether friendly jumps may be chained in one move.
    #[serde(default)]
    pub friendly_jump_chain: bool,
    /// Directions of linear moves (Dameo): a man leaps over the unbroken
    /// line of friendly men ahead of it onto the empty square beyond.
    #[serde(default)]
    pub linear_moves: Vec<RelDir>,
    /// Whether a man may capture a king (Italian: no, men take only men).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub capture_kings: bool,
}

/// What a friendly jump may pass over.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, Display, EnumString, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum JumpOver {
    /// Only friendly men.
    #[default]
    Men,
    /// Any friendly piece, men or kings.
    Any,
}

/// `[kings]`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KingsSpec {
    /// Directions a king moves in without capturing.
    pub moves: Vec<RelDir>,
    /// How far a king moves: `"flying"` (any number of empty squares) or `1`.
    pub move_range: Range,
    /// Directions a king captures in.
    pub captures: Vec<RelDir>,
    /// `"flying"` (from any distance along an empty line) or `"short"`
    /// (only an adjacent enemy).
    pub capture_range: CaptureRange,
    /// Where a king lands after jumping: any empty square beyond the
    /// captured piece, or only the one immediately beyond.
    pub landing: Landing,
    /// With `landing = "any_beyond"`: when the capture can go on from some
    /// of the squares beyond the captured piece, the king must land on one
    /// of those and go on. Off, a king may stop on any square beyond. The
    /// majority rule implies it.
    #[serde(default)]
    pub landing_must_continue: bool,
    /// A king whose capture ends with the taking of a king lands on the
    /// square right behind that king (killer draughts).
    #[serde(default, skip_serializing_if = "is_false")]
    pub halt_behind_king: bool,
    /// While its side still has men, the same king may make at most this
    /// many non-capturing moves in a row (Frisian: 3); `0`, no limit. A
    /// capture, or a move by another piece of the side, starts the count
    /// again. Not serialized when 0, so that the fingerprint
    /// ([`Rules::fingerprint`](crate::Rules::fingerprint)) of a variant
    /// without the limit, which saved games record, is what it was.
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub max_consecutive_moves: u8,
}

/// A king's move range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Range {
    /// Any number of empty squares.
    Flying,
    /// At most this many squares (at least 1).
    Squares(u32),
}

impl Serialize for Range {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Range::Flying => s.serialize_str("flying"),
            Range::Squares(n) => s.serialize_u32(*n),
        }
    }
}

impl<'de> Deserialize<'de> for Range {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Range;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("\"flying\" or a number of squares such as 1")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Range, E> {
                if v == "flying" {
                    Ok(Range::Flying)
                } else {
                    Err(E::unknown_variant(v, &["flying"]))
                }
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Range, E> {
                u32::try_from(v)
                    .map(Range::Squares)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Range, E> {
                u32::try_from(v)
                    .map(Range::Squares)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
            }
        }
        d.deserialize_any(V)
    }
}

/// How far away a king may capture.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Display, EnumString, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum CaptureRange {
    /// From any distance along an empty line.
    Flying,
    /// Only an adjacent enemy piece.
    Short,
}

/// Where a king lands after a jump.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Display, EnumString, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Landing {
    /// Any empty square beyond the captured piece, up to the next piece or the edge.
    AnyBeyond,
    /// Only the square immediately beyond.
    AdjacentBeyond,
}

/// `[capture]`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaptureSpec {
    /// Whether a player who can capture must capture.
    pub mandatory: bool,
    /// Which capture sequences are allowed when several exist.
    pub majority: Majority,
    /// When captured pieces leave the board.
    pub removal: Removal,
    /// Whether a piece may turn 180° between two jumps of one move.
    pub no_reversal: bool,
    /// What happens to a man that reaches its promotion rank mid-capture.
    pub promote_mid_capture: MidCapturePromotion,
    /// The value of a man for `majority = "max_value"`.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub man_value: u32,
    /// The value of a king for `majority = "max_value"`.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub king_value: u32,
    /// Tie-breakers between the captures the majority rule leaves, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub priority: Vec<Preference>,
}

// The keys of issue 14 are not written at their defaults, so that the
// fingerprint of a variant that does not use them (which saved games
// record, see `Rules::fingerprint`) is what it was before they existed.

fn one() -> u32 {
    1
}

fn is_one(v: &u32) -> bool {
    *v == 1
}

fn is_true(v: &bool) -> bool {
    *v
}

fn is_false(v: &bool) -> bool {
    !*v
}

/// The majority rule.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Display, EnumString, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Majority {
    /// Any complete capture sequence may be chosen.
    None,
    /// Only sequences capturing the most pieces (kings and men count 1 each).
    MaxPieces,
    /// Only sequences whose captured pieces have the highest total value
    /// (`man_value` per man, `king_value` per king).
    MaxValue,
}

/// A tie-breaker between captures (`capture.priority`): among the captures
/// the majority rule allows, only those best by the first preference stay,
/// then by the second, and so on.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Display, EnumString, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Preference {
    /// A capture by a king before a capture by a man.
    ByKing,
    /// The capture that takes the most kings.
    MostKings,
    /// The capture that takes a king earliest (compared jump by jump: the
    /// first jump that takes a king in one sequence and not in the other decides).
    KingsFirst,
}

/// When captured pieces are removed.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Display, EnumString, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Removal {
    /// Each captured piece leaves the board at once.
    Immediate,
    /// Captured pieces stay (and block) until the move ends; none can be jumped twice.
    EndOfMove,
}

/// Promotion of a man that reaches its promotion rank during a capture.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Display, EnumString, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum MidCapturePromotion {
    /// Go on capturing as a man; crowned only if the move ends on the rank.
    ContinueAsMan,
    /// Crowned at once; go on capturing as a king, whose first king jump
    /// keeps the no-reversal rule (it may not turn straight back).
    PromoteAndContinue,
    /// Crowned at once; go on capturing as a king, whose first king jump
    /// may go in any direction, straight back included (Ludii's "S2r").
    PromoteAndContinueAnyDirection,
    /// Crowned at once; the move ends there.
    Stop,
}

/// `[promotion]`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromotionSpec {
    /// The rank, counted from the mover's own side (1 = own back rank),
    /// on which men are crowned; `"last"` is the far edge.
    pub rank: PromotionRank,
}

/// A promotion rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromotionRank {
    /// The farthest rank.
    Last,
    /// The n-th rank counted from the mover's side.
    Nth(u32),
}

impl Serialize for PromotionRank {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            PromotionRank::Last => s.serialize_str("last"),
            PromotionRank::Nth(n) => s.serialize_u32(*n),
        }
    }
}

impl<'de> Deserialize<'de> for PromotionRank {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = PromotionRank;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("\"last\" or a rank number counted from the mover's side")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<PromotionRank, E> {
                if v == "last" {
                    Ok(PromotionRank::Last)
                } else {
                    Err(E::unknown_variant(v, &["last"]))
                }
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<PromotionRank, E> {
                u32::try_from(v)
                    .map(PromotionRank::Nth)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<PromotionRank, E> {
                u32::try_from(v)
                    .map(PromotionRank::Nth)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
            }
        }
        d.deserialize_any(V)
    }
}

/// `[end]`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndSpec {
    /// The result for the side to move when it has no legal move.
    pub no_legal_move: NoMoveResult,
    /// Whether the third occurrence of a position (same side to move) is a draw.
    pub threefold_repetition: bool,
    /// One piece each.
    pub lone_piece: LonePiece,
    /// Adjudicate the lone-piece rule only when the side to move cannot capture.
    #[serde(default = "yes")]
    pub lone_piece_unless_capture: bool,
    /// Only kings left, one each.
    pub king_vs_king: KingVsKing,
    /// Draw after this many plies in a row without a capture (0 = off).
    pub no_capture_draw_plies: u32,
    /// Draw after this many plies in a row with only kings moving and no capture (0 = off).
    #[serde(default)]
    pub kings_only_draw_plies: u32,
    /// What crowning a king does to the game (breakthrough: the first to crown wins).
    #[serde(default, skip_serializing_if = "CrowningEnd::is_none")]
    pub crowning: CrowningEnd,
    /// Draws by the material on the board: each rule names material
    /// patterns (`"KKK v K"`) and the plies after which that material draws.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub material_draw: Vec<MaterialDrawSpec>,
}

/// `[[end.material_draw]]`: a draw once one of the patterns has stood on
/// the board for `plies` plies (counted since the last capture or promotion,
/// that is since that material arose).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaterialDrawSpec {
    /// Material patterns, either side: `"KKK v K"`, `"KM v K"` (`K` a king, `M` a man).
    pub material: Vec<String>,
    /// Plies after which the game is drawn (16 moves each = 32 plies; 0 = at once).
    pub plies: u32,
}

/// What crowning a king does to the game.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, Display, EnumString, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum CrowningEnd {
    /// Nothing special: the game goes on.
    #[default]
    None,
    /// The first side to crown a king wins (breakthrough).
    Wins,
}

impl CrowningEnd {
    /// Whether crowning ends nothing (the default, left out when written).
    pub fn is_none(&self) -> bool {
        *self == CrowningEnd::None
    }
}

fn yes() -> bool {
    true
}

/// Result for a side with no legal move.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Display, EnumString, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum NoMoveResult {
    /// The blocked side loses (every variant shipped).
    Loss,
    /// The blocked side wins (give-away games).
    Win,
    /// The game is drawn.
    Draw,
    /// A blocked side passes: the turn goes to the opponent. A side with no
    /// pieces loses; when neither side can move, the game is drawn.
    Pass,
}

/// The lone-piece rule.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Display, EnumString, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum LonePiece {
    /// A lone king against a lone man wins for the king's side.
    KingBeatsLoneMan,
    /// One piece against one piece, whatever they are, is a draw.
    OneEachDraw,
    /// No special rule.
    None,
}

/// King against king.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Display, EnumString, IntoStaticStr, VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum KingVsKing {
    /// One king each (nothing else) is a draw.
    Draw,
    /// No special rule.
    None,
}

/// `[pdn]`
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PdnSpec {
    /// The PDN GameType number, where one is assigned (30 for Turkish
    /// draughts); 0 means none is assigned, and no GameType tag is written.
    #[serde(default)]
    pub game_type: u32,
}

impl From<Side> for crate::board::Color {
    fn from(s: Side) -> crate::board::Color {
        match s {
            Side::White => crate::board::Color::White,
            Side::Black => crate::board::Color::Black,
        }
    }
}

/// Whether a count is 0 (for `skip_serializing_if`).
fn is_zero_u8(n: &u8) -> bool {
    *n == 0
}
