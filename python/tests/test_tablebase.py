"""Table probes: the CLI's answers, python-chess's Syzygy reader, KeyError."""

import json
import subprocess

import chess
import chess.syzygy
import chess.variant
import pytest

import ransom

POSITIONS = [
    "8/8/8/8/8/8/1p6/R7 w - - 0 1",
    "8/8/8/8/8/2k5/8/R7 b - - 0 1",
    "8/8/3n4/8/8/8/6B1/8 w - - 0 1",
    "8/8/8/4q3/8/8/1N6/2B5 b - - 0 1",
    "8/8/8/8/8/8/P7/7b w - - 0 1",
    "8/8/8/2r5/8/8/8/4K2N w - - 0 1",
]


def test_probes_equal_the_cli(cli, tables3):
    with ransom.open_tablebase(tables3) as tables:
        for fen in POSITIONS:
            out = subprocess.run(
                [str(cli), "tb", "probe", "--fen", fen, "--dir", str(tables3), "--json"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            expected = json.loads(out)
            wdl = {"win": 2, "draw": 0, "loss": -2}[expected["category"]]
            assert tables.probe_wdl(fen) == wdl, fen
            assert tables.probe_dtw(chess.variant.AntichessBoard(fen)) == (expected["dtw"] or 0), fen


def test_categories_agree_with_python_chess_syzygy(repo, tables3):
    syzygy = chess.syzygy.open_tablebase(str(repo / "tests/data/syzygy_giveaway"), VariantBoard=chess.variant.AntichessBoard)
    ours = ransom.open_tablebase(tables3)
    compared = 0
    for fen in POSITIONS:
        board = chess.variant.AntichessBoard(fen)
        theirs = syzygy.get_wdl(board)
        if theirs is None:
            continue
        sign = (theirs > 0) - (theirs < 0)
        assert ours.probe_wdl(board) == 2 * sign, fen
        compared += 1
    assert compared >= 4


def test_uncovered_positions_raise_key_error(tables3):
    tables = ransom.open_tablebase(tables3)
    with pytest.raises(KeyError):
        tables.probe_wdl(chess.variant.AntichessBoard())
    assert tables.get_wdl("8/8/8/8/8/2k5/1pp5/R7 w - - 0 1") is None
    assert tables.get_dtw("8/8/8/8/8/2k5/1pp5/R7 w - - 0 1", default=-99) == -99
    with pytest.raises(ransom.RansomError):
        tables.probe_wdl("no fen")
    with pytest.raises(FileNotFoundError):
        ransom.open_tablebase(tables3 / "missing")
    with pytest.raises(ransom.RansomError, match="but the board is a Board"):
        tables.probe_wdl(chess.Board("8/8/8/8/8/8/1p6/R7 w - - 0 1"))
    with pytest.raises(ransom.RansomError, match="antichess and suicide"):
        ransom.open_tablebase(tables3, variant="crazyhouse")


def test_close_releases_the_tables(tables3):
    fen = POSITIONS[0]
    with ransom.open_tablebase(tables3) as tables:
        assert not tables.closed
        wdl = tables.probe_wdl(fen)
    # The with block closed them: probes raise KeyError, as python-chess's
    # closed tables do, and the get_ forms return their default.
    assert tables.closed
    with pytest.raises(KeyError, match="closed"):
        tables.probe_wdl(fen)
    assert tables.get_wdl(fen) is None
    tables.close()
    assert tables.closed
    # A new object opens the same folder again.
    assert ransom.open_tablebase(tables3).probe_wdl(fen) == wdl
