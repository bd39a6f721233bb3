#!/usr/bin/env python3
"""Cross-check the dama move generator against pydraughts, position by position.

What it compares
----------------
For every position, both engines list the legal moves:

* ours: ``dama moves <variant> --fen <FEN> --format json`` (one process per position);
* pydraughts: ``draughts.Board(variant, fen)``; its legal-move filter (``Game.legal_moves``)
  is used unchanged, and the leaf boards of its own capture recursion give the resulting
  positions.

A move is keyed by (origin, destination, set of captured squares). Per position the script
compares

1. the set of keys (a missing or extra move is a disagreement);
2. per key, the number of capture paths (we merge paths with the same key into one move
   with a path count; pydraughts lists each path separately);
3. per key, the set of resulting positions (this catches promotion differences: our
   ``promotes`` flag against the king/man state pydraughts leaves on the board).

Positions come from (a) random games played from the initial position with random legal
moves (every position along the way) and (b) random placements with at least one king on
each side (men never on their own promotion rank; diagonal games use the dark squares only).

Variants (ours -> pydraughts): dama -> turkish, russian -> russian, brazilian -> brazilian,
english -> english, international -> standard. Squares are converted with pydraughts' own
helpers: Russian, Brazilian and Turkish use algebraic squares in both engines (a1 bottom-left
from White); English uses the PDN numbers 1-32 in both (1 = b8 on Black's side, Black moves
first); international uses the PDN numbers 1-50 in both (1 = b10 on Black's side, 46 = a1,
White moves first). Frisian (frisian), Frysk! (frysk!), Italian, antidraughts and
breakthrough use PDN numbers too. International is given to our binary as the variant file
variants/international.toml by path, so that it works whether or not it is a built-in variant.

Disagreements are classified by cause where the cause is a known, documented rule point
(see README.md next to this file); anything else is reported as "unexplained" with its FEN.

How to run
----------
This is evidence for the project notes, not part of ``cargo test`` (CI has no Python)::

    python3 -m venv /tmp/pxvenv && /tmp/pxvenv/bin/pip install pydraughts   # tested with 0.6.7
    cargo build --release -p dama-cli
    /tmp/pxvenv/bin/python tests/crosscheck/pydraughts_crosscheck.py \\
        --dama target/release/dama --games 100 --random 3000 --seed 1

Options: ``--variants dama,russian,...`` (default: the four 8×8 games; name the others,
e.g. ``international`` or ``frisian,frysk``), ``--max-plies`` (cap per random game),
``--json FILE`` (write every disagreement with its FEN and both move lists),
``--show N`` (print the first N disagreements per variant and cause), ``--pydraughts-only``
(run pydraughts alone: with ``--position``, list its moves; otherwise play the random games and
placements on the pydraughts side only, as a check of the square mapping and of the position
sources without a dama binary). The run is
deterministic for a given seed and pydraughts version. Exit status: 0 when every
disagreement has a known cause, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter

try:
    from draughts import Board
    from draughts.convert import fen_to_variant, move_to_variant, _numeric_to_algebraic_square
    import draughts
except ImportError:  # pragma: no cover
    sys.exit("pydraughts is not installed: python3 -m venv /tmp/pxvenv && /tmp/pxvenv/bin/pip install pydraughts")

FILES = "abcdefghij"

# ours -> (pydraughts name, is every square playable?)
VARIANTS = {
    "dama": ("turkish", True),
    "russian": ("russian", False),
    "brazilian": ("brazilian", False),
    "english": ("english", False),
    "international": ("standard", False),
    "frisian": ("frisian", False),
    "frysk": ("frysk!", False),
    "italian": ("italian", False),
    "antidraughts": ("antidraughts", False),
    "breakthrough": ("breakthrough", False),
}

# Board size (files = ranks) of each variant; 8 unless listed.
SIZE = {"international": 10, "frisian": 10, "frysk": 10, "antidraughts": 10, "breakthrough": 10}

# Variants whose a1 is a light square (the dark squares are those of b1).
LIGHT_A1 = {"italian"}

# Variants whose squares are PDN numbers in both engines (row by row from Black's side).
NUMERIC = {"english", "international", "frisian", "frysk", "italian", "antidraughts", "breakthrough"}

# What our binary is given as the variant: a built-in id, or for variants that may not be built
# in (yet) the path of their file in this repository.
REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OURS_VARIANT = {"international": os.path.join(REPO, "variants", "international.toml")}


def size(variant: str) -> int:
    return SIZE.get(variant, 8)


# ---------------------------------------------------------------------------------------------
# Squares
# ---------------------------------------------------------------------------------------------


def pdn_number(variant: str, file: int, rank: int) -> int:
    """PDN number of a dark square, row by row from Black's side: English 1 = b8 ... 4 = h8,
    29 = a1 ... 32 = g1; international 1 = b10 ... 5 = j10, 46 = a1 ... 50 = i1."""
    n = size(variant)
    row_from_top = n - 1 - rank
    return row_from_top * (n // 2) + file // 2 + 1


def square_name(variant: str, file: int, rank: int) -> str:
    if variant in NUMERIC:
        return str(pdn_number(variant, file, rank))
    return f"{FILES[file]}{rank + 1}"


def playable_squares(variant: str) -> list[tuple[int, int]]:
    all_squares = VARIANTS[variant][1]
    n = size(variant)
    dark = 1 if variant in LIGHT_A1 else 0
    return [(f, r) for r in range(n) for f in range(n) if all_squares or (f + r) % 2 == dark]


def py_square(pyvariant: str, number: int) -> str:
    """pydraughts' variant numbering (after its own rotation) -> our square name."""
    if pyvariant in ("english", "standard", "frisian", "frysk!", "italian", "antidraughts", "breakthrough"):
        return str(number)
    width = 8 if pyvariant == "turkish" else 4
    return _numeric_to_algebraic_square(str(number), width, every_other_square=pyvariant != "turkish")


