"""Game analysis: real self-play games (and the play server's history of them) analysed, every
record checked against what can be computed without the analyser (the rules' legal turns,
the thresholds, sums over the turns), and against the CLI's ``--json`` lines."""

from __future__ import annotations

import copy
import json
import math
import threading

import pytest

import dicechess

RUN = dict(seed=5, white="greedy", black="greedy", shard_games=6)
GAMES = 6
ERROR_THRESHOLDS = (0.02, 0.04, 0.08)  # doubtful, bad, very bad (docs/analysis.md)
LUCK_THRESHOLDS = (0.15, 0.3)  # lucky, very lucky
SUMMARY_KEYS = {
    "color", "name", "turns", "decisions", "totalError", "meanError", "doubtful", "bad",
    "veryBad", "worst", "totalLuck", "result", "luckAdjustedResult",
}
TURN_KEYS = {
    "gameId", "turnNumber", "activeColor", "dice", "moves", "equityBefore", "equityAfterRoll",
    "luck", "luckClass", "bestMoves", "bestEquity", "playedEquity", "error", "class",
    "candidates", "valued", "kingRisk", "bestKingRisk", "fenBefore", "fenAfter",
}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("analyze") / "games"
    dicechess.selfplay(out, GAMES, threads=2, **RUN)
    return out


@pytest.fixture(scope="module")
def records(run_dir):
    """The run's games as ``dicechess.selfplay`` wrote them (one ``games.jsonl`` line each)."""
    lines = (run_dir / "shard-00000.games.jsonl").read_text().splitlines()
    games = [json.loads(line) for line in lines]
    assert len(games) == GAMES
    # The run covers what the checks need: both results and forced turns (passes).
    assert {g["result"] for g in games} == {1, -1}
    assert any(not t["moves"] for g in games for t in g["turns"])
    return games


@pytest.fixture(scope="module")
def depth1(records):
    return dicechess.analyze_many(records, depth=1, threads=2)


def history_of(record: dict, *, cut: int | None = None) -> dict:
    """``record`` as the play server's ``GET /games/{id}/history`` serves it (as
    tests/server_history.rs builds one); ``cut`` keeps the first turns of an aborted game."""
    turns = [
        {
            "turnNumber": t["turnNumber"],
            "activeColor": "White" if t["activeColor"] == "w" else "Black",
            "dice": t["dice"],
            "moves": t["moves"],
            "fenAfter": t["fenAfter"],
        }
        for t in record["turns"]
    ]
    termination = "king_captured"
    if cut is not None:
        turns, termination = turns[:cut], "aborted"
    return {
        "gameId": record["gameId"],
        "players": {
            "white": {"kind": "Bot", "name": "house greedy"},
            "black": {"kind": "Human", "name": None},
        },
        "rated": False,
        "timeControl": {"Unlimited": {}},
        "result": record["result"],
        "termination": termination,
        "finishedAt": "2026-12-03T00:00:00Z",
        "initialDfen": record["initialDfen"],
        "turns": turns,
        "fairness": {"commit": "00", "seed": "11", "clientSeeds": {"white": None, "black": None}},
    }


def rolled(fen: str, dice: list[int]) -> str:
    """The position with its roll (the DFEN's 7th field, one letter per face)."""
    return fen + " " + "".join("PNBRQK"[f - 1] for f in dice)


def turn_class(error: float, forced: bool) -> str:
    if forced:
        return "forced"
    if error <= 0:
        return "best"
    names = ("good", "doubtful", "bad", "veryBad")
    return names[sum(error >= t for t in ERROR_THRESHOLDS)]


