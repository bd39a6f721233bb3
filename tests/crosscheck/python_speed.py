#!/usr/bin/env python3
"""Speed of the dama Python package against pydraughts, side by side, in one run.

What it times, per variant (ours -> pydraughts: dama -> turkish, russian -> russian,
english -> english; FEN text is passed unchanged, as in pydraughts_crosscheck.py):

1. legal-move generation: the same positions (the start and every position of a few
   random games, played with our API from a fixed seed), each listed `--reps` times;
   ours ``rules.legal_moves(pos)`` (Move objects with notation built), pydraughts
   ``Board.legal_moves()`` on boards built beforehand;
2. perft from the start to ``--depth``: pydraughts by push/pop over ``legal_moves()``
   (it has no perft of its own; it counts one leaf per capture path), ours both as
   ``rules.perft`` (the native counter, one call) and as the same Python loop over
   ``rules.legal_moves`` / ``rules.play`` (what a Python program written against our
   API does).

It prints a table with the ratios (pydraughts time / ours). Not run in CI::

    python3 -m venv /tmp/pyspeed && /tmp/pyspeed/bin/pip install pydraughts ./crates/dama-py
    /tmp/pyspeed/bin/python tests/crosscheck/python_speed.py
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import dama

try:
    from draughts import Board
except ImportError:  # pragma: no cover
    sys.exit("pydraughts is not installed: pip install pydraughts")

VARIANTS = [("dama", "turkish"), ("russian", "russian"), ("english", "english")]


def sample_positions(rules: dama.Rules, games: int, max_plies: int, seed: int) -> list[dama.Position]:
    rng = random.Random(seed)
    out = [rules.initial()]
    for _ in range(games):
        g = dama.Game(rules)
        while not g.is_over and len(g) < max_plies:
            g.play(rng.choice(g.legal_moves()))
            if not g.is_over:
                out.append(g.position)
    return out


def ours_python_perft(rules: dama.Rules, pos: dama.Position, depth: int) -> int:
    moves = rules.legal_moves(pos)
    if depth == 1:
        # Paths, as pydraughts counts: a move reached by several capture paths counts once
        # per path, which our Move does not expose; use the native count for the last ply.
        return rules.perft(pos, 1)
    return sum(ours_python_perft(rules, rules.play(pos, m), depth - 1) for m in moves)


def py_perft(board: Board, depth: int) -> int:
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    n = 0
    for m in moves:
        board.push(m)
        n += py_perft(board, depth - 1)
        board.pop()
    return n


def timed(f):
    t = time.perf_counter()
    r = f()
    return r, time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--max-plies", type=int, default=80)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    rows = []
    for ours, pyv in VARIANTS:
        rules = dama.Rules.builtin(ours)
        positions = sample_positions(rules, args.games, args.max_plies, args.seed)
        fens = [rules.to_fen(p) for p in positions]
        boards = [Board(pyv, f) for f in fens]

        # Same number of legal moves (paths) per position? A sanity check only; known rule
        # differences are documented in tests/crosscheck/README.md.
        differ = sum(1 for p, b in zip(positions, boards) if rules.perft(p, 1) != len(b.legal_moves()))

        def gen_ours():
            for _ in range(args.reps):
                for p in positions:
                    rules.legal_moves(p)

        def gen_py():
            for _ in range(args.reps):
                for b in boards:
                    b.legal_moves()

        _, t_ours = timed(gen_ours)
        _, t_py = timed(gen_py)
        calls = args.reps * len(positions)
        rows.append((ours, "legal moves", f"{len(positions)} positions x {args.reps}", t_ours / calls, t_py / calls, differ))

        start = rules.initial()
        n_native, t_native = timed(lambda: rules.perft(start, args.depth))
        n_loop, t_loop = timed(lambda: ours_python_perft(rules, start, args.depth))
        n_py, t_pyd = timed(lambda: py_perft(Board(pyv, rules.to_fen(start)), args.depth))
        note = "" if n_native == n_loop == n_py else f"counts differ: {n_native} / {n_loop} / {n_py}"
        rows.append((ours, "perft native", f"start, depth {args.depth}: {n_native}", t_native, t_pyd, note))
        rows.append((ours, "perft Python loop", f"start, depth {args.depth}: {n_loop}", t_loop, t_pyd, note))

    print(f"dama {dama.__version__} against pydraughts; times per call (legal moves) or per run (perft)")
    print()
    print("| variant | what | on | dama | pydraughts | ratio (pydraughts / dama) | note |")
    print("|---|---|---|---:|---:|---:|---|")
    for v, what, on, t_ours, t_py, note in rows:
        if isinstance(note, int):
            note = f"{note} positions with another path count" if note else ""
        print(f"| {v} | {what} | {on} | {fmt(t_ours)} | {fmt(t_py)} | {t_py / t_ours:,.0f}x | {note} |")
    return 0


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


if __name__ == "__main__":
    sys.exit(main())
