//! The table of every key of the variant format, with types, defaults and
//! allowed values, for checking files, diagnostics and documentation.

use strum::VariantNames;

use crate::spec::format::*;

/// One key of the variant format, for checking, diagnostics and documentation.
///
/// [`KEYS`] lists every key a variant file may contain. The loader checks a
/// file against this table (unknown keys, types, allowed words, ranges,
/// missing keys) before serde builds the [`VariantSpec`] from it; a test
/// checks that the two agree.
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
    /// What the value must be, as serde reads it.
    pub(crate) kind: Kind,
    /// For a key a root variant must state: the value checking goes on with
    /// when the key is missing or wrong (Turkish draughts' rule, as TOML
    /// text), so that the rest of the file is still checked. Findings that
    /// depend on it are dropped, so it is never reported on.
    pub(crate) stand_in: Option<&'static str>,
}

/// What a key's value must be, in the terms serde reads it into a
/// [`VariantSpec`] field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A string (`String`).
    Text,
    /// An array of strings (`Vec<String>`).
    Texts,
    /// `true` or `false`.
    Bool,
    /// A whole number from 0 to this bound (`u32`, `u8`).
    Count(u64),
    /// One of the words of `allowed` (a unit enum).
    Word,
    /// An array of the words of `allowed` (`Vec` of a unit enum).
    Words,
    /// One of these words or a whole number up to `u32::MAX` ([`Range`], [`PromotionRank`]).
    WordOrCount(&'static [&'static str]),
    /// A table: a section of the file.
    Table,
    /// An array of tables whose keys are the ones below this key (`[[end.material_draw]]`).
    Tables,
}

const fn key(path: &'static str, ty: &'static str, kind: Kind, default: Option<&'static str>) -> KeyInfo {
    KeyInfo {
        path,
        ty,
        default,
        allowed: &[],
        kind,
        stand_in: None,
    }
}

/// A key a root variant must state, with its stand-in.
const fn needed(path: &'static str, ty: &'static str, kind: Kind, stand_in: &'static str) -> KeyInfo {
    KeyInfo {
        stand_in: Some(stand_in),
        ..key(path, ty, kind, None)
    }
}

const fn choice(path: &'static str, default: Option<&'static str>, allowed: &'static [&'static str]) -> KeyInfo {
    KeyInfo {
        allowed,
        ..key(path, STRING, Kind::Word, default)
    }
}