def luck_class(luck: float) -> str:
    if luck >= LUCK_THRESHOLDS[1]:
        return "veryLucky"
    if luck >= LUCK_THRESHOLDS[0]:
        return "lucky"
    if luck <= -LUCK_THRESHOLDS[1]:
        return "veryUnlucky"
    if luck <= -LUCK_THRESHOLDS[0]:
        return "unlucky"
    return "normal"


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def check_analysis(record: dict, a: dict, depth: int, exact: bool = True) -> int:
    """Every invariant of ``a``, the analysis of ``record`` (a games.jsonl record's turns);
    returns how many of its turns were forced."""
    assert a["gameId"] == record["gameId"]
    assert a["depth"] == depth
    assert a["initialDfen"] == record["initialDfen"]
    assert len(a["turns"]) == len(record["turns"])
    before = record["initialDfen"]
    forced = 0
    for rec, t in zip(record["turns"], a["turns"]):
        assert set(t) == TURN_KEYS
        assert t["gameId"] == record["gameId"]
        for key in ("turnNumber", "activeColor", "dice", "moves", "fenAfter"):
            assert t[key] == rec[key], key
        assert t["fenBefore"] == before
        before = rec["fenAfter"]
        assert t["activeColor"] == before_side(t["fenBefore"])
        # The rules' own turns (dicechess turns), independent of the analyser.
        paths = dicechess.legal_turns(rolled(t["fenBefore"], t["dice"]))
        assert t["moves"] in paths or (t["moves"] == [] and paths == [])
        assert t["bestMoves"] in paths or (t["bestMoves"] == [] and paths == [])
        assert 1 <= t["candidates"] <= max(1, len(paths))
        if exact:
            assert t["valued"] == t["candidates"]
        else:
            assert 1 <= t["valued"] <= t["candidates"]
        is_forced = t["candidates"] == 1
        if len(paths) <= 1:
            assert is_forced
        for key in ("equityBefore", "equityAfterRoll", "bestEquity", "playedEquity",
                    "kingRisk", "bestKingRisk"):
            assert 0.0 <= t[key] <= 1.0, (key, t)
        assert t["error"] >= 0.0
        assert t["bestEquity"] >= t["playedEquity"]
        assert t["luck"] == t["equityAfterRoll"] - t["equityBefore"]
        assert t["luckClass"] == luck_class(t["luck"])
        if is_forced:
            forced += 1
            assert t["error"] == 0.0
            assert t["class"] == "forced"
            assert t["bestEquity"] == t["playedEquity"]
        else:
            assert t["class"] != "forced"
            assert t["error"] == t["bestEquity"] - t["playedEquity"]
            assert t["class"] == turn_class(t["error"], False)
        if t["moves"] == t["bestMoves"]:
            assert t["error"] == 0.0
        if depth == 1:
            # At depth 1 a turn is worth its afterstate's leaf: the best one is the roll's.
            assert t["bestEquity"] == t["equityAfterRoll"]
    # The game ends with the winner's king capture: worth exactly 1, and the best turn.
    last = a["turns"][-1]
    if record["termination"] == "king-capture":
        assert last["playedEquity"] == 1.0 and last["bestEquity"] == 1.0
        assert last["error"] == 0.0
    assert a["result"] == record["result"]
    check_summaries(a, record["result"])
    return forced


def before_side(fen: str) -> str:
    return fen.split()[1]


def check_summaries(a: dict, result) -> None:
    """``white``/``black`` against sums and counts over the turns."""
    for color, seat in (("w", "white"), ("b", "black")):
        s = a[seat]
        assert set(s) == SUMMARY_KEYS
        mine = [t for t in a["turns"] if t["activeColor"] == color]
        theirs = [t for t in a["turns"] if t["activeColor"] != color]
        decisions = [t for t in mine if t["class"] != "forced"]
        assert s["color"] == color
        assert s["turns"] == len(mine)
        assert s["decisions"] == len(decisions)
        assert close(s["totalError"], sum(t["error"] for t in mine))
        mean = s["totalError"] / len(decisions) if decisions else 0.0
        assert close(s["meanError"], mean)
        for cls in ("doubtful", "bad", "veryBad"):
            assert s[cls] == sum(t["class"] == cls for t in mine), cls
        own_luck = sum(t["luck"] for t in mine)
        assert close(s["totalLuck"], own_luck)
        worst = sorted((t for t in mine if t["error"] > 0), key=lambda t: -t["error"])[:3]
        assert [w["turnNumber"] for w in s["worst"]] == [t["turnNumber"] for t in worst]
        assert [(w["error"], w["class"]) for w in s["worst"]] == [
            (t["error"], t["class"]) for t in worst
        ]
        if result is None:
            assert s["result"] is None and s["luckAdjustedResult"] is None
        else:
            score = (result + 1) / 2 if color == "w" else (1 - result) / 2
            assert s["result"] == score
            their_luck = sum(t["luck"] for t in theirs)
            assert close(s["luckAdjustedResult"], score - (own_luck - their_luck))


def test_depth_1_analyses_every_game_of_a_selfplay_run(records, depth1):
    assert [a["gameId"] for a in depth1] == [r["gameId"] for r in records]
    forced = sum(check_analysis(r, a, 1) for r, a in zip(records, depth1))
    assert forced > 0
    assert all(a["termination"] == "king-capture" for a in depth1)
    assert depth1[0]["white"]["name"] == "greedy"
    # The turn table for pandas: one row per turn, camelCase columns.
    try:
        import pandas as pd
    except ImportError:
        pd = None
    if pd is not None:
        frame = pd.DataFrame(depth1[0]["turns"])
        assert len(frame) == len(records[0]["turns"])
        assert set(frame.columns) == TURN_KEYS
        assert frame["error"].min() >= 0


def test_depth_2_values_every_candidate_and_keeps_the_depth_1_luck(records, depth1):
    # The shortest game with a decision for each side, analysed exactly at depth 2.
    k = min(range(GAMES), key=lambda i: len(records[i]["turns"]))
    a = dicechess.analyze(records[k], threads=2)
    check_analysis(records[k], a, 2)
    for t1, t2 in zip(depth1[k]["turns"], a["turns"]):
        # The luck is a depth-1 measure whatever the depth of the decisions.
        for key in ("equityBefore", "equityAfterRoll", "luck", "candidates", "kingRisk"):
            assert t1[key] == t2[key], key
    assert a["evaluator"] == depth1[k]["evaluator"]


