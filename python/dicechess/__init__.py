"""Dice Chess engine for Python: exact rules, feature matrices, scores, probes, bots,
self-play, labels and game analysis, on the Rust engine (``dicechess`` crate).

Every batch call releases the GIL while the engine runs. Bad input raises ``ValueError``
with the engine's message; failures that are not the caller's (I/O, a search error) raise
``RuntimeError``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any, Callable, Iterable, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native

__all__ = [
    "ENGINE_VERSION",
    "SCHEMA_IDS",
    "BOT_IDS",
    "legal_turns",
    "feature_columns",
    "features",
    "evaluate",
    "probe",
    "tablebase_build",
    "tablebase_probe",
    "bestmove",
    "selfplay",
    "merge",
    "LABEL_KINDS",
    "ROLLS",
    "label",
    "label_file",
    "ANALYSIS_BOTS",
    "analyze",
    "analyze_many",
]

#: The engine version written into every file (``engine_version``).
ENGINE_VERSION: str = _native.ENGINE_VERSION
#: Every feature schema id, narrowest first.
SCHEMA_IDS: Tuple[str, ...] = tuple(_native.SCHEMA_IDS)
#: Every bot id, by difficulty.
BOT_IDS: Tuple[str, ...] = tuple(_native.BOT_IDS)

PathLike = Union[str, "os.PathLike[str]"]


def _dfen_list(dfens: Iterable[str]) -> list:
    """The DFENs as a list of str (a list, tuple, numpy array or pandas Series)."""
    if isinstance(dfens, (str, bytes)):
        raise TypeError("dfens must be a sequence of DFEN strings, not one string")
    return list(dfens)


_U64 = 2**64 - 1


def _int(name: str, value: Optional[int], limit: int = _U64) -> Optional[int]:
    """``value`` checked to be an integer in ``0..=limit`` (``None`` passes): ValueError,
    not the OverflowError of the native conversion."""
    if value is None:
        return None
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise TypeError(f"{name}: expected an integer, found {type(value).__name__}")
    if not 0 <= value <= limit:
        raise ValueError(f"{name}: must be between 0 and {limit}, found {value}")
    return int(value)


def _path(p: Optional[PathLike]) -> Optional[str]:
    return None if p is None else os.fspath(p)


def legal_turns(dfen: str) -> list[list[str]]:
    """Every legal turn path of a rolled position (``dicechess turns`` order), each a list of
    UCI micro-moves; an empty list for a forced pass."""
    return _native.legal_turns(dfen)


def feature_columns(schema: str) -> list[str]:
    """The column names of feature schema ``schema``, in matrix order."""
    return _native.feature_columns(schema)


def features(dfens: Iterable[str], schema: str) -> np.ndarray:
    """The ``schema`` features of each position, from the side to move's view, as a float32
    array ``[n, width]`` (the values ``dicechess eval --features`` writes)."""
    buf, rows, width = _native.features(_dfen_list(dfens), schema)
    return np.frombuffer(buf, dtype=np.float32).reshape(rows, width)


def evaluate(dfens: Iterable[str], model: Optional[PathLike] = None) -> np.ndarray:
    """The score of each position from the side to move's view as float32 ``[n]``: material
    in centipawns, or with ``model`` a model package directory (``manifest.json`` and
    ``model.onnx``; needs ONNX Runtime, ``ORT_DYLIB_PATH``) — the ``score`` column of
    ``dicechess eval``. A ``chance-collapse`` package is scored as the bots serve it at a
    leaf: ``−20000·(p − 0.5)`` of its P(the side that just moved wins). The package is loaded and checked on each call: pass many
    positions per call."""
    buf = _native.evaluate(_dfen_list(dfens), _path(model))
    return np.frombuffer(buf, dtype=np.float32)


def probe(dfen: str) -> dict[str, Any]:
    """Every exact probe of a position for both colours (``dicechess probe``)."""
    return json.loads(_native.probe(dfen))


def tablebase_build(
    dir: PathLike, tables: Union[str, Sequence[str]] = "3", *, discount: Optional[float] = None
) -> list[dict[str, Any]]:
    """Build endgame tables into ``dir`` (``dicechess tablebase build``): ``tables`` names
    them (``"kqk"``, ``["kk", "knk"]``, ``"krkn"``; ``"3"``, the default, for every table up to
    three pieces, ``"4"`` for the pawnless 4-piece ones, ``"4p"`` for those with a pawn,
    ``"all"``); the tables they need are built
    first and those already in ``dir`` are kept. One dict per table (positions, sweeps, seconds)."""
    names = [tables] if isinstance(tables, str) else list(tables)
    return [json.loads(s) for s in _native.tablebase_build(os.fspath(dir), names, discount)]


def tablebase_probe(dir: PathLike, dfens: Union[str, Iterable[str]]) -> Union[float, np.ndarray]:
    """The endgame-table value of each position: the expected score of its side to move
    before the roll (1 win, 0.5 draw, 0 loss), NaN where no table in ``dir`` holds it. One
    DFEN gives a float, a sequence a float64 array."""
    if isinstance(dfens, str):
        return float(_native.tablebase_probe(os.fspath(dir), [dfens])[0])
    return np.asarray(_native.tablebase_probe(os.fspath(dir), _dfen_list(dfens)), dtype=np.float64)


def bestmove(
    dfen: str,
    bot: str = "expectimax",
    time_ms: Optional[int] = None,
    *,
    threads: Optional[int] = None,
    seed: int = 0,
    model: Optional[PathLike] = None,
    book: Optional[PathLike] = None,
    candidates: Optional[int] = None,
) -> dict[str, Any]:
    """One decision by ``bot`` for a rolled position (``dicechess bestmove``): ``moves``
    (UCI, empty for a pass), ``score``, ``elapsed_ms``, search ``stats``, ``rootBudget``."""
    return json.loads(
        _native.bestmove(
            dfen,
            bot,
            _int("time_ms", time_ms),
            _int("threads", threads),
            _int("seed", seed),
            _path(model),
            _path(book),
            _int("candidates", candidates),
        )
    )


def _shard(shard: Union[None, str, Sequence[int]]) -> Optional[str]:
    if shard is None or isinstance(shard, str):
        return shard
    i, n = shard
    return f"{_int('shard index', i)}/{_int('shard count', n)}"


def selfplay(
    out: PathLike,
    games: int,
    white: str = "greedy",
    black: str = "greedy",
    seed: int = 0,
    shard: Union[None, str, Tuple[int, int]] = None,
    features: str = "rich-9-v1",
    *,
    threads: Optional[int] = None,
    shard_games: Optional[int] = None,
    max_turns: Optional[int] = None,
    halfmove_limit: Optional[int] = None,
    start: Optional[str] = None,
    white_model: Optional[PathLike] = None,
    black_model: Optional[PathLike] = None,
    white_book: Optional[PathLike] = None,
    black_book: Optional[PathLike] = None,
    candidate_limit: Optional[int] = None,
    table_mb: int = 0,
    progress: Optional[Callable[[int, int, int], Any]] = None,
) -> dict[str, Any]:
    """Self-play ``games`` games into the folder ``out`` exactly as ``dicechess selfplay``
    (same files, byte for byte; a rerun resumes) and return its ``manifest.json``.

    ``shard`` is one slice ``"i/n"`` or ``(i, n)`` of the shards; options left ``None``
    take the CLI's defaults. ``progress(games, positions, total)`` is called after each
    game played now (from the engine's writer thread); an exception it raises is raised
    after the run.
    """
    text = _native.selfplay(
        _path(out),
        _int("games", games),
        white,
        black,
        _int("seed", seed),
        _shard(shard),
        features,
        _int("threads", threads),
        _int("shard_games", shard_games),
        _int("max_turns", max_turns, 2**32 - 1),
        _int("halfmove_limit", halfmove_limit, 255),
        start,
        _path(white_model),
        _path(black_model),
        _path(white_book),
        _path(black_book),
        _int("candidate_limit", candidate_limit),
        _int("table_mb", table_mb),
        progress,
    )
    return json.loads(text)


def merge(dirs: Iterable[PathLike], out: PathLike) -> dict[str, Any]:
    """Merge self-play slices of one run into ``out`` as ``dicechess merge`` does (file
    names, counts and every digest checked) and return the merged manifest."""
    return json.loads(_native.merge([os.fspath(d) for d in dirs], os.fspath(out)))


#: The label kinds (docs/labels.md).
LABEL_KINDS: Tuple[str, ...] = ("a1", "a2", "p1", "p2", "candidates")
#: The 56 roll multisets in the order of the per-roll values (``PPP``, ``PPN``, ... ``KKK``).
ROLLS: Tuple[str, ...] = tuple(
    a + b + c
    for i, a in enumerate("PNBRQK")
    for j, b in enumerate("PNBRQK")
    for c in "PNBRQK"[j:]
    if j >= i
)


def label(
    dfens: Iterable[str],
    kind: str,
    evaluator: str = "dice-aware",
    *,
    model: Optional[PathLike] = None,
    top: Optional[int] = None,
    prerank: Optional[str] = None,
    max_work: Optional[int] = None,
    threads: Optional[int] = None,
) -> dict[str, Any]:
    """Exact searched labels of positions (docs/labels.md), on all cores.

    ``kind`` is ``a1``, ``a2`` (the position as an afterstate, valued for the side that just
    moved), ``p1``, ``p2`` (before its roll, for its side to move) or ``candidates`` (every
    distinct afterstate of a rolled position, or the ``top`` K by ``prerank``, with its
    ``a1`` and per-roll values). The leaf evaluator is ``material``, ``dice-aware`` or a
    position-value ``model`` package. Returns numpy arrays: for the scalar kinds
    ``{kind: float32[n], kind + "_win": float32[n]}``; for ``candidates`` ``{"root":
    int64[m]`` (the index of each candidate's position in ``dfens``), ``"moves"`` (UCI,
    comma-joined, empty for a pass), ``"after"`` (DFEN), ``"a1"``, ``"a1_win"``, ``"rolls":
    float32[m, 56]`` (in :data:`ROLLS` order) and, with ``top``, ``"prerank"``. Values are on
    the evaluator's axis (±10000 a king capture); ``*_win`` is ``clamp(0.5 + value / 20000,
    0, 1)``. The values equal ``dicechess label``'s, bit for bit."""
    roots, moves, afters, value, win, rolls, pre = _native.label(
        _dfen_list(dfens),
        kind,
        evaluator,
        _path(model),
        _int("top", top),
        prerank,
        _int("max_work", max_work),
        _int("threads", threads),
    )
    value = np.frombuffer(value, dtype=np.float32)
    win = np.frombuffer(win, dtype=np.float32)
    if kind != "candidates":
        return {kind: value, kind + "_win": win}
    out: dict[str, Any] = {
        "root": np.asarray(roots, dtype=np.int64),
        "moves": moves,
        "after": afters,
        "a1": value,
        "a1_win": win,
        "rolls": np.frombuffer(rolls, dtype=np.float32).reshape(len(value), 56),
    }
    if top is not None:
        out["prerank"] = np.frombuffer(pre, dtype=np.float32)
    return out


def label_file(
    input: PathLike,
    out: PathLike,
    kind: str,
    evaluator: str = "dice-aware",
    *,
    model: Optional[PathLike] = None,
    top: Optional[int] = None,
    prerank: Optional[str] = None,
    max_work: Optional[int] = None,
    threads: Optional[int] = None,
    chunk_rows: Optional[int] = None,
    skip_bad: bool = False,
    restart: bool = False,
    slice: Optional[Sequence[int]] = None,
) -> dict[str, Any]:
    """The label factory on a file, as ``dicechess label INPUT --out OUT`` (the same bytes):
    DFEN lines, a Parquet ``dfen``/``fen`` column or a v0 shard in, Parquet or NPY out,
    resumable. ``slice=(i, n)`` computes only chunks ``k % n == i`` into ``OUT.parts/``
    without merging (``python -m dicechess.ray_label`` distributes a run this way). Returns
    a summary: ``written``, ``computed``, ``resumedParts``, ``resumedRows``, ``bad``,
    ``chunks``, ``merged``, ``seconds``."""
    sl = None
    if slice is not None:
        i, n = slice
        sl = (_int("slice index", i), _int("slice count", n))
    return json.loads(
        _native.label_file(
            os.fspath(input),
            os.fspath(out),
            kind,
            evaluator,
            _path(model),
            _int("top", top),
            prerank,
            _int("max_work", max_work),
            _int("threads", threads),
            _int("chunk_rows", chunk_rows),
            bool(skip_bad),
            bool(restart),
            sl,
        )
    )



#: The bots whose leaf evaluator :func:`analyze` can take (``best`` and ``best-v1``: the
#: dice-aware evaluator, ``expectimax``: material).
ANALYSIS_BOTS: Tuple[str, ...] = tuple(_native.ANALYSIS_BOTS)

#: A game for :func:`analyze`: a ``games.jsonl`` record or a play-server history, as a dict
#: (``json.loads`` of one) or as JSON text.
GameLike = Union[Mapping, str, bytes, bytearray]


def _json_default(o: Any) -> Any:
    """numpy scalars and arrays (a game taken from a DataFrame) as plain JSON values."""
    if isinstance(o, (np.generic, np.ndarray)):
        return o.tolist()
    raise TypeError(f"{type(o).__name__} is not JSON serializable")


def _game_text(game: Any, name: str) -> str:
    """One game as JSON text: a dict (any mapping) is serialised, text passes as is."""
    if isinstance(game, str):
        return game
    if isinstance(game, (bytes, bytearray)):
        return bytes(game).decode("utf-8")
    if isinstance(game, Mapping):
        return json.dumps(dict(game), default=_json_default, allow_nan=False)
    raise TypeError(
        f"{name}: expected a game as a dict or JSON text, found {type(game).__name__}"
    )


def _analyze(texts: list, bot: str, depth: int, time_ms: Optional[int],
             threads: Optional[int], indexed: bool) -> list:
    if not isinstance(bot, str):
        raise TypeError(f"bot: expected a str, found {type(bot).__name__}")
    out = _native.analyze_games(
        texts,
        bot,
        _int("depth", depth, 255),
        _int("time_ms", time_ms),
        _int("threads", threads),
        indexed,
    )
    return [json.loads(t) for t in out]


def analyze(
    game: GameLike,
    *,
    bot: str = "best",
    depth: int = 2,
    time_ms: Optional[int] = None,
    threads: Optional[int] = None,
) -> dict[str, Any]:
    """Analyse one finished game as ``dicechess analyze`` does: every turn valued against the
    best turn of its roll (its error) and every roll against the average roll (its luck).

    ``game`` is one of our self-play records (a line of a run's ``shard-*.games.jsonl``; it
    has ``limits``) or the play server's game history (``GET /games/{id}/history``), as a
    dict or as JSON text. It is replayed against the rules first: a game that is not a valid
    record or history raises ``ValueError`` naming the game id, the turn and the reason
    (``game 3-0 turn 12: ...``), or the field a history lacks (``missing field `turns```).

    ``bot`` picks the leaf evaluator (:data:`ANALYSIS_BOTS`). ``depth`` 1 values a turn by
    its afterstate's leaf; 2 (the default, exact and the same on every machine) by every
    opponent roll and the opponent's best reply to each. ``time_ms`` bounds the depth-2
    valuation of a turn's candidates (best depth-1 first; the played turn is always valued),
    which is faster but no longer reproducible. The GIL is released while the engine works
    on a pool of ``threads`` (default: all cores).

    Returns the analysis with the CLI's camelCase keys (its ``--json`` lines are the
    ``turns``): ``gameId``, ``initialDfen``, ``result`` (White's view: 1, 0, -1; ``None``
    when aborted), ``termination``, ``evaluator``, ``depth``, ``turns`` and the per-player
    summaries ``white`` and ``black`` (``turns``, ``decisions``, ``totalError``,
    ``meanError``, ``doubtful``, ``bad``, ``veryBad``, ``worst``, ``totalLuck``, ``result``,
    ``luckAdjustedResult``). Each turn has ``gameId``, ``turnNumber``, ``activeColor``
    (``w``/``b``), ``dice``, ``moves``, ``equityBefore``, ``equityAfterRoll``, ``luck``
    (their difference), ``luckClass``, ``bestMoves``, ``bestEquity``, ``playedEquity``,
    ``error`` (``bestEquity - playedEquity``, 0 for a forced turn), ``class`` (``forced``,
    ``best``, ``good``, ``doubtful``, ``bad``, ``veryBad``), ``candidates``, ``valued``,
    ``kingRisk``, ``bestKingRisk``, ``fenBefore`` and ``fenAfter``. Equities are the
    mover's win probability (0-1). ``pandas.DataFrame(result["turns"])`` makes the turn
    table.
    """
    return _analyze([_game_text(game, "game")], bot, depth, time_ms, threads, False)[0]


def analyze_many(
    games: Iterable[GameLike],
    *,
    bot: str = "best",
    depth: int = 2,
    time_ms: Optional[int] = None,
    threads: Optional[int] = None,
) -> list[dict[str, Any]]:
    """:func:`analyze` for many games at once, in order, the games and their turns in
    parallel on all cores (or ``threads``). Every game is read and replayed before any is
    searched; the first bad one (in order) raises, its message led by ``games[i]: ``.

    The games of a self-play run::

        games = [json.loads(line) for line in open("selfplay-data/shard-00000.games.jsonl")]
        analyses = dicechess.analyze_many(games, depth=1)
    """
    if isinstance(games, (str, bytes, bytearray, Mapping)):
        raise TypeError("games must be a sequence of games, not one game")
    texts = [_game_text(g, f"games[{i}]") for i, g in enumerate(games)]
    return _analyze(texts, bot, depth, time_ms, threads, True)
