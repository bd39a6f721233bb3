//! # dama-engine
//!
//! Rules-driven move generation for the draughts family (Turkish *dama*,
//! Armenian *tama*, Keny, Croda, Dameo, Russian, Brazilian, English) and any
//! other variant written as a TOML file.
//!
//! The spine is raw → compiled: TOML text → [`VariantSpec`] (plain serde)
//! → [`Rules::compile`] (validated, with precomputed tables) → the move
//! generator, which sees only [`Rules`].
//!
//! ```
//! use dama_engine::{Rules, perft, CountMode};
//!
//! let rules = Rules::builtin("dama").unwrap();
//! let start = rules.start_position();
//! let moves = rules.legal_moves(&start);
//! assert_eq!(moves.len(), 8);
//!
//! // Turkish perft from the start, as published with the kish engine.
//! assert_eq!(perft(&rules, &start, 4, CountMode::Paths), 7538);
//!
//! // Positions are PDN FEN; moves print with their full path.
//! let pos = rules.parse_fen("W:Wd6:Bd7,c8").unwrap();
//! let only = rules.legal_moves(&pos);
//! assert_eq!(rules.format_move_full(&pos, &only.as_slice()[0]), "d6xd8xb8");
//! ```

// The layers, lowest first. A module uses only the layers before it here
// (checked by tests/module_graph.rs); each is its own group so that
// rustfmt keeps this order.

// Clipping text for messages, a seeded Rng.
mod util;

// Squares, directions, geometry tables, positions, moves.
mod board;

// The variant format as written (serde), its keys, diagnostics.
mod spec;

// Compiled rules, grouped, and the stages that compile them.
mod rules;

// The one move generator.
mod movegen;

// Built-in variants, loading with `extends`, `Rules::compile`.
mod variant;

// FEN, move text, explanations of illegal moves.
mod notation;

// Outcomes, the judge, the draw clock, games, PDN.
mod game;

// Endgame tables: retrograde analysis on the compiled rules.
mod endgame;

// Evaluation, search, tuning.
mod engine;

// Counting the move tree.
mod perft;

// The names almost every user needs; the rest is grouped in the modules
// below, each name with one path (issue 31: at most about 60 at the root).
pub use board::{Bitboard, Color, Move, MoveList, MovePath, Piece, Position, Square, Squares};
pub use engine::{Engine, EvalWeights, Evaluator, Limits, SearchOptions, SearchResult, SearchRoot};
pub use game::{DrawClock, EndReason, Game, GameResult, Outcome, PassedEnd, PlayError, Ply};
pub use movegen::{random_move, CountMode};
pub use notation::{DirKind, FenError, FenOptions, IllegalReason, MoveError, MoveText};
pub use perft::{divide, divide_parallel, perft, perft_parallel};
pub use rules::Rules;
pub use spec::{Code, Diagnostic, Location, Severity, VariantSpec};
pub use util::Rng;
pub use variant::{load, load_file, load_text, LoadError, Loaded, Origin, SourceFile};

/// The geometry of a board: directions, square layouts and widths.
pub mod geometry {
    pub use crate::board::{AbsDir, DirSet, Layout, Width, MAX_SIDE};
}

/// The compiled rules, section by section ([`Rules`](crate::Rules) gives
/// each one).
pub mod sections {
    pub use crate::rules::{
        CaptureRules, EndRules, Geometry, KingRange, KingRules, MaterialDraw, MaterialPattern, MenRules, Section,
        SideMaterial, SideRules,
    };
}

/// Where variant files come from: the built-in variants, reading a file, and
/// the limits on what is read.
pub mod source {
    pub use crate::variant::{
        builtin_names, builtin_text, looks_like_path, read_text, BUILTIN, MAX_CHAIN, MAX_DIAGNOSTICS, MAX_FILE_BYTES,
    };
}

/// The search's constants and switches beyond [`Engine`](crate::Engine)
/// and [`Limits`](crate::Limits): scores, levels, position keys, the
/// evaluation's terms.
pub mod search {
    pub use crate::engine::{
        position_key, score_text, Features, Reductions, SearchOptionsError, Terms, DEFAULT_LEVEL, LEVELS, MAN, MATE,
        MATE_BOUND, MAX_PLY, SEARCH_OPTION_NAMES,
    };
}

/// Tuning the evaluation's weights from game results, and the weights file.
pub mod tune {
    pub use crate::engine::{
        fit_scale, mean_error, tune, tune_keeping, Sample, TuneProgress, TuneReport, WeightsError, MAX_WEIGHT,
        WEIGHTS_FORMAT, WEIGHT_NAMES,
    };
}

/// Text for messages (shortening, printable forms of user input, file
/// names, did-you-mean) and the text of a pass.
pub mod text {
    pub use crate::notation::{is_pass_text, PASS_TEXT};
    pub use crate::spec::did_you_mean;
    pub use crate::util::{clip, file_safe_name, printable, printable_lines, shown_char};
}

/// Endgame tables: building, verifying and probing them.
pub mod egtb {
    pub use crate::endgame::{
        build, build_for, build_only, headers, memory_needed, plan, position, position_counts, summary, table_dir,
        verify, BuildProgress, BuildReport, EgtbError, Material, SideSummary, TableHeader, TableValue, Tablebase, Wdl,
        ASSUMPTION, FORMAT_VERSION, MAX_EGTB_PIECES,
    };
}

/// The raw variant format: the serde structs and enums of a variant file,
/// and the table of its keys.
pub mod format {
    pub use crate::spec::{
        key_info, BoardSpec, CaptureRange, CaptureSpec, EndSpec, JumpOver, KeyInfo, KingVsKing, KingsSpec, Landing,
        LonePiece, Majority, MenSpec, MidCapturePromotion, NoMoveResult, PdnSpec, Preference, PromotionRank,
        PromotionSpec, Range, RelDir, Removal, SetupSpec, Side, SquareColor, SquareNotation, SquareSet, BOOLEAN, DIRS,
        KEYS, SQUARES, STRING, TABLE,
    };
}

/// PDN game records: reading (with the position of every error), replaying
/// and writing.
pub mod pdn {
    pub use crate::game::{
        game_type_tag, games, read_games, write_games, Games, PastEnd, PdnAnnotation, PdnError, PdnGame, PdnMove,
        PdnResult, PdnTags, Tag,
    };
}