const fn needed_choice(path: &'static str, allowed: &'static [&'static str], stand_in: &'static str) -> KeyInfo {
    KeyInfo {
        stand_in: Some(stand_in),
        ..choice(path, None, allowed)
    }
}

const fn dirs(path: &'static str, default: Option<&'static str>, stand_in: Option<&'static str>) -> KeyInfo {
    KeyInfo {
        allowed: RelDir::VARIANTS,
        stand_in,
        ..key(path, DIRS, Kind::Words, default)
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

const U32: Kind = Kind::Count(u32::MAX as u64);
/// A section a root variant must state: its stand-in is made of its keys' own.
const SECTION: &str = "{}";

/// Every key of the variant format, section by section, in the order of
/// the fields of [`VariantSpec`] (the order missing keys are reported in).
pub const KEYS: &[KeyInfo] = &[
    key("extends", "a string: a variant id or a path", Kind::Text, Some("none")),
    needed("id", STRING, Kind::Text, "\"unnamed\""),
    needed("name", STRING, Kind::Text, "\"Unnamed\""),
    key("aliases", "an array of strings", Kind::Texts, Some("[]")),
    key("description", STRING, Kind::Text, Some("\"\"")),
    key("sources", "an array of strings", Kind::Texts, Some("[]")),
    needed("board", TABLE, Kind::Table, SECTION),
    needed("board.width", "an integer from 1 to 16", U32, "8"),
    needed("board.height", "an integer from 1 to 16", U32, "8"),
    choice("board.squares", Some("\"all\""), SquareSet::VARIANTS),
    choice("board.lower_left", Some("\"dark\""), SquareColor::VARIANTS),
    choice("board.notation", Some("\"algebraic\""), SquareNotation::VARIANTS),
    key("board.checkered", BOOLEAN, Kind::Bool, Some("false")),
    needed("setup", TABLE, Kind::Table, SECTION),
    needed("setup.white", SQUARES, Kind::Texts, "[\"a2-h3\"]"),
    needed("setup.black", SQUARES, Kind::Texts, "[\"a6-h7\"]"),
    key("setup.white_kings", SQUARES, Kind::Texts, Some("[]")),
    key("setup.black_kings", SQUARES, Kind::Texts, Some("[]")),
    needed_choice("setup.first", Side::VARIANTS, "\"white\""),
    needed("men", TABLE, Kind::Table, SECTION),
    dirs("men.moves", None, Some("[\"F\", \"L\", \"R\"]")),
    dirs("men.captures", None, Some("[\"F\", \"L\", \"R\"]")),
    dirs("men.friendly_jumps", Some("[]"), None),
    choice("men.friendly_jump_over", Some("\"men\""), JumpOver::VARIANTS),
    key("men.friendly_jump_chain", BOOLEAN, Kind::Bool, Some("false")),
    dirs("men.linear_moves", Some("[]"), None),
    key("men.capture_kings", BOOLEAN, Kind::Bool, Some("true")),
    needed("kings", TABLE, Kind::Table, SECTION),
    dirs("kings.moves", None, Some("[\"F\", \"B\", \"L\", \"R\"]")),
    needed(
        "kings.move_range",
        "\"flying\" or an integer of at least 1",
        Kind::WordOrCount(&["flying"]),
        "\"flying\"",
    ),
    dirs("kings.captures", None, Some("[\"F\", \"B\", \"L\", \"R\"]")),
    needed_choice("kings.capture_range", CaptureRange::VARIANTS, "\"flying\""),
    needed_choice("kings.landing", Landing::VARIANTS, "\"any_beyond\""),
    key("kings.landing_must_continue", BOOLEAN, Kind::Bool, Some("false")),
    key("kings.halt_behind_king", BOOLEAN, Kind::Bool, Some("false")),
    key(
        "kings.max_consecutive_moves",
        "an integer from 0 to 255 (0 = no limit)",
        Kind::Count(u8::MAX as u64),
        Some("0"),
    ),
    needed("capture", TABLE, Kind::Table, SECTION),
    needed("capture.mandatory", BOOLEAN, Kind::Bool, "true"),
    needed_choice("capture.majority", Majority::VARIANTS, "\"max_pieces\""),
    needed_choice("capture.removal", Removal::VARIANTS, "\"immediate\""),
    needed("capture.no_reversal", BOOLEAN, Kind::Bool, "true"),
    needed_choice(
        "capture.promote_mid_capture",
        MidCapturePromotion::VARIANTS,
        "\"continue_as_man\"",
    ),
    key("capture.man_value", "an integer from 1 to 10000", U32, Some("1")),
    key("capture.king_value", "an integer from 1 to 10000", U32, Some("1")),
    KeyInfo {
        allowed: Preference::VARIANTS,
        ..key("capture.priority", "an array of preferences", Kind::Words, Some("[]"))
    },
    needed("promotion", TABLE, Kind::Table, SECTION),
    needed(
        "promotion.rank",
        "\"last\" or an integer of at least 1",
        Kind::WordOrCount(&["last"]),
        "\"last\"",
    ),
    needed("end", TABLE, Kind::Table, SECTION),
    needed_choice("end.no_legal_move", NoMoveResult::VARIANTS, "\"loss\""),
    needed("end.threefold_repetition", BOOLEAN, Kind::Bool, "true"),
    needed_choice("end.lone_piece", LonePiece::VARIANTS, "\"king_beats_lone_man\""),
    key("end.lone_piece_unless_capture", BOOLEAN, Kind::Bool, Some("true")),
    needed_choice("end.king_vs_king", KingVsKing::VARIANTS, "\"none\""),
    needed("end.no_capture_draw_plies", "an integer (0 = off)", U32, "0"),
    key("end.kings_only_draw_plies", "an integer (0 = off)", U32, Some("0")),
    choice("end.crowning", Some("\"none\""), CrowningEnd::VARIANTS),
    key("end.material_draw", ARRAY_OF_TABLES, Kind::Tables, Some("[]")),
    needed(
        "end.material_draw.material",
        "an array of material patterns",
        Kind::Texts,
        "[]",
    ),
    needed("end.material_draw.plies", "an integer (0 = at once)", U32, "0"),
    key("pdn", TABLE, Kind::Table, Some("{}")),
    key("pdn.game_type", "an integer (0 = none)", U32, Some("0")),
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

/// The keys of the table at `table` (`""` for the top level, `end.material_draw`
/// for each of its tables), in order.
pub(crate) fn keys_of(table: &str) -> impl Iterator<Item = &'static KeyInfo> + '_ {
    KEYS.iter().filter(move |k| match k.path.rsplit_once('.') {
        Some((t, _)) => t == table,
        None => table.is_empty(),
    })
}
