"""prove and verify: a proof's lines replayed on python-chess boards end in
games python-chess scores as the proved winner's."""

import pathlib
import sys

import chess
import chess.pgn
import chess.variant
import pytest

import ransom


# The PGN walker the Rust suite's python-chess check uses (tests/python).
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tests" / "python"))
from walk_pgn import walk  # noqa: E402


def test_e4_loses_and_every_proof_line_ends_in_a_black_win(tmp_path):
    board = chess.variant.AntichessBoard()
    board.push_san("e4")
    proof, pgn = tmp_path / "e4.proof", tmp_path / "e4.pgn"
    result = ransom.prove(board, max_nodes=500_000, threads=1, proof_path=proof, pgn=pgn, pgn_full=True)
    assert result.proved and result.verified
    assert result.winner == chess.BLACK
    assert result.best_move in board.legal_moves
    assert result.proof_size > 0 and result.nodes > 0
    assert result.proof_path == str(proof)

    game = chess.pgn.read_game(open(pgn, encoding="utf-8"))
    assert not game.errors
    lines = []
    walk(game, game.board(), lines)
    assert len(lines) >= 5
    for _, end in lines:
        outcome = end.outcome()
        assert outcome is not None, end.fen()
        assert outcome.winner == chess.BLACK, end.fen()

    checked = ransom.verify(proof)
    assert checked.winner == chess.BLACK
    assert checked.variant == "antichess"
    assert checked.positions == result.proof_size


def test_moves_after_the_board_and_the_same_answer_as_from_the_start():
    from_moves = ransom.prove(None, ["e4"], max_nodes=500_000, threads=1)
    board = chess.variant.AntichessBoard()
    board.push_san("e4")
    from_board = ransom.prove(board, max_nodes=500_000, threads=1)
    assert from_moves.winner == from_board.winner == chess.BLACK


def test_an_exhausted_budget_is_unknown_not_an_error():
    result = ransom.prove(None, ["b4"], max_nodes=2_000, threads=1)
    assert result.result == "unknown"
    assert result.winner is None and not result.proved
    assert not result.verified


def test_a_store_is_resumed(tmp_path):
    store = tmp_path / "store"
    first = ransom.prove(None, ["b4"], max_nodes=20_000, threads=1, store=store)
    assert first.result == "unknown" and first.checkpoint
    second = ransom.prove(None, ["b4"], max_nodes=20_000, threads=1, store=store)
    assert second.report["resumed"] is True


def test_moves_as_one_string_and_bad_numbers():
    assert ransom.prove(None, "e4", max_nodes=500_000, threads=1).winner == chess.BLACK
    with pytest.raises(ransom.RansomError, match="threads must be at least 1"):
        ransom.prove(None, ["e4"], threads=0)
    with pytest.raises(ransom.RansomError, match="but the board is a CrazyhouseBoard"):
        ransom.prove(chess.variant.CrazyhouseBoard(), variant="antichess")


def test_errors_name_the_problem(tmp_path):
    with pytest.raises(ransom.RansomError, match="Kf5"):
        ransom.prove(None, ["e4", "Kf5"], max_nodes=10)
    bad = tmp_path / "bad.proof"
    bad.write_bytes(b"not a proof")
    with pytest.raises(ransom.RansomError):
        ransom.verify(bad)
    with pytest.raises(ransom.RansomError, match="max_time"):
        ransom.prove(None, ["e4"], max_time=-1)
