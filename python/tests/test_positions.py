"""Turns, features, scores and probes against the CLI's output."""

from __future__ import annotations

import hashlib
import json
import threading
import time

import numpy as np
import pytest

import dicechess

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
ROLLED = [
    START + " PNN",
    KIWIPETE + " PNB",
    "7k/8/8/b7/8/8/5P2/4K3 w - - 0 1 NBK",
    "rnbqkbnr/pppppBpp/8/8/4P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 1 pnk",
]


def good_lines(repo):
    """The valid DFEN lines of the eval fixture (blank lines, comments and line 8 dropped)."""
    lines = []
    for line in (repo / "tests/fixtures/eval/positions.dfen").read_text().splitlines():
        t = line.strip()
        if t and not t.startswith("#") and " x " not in t:
            lines.append(t)
    return lines


@pytest.mark.parametrize("dfen", ROLLED)
def test_legal_turns_are_the_cli_paths_in_order(cli, dfen):
    r = cli("turns", dfen)
    assert r.returncode == 0, r.stderr
    expected = [line.split(",") for line in r.stdout.splitlines()]
    got = dicechess.legal_turns(dfen)
    assert got == expected
    assert len(got) > 0


def test_a_pass_has_no_turns(cli):
    dfen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 PPP"
    r = cli("turns", dfen)
    assert r.returncode == 0 and r.stdout == "" and "pass" in r.stderr
    assert dicechess.legal_turns(dfen) == []
    assert dicechess.bestmove(dfen, "greedy")["moves"] == []


def test_legal_turns_match_the_vectors(repo):
    # The oracle's counts and SHA-256 of the sorted "m1,m2,m3" lines, for all 100 cases.
    data = json.loads((repo / "tests/data/turn_paths.json").read_text())
    assert len(data["cases"]) == 100
    for case in data["cases"]:
        lines = sorted(",".join(p) for p in dicechess.legal_turns(case["dfen"]))
        assert len(lines) == case["paths"], case["dfen"]
        digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
        assert digest == case["sha256"], case["dfen"]


@pytest.mark.parametrize("schema", ["material-7-v1", "rich-9-v1", "kcp-13", "raw-board-768-v1"])
def test_features_are_the_cli_matrix(cli, repo, tmp_path, schema):
    lines = good_lines(repo)
    src = tmp_path / "in.dfen"
    src.write_text("\n".join(lines) + "\n")
    out = tmp_path / "f.npy"
    r = cli("eval", src, "--features", schema, "--out", out)
    assert r.returncode == 0, r.stderr
    expected = np.load(out)
    got = dicechess.features(lines, schema)
    assert got.dtype == np.float32
    assert got.shape == (len(lines), len(dicechess.feature_columns(schema)))
    np.testing.assert_array_equal(got, expected)


def test_features_accept_numpy_and_empty_input():
    arr = np.array([START, KIWIPETE])
    a = dicechess.features(arr, "rich-9-v1")
    b = dicechess.features([START, KIWIPETE], "rich-9-v1")
    np.testing.assert_array_equal(a, b)
    empty = dicechess.features([], "kcp-13")
    assert empty.shape == (0, 13)


def test_material_scores_are_the_cli_scores(cli, repo, tmp_path):
    lines = good_lines(repo)
    src = tmp_path / "in.dfen"
    src.write_text("\n".join(lines) + "\n")
    out = tmp_path / "s.npy"
    r = cli("eval", src, "--evaluator", "material", "--out", out)
    assert r.returncode == 0, r.stderr
    expected = np.load(out)[:, -1]
    got = dicechess.evaluate(lines)
    assert got.dtype == np.float32 and got.shape == (len(lines),)
    np.testing.assert_array_equal(got, expected)
    # The start position is level; a missing white queen is -900 for White to move.
    assert dicechess.evaluate([START])[0] == 0.0
    assert dicechess.evaluate(["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1"])[0] == -900.0


def test_model_scores_are_the_cli_scores(cli, repo, tmp_path):
    lines = good_lines(repo)
    src = tmp_path / "in.dfen"
    src.write_text("\n".join(lines) + "\n")
    model = repo / "tests/fixtures/models/linear-kcp13"
    out = tmp_path / "m.npy"
    r = cli("eval", src, "--model", model, "--out", out)
    assert r.returncode == 0, r.stderr
    expected = np.load(out)[:, -1]
    got = dicechess.evaluate(lines, model=model)
    np.testing.assert_array_equal(got, expected)
    assert not np.array_equal(got, dicechess.evaluate(lines))


@pytest.mark.parametrize("dfen", [START, KIWIPETE, ROLLED[3]])
def test_probe_is_the_cli_report(cli, dfen):
    r = cli("probe", dfen)
    assert r.returncode == 0, r.stderr
    assert dicechess.probe(dfen) == json.loads(r.stdout)


@pytest.mark.parametrize("bot", ["greedy", "expectimax", "random"])
def test_bestmove_is_the_cli_decision(cli, bot):
    dfen = ROLLED[2]
    r = cli("bestmove", dfen, "--bot", bot, "--threads", "1", "--seed", "3")
    assert r.returncode == 0, r.stderr
    expected = json.loads(r.stdout)
    got = dicechess.bestmove(dfen, bot, threads=1, seed=3)
    for d in (expected, got):
        d.pop("elapsed_ms")
    assert got == expected
    assert got["moves"] in dicechess.legal_turns(dfen)


def test_bestmove_under_a_clock_returns_a_legal_turn():
    dfen = ROLLED[1]
    got = dicechess.bestmove(dfen, "expectimax", time_ms=50)
    assert got["moves"] in dicechess.legal_turns(dfen)


def test_batch_calls_release_the_gil():
    # One long feature extraction in a thread: with the GIL released the main thread keeps
    # running meanwhile (its longest pause stays far below the call's length); with the GIL
    # held it would stall for the whole call.
    dfens = [KIWIPETE] * 200_000
    took = []

    def work():
        t0 = time.perf_counter()
        dicechess.features(dfens, "kcp-mobility-pawns-31-v1")
        took.append(time.perf_counter() - t0)

    t = threading.Thread(target=work)
    last = time.perf_counter()
    gap = 0.0
    t.start()
    while t.is_alive():
        now = time.perf_counter()
        gap = max(gap, now - last)
        last = now
    t.join()
    assert took and took[0] > 0.2, took
    assert gap < took[0] / 2, (gap, took)