# ---------------------------------------------------------------------------------------------
# Positions: {square: (color, king)} + side to move ('W' or 'B')
# ---------------------------------------------------------------------------------------------


def make_fen(side: str, pieces: dict[str, tuple[str, bool]]) -> str:
    def key(sq: str):
        return (int(sq),) if sq.isdigit() else (sq[0], int(sq[1:]))

    parts = []
    for color in "WB":
        squares = sorted((sq for sq, (c, _) in pieces.items() if c == color), key=key)
        parts.append(color + ",".join(("K" if pieces[sq][1] else "") + sq for sq in squares))
    return f"{side}:{parts[0]}:{parts[1]}"


def parse_fen(fen: str) -> tuple[str, dict[str, tuple[str, bool]]]:
    fields = fen.split(":")
    side = fields[0].strip().upper()
    pieces: dict[str, tuple[str, bool]] = {}
    for field in fields[1:]:
        field = field.strip()
        if not field:
            continue
        color, rest = field[0].upper(), field[1:]
        for token in filter(None, (t.strip() for t in rest.split(","))):
            king = token[0] in "Kk"
            pieces[token[1:] if king else token] = (color, king)
    return side, pieces


def canon(side: str, pieces: dict[str, tuple[str, bool]]):
    return side, frozenset((sq, c, k) for sq, (c, k) in pieces.items())


def canon_fen(c) -> str:
    side, items = c
    return make_fen(side, {sq: (col, k) for sq, col, k in items})


# ---------------------------------------------------------------------------------------------
# The two engines
# ---------------------------------------------------------------------------------------------


class Ours:
    def __init__(self, binary: str):
        self.binary = binary
        self.calls = 0
        self.seconds = 0.0

    def moves(self, variant: str, fen: str, default_start: bool = False):
        """{key: {"paths": n, "results": set(canon)}} from `dama moves --format json`.

        With default_start, no --fen is passed (our own initial position); `fen` must then
        describe that same position.
        """
        t = time.perf_counter()
        command = [self.binary, "--color", "never", "moves", OURS_VARIANT.get(variant, variant), "--format", "json"]
        if not default_start:
            command += ["--fen", fen]
        out = subprocess.run(command, capture_output=True, text=True)
        self.seconds += time.perf_counter() - t
        self.calls += 1
        if out.returncode != 0:
            raise RuntimeError(f"dama moves failed for {variant} {fen!r}: {out.stderr.strip()}")
        text = out.stdout.strip()
        data = json.loads(text) if text.startswith("[") else []
        side, pieces = parse_fen(fen)
        result: dict = {}
        for m in data:
            key = (m["from"], m["to"], frozenset(m["captures"]))
            after = dict(pieces)
            color, king = after.pop(m["from"])
            for sq in m["captures"]:
                del after[sq]
            after[m["to"]] = (color, king or bool(m["promotes"]))
            entry = result.setdefault(key, {"paths": 0, "results": set(), "text": set()})
            entry["paths"] += int(m["paths"])
            entry["results"].add(canon("B" if side == "W" else "W", after))
            entry["text"].add(m["notation"])
        return result


