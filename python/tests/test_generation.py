"""``python -m dicechess.generation``: two small generations end to end (self-play, labels,
training, the arena gate, the record), a rerun that changes nothing, promotion into place,
and the errors it names."""

from __future__ import annotations

import json

from dicechess import generation


def _args(work, cli_bin, generations):
    return [
        "--work", str(work), "--generations", str(generations), "--games", "12",
        "--shard-games", "6", "--epochs", "2", "--hidden", "4", "--gate-untimed",
        "--gate-pairs", "3", "--threads", "2", "--bin", cli_bin, "--quiet",
    ]


def test_two_generations_are_recorded_and_a_rerun_changes_nothing(tmp_path, cli_bin, repo):
    work = tmp_path / "loop"
    bench = ["--benchmark", str(repo / "suites" / "decisions-v1.jsonl"), "--benchmark-limit", "3"]
    assert generation.main(_args(work, cli_bin, 1) + bench) == 0
    assert generation.main(_args(work, cli_bin, 2)) == 0
    rows = generation.read_generations(work)
    assert [r["generation"] for r in rows] == [1, 2]
    first, second = rows
    assert first["parent"] == "dice-aware"
    assert first["data"]["generations"] == [1]
    assert second["data"]["generations"] == [1, 2]
    for r in rows:
        gen = work / f"gen-{r['generation']}"
        manifest = json.loads((gen / "model" / "manifest.json").read_text())
        assert manifest["featureSchema"] == "dice-terms-v1"
        assert manifest["modelRole"] == "position-value"
        labels = sorted(p.name for p in (gen / "labels").iterdir())
        assert labels == ["shard-00000.p1.parquet", "shard-00001.p1.parquet"]
        assert r["label"] == {"kind": "p1", "evaluator": "dice-aware", "result_weight": 0.0}
        assert r["gate"]["opponent"] == "best-v1"
        assert r["gate"]["time"] == "untimed"
        assert sum(r["gate"]["pentanomial"]) == r["gate"]["pairs"] == 3
        assert r["kept"] == (r["gate"]["decision"] == generation.PROMOTE)
        assert r["loss"]["holdout"] > 0
    # The first generation was scored on the benchmark's first 3 decisions, the second not.
    e = first["equity_lost"]
    assert e["set"] == "decisions-v1.jsonl" and e["decisions"] == 3 and e["time"] == "untimed"
    assert e["milli"] >= 0 and 0 <= e["agreement"] <= 1
    judged = json.loads((work / "gen-1" / "equity-lost.json").read_text())["decisions"]
    assert [d["index"] for d in judged] == [0, 1, 2]
    assert second["equity_lost"] is None
    # Data of two generations: the second model saw both.
    rows_1 = first["data"]["rows"]
    assert second["data"]["rows"] > rows_1
    assert (work / "champion").exists() == any(r["kept"] for r in rows)
    before = (work / "generations.jsonl").read_bytes()
    assert generation.main(_args(work, cli_bin, 2)) == 0
    assert (work / "generations.jsonl").read_bytes() == before


def test_a_chance_collapse_loop_plays_labels_and_trains_with_a_collapse_champion(tmp_path, cli_bin, repo):
    # A collapse package as the champion: self-play and the labels run it at their leaves,
    # and the generation trains a collapse net of its own.
    import shutil

    work = tmp_path / "cc"
    work.mkdir()
    shutil.copytree(repo / "tests" / "fixtures" / "models" / "collapse-material7", work / "champion")
    argv = _args(work, cli_bin, 1) + ["--role", "chance-collapse", "--label", "a1", "--label-with-champion"]
    assert generation.main(argv) == 0
    (row,) = generation.read_generations(work)
    assert row["parent"] == "champion" and row["role"] == "chance-collapse"
    assert row["label"] == {"kind": "a1", "evaluator": "collapse-material7", "result_weight": 0.0}
    manifest = json.loads((work / "gen-1" / "model" / "manifest.json").read_text())
    assert manifest["modelRole"] == "chance-collapse"
    report = json.loads((work / "gen-1" / "model" / "train-report.json").read_text())
    assert report["view"] == "just-moved"
    assert sum(row["gate"]["pentanomial"]) == row["gate"]["pairs"] == 3


def test_promotion_replaces_the_champion_whole(tmp_path):
    a, b, champion = tmp_path / "a", tmp_path / "b", tmp_path / "champion"
    for d, text in ((a, "first"), (b, "second")):
        d.mkdir()
        (d / "manifest.json").write_text(text)
    generation.promote(a, champion)
    assert (champion / "manifest.json").read_text() == "first"
    generation.promote(b, champion)
    assert (champion / "manifest.json").read_text() == "second"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b", "champion"]


def test_errors_are_named(tmp_path, capsys):
    work = tmp_path / "loop"
    assert generation.main(["--work", str(work), "--bin", str(tmp_path / "nope")]) == 1
    assert "--bin" in capsys.readouterr().err
    work.mkdir(exist_ok=True)
    (work / "generations.jsonl").write_text('{"generation": 1}\n{"gener')
    assert generation.main(["--work", str(work), "--bin", "/bin/true"]) == 1
    assert "generations.jsonl:2: not a JSON line" in capsys.readouterr().err
