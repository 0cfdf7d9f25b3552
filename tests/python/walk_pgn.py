"""Walks every line of a Losing-chess PGN with python-chess, as the tools
built on it do: each line (main line and variations) must end in a game
python-chess scores, won by the side the PGN's Result names.

    python3 tests/python/walk_pgn.py FILE.pgn

Prints the number of lines and exits 0, or names the first line that does
not end the game and exits 1. Needs python-chess (`pip install chess`).
"""

import sys

import chess.pgn
import chess.variant


def walk(node, board, lines):
    """Appends (moves, board) for every line below `node`."""
    if not node.variations:
        lines.append((board.move_stack[:], board.copy()))
        return
    for child in node.variations:
        board.push(child.move)
        walk(child, board, lines)
        board.pop()


def main(path):
    with open(path, encoding="utf-8") as f:
        game = chess.pgn.read_game(f)
    if game is None or game.errors:
        print(f"{path}: not read: {game.errors if game else 'no game'}")
        return 1
    if not isinstance(game.board(), chess.variant.AntichessBoard):
        print(f"{path}: not an antichess game ({type(game.board()).__name__})")
        return 1
    expected = game.headers["Result"]
    lines = []
    walk(game, game.board(), lines)
    for moves, board in lines:
        outcome = board.outcome()
        if outcome is None or outcome.result() != expected:
            line = " ".join(m.uci() for m in moves)
            print(f"{path}: the line {line} ends in {board.fen()}: {outcome}")
            return 1
    print(f"{path}: {len(lines)} lines, every one ends {expected}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
