"""Self-play writes the CLI's files byte for byte; slices merge into the single run."""

from __future__ import annotations

import json

from conftest import same_tree

import dicechess

RUN = ["--games", "6", "--seed", "11", "--shard-games", "2", "--white", "greedy", "--black", "random"]
KW = dict(seed=11, shard_games=2, white="greedy", black="random")


def test_selfplay_writes_the_cli_files_and_returns_the_manifest(cli, tmp_path):
    r = cli("selfplay", *RUN, "--out", tmp_path / "cli")
    assert r.returncode == 0, r.stderr
    manifest = dicechess.selfplay(tmp_path / "py", 6, threads=2, **KW)
    same_tree(tmp_path / "cli", tmp_path / "py")
    assert manifest == json.loads((tmp_path / "py/manifest.json").read_text())
    assert len(manifest["shards"]) == 3
    assert sum(s["counts"]["games"] for s in manifest["shards"]) == 6


def test_slices_merge_into_the_single_run(cli, tmp_path):
    r = cli("selfplay", *RUN, "--out", tmp_path / "cli")
    assert r.returncode == 0, r.stderr
    parts = []
    for i in range(2):
        m = dicechess.selfplay(tmp_path / f"s{i}", 6, shard=(i, 2), **KW)
        assert m["slice"] == f"{i}/2"
        parts.append(tmp_path / f"s{i}")
    merged = dicechess.merge(parts, tmp_path / "merged")
    same_tree(tmp_path / "cli", tmp_path / "merged")
    assert merged == json.loads((tmp_path / "merged/manifest.json").read_text())


def test_a_rerun_resumes_and_keeps_the_bytes(tmp_path):
    first = dicechess.selfplay(tmp_path / "a", 4, shard_games=2, seed=5)
    again = dicechess.selfplay(tmp_path / "a", 4, shard_games=2, seed=5)
    assert first == again


def test_progress_is_reported_after_each_game(tmp_path):
    calls = []
    m = dicechess.selfplay(tmp_path / "a", 5, shard_games=2, seed=2, threads=2,
                           progress=lambda *a: calls.append(a))
    assert [c[0] for c in calls] == [1, 2, 3, 4, 5]
    assert all(c[2] == 5 for c in calls)
    assert calls[-1][1] == sum(s["counts"]["positions"] for s in m["shards"])


def test_an_exception_in_the_progress_callback_is_raised_after_the_run(tmp_path):
    def boom(*_):
        raise KeyError("stop")

    try:
        dicechess.selfplay(tmp_path / "a", 3, shard_games=2, progress=boom)
    except KeyError as e:
        assert e.args == ("stop",)
    else:
        raise AssertionError("the callback's exception was swallowed")
    # The run itself finished: a rerun finds every shard done.
    calls = []
    dicechess.selfplay(tmp_path / "a", 3, shard_games=2, progress=lambda *a: calls.append(a))
    assert calls == []
