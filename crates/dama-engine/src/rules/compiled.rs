//! The compiled rules of a variant: the spec it came from and its groups.

use crate::board::{AbsDir, Bitboard, Color, Position, Square};
use crate::rules::{CaptureRules, EndRules, Geometry, KingRules, MenRules, SideRules};
use crate::spec::VariantSpec;

/// A variant ready to play: validated, with precomputed tables, grouped as
/// the generator reads it.
///
/// ```
/// let rules = dama_engine::Rules::builtin("dama").unwrap();
/// let start = rules.start_position();
/// assert_eq!(rules.legal_moves(&start).len(), 8);
/// assert!(rules.kings().range == dama_engine::sections::KingRange::Flying);
/// ```
#[derive(Debug, Clone)]
pub struct Rules {
    pub(crate) spec: VariantSpec,
    pub(crate) geometry: Geometry,
    pub(crate) sides: [SideRules; 2],
    pub(crate) men: MenRules,
    pub(crate) kings: KingRules,
    pub(crate) capture: CaptureRules,
    pub(crate) end: EndRules,
    pub(crate) start: Position,
}

impl Rules {
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
    /// The board: size, playable squares, neighbours, square names.
    #[inline]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }
    /// Number of files.
    pub fn width(&self) -> u8 {
        self.geometry.width
    }
    /// Number of ranks.
    pub fn height(&self) -> u8 {
        self.geometry.height
    }
    /// The playable squares.
    #[inline]
    pub fn board(&self) -> Bitboard {
        self.geometry.board
    }
    /// The playable neighbour of `sq` in `d`.
    #[inline]
    pub fn step(&self, sq: Square, d: AbsDir) -> Option<Square> {
        self.geometry.step(sq, d)
    }
    /// One side's directions and promotion squares.
    #[inline]
    pub fn side(&self, c: Color) -> &SideRules {
        &self.sides[c.index()]
    }
    /// The men's friendly-jump rules.
    #[inline]
    pub fn men(&self) -> &MenRules {
        &self.men
    }
    /// The kings' powers.
    #[inline]
    pub fn kings(&self) -> &KingRules {
        &self.kings
    }
    /// The capture rules.
    #[inline]
    pub fn capture(&self) -> &CaptureRules {
        &self.capture
    }
    /// The end-of-game rules.
    #[inline]
    pub fn end(&self) -> &EndRules {
        &self.end
    }
    /// `pos` as a position of this variant: in one that limits a king's
    /// consecutive moves (`kings.max_consecutive_moves`) its moves then
    /// advance the king runs ([`Position::king_run`]); in any other, its
    /// runs are cleared. Positions from [`start_position`](Self::start_position)
    /// and [`parse_fen`](Self::parse_fen) are already so; a position built
    /// with [`Position::from_parts`] needs it before it is played on.
    pub fn track_runs(&self, pos: Position) -> Position {
        let mut p = pos;
        if self.kings.max_consecutive_moves == 0 {
            p.0.runs = crate::board::Runs::NONE;
        } else {
            p.0.runs.track = true;
        }
        p
    }
    /// The initial position.
    pub fn start_position(&self) -> Position {
        self.start
    }
    /// The name of a square in this variant's notation.
    pub fn square_name(&self, sq: Square) -> String {
        self.geometry.square_name(sq)
    }
    /// Parses a square name in this variant's notation; only playable squares are accepted.
    pub fn parse_square(&self, s: &str) -> Option<Square> {
        self.geometry.parse_square(s)
    }
    /// Whether squares are written as numbers.
    pub fn numeric_notation(&self) -> bool {
        self.geometry.numeric
    }

    /// A fingerprint of the rules: a 64-bit FNV-1a hash of the resolved
    /// spec (every key after `extends`, in a fixed order), so it changes
    /// when a rule, the setup or a name changes, and not when a comment or
    /// the layout of a file does. Written as 16 hex digits in game records,
    /// so that resuming a game can tell that its variant file changed.
    ///
    /// ```
    /// use dama_engine::load_text;
    /// let text = "extends = \"dama\"\nid = \"mine\"\nname = \"Mine\"\n";
    /// let a = load_text("a.toml", text, None).unwrap().rules;
    /// let b = load_text("b.toml", &format!("# the same rules\n{text}"), None).unwrap().rules;
    /// assert_eq!(a.fingerprint(), b.fingerprint());
    /// let c = load_text("c.toml", &format!("{text}[capture]\nmandatory = false\n"), None).unwrap().rules;
    /// assert_ne!(a.fingerprint(), c.fingerprint());
    /// ```
    pub fn fingerprint(&self) -> u64 {
        let text = serde_json::to_string(&self.spec).unwrap_or_default();
        text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
    }
}
