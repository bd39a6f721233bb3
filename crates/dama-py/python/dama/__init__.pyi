"""Type stub for dama (the Python bindings of dama-engine; distribution dama-draughts).

Every class pickles (Rules as its whole spec, Position as rules + FEN, Move as
rules + position + move text, Game as rules + its PDN record + tags, Engine as
rules + table_mb + seed, SearchResult as its rules, root and figures, Diagnostic
as its fields)."""
import os

from typing import Dict, List, Literal, Optional, Tuple, Union

__version__: str

Piece = Literal["w", "W", "b", "B"]

def variants() -> List[str]:
    """The ids of the shipped variants."""

def read_pdn(text: str, rules: Optional[Rules] = None, *, strict: bool = False) -> List[Game]:
    """Read and replay every game of a PDN text; raises PdnError.

    A record that goes on after the rules ended the game is replayed to its
    end with a UserWarning (see Game.passed_end); strict=True raises instead."""

class VariantError(ValueError):
    """A variant that cannot be loaded; every finding is in `diagnostics`."""

    diagnostics: List[Diagnostic]

class FenError(ValueError):
    """A FEN string that cannot be read."""

    column: int
    reason: str

class IllegalMove(ValueError):
    """Move text (or a Move) naming no legal move here, or several."""

class PdnError(ValueError):
    """A PDN record that cannot be read or replayed."""

    line: int
    column: int

class GameOver(ValueError):
    """A move played after the end of the game."""

class TableError(RuntimeError):
    """An endgame table that cannot be built or read: damaged, for other rules, too large."""

class Diagnostic:
    """One finding about a variant file."""

    code: str
    severity: Literal["error", "warning"]
    message: str
    key: Optional[str]
    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    help: Optional[str]
    def to_dict(self) -> Dict[str, object]:
        """severity, code, message, key, location (file, line, column) or None, help:
        the shape of `dama validate --format json`."""
        ...

class Rules:
    """The compiled rules of one variant."""

    @staticmethod
    def builtin(name: str) -> Rules: ...
    @staticmethod
    def from_toml(text: str, name: Optional[str] = None) -> Rules: ...
    @staticmethod
    def from_file(path: Union[str, "os.PathLike[str]"]) -> Rules: ...
    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    def squares(self) -> List[str]: ...
    def initial(self) -> Position: ...
    def parse_fen(self, text: str) -> Position: ...
    def to_fen(self, pos: Position) -> str: ...
    def legal_moves(self, pos: Position) -> List[Move]: ...
    def parse_move(self, pos: Position, text: str) -> Move: ...
    def play(self, pos: Position, move: Union[Move, str]) -> Position: ...
    def perft(
        self,
        pos: Position,
        depth: int,
        count: Literal["paths", "moves", "jumps"] = "paths",
        threads: int = 1,
    ) -> int: ...
    def encode(self, pos: Position) -> bytes:
        """4 planes (white men, white kings, black men, black kings) x height x width,
        one byte per square, row-major from rank 1:
        index = plane * height * width + rank * width + file."""
    def copy(self) -> Rules: ...
    def __copy__(self) -> Rules: ...
    def __deepcopy__(self, memo: object) -> Rules: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Position:
    """Pieces on the board and the side to move (immutable)."""

    @property
    def side_to_move(self) -> Literal["white", "black"]: ...
    @property
    def fen(self) -> str: ...
    @property
    def variant(self) -> str: ...
    def pieces(self) -> Dict[str, Piece]: ...
    def piece_at(self, square: str) -> Optional[Piece]: ...
    def copy(self) -> Position: ...
    def __copy__(self) -> Position: ...
    def __deepcopy__(self, memo: object) -> Position: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Move:
    """A legal move of one position; str() is its full-path notation."""

    from_square: str
    to_square: str
    path: List[str]
    captures: List[str]
    @property
    def promotes(self) -> bool: ...
    @property
    def is_capture(self) -> bool: ...
    @property
    def is_king_move(self) -> bool: ...
    def to_dict(self) -> Dict[str, object]:
        """notation, from, to, path, captures, promotes: the shape of
        `dama moves --format json`."""
        ...
    def copy(self) -> Move: ...
    def __copy__(self) -> Move: ...
    def __deepcopy__(self, memo: object) -> Move: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Game:
    """A game with undo; over when the rules end it."""

    def __init__(
        self, rules: Rules, position: Optional[Position] = None, moves: Optional[List[str]] = None
    ) -> None: ...
    def play(self, move: Union[Move, str]) -> Move: ...
    def undo(self) -> Optional[Move]: ...
    def legal_moves(self) -> List[Move]: ...
    @property
    def moves(self) -> List[str]: ...
    @property
    def position(self) -> Position: ...
    @property
    def start_position(self) -> Position: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def result(self) -> Optional[Literal["1-0", "0-1", "1/2-1/2"]]: ...
    @property
    def reason(self) -> Optional[str]: ...
    @property
    def passed_end(self) -> Optional[Tuple[int, str]]: ...
    @property
    def tags(self) -> Dict[str, str]:
        """The tags of the PDN record it was read from ({} otherwise); a new dict each time."""
    def copy(self) -> Game:
        """An independent copy."""
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: object) -> Game: ...
    def to_pdn(
        self,
        *,
        event: Optional[str] = None,
        site: Optional[str] = None,
        date: Optional[str] = None,
        round: Optional[str] = None,
        white: Optional[str] = None,
        black: Optional[str] = None,
    ) -> str: ...
    def __len__(self) -> int: ...
    def to_dict(self) -> Dict[str, object]:
        """variant, start_fen, fen, side, plies, moves, result, passed_end:
        the shape of `dama replay --format json` and the web API's game."""
        ...

class SearchResult:
    """What a search found."""

    best: Optional[Move]
    score: int
    pv: List[Move]
    depth: int
    nodes: int
    elapsed: float
    score_text: str
    def to_dict(self) -> Dict[str, object]:
        """depth, score, score_text, for, nodes, ms, pv, best: the shape of
        the web page's analysis reports."""
        ...

class Engine:
    """Alpha-beta search with a transposition table."""

    def __init__(self, rules: Rules, table_mb: Optional[int] = None, seed: Optional[int] = None) -> None:
        """Raises MemoryError when the table cannot be allocated."""
    def search(
        self,
        root: Union[Position, Game],
        depth: Optional[int] = None,
        movetime: Optional[float] = None,
        nodes: Optional[int] = None,
    ) -> SearchResult:
        """movetime in seconds (float("inf"): no time limit; NaN or negative: ValueError).
        Searches of one engine run in turn; Ctrl-C stops it and raises KeyboardInterrupt."""
    def stop(self) -> None:
        """End the running search (from any thread); it returns its best move so far."""
    def clear(self) -> None: ...
    def evaluate(self, pos: Position) -> int:
        """Raises ValueError for a position of another variant."""
    @property
    def rules(self) -> Rules: ...
    @property
    def table_mb(self) -> Optional[int]: ...
    @property
    def seed(self) -> Optional[int]: ...
