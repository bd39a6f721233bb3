"""dama: draughts variants defined in TOML (Python bindings of dama-engine).

>>> import dama
>>> rules = dama.Rules.builtin("dama")
>>> rules.perft(rules.initial(), 4)
7538

The distribution is named ``dama-draughts`` (``pip install dama-draughts``; the
name ``dama`` on PyPI is another project); the import name is ``dama``. See
docs/python.md in the source tree for the API and the ``encode`` layout.
"""

from ._dama import (
    Diagnostic,
    Engine,
    FenError,
    Game,
    GameOver,
    IllegalMove,
    Move,
    PdnError,
    Position,
    Rules,
    SearchResult,
    TableError,
    VariantError,
    __version__,
    read_pdn,
    variants,
)

__all__ = [
    "Diagnostic",
    "Engine",
    "FenError",
    "Game",
    "GameOver",
    "IllegalMove",
    "Move",
    "PdnError",
    "Position",
    "Rules",
    "SearchResult",
    "TableError",
    "VariantError",
    "__version__",
    "read_pdn",
    "variants",
]
