"""Type stubs of the native module (built from python/src)."""

from typing import List, Optional, Tuple

class RansomError(ValueError): ...

def variants() -> List[str]: ...
def same_variant(a: str, b: str) -> Optional[bool]: ...
def position(variant: str, fen: Optional[str] = None) -> str: ...
def legal_moves(variant: str, fen: Optional[str] = None) -> List[Tuple[str, str]]: ...
def perft(variant: str, fen: Optional[str], depth: int, threads: Optional[int] = None) -> int: ...
def prove(
    variant: str,
    fen: Optional[str] = None,
    moves: List[str] = ...,
    *,
    max_nodes: Optional[int] = None,
    max_time: Optional[float] = None,
    store: Optional[str] = None,
    tablebases: Optional[str] = None,
    threads: Optional[int] = None,
    leaf_nodes: Optional[int] = None,
    hash_mb: int = 1024,
    proof_path: Optional[str] = None,
    pgn: Optional[str] = None,
    pgn_full: bool = False,
) -> str: ...
def mate(
    variant: str,
    fen: Optional[str] = None,
    moves: List[str] = ...,
    *,
    max: int = 5,
    all_keys: bool = False,
    max_nodes: Optional[int] = None,
    max_time: Optional[float] = None,
    tablebases: Optional[str] = None,
    threads: int = 1,
    hash_mb: int = 512,
    tree_limit: int = 100000,
) -> str: ...
def verify(path: str) -> str: ...
def read_puzzles(path: str, variant: Optional[str] = None) -> str: ...
def export_puzzles(path: str, format: str, variant: Optional[str] = None) -> Tuple[str, int, List[Tuple[str, str]]]: ...

class Tablebase:
    def __init__(self, directory: str, variant: str = "antichess") -> None: ...
    @property
    def directory(self) -> str: ...
    @property
    def variant(self) -> str: ...
    def probe(self, fen: str) -> Tuple[int, int]: ...