class PydraughtsAsOurs:
    """Stands in for our binary in --pydraughts-only runs: pydraughts answers for both sides, so
    every comparison agrees and the run exercises everything but the dama binary (the square
    mapping, FEN conversion, the position sources and the statistics)."""

    def __init__(self, py: "Pydraughts"):
        self.py = py
        self.calls = 0
        self.seconds = 0.0

    def moves(self, variant: str, fen: str, default_start: bool = False):
        self.calls += 1
        return self.py.moves(variant, fen)


class Pydraughts:
    def __init__(self):
        self.seconds = 0.0

    def moves(self, variant: str, fen: str, fixed_sum_order: bool = False):
        """{key: {"paths": n, "results": set(canon)}} from pydraughts' legal moves.

        With fixed_sum_order (Frisian only), each path's captured squares are handed to
        pydraughts' legal-move filter kings first, then men, each in square order, instead of in
        the order they were jumped. That filter adds the values (king 1.501, man 1) as floats and
        keeps the paths whose sum == the largest sum, so the order of the terms decides ties (see
        frisian_float_sum); with one order for all paths, equal values give equal sums. Nothing
        else changes.
        """
        pyv = VARIANTS[variant][0]
        t = time.perf_counter()
        board = Board(pyv, fen)
        game = board._game
        leaves: dict[tuple, str] = {}

        # Game.get_moves (pydraughts 0.6.7, core/game.py) with one addition: also return the
        # internal FEN of the board each full path leads to. Game.legal_moves() then filters
        # these pseudo-legal paths with the variant's own rule, unchanged.
        def get_moves(g):
            turn = g.whose_turn()
            moves, captured, leafs = [], [], []
            for move in g.get_possible_moves():
                g2 = g.copy_fast()
                _, capture = g2.move(move)
                if g2.whose_turn() == turn:
                    more_moves, more_captures, more_leaves = get_moves(g2)
                    for semi_move, semi_capture, leaf in zip(more_moves, more_captures, more_leaves):
                        moves.append([move] + semi_move)
                        captured.append([capture] + semi_capture)
                        leafs.append(leaf)
                else:
                    moves.append([move])
                    captured.append([capture])
                    leafs.append(g2.get_li_fen())
            return moves, captured, leafs

        all_moves, all_captures, all_leaves = get_moves(game)
        for move, leaf in zip(all_moves, all_leaves):
            leaves[tuple(tuple(step) for step in move)] = leaf
        if fixed_sum_order:
            def order(c):
                return (not game.board.searcher.get_piece_by_position(c).king, c)

            all_captures = [sorted(c, key=order) if None not in c else c for c in all_captures]
        game.get_moves = lambda: ([list(map(list, m)) for m in all_moves], [list(c) for c in all_captures])
        legal, captures = game.legal_moves()
        self.seconds += time.perf_counter() - t

        def conv(square: int) -> str:
            """pydraughts' internal square -> our square name."""
            return py_square(pyv, int(move_to_variant(str(square), variant=pyv, to_algebraic=False)))

        result: dict = {}
        for move, caps in zip(legal, captures):
            leaf = leaves[tuple(tuple(step) for step in move)]
            origin, dest = conv(move[0][0]), conv(move[-1][1])
            capset = frozenset(conv(c) for c in caps if c is not None)
            key = (origin, dest, capset)
            entry = result.setdefault(key, {"paths": 0, "results": set(), "text": set()})
            entry["paths"] += 1
            entry.setdefault("landings", []).append([conv(step[1]) for step in move])
            entry["results"].add(canon(*parse_fen(fen_to_variant(leaf, pyv))))
            entry["text"].add(("x" if capset else "-").join([origin] + [conv(step[1]) for step in move]))
        return result


