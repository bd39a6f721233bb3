#!/usr/bin/env python3
"""pydraughts' DXP client plays full games against `dama dxp --listen`.

pydraughts (0.6.7) drives a DXP engine with `draughts.engine.DXPEngine`; with
`engine-opened: True` it connects to a program that already listens instead of
starting one. This script starts `dama dxp international --listen` on a free
port, then plays GAMES games (default 2: dama White, then dama Black): dama's
moves come over DXP, pydraughts' own moves are random legal moves (seeded).
Every dama move is checked to be legal in pydraughts' board (pydraughts finds
it among its legal moves) and the game goes on until pydraughts' board says it
is over, or dama ends it with GAMEEND.

Not part of `cargo test` (CI has only Rust). Run it in a virtual environment:

    python3 -m venv /tmp/dxpvenv && /tmp/dxpvenv/bin/pip install pydraughts==0.6.7
    cargo build --release -p dama-cli
    /tmp/dxpvenv/bin/python tests/crosscheck/dxp_pydraughts.py [--dama target/release/dama] [--games 2]

Exit code 0 when every game was played to its end with only legal moves.
"""

import argparse
import os
import random
import re
import socket
import subprocess
import sys
import threading
import time

import draughts
from draughts.engine import DXPEngine


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--dama", default=os.path.join(root, "target", "release", "dama"))
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--movetime", type=int, default=50, help="dama's milliseconds per move")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    port = free_port()
    listener = subprocess.Popen(
        [args.dama, "dxp", "international", "--listen", "--port", str(port),
         "--movetime", str(args.movetime), "--timeout", "120"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    log = []
    first = listener.stderr.readline()
    log.append(first.rstrip())
    threading.Thread(target=lambda: [log.append(l.rstrip()) for l in listener.stderr], daemon=True).start()
    if "listening" not in first:
        print("dama dxp did not start:", first)
        return 1
    print(first.rstrip())

    rng = random.Random(args.seed)
    failures = 0
    try:
        for g in range(args.games):
            dama_white = g % 2 == 0
            ok = play_one(port, dama_white, rng)
            failures += 0 if ok else 1
            time.sleep(0.5)
    finally:
        listener.terminate()
        listener.wait(timeout=10)
    print("--- dama dxp's log ---")
    for line in log:
        print("  ", line)
    if any("panicked" in l for l in log):
        print("dama panicked")
        failures += 1
    print("OK" if failures == 0 else f"{failures} game(s) failed")
    return 0 if failures == 0 else 1


def play_one(port, dama_white, rng):
    board = draughts.Board(variant="standard")
    engine = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1", "port": str(port),
                              "initial-time": 120, "max-moves": 0})
    dama_color = draughts.WHITE if dama_white else draughts.BLACK
    plies = 0
    ended_by = None
    while not board.is_over():
        if board.turn == dama_color:
            box = {}
            t = threading.Thread(target=lambda: box.update(r=engine.play(board)), daemon=True)
            t.start()
            deadline = time.time() + 60
            while t.is_alive() and time.time() < deadline and engine.sender.current.result is None:
                time.sleep(0.02)
            if t.is_alive() or box.get("r") is None or box["r"].move is None:
                # No move: dama sent GAMEEND (or went silent).
                ended_by = f"dama sent GAMEEND (reason {engine.sender.current.result})" \
                    if engine.sender.current.result is not None else "no move from dama within 60 s"
                break
            move = box["r"].move
            legal = [m.pdn_move for m in board.legal_moves()]
            if move.pdn_move not in legal:
                print(f"game: dama's move {move.pdn_move} is not legal for pydraughts: {legal}")
                return False
            board.push(move)
        else:
            board.push(rng.choice(board.legal_moves()))
        plies += 1
    if ended_by is None:
        ended_by = f"pydraughts: over, winner {board.winner()}"
    print(f"game: dama {'White' if dama_white else 'Black'}, {plies} plies, {ended_by}; "
          f"dama's name: {engine.id.get('name')!r}")
    moves = " ".join(m.pdn_move for m in board.move_stack)
    print("  moves:", moves)
    engine.quit()
    engine.kill_process()
    return ended_by.startswith("pydraughts: over") or ended_by.startswith("dama sent GAMEEND")


if __name__ == "__main__":
    sys.exit(main())
