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

// FEN, move text, explanations of illegal moves, Hub notation, DXP messages.
mod notation;

// Outcomes, the judge, the draw clock, games, PDN.
mod game;

// Endgame tables: retrograde analysis on the compiled rules.
mod egtb;

// Evaluation, search, matches, the draw-offer policy.
mod engine;

// Counting the move tree.
mod perft;

pub use board::{
    AbsDir, Bitboard, Color, DirSet, Layout, Move, MoveList, MovePath, Piece, Position, Square, Squares, Width,
    MAX_SIDE,
};
pub use egtb::{
    egtb_build, egtb_build_for, egtb_headers, egtb_memory_needed, egtb_position, egtb_position_counts, egtb_summary,
    egtb_verify, table_dir, BuildProgress, BuildReport, EgtbError, Material, SideSummary, TableHeader, TableValue,
    Tablebase, Wdl, ASSUMPTION, FORMAT_VERSION, MAX_EGTB_PIECES,
};
pub use engine::{
    analyze_game, AnalysisTally, Analyzer, GameAnalysis, Judgement, PlyAnalysis, Thresholds, LOSS_CAP, MAX_LINE,
};
pub use engine::{answer_draw_offer, DrawAnswer};
pub use engine::{
    elo_from_score, fit_scale, mean_error, score_from_elo, tune, tune_keeping, EloEstimate, EvalWeights, Features,
    ResultCounts, Sample, ScoreModel, ScoreSample, Sprt, SprtDecision, SprtStatus, TuneProgress, TuneReport,
    WeightsError, MAX_WEIGHT, WEIGHTS_FORMAT, WEIGHT_NAMES, Z95,
};
pub use engine::{
    play_match, Contestant, MatchConfig, MatchEnding, MatchGame, MatchPlayer, MatchPlayerStats, MatchProgress,
    MatchReport, MatchTally,
};
pub use engine::{play_match_with, read_openings, MatchOptions, Opening, OpeningsError};
pub use engine::{
    position_key, score_text, Engine, Evaluator, Limits, SearchResult, SearchRoot, Terms, DEFAULT_LEVEL, LEVELS, MAN,
    MATE, MATE_BOUND, MAX_PLY,
};
pub use engine::{Reductions, SearchOptions, SearchOptionsError, SEARCH_OPTION_NAMES};
pub use game::{DrawClock, EndReason, Game, GameResult, Outcome, PassedEnd, PlayError, Ply};
pub use movegen::{random_move, CountMode};
pub use notation::{is_pass_text, DirKind, FenError, FenOptions, IllegalReason, MoveError, MoveText, PASS_TEXT};
pub use perft::{divide, divide_parallel, perft, perft_parallel};
pub use rules::{
    CaptureRules, EndRules, Geometry, KingRange, KingRules, MaterialDraw, MaterialPattern, MenRules, Rules, Section,
    SideMaterial, SideRules,
};
pub use spec::{did_you_mean, Code, Diagnostic, Location, Severity, VariantSpec};
pub use util::{file_safe_name, printable, printable_lines, shown_char, Rng};
pub use variant::{
    builtin_names, builtin_text, load, load_text, read_text, LoadError, Loaded, Origin, SourceFile, BUILTIN, MAX_CHAIN,
    MAX_DIAGNOSTICS, MAX_FILE_BYTES,
};

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

/// The DamExchange protocol (DXP; docs/dxp.md): its messages, read and
/// written, and the mapping of its square numbers, positions and moves onto
/// a variant's board and legal moves.
pub mod dxp {
    pub use crate::notation::{
        AcceptCode, BackAnswer, BackRequest, DxpBoard, DxpError, DxpMessage, DxpMove, DxpMoveError, DxpPosition,
        DxpPositionError, DxpVariantError, GameAccept, GameEnd, GameEndReason, GameRequest, DXP_MAX_MESSAGE,
        DXP_MAX_SQUARES, DXP_NAME_WIDTH, DXP_PORT,
    };
}

/// The Hub protocol's notation (Scan 3.x, the Hub GUI; docs/hub.md): the
/// standard order of the squares, position strings, move text.
pub mod hub {
    pub use crate::notation::{HubBoard, HubMoveError, HubNotation, HubPositionError};
}
