#!/usr/bin/env python3
"""Matches between `ransom uci` and Fairy-Stockfish, driven by python-chess.

Not part of CI (a 40-game match takes 10-20 minutes). Usage:

    cargo build --release
    python3 benches/engine_match.py --variant antichess --games 40 --skill 0

Each opening (two random plies, seeded) is played twice with the colours
swapped. Both engines get the same clock (default 1 s + 0.1 s per move),
kept by this script from the wall time of each move: a clock below zero is
a loss on time. It also checks that no engine sends an illegal move and
that every `score mate N` ransom gives is delivered within N moves.
Prints one summary line (JSON) and a Markdown row for docs/engine.md.

Needs python-chess (`pip install chess`) and Fairy-Stockfish from Debian's
package `fairy-stockfish` (installed here with apt-get when missing).
"""

import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import time

try:
    import chess
    import chess.engine
    import chess.variant
except ImportError:
    sys.exit("engine_match.py needs python-chess: pip install chess")

MAX_PLIES = 400


def find_fairy_stockfish(path):
    """The engine's path, installing Debian's package when it is missing."""
    if path:
        return path
    for candidate in ("fairy-stockfish", "/usr/games/fairy-stockfish"):
        found = shutil.which(candidate)
        if found:
            return found
    print("fairy-stockfish not found: installing Debian's package fairy-stockfish", file=sys.stderr)
    subprocess.run(["apt-get", "install", "-y", "fairy-stockfish"], check=True,
                   env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    return shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"


def new_board(variant):
    return chess.variant.find_variant(variant)()


def opening(variant, seed, plies):
    rng = random.Random(seed)
    board = new_board(variant)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))
    return board.move_stack[:]


class Game:
    """One game; ransom plays `ransom_color`."""

    def __init__(self, args, engines, ransom_color, moves):
        self.args = args
        self.engines = engines
        self.ransom_color = ransom_color
        self.board = new_board(args.variant)
        for m in moves:
            self.board.push(m)
        self.clock = {chess.WHITE: args.base, chess.BLACK: args.base}
        self.flag = None
        self.illegal = None
        self.mate_claims = []  # (ply of the claim, N)

    def name(self, color):
        return "ransom" if color == self.ransom_color else "fsf"

    def play(self):
        board = self.board
        while board.outcome(claim_draw=True) is None and board.ply() < MAX_PLIES:
            color = board.turn
            who = self.name(color)
            limit = chess.engine.Limit(
                white_clock=max(self.clock[chess.WHITE], 0.001),
                black_clock=max(self.clock[chess.BLACK], 0.001),
                white_inc=self.args.inc, black_inc=self.args.inc)
            started = time.monotonic()
            try:
                result = self.engines[who].play(board, limit, info=chess.engine.INFO_SCORE)
            except chess.engine.EngineError as error:
                self.illegal = (who, str(error))
                return 0.0 if who == "ransom" else 1.0
            spent = time.monotonic() - started
            self.clock[color] -= spent
            if self.clock[color] < 0:
                self.flag = who
                return 0.0 if who == "ransom" else 1.0
            self.clock[color] += self.args.inc
            score = result.info.get("score")
            if who == "ransom" and score is not None:
                mate = score.pov(color).mate()
                if mate is not None and mate > 0:
                    self.mate_claims.append((board.ply(), mate))
            if result.move is None:
                break
            board.push(result.move)
        outcome = board.outcome(claim_draw=True)
        if outcome is None or outcome.winner is None:
            return 0.5
        return 1.0 if outcome.winner == self.ransom_color else 0.0

    def broken_mate_claims(self, points):
        """Claims not delivered within their count."""
        broken = []
        end = self.board.ply()
        for ply, n in self.mate_claims:
            if points != 1.0 or end - ply > 2 * n:
                broken.append({"ply": ply, "mate": n, "ended": end, "points": points})
        return broken


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="antichess", help="antichess or crazyhouse")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--skill", type=int, default=0, help="Fairy-Stockfish Skill Level (-20..20)")
    parser.add_argument("--base", type=float, default=1.0, help="seconds per side")
    parser.add_argument("--inc", type=float, default=0.1, help="seconds added per move")
    parser.add_argument("--ransom", default="target/release/ransom")
    parser.add_argument("--fsf", default=None, help="Fairy-Stockfish binary")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opening-plies", type=int, default=2)
    parser.add_argument(
        "--tablebases",
        default=None,
        help="ransom's Losing-chess tables (`ransom tb build --pieces 4 --dir DIR`), "
        "used at the root and inside its search",
    )
    args = parser.parse_args()
    if not os.path.exists(args.ransom):
        sys.exit(f"{args.ransom} not found: run `cargo build --release` first")
    fsf = find_fairy_stockfish(args.fsf)
    engines = {
        "ransom": chess.engine.SimpleEngine.popen_uci([args.ransom, "uci"]),
        "fsf": chess.engine.SimpleEngine.popen_uci(fsf),
    }
    engines["fsf"].configure({"Skill Level": args.skill, "Threads": 1})
    if args.tablebases:
        if not os.path.isdir(args.tablebases):
            sys.exit(f"{args.tablebases}: no such table directory")
        engines["ransom"].configure({"Tablebases": os.path.abspath(args.tablebases)})
    points, flags, illegal, broken, claims = [], [], [], [], 0
    try:
        for game_number in range(args.games):
            moves = opening(args.variant, args.seed + game_number // 2, args.opening_plies)
            ransom_color = chess.WHITE if game_number % 2 == 0 else chess.BLACK
            for engine in engines.values():
                engine.protocol.send_line("ucinewgame")
            game = Game(args, engines, ransom_color, moves)
            p = game.play()
            points.append(p)
            claims += len(game.mate_claims)
            if game.flag:
                flags.append(game.flag)
            if game.illegal:
                illegal.append(game.illegal)
            broken += game.broken_mate_claims(p)
            print(f"game {game_number + 1}: ransom {'white' if ransom_color else 'black'} "
                  f"scores {p} in {game.board.ply()} plies", file=sys.stderr)
    finally:
        for engine in engines.values():
            engine.quit()
    n = len(points)
    mean = sum(points) / n
    var = sum((p - mean) ** 2 for p in points) / max(n - 1, 1)
    error = 1.96 * math.sqrt(var / n)
    summary = {
        "variant": args.variant, "skill": args.skill, "games": n,
        "tc": f"{args.base:g}+{args.inc:g}",
        "wins": points.count(1.0), "draws": points.count(0.5), "losses": points.count(0.0),
        "score": round(mean, 3), "error95": round(error, 3),
        "flags": flags, "illegal": illegal,
        "mate_claims": claims, "mate_claims_broken": broken,
        "tablebases": args.tablebases,
    }
    print(json.dumps(summary))
    print(f"| {args.variant} | {args.skill} | {n} | {summary['wins']}/{summary['draws']}/"
          f"{summary['losses']} | {100 * mean:.1f}% ± {100 * error:.1f} | {len(flags)} | "
          f"{len(illegal)} | {claims} ({len(broken)} broken) |")


if __name__ == "__main__":
    main()