# ---------------------------------------------------------------------------------------------
# Position sources
# ---------------------------------------------------------------------------------------------


# Hand-picked positions for the rule points where variants or sources differ: rules.md §8.3
# (Turkish T1-T8) and promotion during a capture in the diagonal games.
NAMED = {
    "dama": [
        "W:Wd6:Bd7,c8",  # T1: man reaches rank 8 mid-capture, continues as a man
        "B:Wd2,c1:Bd3",  # T1 mirrored (pydraughts reads the first piece field as White: keep W first)
        "W:WKd5:Bd3,d7",  # T2: no 180-degree turn
        "W:We4:Bd4,b4",  # T3: maximum capture
        "W:WKd1:Bd3,f5,h4,b3",  # T4: immediate removal (crosses d3 emptied by the first jump)
        "W:Wd4:BKd5,c4,b5",  # T5: kings and men count alike
        "W:WKa4:Bc4,d4",  # T6: no jump over two pieces
        "W:WKa5:Bb5,e5",  # T7: duplicate paths
        "W:WKa4:Bc4,e4",  # T8: captured piece leaves at once
    ],
    "russian": [
        "W:Wf6:Be7,c7,Kg1",  # crowned on d8 mid-capture, flies on to b6 or a5
        "W:Wf6:Be7,c7,Kg1,b4",  # ... and must land on a5, from where it captures again
        "W:Wh6:Bg7,c5,d2",  # pydraughts issue #28: a capture must be completed
    ],
    "brazilian": [
        "W:Wf6:Be7,c7,Kg1",  # passes d8 mid-capture as a man, ends on b6 uncrowned
        "W:Wf6:Be7,c7,Kg1,b4",
        "W:Wh6:Bg7,c5,d2",
    ],
    "english": [
        "B:W26,25:B23",  # crowned on 30 mid-capture: the move ends there
        "B:W14,15,23:B10",  # free choice: 10x17 (one piece) or 10x19x26 (two)
    ],
    # The rule cases of tests/rules/international where the rules of the family differ, and
    # dctl's perft positions (tests/perft/international.perft).
    "international": [
        "W:W13:B7,8",  # FMJD art. 4.15: passes 2 on the last row as a man, ends on 11 uncrowned
        "B:W43,44:B38",  # the same for Black, through 49
        "W:WK46:B31,33,37,43",  # Turkish strike: 37, already taken, blocks the way to 31
        "W:WK26:B9,21,24,27,31",  # a ring back to the start square, two paths; 21 blocks 27
        "W:W33,K46:B28,37,39",  # majority over all pieces: the king's two beat the man's one
        "W:W32:BK27,28,18",  # a king counts as one piece
        "W:WK46:B24,28",  # the king must land on 19, where it can go on
        "W:WK50:B11,44",  # one move, five paths (touch-down squares between two jumps)
        "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24",  # dctl Random178
        "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",  # dctl Woldouby
    ],
    # E. Gilbert's three positions (dctl's italian/gilbert.cpp perft), and a man facing a king
    # it may not take beside a man it may.
    "italian": [
        "W:W30,26,27,22,23,24,17,18,20:B14,15,16,9,11,5,6,1,3",
        "B:W30,21,22,17,20,K6:B25,28,9,5,1,3",
        "W:WK27,K28,17,20,9,K12,8:B21,24,K19,K13,14,K11,4",
        "W:W22,23:BK18,19",
    ],
    # The same moves as international: its named positions are enough there.
    "antidraughts": [],
    "breakthrough": [],
    # The rule cases of tests/rules/frisian (their positions; pydraughts reads no king run, so
    # the three-moves rule is not compared), and points of the value rule.
    "frisian": [
        "W:W28:B18",  # orthogonal capture up the file: 28x8
        "W:W28:B27",  # along the rank: 28x26
        "W:W28:B38",  # backward down the file: 28x48
        "W:W28:B18,8",  # the square beyond is occupied: steps only
        "W:WK46:B26",  # a king captures up the file from afar, lands on 16 or 6
        "W:W28:B18,9",  # file then rank: 28x8x10
        "W:W32:B27,17",  # two diagonal jumps
        "W:W28:B18,9,33",  # the most pieces: 28x8x10
        "W:W46,K28:B23",  # a king captures diagonally from afar
        "W:W28,K47:B18,K42",  # equal value: the king's capture of a man (47x37 ...) or the man's 28x8
        "W:W27,29:BK28,38",  # one king (worth 1.5 / 1.99) against one man
        "W:W33:BK28,K22,39,44",  # two kings against two men
    ],
    "frysk": [
        "W:W46,47,48,49,50:B1,2,3,4,5",
    ],
}


