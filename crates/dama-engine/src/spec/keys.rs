//! The table of every key of the variant format, with types, defaults and
//! allowed values, for diagnostics and documentation.

use strum::VariantNames;

use crate::spec::format::*;

/// One key of the variant format, for diagnostics and documentation.
///
/// [`KEYS`] lists every key a variant file may contain. Serde stays the
/// judge of what is valid; this table only adds words (types, defaults,
/// allowed values) to its findings. A test checks that the two agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyInfo {
    /// Dotted path, such as `capture.majority`.
    pub path: &'static str,
    /// The value's type in words.
    pub ty: &'static str,
    /// The default, as TOML text; `None` when a root variant must state the key.
    pub default: Option<&'static str>,
    /// The allowed words, for keys that take one of a fixed set of strings.
    pub allowed: &'static [&'static str],
}

const fn key(path: &'static str, ty: &'static str, default: Option<&'static str>) -> KeyInfo {
    KeyInfo {
        path,
        ty,
        default,
        allowed: &[],
    }
}

const fn choice(path: &'static str, default: Option<&'static str>, allowed: &'static [&'static str]) -> KeyInfo {
    KeyInfo {
        path,
        ty: STRING,
        default,
        allowed,
    }
}

/// The `ty` of keys holding one word or text.
pub const STRING: &str = "a string";
/// The `ty` of sections.
pub const TABLE: &str = "a table";
/// The `ty` of on/off keys.
pub const BOOLEAN: &str = "true or false";
/// The `ty` of direction lists.
pub const DIRS: &str = "an array of directions";
/// The `ty` of arrays of tables (`[[end.material_draw]]`).
pub const ARRAY_OF_TABLES: &str = "an array of tables";
/// The `ty` of setup square lists.
pub const SQUARES: &str = "an array of squares or ranges";

/// Every key of the variant format, section by section.
pub const KEYS: &[KeyInfo] = &[
    key("extends", "a string: a variant id or a path", Some("none")),
    key("id", STRING, None),
    key("name", STRING, None),
    key("aliases", "an array of strings", Some("[]")),
    key("description", STRING, Some("\"\"")),
    key("sources", "an array of strings", Some("[]")),
    key("board", TABLE, None),
    key("board.width", "an integer from 1 to 16", None),
    key("board.height", "an integer from 1 to 16", None),
    choice("board.squares", Some("\"all\""), SquareSet::VARIANTS),
    choice("board.lower_left", Some("\"dark\""), SquareColor::VARIANTS),
    choice("board.notation", Some("\"algebraic\""), SquareNotation::VARIANTS),
    key("board.checkered", BOOLEAN, Some("false")),
    key("setup", TABLE, None),
    key("setup.white", SQUARES, None),
    key("setup.black", SQUARES, None),
    key("setup.white_kings", SQUARES, Some("[]")),
    key("setup.black_kings", SQUARES, Some("[]")),
    choice("setup.first", None, Side::VARIANTS),
    key("men", TABLE, None),
    KeyInfo {
        allowed: RelDir::VARIANTS,
        ..key("men.moves", DIRS, None)
    },
    KeyInfo {
        allowed: RelDir::VARIANTS,
        ..key("men.captures", DIRS, None)
    },
    KeyInfo {
        allowed: RelDir::VARIANTS,
        ..key("men.friendly_jumps", DIRS, Some("[]"))
    },
    choice("men.friendly_jump_over", Some("\"men\""), JumpOver::VARIANTS),
    key("men.friendly_jump_chain", BOOLEAN, Some("false")),
    KeyInfo {
        allowed: RelDir::VARIANTS,
        ..key("men.linear_moves", DIRS, Some("[]"))
    },
    key("men.capture_kings", BOOLEAN, Some("true")),
    key("kings", TABLE, None),
    KeyInfo {
        allowed: RelDir::VARIANTS,
        ..key("kings.moves", DIRS, None)
    },
    key("kings.move_range", "\"flying\" or an integer of at least 1", None),
    KeyInfo {
        allowed: RelDir::VARIANTS,
        ..key("kings.captures", DIRS, None)
    },
    choice("kings.capture_range", None, CaptureRange::VARIANTS),
    choice("kings.landing", None, Landing::VARIANTS),
    key("kings.landing_must_continue", BOOLEAN, Some("false")),
    key("kings.halt_behind_king", BOOLEAN, Some("false")),
    key(
        "kings.max_consecutive_moves",
        "an integer from 0 to 255 (0 = no limit)",
        Some("0"),
    ),
    key("capture", TABLE, None),
    key("capture.mandatory", BOOLEAN, None),
    choice("capture.majority", None, Majority::VARIANTS),
    choice("capture.removal", None, Removal::VARIANTS),
    key("capture.no_reversal", BOOLEAN, None),
    choice("capture.promote_mid_capture", None, MidCapturePromotion::VARIANTS),
    key("capture.man_value", "an integer from 1 to 10000", Some("1")),
    key("capture.king_value", "an integer from 1 to 10000", Some("1")),
    KeyInfo {
        allowed: Preference::VARIANTS,
        ..key("capture.priority", "an array of preferences", Some("[]"))
    },
    key("promotion", TABLE, None),
    key("promotion.rank", "\"last\" or an integer of at least 1", None),
    key("end", TABLE, None),
    choice("end.no_legal_move", None, NoMoveResult::VARIANTS),
    key("end.threefold_repetition", BOOLEAN, None),
    choice("end.lone_piece", None, LonePiece::VARIANTS),
    key("end.lone_piece_unless_capture", BOOLEAN, Some("true")),
    choice("end.king_vs_king", None, KingVsKing::VARIANTS),
    key("end.no_capture_draw_plies", "an integer (0 = off)", None),
    key("end.kings_only_draw_plies", "an integer (0 = off)", Some("0")),
    choice("end.crowning", Some("\"none\""), CrowningEnd::VARIANTS),
    key("end.material_draw", ARRAY_OF_TABLES, Some("[]")),
    key("end.material_draw.material", "an array of material patterns", None),
    key("end.material_draw.plies", "an integer (0 = at once)", None),
    key("pdn", TABLE, Some("{}")),
    key("pdn.game_type", "an integer (0 = none)", Some("0")),
];

/// The description of the key at `path` (`men.moves`, or `men.moves[2]` for an
/// element; `end.material_draw[1].plies` is `end.material_draw.plies`).
pub fn key_info(path: &str) -> Option<&'static KeyInfo> {
    let mut plain = String::with_capacity(path.len());
    let mut depth = 0usize;
    for c in path.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    KEYS.iter().find(|k| k.path == plain)
}
