"""Legal moves, SAN and perft against python-chess itself."""

import random

import chess
import chess.variant
import pytest

import ransom

BOARDS = {
    "chess": chess.Board,
    "antichess": chess.variant.AntichessBoard,
    "crazyhouse": chess.variant.CrazyhouseBoard,
}


def python_chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


@pytest.mark.parametrize(
    "variant, fen, depth",
    [
        ("antichess", None, 3),
        ("antichess", "rnbqkbnr/p1pppppp/8/1p6/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2", 3),
        ("antichess", "8/1p6/8/8/8/8/6P1/R3K2R w - - 0 1", 3),
        ("crazyhouse", None, 3),
        ("crazyhouse", "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1", 2),
        ("crazyhouse", "rnb1kbnr/ppp1pppp/8/q7/8/2N5/PPPP1PPP/R1BQKBNR[Pp] w KQkq - 0 4", 2),
        ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2),
    ],
)
def test_perft_equals_python_chess(variant, fen, depth):
    board = BOARDS[variant]() if fen is None else BOARDS[variant](fen)
    assert ransom.perft(board, depth) == python_chess_perft(board, depth)
    assert ransom.perft(board.fen(), depth, variant=variant, threads=1) == python_chess_perft(board, depth)


def python_chess_san(board: chess.Board, move: chess.Move) -> str:
    """python-chess's SAN, a pawn drop given its letter: python-chess writes
    `@d5` where lichess and ransom write `P@d5` (python-chess reads both)."""
    san = board.san(move)
    return "P" + san if san.startswith("@") else san


def san_differences(variant: str, games: int, plies: int, seed: int):
    """Plays seeded random games on python-chess boards; at every position
    compares ransom's legal moves (UCI and SAN) with python-chess's, and
    checks that python-chess reads each SAN ransom writes as the same move."""
    rng = random.Random(seed)
    differences = []
    compared = 0
    for _ in range(games):
        board = BOARDS[variant]()
        for _ in range(plies):
            if board.is_game_over():
                break
            theirs = {(m.uci(), python_chess_san(board, m)) for m in board.legal_moves}
            ours = set(ransom.legal_moves(board))
            for uci, san in ours:
                if board.parse_san(san).uci() != uci:
                    differences.append((board.fen(), [(uci, san, "read back differently")]))
            compared += len(theirs)
            if ours != theirs:
                differences.append((board.fen(), sorted(ours ^ theirs)))
            board.push(rng.choice(list(board.legal_moves)))
    return compared, differences


@pytest.mark.parametrize("variant", ["chess", "antichess", "crazyhouse"])
def test_san_equals_python_chess_over_random_games(variant):
    compared, differences = san_differences(variant, games=12, plies=120, seed=7)
    assert compared > 5_000
    assert differences == [], differences[:3]


def test_pawn_drop_san_is_written_with_its_letter():
    board = chess.variant.CrazyhouseBoard()
    for san in ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5"]:
        board.push_san(san)
    drop = [m for m in ransom.legal_moves(board) if m.uci == "P@d5"]
    assert drop == [ransom.LegalMove("P@d5", "P@d5")]
    assert board.parse_san("P@d5") == drop[0].move


def test_variants_and_start_positions():
    assert {"chess", "antichess", "crazyhouse", "hostage", "contact", "hitandrun"} <= set(ransom.variants())
    assert len(ransom.legal_moves(None, variant="hostage")) == 20
    assert ransom.perft(None, 2, variant="contact") > 0


def test_bad_input_raises_ransom_error_with_the_cli_message():
    with pytest.raises(ransom.RansomError, match="expected 8 ranks"):
        ransom.perft("not a fen", 1)
    with pytest.raises(ransom.RansomError, match="unknown variant"):
        ransom.legal_moves(None, variant="no-such-variant")
    with pytest.raises(TypeError):
        ransom.perft(42, 1)
    assert issubclass(ransom.RansomError, ValueError)