def check_square_mapping(variant: str) -> None:
    """Our square names and coordinates must be inverse to each other on every playable square,
    and pydraughts' initial position must put White's men on the low ranks, Black's on the high
    ones (a wrong numbering direction would swap them)."""
    squares = playable_squares(variant)
    names = [square_name(variant, f, r) for f, r in squares]
    if len(set(names)) != len(names) or any(coords(variant, n) != sq for n, sq in zip(names, squares)):
        sys.exit(f"{variant}: square names and coordinates do not match")
    _, pieces = parse_fen(initial_fen(variant))
    ranks = {c: [coords(variant, sq)[1] for sq, (col, _) in pieces.items() if col == c] for c in "WB"}
    if not ranks["W"] or not ranks["B"] or max(ranks["W"]) >= min(ranks["B"]):
        sys.exit(f"{variant}: pydraughts' initial position does not fit our square mapping")


def initial_fen(variant: str) -> str:
    pyv = VARIANTS[variant][0]
    return Board(pyv).fen


def random_placement(variant: str, rng: random.Random) -> str:
    squares = playable_squares(variant)
    rng.shuffle(squares)
    pieces: dict[str, tuple[str, bool]] = {}
    dense = variant in ("dama", "international", "frisian", "frysk", "antidraughts", "breakthrough")
    for color in "WB":
        kings = rng.randint(1, 3)
        men = rng.randint(0, 10 if dense else 7)
        promo_rank = size(variant) - 1 if color == "W" else 0
        placed_k = placed_m = 0
        for f, r in list(squares):
            name = square_name(variant, f, r)
            if name in pieces:
                continue
            if placed_k < kings:
                pieces[name] = (color, True)
                placed_k += 1
            elif placed_m < men and r != promo_rank:
                pieces[name] = (color, False)
                placed_m += 1
            else:
                continue
            squares.remove((f, r))
            if placed_k == kings and placed_m == men:
                break
    return make_fen(rng.choice("WB"), pieces)


# ---------------------------------------------------------------------------------------------
# Comparison and classification
# ---------------------------------------------------------------------------------------------


def compare(ours: dict, theirs: dict) -> list[str]:
    """Kinds of difference found in one position (empty = agreement)."""
    kinds = []
    if set(ours) != set(theirs):
        kinds.append("move set")
    for key in set(ours) & set(theirs):
        if ours[key]["results"] != theirs[key]["results"]:
            kinds.append("resulting position")
            break
    for key in set(ours) & set(theirs):
        if ours[key]["paths"] != theirs[key]["paths"]:
            kinds.append("path count")
            break
    return kinds


def coords(variant: str, sq: str) -> tuple[int, int]:
    """(file, rank) counted from 0, seen from White."""
    if variant in NUMERIC:
        n, per_row = int(sq) - 1, size(variant) // 2
        rank = size(variant) - 1 - n // per_row
        # a1 dark: even ranks start on file a; a1 light: on file b.
        return (n % per_row) * 2 + ((rank + (variant in LIGHT_A1)) % 2), rank
    return FILES.index(sq[0]), int(sq[1:]) - 1


