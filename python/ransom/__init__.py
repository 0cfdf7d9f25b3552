"""ransom from Python: proofs, mate solutions and endgame tables for chess
variants, on python-chess boards.

Positions go in as a python-chess board of the matching variant
(``chess.Board``, ``chess.variant.AntichessBoard``, ``SuicideBoard``,
``CrazyhouseBoard``), as a FEN string with ``variant=`` (every variant
ransom knows: Hostage, Contact and Hit-and-Run too), or as ``None`` for the
variant's start position. Moves come out as UCI strings (which
``chess.Move.from_uci`` reads) and SAN.

>>> import chess.variant, ransom
>>> board = chess.variant.AntichessBoard()
>>> board.push_san("e4")
Move.from_uci('e2e4')
>>> result = ransom.prove(board, max_nodes=500_000, threads=1)
>>> result.winner == chess.BLACK, result.verified
(True, True)

Long searches (``prove``, ``mate``) run without the GIL and stop at
Ctrl-C: the search stops as the command line's does (writing its store and
checkpoint when ``store=`` is given), then ``KeyboardInterrupt`` is raised
with the run's result, settled or not, as its ``result`` attribute. A
Ctrl-C stops the search of the thread it reaches only. Errors are
``RansomError`` (a ``ValueError``) with the command line's message.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Tuple, Union

import chess
import chess.variant

from ransom import _native
from ransom._native import RansomError

__all__ = [
    "RansomError",
    "LegalMove",
    "ProofResult",
    "MateResult",
    "SolutionNode",
    "Tablebase",
    "VerifiedProof",
    "Puzzle",
    "ExportedPuzzles",
    "variants",
    "legal_moves",
    "perft",
    "prove",
    "mate",
    "open_tablebase",
    "verify",
    "read_puzzles",
    "export_puzzles",
    "board_of",
]

#: A position: a python-chess board, a FEN string, or ``None`` (the start).
BoardLike = Union[chess.Board, str, None]
#: A file or folder path.
PathLike = Union[str, "os.PathLike[str]"]


def _position(board: BoardLike, variant: Optional[str], default: str) -> Tuple[str, Optional[str]]:
    """The variant name and FEN of ``board`` (``None``: the start).

    A python-chess board names its variant (``uci_variant``); a ``variant=``
    that names another is an error, not a silent change of rules.
    """
    if board is None:
        return variant or default, None
    if isinstance(board, str):
        return variant or default, board
    if isinstance(board, chess.Board):
        own = board.uci_variant or "chess"
        if variant is not None and _native.same_variant(variant, own) is False:
            raise RansomError(f"variant={variant!r} but the board is a {type(board).__name__} ({own})")
        return own, board.fen()
    raise TypeError(f"expected a python-chess board, a FEN string or None, not {type(board).__name__}")


def _at_least(name: str, value: Optional[int], least: int) -> None:
    """``RansomError`` unless ``value`` is ``None`` or at least ``least``."""
    if value is not None and value < least:
        raise RansomError(f"{name} must be at least {least}, not {value}")


def _moves(moves: Union[str, Iterable[str]]) -> List[str]:
    """Moves as a list: a string is split at spaces (``"e4 b5"``)."""
    if isinstance(moves, str):
        return moves.split()
    return [str(m) for m in moves]


def _path(path: Optional[PathLike]) -> Optional[str]:
    return None if path is None else os.fspath(path)


def _move(uci: Optional[str]) -> Optional[chess.Move]:
    """``chess.Move.from_uci(uci)``, or ``None`` for a form python-chess lacks
    (Hostage exchanges such as ``N#B@d5``)."""
    if uci is None:
        return None
    try:
        return chess.Move.from_uci(uci)
    except ValueError:
        return None


def _color(name: Optional[str]) -> Optional[chess.Color]:
    return {"white": chess.WHITE, "black": chess.BLACK}.get(name or "")


def variants() -> List[str]:
    """The names ``variant=`` takes (aliases such as ``giveaway`` too)."""
    return list(_native.variants())


def board_of(fen: Optional[str], variant: str) -> chess.Board:
    """A python-chess board of ``variant`` at ``fen`` (the start without one).

    Raises ``ValueError`` for a variant python-chess does not have (Hostage,
    Contact, Hit-and-Run).
    """
    cls = chess.Board if variant in ("chess", "standard") else chess.variant.find_variant(variant)
    return cls() if fen is None else cls(fen)


class LegalMove(NamedTuple):
    """A legal move: UCI (``e2e4``, ``P@d5``) and SAN with ``+``/``#``."""

    uci: str
    san: str

    @property
    def move(self) -> chess.Move:
        """The move as python-chess's ``chess.Move``."""
        return chess.Move.from_uci(self.uci)


def legal_moves(board: BoardLike = None, *, variant: Optional[str] = None) -> List[LegalMove]:
    """The legal moves of ``board`` (default variant: chess)."""
    name, fen = _position(board, variant, "chess")
    return [LegalMove(u, s) for u, s in _native.legal_moves(name, fen)]


def perft(board: BoardLike, depth: int, *, variant: Optional[str] = None, threads: Optional[int] = None) -> int:
    """Leaf nodes ``depth`` plies below ``board``, counted on ``threads``
    threads (default: every core). Default variant: chess. Not stopped by
    Ctrl-C (``KeyboardInterrupt`` comes when the count is done)."""
    _at_least("depth", depth, 0)
    _at_least("threads", threads, 1)
    name, fen = _position(board, variant, "chess")
    return _native.perft(name, fen, depth, threads)


@dataclass(frozen=True)
class ProofResult:
    """What ``prove`` found.

    ``winner`` is ``chess.WHITE``/``chess.BLACK`` when proved (``None``:
    unknown within the budget); every proved result was re-checked by the
    independent verifier (``verified``).
    """

    result: str
    winner: Optional[chess.Color]
    best_move: Optional[chess.Move]
    best_move_uci: Optional[str]
    proof_size: Optional[int]
    proof_depth: Optional[int]
    verified: bool
    nodes: int
    seconds: float
    fen: str
    variant: str
    proof_path: Optional[str]
    checkpoint: Optional[str]
    notes: List[str]
    report: Dict[str, Any] = field(repr=False)

    @property
    def proved(self) -> bool:
        """Whether the winner is proved."""
        return self.winner is not None

    def __str__(self) -> str:
        if self.winner is None:
            return f"unknown after {self.nodes:,} nodes"
        who = "white" if self.winner == chess.WHITE else "black"
        best = f", best {self.best_move_uci}" if self.best_move_uci else ""
        return f"{who} wins{best} (proof of {self.proof_size:,} positions, verified, {self.nodes:,} nodes)"


def _proof_result(r: Dict[str, Any]) -> ProofResult:
    return ProofResult(
        result=r["result"],
        winner=_color(r.get("winner")),
        best_move=_move(r.get("best")),
        best_move_uci=r.get("best"),
        proof_size=r.get("proof_positions"),
        proof_depth=r.get("proof_depth"),
        verified=bool(r.get("verified")),
        nodes=r["nodes"],
        seconds=r["time_ms"] / 1000.0,
        fen=r["fen"],
        variant=r["variant"],
        proof_path=r.get("proof_file"),
        checkpoint=r.get("checkpoint"),
        notes=list(r.get("notes", [])),
        report=r,
    )


def _search(call: Callable[[], str], make: Callable[[Dict[str, Any]], Any]) -> Any:
    """``make`` of the JSON report that ``call`` (a native search) returns;
    a ``KeyboardInterrupt`` that stopped it carries ``make`` of the report
    so far as its ``result``."""
    try:
        text = call()
    except KeyboardInterrupt as error:
        report = getattr(error, "ransom_report", None)
        if report is not None:
            error.result = make(json.loads(report))  # type: ignore[attr-defined]
        raise
    return make(json.loads(text))


def prove(
    board: BoardLike = None,
    moves: Union[str, Iterable[str]] = (),
    *,
    variant: Optional[str] = None,
    max_nodes: Optional[int] = None,
    max_time: Optional[float] = None,
    store: Optional[PathLike] = None,
    tablebases: Optional[PathLike] = None,
    threads: Optional[int] = None,
    leaf_nodes: Optional[int] = None,
    proof_path: Optional[PathLike] = None,
    pgn: Optional[PathLike] = None,
    pgn_full: bool = False,
) -> ProofResult:
    """Proves who wins after ``moves`` (SAN or UCI) from ``board`` (default
    variant: antichess; ``None``: the start position).

    ``store`` keeps settled positions and the checkpoint on disk (a later
    call resumes; ``None``: memory only); ``tablebases`` is a folder of
    ransom's tables; ``proof_path`` and ``pgn`` receive the verified proof.
    With no ``max_nodes`` or ``max_time`` the search runs until it settles.
    Ctrl-C stops it (with ``store=``, its work stays there and a later call
    resumes it) and raises ``KeyboardInterrupt`` whose ``result`` is the
    ``ProofResult`` so far.
    """
    _at_least("max_nodes", max_nodes, 1)
    _at_least("threads", threads, 1)
    _at_least("leaf_nodes", leaf_nodes, 1)
    name, fen = _position(board, variant, "antichess")
    return _search(
        lambda: _native.prove(
            name,
            fen,
            _moves(moves),
            max_nodes=max_nodes,
            max_time=max_time,
            store=_path(store),
            tablebases=_path(tablebases),
            threads=threads,
            leaf_nodes=leaf_nodes,
            proof_path=_path(proof_path),
            pgn=_path(pgn),
            pgn_full=pgn_full,
        ),
        _proof_result,
    )


@dataclass(frozen=True)
class SolutionNode:
    """A move of a mate's solution tree: the attacker's one move, or every
    defence, each with what follows."""

    uci: str
    san: str
    by: chess.Color
    mate_in: Optional[int]
    next: List["SolutionNode"]
    truncated: bool = False

    @property
    def move(self) -> Optional[chess.Move]:
        """The move as ``chess.Move`` (``None`` for a Hostage exchange)."""
        return _move(self.uci)


def _node(n: Dict[str, Any]) -> SolutionNode:
    return SolutionNode(
        uci=n["uci"],
        san=n["san"],
        by=n["by"] == "white",
        mate_in=n.get("mate_in"),
        next=[_node(c) for c in n.get("next", [])],
        truncated=bool(n.get("truncated", False)),
    )


@dataclass(frozen=True)
class MateResult:
    """What ``mate`` found: the shortest mate (``mate_in``), whether it is
    proved shortest, its keys and the verified solution tree."""

    status: str
    mate_in: Optional[int]
    shortest: bool
    keys: List[str]
    main_line: List[str]
    tree: List[SolutionNode]
    tree_truncated: bool
    verified_positions: Optional[int]
    nodes: int
    notes: List[str]
    report: Dict[str, Any] = field(repr=False)

    @property
    def key_moves(self) -> List[Optional[chess.Move]]:
        """The keys as ``chess.Move``."""
        return [_move(k) for k in self.keys]


def mate(
    board: BoardLike,
    n: int,
    *,
    variant: Optional[str] = None,
    all_keys: bool = False,
    max_nodes: Optional[int] = None,
    max_time: Optional[float] = None,
    tablebases: Optional[PathLike] = None,
    threads: int = 1,
    tree_limit: int = 100_000,
) -> MateResult:
    """The shortest forced mate of at most ``n`` moves (Losing chess: forced
    win), proved shortest, with its verified solution tree of at most
    ``tree_limit`` moves. ``all_keys`` lists every first move that mates in
    that length. Default variant: chess. Ctrl-C stops it and raises
    ``KeyboardInterrupt`` whose ``result`` is the ``MateResult`` so far."""
    _at_least("n", n, 1)
    _at_least("max_nodes", max_nodes, 1)
    _at_least("threads", threads, 1)
    _at_least("tree_limit", tree_limit, 0)
    name, fen = _position(board, variant, "chess")
    return _search(
        lambda: _native.mate(
            name,
            fen,
            [],
            max=n,
            all_keys=all_keys,
            max_nodes=max_nodes,
            max_time=max_time,
            tablebases=_path(tablebases),
            threads=threads,
            tree_limit=tree_limit,
        ),
        _mate_result,
    )


def _mate_result(r: Dict[str, Any]) -> MateResult:
    tree = r.get("tree") or {}
    return MateResult(
        status=r["proven"],
        mate_in=r.get("mate_in"),
        shortest=bool(r.get("shortest")),
        keys=list(r.get("keys", [])),
        main_line=list(r.get("main_line", [])),
        tree=[_node(m) for m in tree.get("moves", [])],
        tree_truncated=bool(tree.get("truncated", False)),
        verified_positions=r.get("verified_positions"),
        nodes=r["nodes"],
        notes=list(r.get("notes", [])),
        report=r,
    )


class Tablebase:
    """A folder of ransom's Losing-chess tables, probed with the names of
    python-chess's ``chess.syzygy.Tablebase``. A position no table covers
    raises ``KeyError``, as python-chess does."""

    def __init__(self, directory: PathLike, *, variant: str = "antichess") -> None:
        self._tables = _native.Tablebase(os.fspath(directory), variant)

    @property
    def variant(self) -> str:
        """The variant's name."""
        return self._tables.variant

    def _probe(self, board: BoardLike) -> Tuple[int, int]:
        _, fen = _position(board, self._tables.variant, self._tables.variant)
        if fen is None:
            raise KeyError("the start position is in no table")
        return self._tables.probe(fen)

    def probe_wdl(self, board: BoardLike) -> int:
        """2 if the side to move wins, 0 for a draw, -2 if it loses."""
        return self._probe(board)[0]

    def probe_dtw(self, board: BoardLike) -> int:
        """Plies to the end with best play: positive when the side to move
        wins, negative when it loses, 0 for a draw."""
        return self._probe(board)[1]

    def get_wdl(self, board: BoardLike, default: Optional[int] = None) -> Optional[int]:
        """``probe_wdl``, or ``default`` where no table covers the position."""
        try:
            return self.probe_wdl(board)
        except KeyError:
            return default

    def get_dtw(self, board: BoardLike, default: Optional[int] = None) -> Optional[int]:
        """``probe_dtw``, or ``default`` where no table covers the position."""
        try:
            return self.probe_dtw(board)
        except KeyError:
            return default

    def close(self) -> None:
        """Closes the table files opened by probes (they are unmapped now,
        not when the object is collected). Later probes raise ``KeyError``,
        as python-chess's closed tables do; ``get_wdl`` and ``get_dtw`` then
        return their default. Closing twice does nothing."""
        self._tables.close()

    @property
    def closed(self) -> bool:
        """Whether ``close`` was called (or the ``with`` block ended)."""
        return self._tables.closed

    def __enter__(self) -> "Tablebase":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def open_tablebase(directory: PathLike, *, variant: str = "antichess") -> Tablebase:
    """Opens a folder of tables built by ``ransom tb build`` (antichess or
    suicide), like ``chess.syzygy.open_tablebase``."""
    return Tablebase(directory, variant=variant)


@dataclass(frozen=True)
class VerifiedProof:
    """A proof file the verifier accepted."""

    variant: str
    root_fen: str
    winner: chess.Color
    line: List[str]
    positions: int
    winner_moves: int
    depth: int


def verify(proof_path: PathLike) -> VerifiedProof:
    """Re-checks a proof file with the independent verifier; ``RansomError``
    names what is wrong with a bad one."""
    r = json.loads(_native.verify(os.fspath(proof_path)))
    return VerifiedProof(
        variant=r["variant"],
        root_fen=r["root_fen"],
        winner=r["winner"] == "white",
        line=list(r["line"]),
        positions=r["positions"],
        winner_moves=r["winner_moves"],
        depth=r["depth"],
    )


@dataclass(frozen=True)
class Puzzle:
    """A puzzle of a set: its position, proven length, keys (SAN) and main
    line (SAN)."""

    id: str
    variant: str
    fen: str
    length: int
    keys: List[str]
    all_keys: bool
    pv: List[str]
    themes: List[str]
    difficulty: Optional[str]
    verified_positions: int

    @property
    def unique(self) -> bool:
        """Whether the key is proven unique."""
        return self.all_keys and len(self.keys) == 1

    def board(self) -> chess.Board:
        """The position on a python-chess board of the puzzle's variant."""
        return board_of(self.fen, self.variant)


def read_puzzles(path: PathLike, *, variant: Optional[str] = None) -> List[Puzzle]:
    """The puzzles of an EPD or JSON-lines set (the variant from the file
    unless given)."""
    r = json.loads(_native.read_puzzles(os.fspath(path), variant))
    return [
        Puzzle(
            id=p["id"],
            variant=p.get("variant") or r["variant"],
            fen=p["fen"],
            length=p["mate"],
            keys=list(p["keys"]),
            all_keys=bool(p.get("all_keys")),
            pv=[t for t in p["pv"].split() if t],
            themes=list(p.get("themes", [])),
            difficulty=p.get("difficulty"),
            verified_positions=p.get("verified_positions", 0),
        )
        for p in r["puzzles"]
    ]


class ExportedPuzzles(NamedTuple):
    """A set in an export format: the text, how many puzzles it holds, and
    those left out with why."""

    text: str
    written: int
    left_out: List[Tuple[str, str]]


def export_puzzles(path: PathLike, format: str = "lichess", *, variant: Optional[str] = None) -> ExportedPuzzles:
    """A set as Lichess's puzzle CSV (``"lichess"``) or EPD (``"epd"``), as
    ``ransom puzzles export`` writes it."""
    text, written, left_out = _native.export_puzzles(os.fspath(path), format, variant)
    return ExportedPuzzles(text, written, [tuple(x) for x in left_out])
