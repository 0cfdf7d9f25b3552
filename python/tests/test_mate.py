"""mate: the shortest mate with its solution tree as nested objects."""

import chess
import chess.variant

import ransom


def replay(board, nodes, attacker):
    """Every line of the tree played on `board` ends in the attacker's mate."""
    for node in nodes:
        assert node.move in board.legal_moves, (board.fen(), node.uci)
        board.push(node.move)
        if node.next:
            replay(board, node.next, attacker)
        else:
            assert board.is_checkmate(), board.fen()
            assert board.outcome().winner == attacker
        board.pop()


def test_back_rank_mate_in_one_with_every_key():
    board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - 0 1")
    result = ransom.mate(board, 3, all_keys=True)
    assert result.status == "mate" and result.mate_in == 1 and result.shortest
    assert result.keys == ["b1b8"]
    replay(board, result.tree, chess.WHITE)


def test_crazyhouse_drop_mate_tree_replays_on_python_chess():
    board = chess.variant.CrazyhouseBoard("1R1n2k1/N1p5/1pR1pPp1/pP4b1/P1QR4/2b~N4/3N4/rBKbn~b2[QPppppp] b - - 2 91")
    result = ransom.mate(board, 2)
    assert result.mate_in == 2
    assert result.tree and result.tree[0].by == chess.BLACK
    replay(board, result.tree, chess.BLACK)


def test_no_mate_within_the_bound():
    result = ransom.mate(chess.Board(), 1)
    assert result.status == "no-mate" and result.mate_in is None and result.tree == []


def test_bad_lengths_and_boards_are_errors():
    import pytest

    with pytest.raises(ransom.RansomError, match="n must be at least 1"):
        ransom.mate(chess.Board(), 0)
    with pytest.raises(ransom.RansomError, match="variant='antichess'"):
        ransom.mate(chess.Board(), 1, variant="antichess")