def pydraughts_king_slides_through(variant: str, fen: str, key) -> bool:
    """Is `key` a quiet king move along a rank or file over an occupied square (Turkish)?

    pydraughts 0.6.7, core/piece.py: get_directional_orthogonal_multiple_squares_adjacent_positions
    lists every square of the king's rank and file without stopping at the first piece (its
    diagonal counterpart does stop), and build_possible_positional_moves keeps every empty
    destination. So a Turkish king "moves" through pieces when no capture is available.
    """
    origin, dest, caps = key
    _, pieces = parse_fen(fen)
    if caps or origin not in pieces or not pieces[origin][1]:
        return False
    (f0, r0), (f1, r1) = coords(variant, origin), coords(variant, dest)
    if f0 != f1 and r0 != r1:
        return False
    df, dr = (f1 > f0) - (f1 < f0), (r1 > r0) - (r1 < r0)
    occupied = {coords(variant, sq) for sq in pieces}
    f, r = f0 + df, r0 + dr
    while (f, r) != (f1, r1):
        if (f, r) in occupied:
            return True
        f, r = f + df, r + dr
    return False


# Variants whose capture rule is pydraughts' Frisian value rule (Game.legal_moves).
FRISIAN = {"frisian", "frysk"}


def frisian_float_sum(ours: dict, theirs_fixed: dict | None) -> bool:
    """Does the whole difference come from the order in which pydraughts adds capture values?

    pydraughts 0.6.7, core/game.py, Game.legal_moves (frisian, frysk!): the value of a path is
    `value = 0.; value += 1.501 if king else 1` over its captured pieces in the order they were
    jumped, and only the paths with `value == max(values)` are kept, then the king's ones if a
    king is among them. 1.501 is not a binary fraction, so the float sum depends on the order:
    three men and two kings give 6.002 when the last piece jumped is a man and
    6.001999999999999 when it is a king. Such a path is dropped although its value equals the
    maximum: a move is missing (all its paths dropped) or has fewer paths, and when every
    king's path of the top value is dropped, the "capture with a king" filter no longer removes
    the men's captures of that value, so these appear as pydraughts-only moves.

    The cause is named only when the same pydraughts lists, filtered again with the captured
    pieces of every path added in one fixed order (kings first), agree with ours exactly: keys,
    path counts and resulting positions.
    """
    return theirs_fixed is not None and not compare(ours, theirs_fixed)


def classify(variant: str, fen: str, ours: dict, theirs: dict, kinds: list[str], theirs_fixed: dict | None = None) -> str:
    """Name the cause of a disagreement when it is a known point; else 'unexplained: ...'.

    A cause is named only if it explains the whole difference in that position. theirs_fixed
    (Frisian only) is pydraughts' list with the capture values added in a fixed order.
    """
    only_ours = set(ours) - set(theirs)
    only_theirs = set(theirs) - set(ours)
    if (
        variant == "dama"
        and kinds == ["move set"]
        and not only_ours
        and all(pydraughts_king_slides_through(variant, fen, k) for k in only_theirs)
    ):
        return "pydraughts bug: Turkish king quiet move through occupied squares"
    if variant in FRISIAN and frisian_float_sum(ours, theirs_fixed):
        return "pydraughts bug: Frisian capture value summed in floating point, in jump order"
    return "unexplained: " + "+".join(kinds)


# ---------------------------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------------------------


def show_disagreement(d: dict) -> str:
    lines = [f"  [{d['source']}] {d['cause']}", f"    FEN: {d['fen']}"]
    lines.append("    ours only:       " + ", ".join(d["ours_only"]))
    lines.append("    pydraughts only: " + ", ".join(d["theirs_only"]))
    for extra in d.get("details", []):
        lines.append("    " + extra)
    return "\n".join(lines)


