//! Stable error codes: the `code` of an error every front end gives as
//! data (`--format json`'s `{"errors": [...]}`, the web API's `{"error":
//! {"code", "message"}}`), the same word for the same failure everywhere.
//! Findings about a variant file have their own codes (`E0101`, …).

use dama_engine::pdn::PdnError;
use dama_engine::MoveError;

/// What went wrong, as a stable word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// A position given as FEN is not one of the variant.
    Fen,
    /// An input cannot be read (missing, a directory, too large, an I/O error).
    Read,
    /// An output file cannot be written.
    Write,
    /// A PDN record is not PDN.
    PdnSyntax,
    /// A record holds no game.
    NoGame,
    /// A move cannot be read as a move.
    MoveSyntax,
    /// A move is not legal where it stands.
    MoveIllegal,
    /// A move could be several legal moves.
    MoveAmbiguous,
    /// A move comes after the end of the game.
    AfterEnd,
    /// The FEN tag of a record is not a position of its variant.
    FenTag,
    /// A variant is not named, or does not load (its diagnostics follow).
    Variant,
    /// The result of a record contradicts the end the rules give.
    ResultMismatch,
    /// A built-in variant does not load, or no built-in has the name given.
    Builtin,
    /// A record's game cannot be replayed (the web API's import).
    Pdn,
    /// A game cannot be made from what was sent.
    Game,
    /// Too many moves sent at once.
    Moves,
    /// A side is not `white` or `black`.
    Side,
    /// A request that is not what the API reads.
    BadRequest,
    /// No such page or route.
    NotFound,
    /// All searches are taken: try again.
    Busy,
    /// The engine failed.
    Engine,
    /// (web API) A request whose `Host` is not a name the server answers
    /// to (421): another site's page reaching the server through DNS
    /// rebinding.
    Host,
    /// (web API) A method the path does not take (405).
    Method,
    /// (web API) A request or a pasted variant larger than the server takes (413).
    TooLarge,
}

impl ErrorCode {
    /// The codes `dama --format json` can give (README.md lists them).
    pub const CLI: [ErrorCode; 13] = [
        ErrorCode::Fen,
        ErrorCode::Read,
        ErrorCode::Write,
        ErrorCode::PdnSyntax,
        ErrorCode::NoGame,
        ErrorCode::MoveSyntax,
        ErrorCode::MoveIllegal,
        ErrorCode::MoveAmbiguous,
        ErrorCode::AfterEnd,
        ErrorCode::FenTag,
        ErrorCode::Variant,
        ErrorCode::ResultMismatch,
        ErrorCode::Builtin,
    ];

    /// The code as written in the JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Fen => "fen",
            ErrorCode::Read => "read",
            ErrorCode::Write => "write",
            ErrorCode::PdnSyntax => "pdn-syntax",
            ErrorCode::NoGame => "no-game",
            ErrorCode::MoveSyntax => "move-syntax",
            ErrorCode::MoveIllegal => "move-illegal",
            ErrorCode::MoveAmbiguous => "move-ambiguous",
            ErrorCode::AfterEnd => "after-end",
            ErrorCode::FenTag => "fen-tag",
            ErrorCode::Variant => "variant",
            ErrorCode::ResultMismatch => "result-mismatch",
            ErrorCode::Builtin => "builtin",
            ErrorCode::Pdn => "pdn",
            ErrorCode::Game => "game",
            ErrorCode::Moves => "moves",
            ErrorCode::Side => "side",
            ErrorCode::BadRequest => "bad-request",
            ErrorCode::NotFound => "not-found",
            ErrorCode::Busy => "busy",
            ErrorCode::Engine => "engine",
            ErrorCode::Host => "host",
            ErrorCode::Method => "method",
            ErrorCode::TooLarge => "too-large",
        }
    }

    /// The code of a record's error.
    pub fn of_pdn(e: &PdnError) -> ErrorCode {
        match e {
            PdnError::Syntax { .. } => ErrorCode::PdnSyntax,
            PdnError::Move { error, .. } => match error {
                MoveError::Syntax { .. } => ErrorCode::MoveSyntax,
                MoveError::Illegal { .. } => ErrorCode::MoveIllegal,
                MoveError::Ambiguous { .. } => ErrorCode::MoveAmbiguous,
            },
            PdnError::AfterEnd { .. } => ErrorCode::AfterEnd,
            PdnError::Fen { .. } => ErrorCode::FenTag,
            PdnError::Variant { .. } => ErrorCode::Variant,
            PdnError::ResultMismatch { .. } => ErrorCode::ResultMismatch,
            PdnError::OutOfMemory { .. } | PdnError::TooLong { .. } => ErrorCode::Read,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn every_code_is_its_own_word() {
        let all = [
            ErrorCode::Pdn,
            ErrorCode::Game,
            ErrorCode::Moves,
            ErrorCode::Side,
            ErrorCode::BadRequest,
            ErrorCode::NotFound,
            ErrorCode::Busy,
            ErrorCode::Engine,
            ErrorCode::Host,
            ErrorCode::Method,
            ErrorCode::TooLarge,
        ];
        let mut words: Vec<&str> = ErrorCode::CLI.iter().chain(&all).map(|c| c.as_str()).collect();
        let n = words.len();
        words.sort();
        words.dedup();
        assert_eq!(words.len(), n);
    }
}
