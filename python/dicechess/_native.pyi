"""Type stubs of the native module; the documented API is ``dicechess`` itself."""

from typing import Any, Callable, List, Optional, Tuple

ENGINE_VERSION: str
SCHEMA_IDS: List[str]
BOT_IDS: List[str]
ANALYSIS_BOTS: List[str]

def legal_turns(dfen: str) -> List[List[str]]: ...
def feature_columns(schema: str) -> List[str]: ...
def features(dfens: List[str], schema: str) -> Tuple[bytearray, int, int]: ...
def evaluate(dfens: List[str], model: Optional[str] = None) -> bytearray: ...
def probe(dfen: str) -> str: ...
def tablebase_build(dir: str, tables: List[str] = ..., discount: Optional[float] = None) -> List[str]: ...
def tablebase_probe(dir: str, dfens: List[str]) -> List[float]: ...
def bestmove(
    dfen: str,
    bot: str,
    time_ms: Optional[int] = None,
    threads: Optional[int] = None,
    seed: int = 0,
    model: Optional[str] = None,
    book: Optional[str] = None,
    candidates: Optional[int] = None,
) -> str: ...
def selfplay(
    out: str,
    games: int,
    white: Optional[str] = None,
    black: Optional[str] = None,
    seed: int = 0,
    shard: Optional[str] = None,
    features: Optional[str] = None,
    threads: Optional[int] = None,
    shard_games: Optional[int] = None,
    max_turns: Optional[int] = None,
    halfmove_limit: Optional[int] = None,
    start: Optional[str] = None,
    white_model: Optional[str] = None,
    black_model: Optional[str] = None,
    white_book: Optional[str] = None,
    black_book: Optional[str] = None,
    candidate_limit: Optional[int] = None,
    table_mb: int = 0,
    progress: Optional[Callable[[int, int, int], Any]] = None,
) -> str: ...
def merge(dirs: List[str], out: str) -> str: ...
def label(
    dfens: List[str],
    kind: str,
    evaluator: str = "dice-aware",
    model: Optional[str] = None,
    top: Optional[int] = None,
    prerank: Optional[str] = None,
    max_work: Optional[int] = None,
    threads: Optional[int] = None,
) -> Tuple[List[int], List[str], List[str], bytearray, bytearray, bytearray, bytearray]: ...
def label_file(
    input: str,
    out: str,
    kind: str,
    evaluator: str = "dice-aware",
    model: Optional[str] = None,
    top: Optional[int] = None,
    prerank: Optional[str] = None,
    max_work: Optional[int] = None,
    threads: Optional[int] = None,
    chunk_rows: Optional[int] = None,
    skip_bad: bool = False,
    restart: bool = False,
    slice: Optional[Tuple[int, int]] = None,
) -> str: ...
def analyze_games(
    games: List[str],
    bot: str = "best",
    depth: int = 2,
    time_ms: Optional[int] = None,
    threads: Optional[int] = None,
    indexed: bool = False,
) -> List[str]: ...
