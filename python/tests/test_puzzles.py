"""Puzzle sets read, and exported as files python-chess loads."""

import csv
import io

import chess
import chess.variant
import pytest

import ransom


def test_read_a_set(repo):
    puzzles = ransom.read_puzzles(repo / "puzzles/crazyhouse-generated-m2-3.epd")
    assert len(puzzles) == 60
    first = puzzles[0]
    assert first.variant == "crazyhouse" and first.unique
    board = first.board()
    assert isinstance(board, chess.variant.CrazyhouseBoard)
    for san in first.pv:
        board.push_san(san)
    assert board.is_checkmate()


@pytest.mark.parametrize(
    "name, board_type",
    [
        ("crazyhouse-generated-m2-3", chess.variant.CrazyhouseBoard),
        ("antichess-generated-wins", chess.variant.AntichessBoard),
    ],
)
def test_lichess_csv_is_played_to_the_end_by_python_chess(repo, name, board_type):
    exported = ransom.export_puzzles(repo / f"puzzles/{name}.epd", "lichess")
    rows = list(csv.DictReader(io.StringIO(exported.text)))
    assert len(rows) == exported.written == 60 and not exported.left_out
    puzzles = {p.id: p for p in ransom.read_puzzles(repo / f"puzzles/{name}.epd")}
    for row in rows:
        board = board_type(row["FEN"])
        moves = row["Moves"].split()
        opponent = board.turn
        # The opponent's last move leads to the puzzle's position.
        after = board.copy()
        after.push(chess.Move.from_uci(moves[0]))
        assert after.epd() == board_type(puzzles[row["PuzzleId"]].fen).epd()
        for uci in moves:
            move = chess.Move.from_uci(uci)
            assert move in board.legal_moves, (row["PuzzleId"], uci)
            board.push(move)
        outcome = board.outcome()
        assert outcome is not None, row
        if board_type is chess.variant.CrazyhouseBoard:
            assert board.is_checkmate() and outcome.winner != opponent
            assert "mateIn" in row["Themes"]
        else:
            assert outcome.winner != opponent
            assert "winIn" in row["Themes"]
        assert row["Rating"] == ""


def test_hand_made_suites_are_left_out_of_the_csv_with_the_reason(repo):
    exported = ransom.export_puzzles(repo / "puzzles/crazyhouse-mates.epd", "lichess")
    assert exported.written == 0 and exported.text.count("\n") == 1
    assert len(exported.left_out) == 71
    assert all("no last move" in why for _, why in exported.left_out)


@pytest.mark.parametrize(
    "name, board_type",
    [
        ("crazyhouse-generated-m2-3", chess.variant.CrazyhouseBoard),
        ("crazyhouse-mates", chess.variant.CrazyhouseBoard),
        ("antichess-generated-wins", chess.variant.AntichessBoard),
        ("chess-mates2000-upto5", chess.Board),
    ],
)
def test_epd_is_read_by_python_chess(repo, name, board_type):
    exported = ransom.export_puzzles(repo / f"puzzles/{name}.epd", "epd")
    lines = exported.text.splitlines()
    assert len(lines) == exported.written > 0
    for line in lines:
        board, ops = board_type.from_epd(line)
        assert ops["variant"] == board.uci_variant
        assert ops["type"] in ("mate", "win")
        assert ops["eval"] == f"#{ops['dm']}"
        assert ops["pv"][0] in ops["bm"]
        for move in ops["pv"]:
            board.push(move)
        assert board.is_game_over(), line