def check_position(variant, fen, source, ours_engine, py_engine, stats, disagreements):
    ours = ours_engine.moves(variant, fen)
    theirs = py_engine.moves(variant, fen)
    stats["positions"] += 1
    stats["moves"] += len(theirs)
    stats["paths"] += sum(e["paths"] for e in theirs.values())
    stats["capture positions"] += any(k[2] for k in theirs)
    _, pieces = parse_fen(fen)
    for key, entry in theirs.items():
        stats["max captured"] = max(stats["max captured"], len(key[2]))
        stats["merged moves"] += entry["paths"] > 1
        color, king = pieces[key[0]]
        last = size(variant) - 1 if color == "W" else 0
        if not king:
            stats["man moves ending on the promotion rank"] += coords(variant, key[1])[1] == last
            stats["man captures crossing the promotion rank"] += any(
                coords(variant, sq)[1] == last for landings in entry["landings"] for sq in landings[:-1]
            )
    kinds = compare(ours, theirs)
    if kinds:
        theirs_fixed = py_engine.moves(variant, fen, fixed_sum_order=True) if variant in FRISIAN else None
        cause = classify(variant, fen, ours, theirs, kinds, theirs_fixed)
        details = []
        for key in sorted(set(ours) & set(theirs), key=str):
            if ours[key]["paths"] != theirs[key]["paths"] or ours[key]["results"] != theirs[key]["results"]:
                details.append(
                    f"{sorted(ours[key]['text'])[0]}: paths ours {ours[key]['paths']} / pydraughts "
                    f"{theirs[key]['paths']}; results ours {sorted(map(canon_fen, ours[key]['results']))} / "
                    f"pydraughts {sorted(map(canon_fen, theirs[key]['results']))}"
                )
        disagreements.append(
            {
                "variant": variant,
                "source": source,
                "fen": fen,
                "cause": cause,
                "ours_only": sorted(min(ours[k]["text"]) for k in set(ours) - set(theirs)),
                "theirs_only": sorted(min(theirs[k]["text"]) for k in set(theirs) - set(ours)),
                "details": details,
            }
        )
    return ours, theirs


