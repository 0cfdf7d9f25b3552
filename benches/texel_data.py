#!/usr/bin/env python3
"""Positions labelled with game results, for tuning the Losing-chess evaluation.

Fairy-Stockfish plays antichess against itself at a fixed number of nodes a
move from openings of a few random plies (seeded); every position of each
game from ply `--skip` on is written as one line `FEN<TAB>result`, the
result from White's side (1, 0.5 or 0). `examples/tune_losing.rs` reads the
file. Not part of CI. Usage:

    python3 benches/texel_data.py --games 2000 --out /tmp/texel.tsv

Appends to `--out`, one game at a time (an interrupted run keeps what it
wrote; a rerun with another `--seed` adds other games). Needs python-chess
and Fairy-Stockfish (Debian's package `fairy-stockfish`, installed with
apt-get when missing, as in engine_match.py).
"""

import argparse
import os
import random
import sys
import time

try:
    import chess
    import chess.engine
    import chess.variant
except ImportError:
    sys.exit("texel_data.py needs python-chess: pip install chess")

from engine_match import find_fairy_stockfish

MAX_PLIES = 400


def play_game(engine, rng, args):
    """One game: the positions (FENs) from ply `args.skip` on and White's score."""
    board = chess.variant.AntichessBoard()
    for _ in range(rng.randint(args.min_random, args.max_random)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    fens = []
    while board.outcome(claim_draw=True) is None and board.ply() < MAX_PLIES:
        if board.ply() >= args.skip:
            fens.append(board.fen())
        result = engine.play(board, chess.engine.Limit(nodes=args.nodes))
        if result.move is None:
            break
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    if outcome is None or outcome.winner is None:
        score = 0.5
    else:
        score = 1.0 if outcome.winner == chess.WHITE else 0.0
    return fens, score


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--nodes", type=int, default=20000, help="Fairy-Stockfish nodes a move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip", type=int, default=8, help="first ply recorded")
    parser.add_argument("--min-random", type=int, default=4)
    parser.add_argument("--max-random", type=int, default=8)
    parser.add_argument("--fsf", default=None, help="Fairy-Stockfish binary")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    folder = os.path.dirname(os.path.abspath(args.out))
    os.makedirs(folder, exist_ok=True)
    engine = chess.engine.SimpleEngine.popen_uci(find_fairy_stockfish(args.fsf))
    engine.configure({"Threads": 1, "Hash": 16})
    rng = random.Random(args.seed)
    started = time.monotonic()
    results = {1.0: 0, 0.5: 0, 0.0: 0}
    positions = 0
    try:
        for game in range(args.games):
            fens, score = play_game(engine, rng, args)
            with open(args.out, "a") as out:
                for fen in fens:
                    out.write(f"{fen}\t{score}\n")
            results[score] += 1
            positions += len(fens)
            if (game + 1) % 20 == 0:
                print(f"{game + 1} games, {positions} positions, White/draw/Black "
                      f"{results[1.0]}/{results[0.5]}/{results[0.0]}, "
                      f"{time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