def test_the_package_matches_the_cli_json_lines(cli, run_dir, depth1, tmp_path):
    out = tmp_path / "turns.jsonl"
    r = cli("analyze", run_dir, "--depth", "1", "--json", out, "--threads", "2")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines == [t for a in depth1 for t in a["turns"]]


def test_a_game_is_taken_as_a_dict_json_text_or_bytes(records, depth1):
    text = json.dumps(records[0])
    for game in (text, text.encode(), records[0]):
        assert dicechess.analyze(game, depth=1, threads=1) == depth1[0]
    with pytest.raises(TypeError, match="game: expected a game as a dict or JSON text"):
        dicechess.analyze(42, depth=1)
    with pytest.raises(TypeError, match="not one game"):
        dicechess.analyze_many(text, depth=1)
    assert dicechess.analyze_many([], depth=1) == []


def test_the_play_servers_history_is_analysed_as_the_record(records, depth1):
    for k in (0, 1):
        a = dicechess.analyze(history_of(records[k]), depth=1, threads=2)
        assert a["turns"] == depth1[k]["turns"]
        assert a["termination"] == "king_captured"
        assert a["result"] == records[k]["result"]
        assert a["white"]["name"] == "house greedy"
        assert a["black"]["name"] == "Human"  # no name: the seat's kind
        check_summaries(a, records[k]["result"])


def test_an_aborted_history_within_a_time_budget(records):
    k = max(range(GAMES), key=lambda i: len(records[i]["turns"]))
    cut = 6
    history = history_of(records[k], cut=cut)
    a = dicechess.analyze(json.dumps(history), time_ms=1, threads=2)
    assert a["result"] is None and a["termination"] == "aborted"
    partial = dict(records[k], turns=records[k]["turns"][:cut], termination="aborted", result=None)
    check_analysis(partial, a, 2, exact=False)


def mutated(record: dict) -> tuple[dict, int]:
    """``record`` with a middle turn replaced by one its roll does not allow (a pass where
    turns exist, or a move where none does); returns it and that turn's number."""
    bad = copy.deepcopy(record)
    k = len(bad["turns"]) // 2
    t = bad["turns"][k]
    fen = bad["turns"][k - 1]["fenAfter"] if k else bad["initialDfen"]
    paths = dicechess.legal_turns(rolled(fen, t["dice"]))
    t["moves"] = [] if paths else ["a1a8"]
    return bad, t["turnNumber"]


def test_an_illegal_turn_is_refused_naming_the_game_and_the_turn(records):
    bad, n = mutated(records[1])
    gid = records[1]["gameId"]
    with pytest.raises(ValueError, match=rf"^game {gid} turn {n}: \S") as e:
        dicechess.analyze(bad, depth=1)
    reason = str(e.value)
    # The same game as a history: the same place.
    with pytest.raises(ValueError, match=rf"^game {gid} turn {n}: \S"):
        dicechess.analyze(history_of(bad), depth=1)
    # In a batch, the game's index leads (and nothing is searched: the reason is the same).
    with pytest.raises(ValueError) as e:
        dicechess.analyze_many([records[0], bad], depth=1)
    assert str(e.value) == f"games[1]: {reason}"


def test_a_history_without_turns_is_refused_naming_the_field(records):
    history = history_of(records[0])
    del history["turns"]
    with pytest.raises(ValueError, match=r"missing field `turns`") as e:
        dicechess.analyze(history)
    assert str(e.value).startswith(f"game {records[0]['gameId']}: ")
    with pytest.raises(ValueError, match=r"^not JSON: "):
        dicechess.analyze("{not json")


@pytest.mark.parametrize(
    "kw, message",
    [
        (dict(depth=3), r"^analysis: depth 3 is not 1 or 2$"),
        (dict(depth=-1), r"^depth: must be between 0 and 255"),
        (dict(bot="greedy"), r'^analysis: bot "greedy": the analysis takes the leaf evaluator of best, '),
        (dict(threads=0), r"^threads must be at least 1$"),
        (dict(depth=1, time_ms=100), r"^time_ms: only at depth 2"),
    ],
)
def test_bad_settings_are_refused(records, kw, message):
    with pytest.raises(ValueError, match=message):
        dicechess.analyze(records[0], **kw)
    assert set(dicechess.ANALYSIS_BOTS) == {"best", "best-v1", "expectimax"}


def test_the_gil_is_released_while_analysing(records):
    done = threading.Event()
    result = {}
    texts = [json.dumps(r) for r in records] * 4

    def work():
        # The native call alone: no Python work around it that could let this thread run.
        result["a"] = dicechess._native.analyze_games(texts, "best", 1, None, 1, True)
        done.set()

    worker = threading.Thread(target=work)
    ticks = 0
    worker.start()
    while not done.is_set():
        ticks += 1
        done.wait(0.001)
    worker.join()
    assert len(result["a"]) == 4 * GAMES
    # The interpreter kept running this thread while the engine worked (with the GIL held,
    # it could not have woken before the call returned).
    assert ticks >= 5, ticks