def play_games(variant, n_games, max_plies, rng, ours_engine, py_engine, stats, disagreements):
    start = initial_fen(variant)
    for _ in range(n_games):
        fen = start
        for _ply in range(max_plies):
            side, pieces = parse_fen(fen)
            if not any(c == "W" for c, _ in pieces.values()) or not any(c == "B" for c, _ in pieces.values()):
                break
            ours, theirs = check_position(variant, fen, "game", ours_engine, py_engine, stats, disagreements)
            common = sorted(set(ours) & set(theirs), key=lambda k: (k[0], k[1], sorted(k[2])))
            if not common:
                break
            key = rng.choice(common)
            results = sorted(theirs[key]["results"], key=canon_fen)
            fen = canon_fen(rng.choice(results))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dama", default="target/release/dama", help="path to the dama binary")
    parser.add_argument("--variants", default="dama,russian,brazilian,english")
    parser.add_argument("--games", type=int, default=100, help="random games per variant")
    parser.add_argument("--max-plies", type=int, default=150, help="cap on the length of a random game")
    parser.add_argument("--random", type=int, default=3000, help="random placements per variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the disagreements (with FENs and move lists) to this file")
    parser.add_argument("--show", type=int, default=3, help="disagreements to print per variant and cause")
    parser.add_argument(
        "--position", metavar="FEN", help="compare one position (first --variants entry) and print both move lists"
    )
    parser.add_argument(
        "--pydraughts-only",
        action="store_true",
        help="run without a dama binary: pydraughts answers for both sides (a dry run of the rest)",
    )
    args = parser.parse_args()

    py_engine = Pydraughts()
    ours_engine = PydraughtsAsOurs(py_engine) if args.pydraughts_only else Ours(args.dama)
    binary = "none (--pydraughts-only)" if args.pydraughts_only else args.dama
    print(f"pydraughts {draughts.__version__}; dama binary {binary}; seed {args.seed}")
    for variant in args.variants.split(","):
        if variant not in VARIANTS:
            sys.exit(f"unknown variant {variant!r}; choose from {', '.join(VARIANTS)}")
        check_square_mapping(variant)

    if args.position:
        variant = args.variants.split(",")[0]
        ours = ours_engine.moves(variant, args.position)
        theirs = py_engine.moves(variant, args.position)
        sides = (("pydraughts", theirs),) if args.pydraughts_only else (("dama", ours), ("pydraughts", theirs))
        for name, moves in sides:
            listed = sorted(f"{min(e['text'])} ({e['paths']} path{'s' * (e['paths'] != 1)})" for e in moves.values())
            print(f"{name:>10}: {', '.join(listed) or '(no legal move)'}")
        if args.pydraughts_only:
            print("(pydraughts only: nothing compared)")
            return 0
        kinds = compare(ours, theirs)
        theirs_fixed = None
        if kinds and variant in FRISIAN:
            theirs_fixed = py_engine.moves(variant, args.position, fixed_sum_order=True)
        print("agree" if not kinds else classify(variant, args.position, ours, theirs, kinds, theirs_fixed))
        return 0 if not kinds else 1

    # Sanity check of the square mapping: the initial positions must agree exactly.
    all_disagreements = []
    summary = {}
    exit_code = 0
    for variant in args.variants.split(","):
        if variant not in VARIANTS:
            sys.exit(f"unknown variant {variant!r}; choose from {', '.join(VARIANTS)}")
        rng = random.Random(f"{args.seed}/{variant}")
        stats: Counter = Counter()
        disagreements: list = []
        t0 = time.perf_counter()
        start = initial_fen(variant)
        ours, theirs = check_position(variant, start, "initial", ours_engine, py_engine, Counter(), disagreements)
        ours_default = ours_engine.moves(variant, start, default_start=True)
        if disagreements or compare(ours_default, theirs):
            if disagreements:
                print(show_disagreement(disagreements[0]))
            sys.exit(f"{variant}: the initial positions disagree - the square mapping is wrong")
        for fen in NAMED[variant]:
            check_position(variant, fen, "named", ours_engine, py_engine, stats, disagreements)
        named_positions = stats["positions"]
        play_games(variant, args.games, args.max_plies, rng, ours_engine, py_engine, stats, disagreements)
        game_stats = Counter(stats)
        for _ in range(args.random):
            fen = random_placement(variant, rng)
            check_position(variant, fen, "random", ours_engine, py_engine, stats, disagreements)
        elapsed = time.perf_counter() - t0
        causes = Counter(d["cause"] for d in disagreements)
        summary[variant] = {
            "positions": stats["positions"],
            "named positions": named_positions,
            "game positions": game_stats["positions"] - named_positions,
            "random positions": stats["positions"] - game_stats["positions"],
            "positions with a capture": stats["capture positions"],
            "moves compared": stats["moves"],
            "paths compared": stats["paths"],
            "moves with several paths": stats["merged moves"],
            "most pieces captured in one move": stats["max captured"],
            "man moves ending on the promotion rank": stats["man moves ending on the promotion rank"],
            "man captures crossing the promotion rank": stats["man captures crossing the promotion rank"],
            "disagreeing positions": len(disagreements),
            "causes": dict(causes),
            "seconds": round(elapsed, 1),
        }
        print(
            f"\n== {variant} ({VARIANTS[variant][0]} in pydraughts): {stats['positions']} positions "
            f"({named_positions} named, {game_stats['positions'] - named_positions} from {args.games} games, "
            f"{stats['positions'] - game_stats['positions']} random), "
            f"{stats['capture positions']} with a capture, {stats['moves']} moves / {stats['paths']} paths compared, "
            f"{len(disagreements)} disagreeing positions, {elapsed:.0f}s"
        )
        print(
            f"   coverage: {stats['merged moves']} moves with several paths, up to {stats['max captured']} pieces "
            f"in one capture, {stats['man moves ending on the promotion rank']} man moves ending on the "
            f"promotion rank, {stats['man captures crossing the promotion rank']} man captures landing on "
            f"it before their last jump"
        )
        for cause, n in sorted(causes.items()):
            print(f" {n:6d}  {cause}")
            shown = [d for d in disagreements if d["cause"] == cause][: args.show]
            for d in shown:
                print(show_disagreement(d))
            if cause.startswith("unexplained"):
                exit_code = 1
        all_disagreements.extend(disagreements)

    if args.pydraughts_only:
        print(f"\npydraughts only (no dama binary): {py_engine.seconds:.0f}s")
    else:
        print(
            f"\ndama: {ours_engine.calls} processes, {ours_engine.seconds:.0f}s; pydraughts: {py_engine.seconds:.0f}s"
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": summary, "disagreements": all_disagreements}, f, indent=1, default=sorted)
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
