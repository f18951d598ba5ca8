"""``python -m dicechess.train``: self-play shards in, a model package out that the engine
loads, with the engine's scores equal to the trained network's own forward pass."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

import dicechess
from dicechess import train


@pytest.fixture(scope="module")
def shards(tmp_path_factory):
    out = tmp_path_factory.mktemp("selfplay") / "run"
    dicechess.selfplay(out, 40, white="greedy", black="aggressive", seed=3, shard_games=20)
    return out


def _forward(model_path, x):
    """The exported graph evaluated with numpy (Gemm → Relu … → Sigmoid)."""
    g = onnx.load(str(model_path)).graph
    init = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    h = x.astype(np.float64)
    for node in g.node:
        if node.op_type == "Gemm":
            h = h @ init[node.input[1]] + init[node.input[2]]
        elif node.op_type == "Relu":
            h = np.maximum(h, 0)
        elif node.op_type == "Sigmoid":
            h = 1 / (1 + np.exp(-h))
        else:
            raise AssertionError(f"unexpected op {node.op_type}")
    return h[:, 0]


def test_trains_and_the_engine_loads_the_package(shards, tmp_path):
    out = tmp_path / "gen1"
    assert train.main(["--data", str(shards), "--out", str(out), "--epochs", "3", "--quiet"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["manifestVersion"] == "1.1.0"
    assert manifest["modelRole"] == "position-value"
    assert manifest["perspective"] == "side-to-move"
    assert manifest["featureSchema"] == "rich-9-v1"
    assert manifest["featureCount"] == 9
    assert manifest["modelSha256"] == hashlib.sha256((out / "model.onnx").read_bytes()).hexdigest()
    report = json.loads((out / "train-report.json").read_text())
    assert report["games"] == 40
    assert report["rows_train"] + report["rows_holdout"] == manifest["provenance"]["rows"]
    assert len(report["epoch_losses"]) == 3
    assert report["holdout_loss"] == min(e["holdout"] for e in report["epoch_losses"])
    # No temporary folders left beside the package.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gen1"]

    # The engine's score is 20000·(p − 0.5) of the network's p on the engine's features.
    dfens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 BNQ",
        "4k3/8/8/3n4/4P3/8/8/4K3 b - - 0 1 NKP",
    ]
    x = dicechess.features(dfens, "rich-9-v1")
    p = _forward(out / "model.onnx", x)
    got = dicechess.evaluate(dfens, model=out)
    np.testing.assert_allclose(got, 20000 * (p - 0.5), rtol=1e-4, atol=0.05)


def test_prerank_role_and_a_rerun_replaces_the_package(shards, tmp_path):
    out = tmp_path / "pre"
    args = ["--data", str(shards), "--out", str(out), "--epochs", "1", "--quiet"]
    assert train.main(args + ["--role", "move-prerank", "--seed", "1"]) == 0
    first = (out / "model.onnx").read_bytes()
    assert json.loads((out / "manifest.json").read_text())["modelRole"] == "move-prerank"
    # The engine refuses it as a value model, naming the role.
    with pytest.raises(ValueError, match="move-prerank"):
        dicechess.evaluate(["4k3/8/8/8/8/8/8/K3R3 w - - 0 1 RRR"], model=out)
    assert train.main(args + ["--seed", "2"]) == 0
    assert (out / "model.onnx").read_bytes() != first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pre"]


def test_refuses_bad_input_with_a_message(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert train.main(["--data", str(empty), "--out", str(tmp_path / "m"), "--quiet"]) == 2
    assert "no *.rows.parquet shards" in capsys.readouterr().err
    assert train.main(["--data", str(tmp_path / "nope"), "--out", str(tmp_path / "m")]) == 2
    assert "not a folder" in capsys.readouterr().err
    assert train.main(["--data", str(empty), "--out", str(tmp_path / "m"), "--role", "x"]) == 2
    assert "--role" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def test_runs_as_a_module(shards, tmp_path):
    out = tmp_path / "cli"
    r = subprocess.run(
        [sys.executable, "-m", "dicechess.train", "--data", str(shards), "--out", str(out),
         "--epochs", "1", "--quiet"],
        capture_output=True, text=True,
    )
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["games"] == 40
    assert (out / "model.onnx").is_file()


def _rows(shards):
    import pyarrow.parquet as pq

    fens, dice, results = [], [], []
    for f in sorted(shards.glob("*.rows.parquet")):
        t = pq.read_table(f)
        fens += t.column("fen").to_pylist()
        dice += t.column("dice").to_pylist()
        results += t.column("result").to_pylist()
    return fens, dice, np.asarray(results, dtype=np.float64)


def _a1_labels(shards, labels):
    """Material a1 label shards of every self-play shard, in the folder ``labels``."""
    labels.mkdir()
    for shard in sorted(shards.glob("*.rows.parquet")):
        dicechess.label_file(shard, labels / shard.name.replace(".rows.", ".a1."), "a1", "material")
    return labels


def test_targets_are_the_searched_labels_mixed_with_results(shards, tmp_path):
    # a1 labels of the shards (the previous mover's view), read back as the side to move's
    # win probability and checked against p1 computed separately (p1 = −a1 on one board).
    labels = _a1_labels(shards, tmp_path / "labels")
    fens, dice, results = _rows(shards)
    p1_win = dicechess.label([f"{f} {d}" for f, d in zip(fens, dice)], "p1", "material")["p1_win"]
    args = train.argparse.Namespace(labels=[str(labels)], result_weight=0.25)
    y, target = train.targets(args, results, fens)
    np.testing.assert_allclose(y, 0.75 * p1_win + 0.25 * results, atol=1e-6)
    assert target["label_kind"] == "a1" and target["label_evaluator"] == "material"
    assert target["target"] == "0.75*a1_win+0.25*result"
    # The labels are not the results: the target really changed.
    assert np.abs(y - results).max() > 0.1

    out = tmp_path / "gen-labels"
    argv = ["--data", str(shards), "--labels", str(labels), "--out", str(out), "--epochs", "2", "--quiet"]
    assert train.main(argv) == 0
    report = json.loads((out / "train-report.json").read_text())
    assert report["target"] == "a1_win" and report["result_weight"] == 0.0
    assert json.loads((out / "manifest.json").read_text())["provenance"]["target"] == "a1_win"


def test_refuses_missing_and_wrong_labels(shards, tmp_path, capsys):
    shard = sorted(shards.glob("*.rows.parquet"))[0]
    part = tmp_path / "part"
    part.mkdir()
    # Only one of the two shards labelled: the rows of the other have no label.
    dicechess.label_file(shard, part / "one.parquet", "p1", "material")
    argv = ["--data", str(shards), "--out", str(tmp_path / "m"), "--quiet", "--labels"]
    assert train.main(argv + [str(part)]) == 2
    assert "have no p1 label" in capsys.readouterr().err
    cands = tmp_path / "cands.parquet"
    fens, dice, _ = _rows(shards)
    cand_in = tmp_path / "in.txt"
    cand_in.write_text(f"{fens[0]} {dice[0]}\n")
    dicechess.label_file(cand_in, cands, "candidates", "material")
    assert train.main(argv + [str(cands)]) == 2
    assert "not a value label" in capsys.readouterr().err
    assert train.main(argv + [str(tmp_path / "nope")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def test_chance_collapse_role_targets_the_side_that_just_moved(shards, tmp_path):
    # Searched a1 labels (the previous mover's view) and a collapse model trained on them.
    labels = _a1_labels(shards, tmp_path / "a1")
    fens, dice, results = _rows(shards)

    # The target: the side that just moved's a1_win as it is (not the mover's complement).
    args = train.argparse.Namespace(labels=[str(labels)], result_weight=0.0)
    y_mover, target = train.targets(args, results, fens)
    y, view = train.collapse_view(y_mover, target)
    a1_win = dicechess.label([f"{f} {d}" for f, d in zip(fens, dice)], "a1", "material")["a1_win"]
    np.testing.assert_allclose(y, a1_win, atol=1e-6)
    assert np.abs(y - y_mover).max() > 0.1
    assert view["view"] == "just-moved" and view["target"] == "a1_win of the side that just moved"

    out = tmp_path / "cc"
    argv = ["--data", str(shards), "--labels", str(labels), "--out", str(out), "--epochs", "3",
            "--role", "chance-collapse", "--quiet"]
    assert train.main(argv) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["modelRole"] == "chance-collapse"
    report = json.loads((out / "train-report.json").read_text())
    assert report["role"] == "chance-collapse" and report["view"] == "just-moved"

    # Served at a leaf (an after-state) it scores −20000·(p − 0.5) from the side to move,
    # p = the network on the side to move's features: the side that just moved's chance.
    dfens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 BNQ",
        "4k3/8/8/3n4/4P3/8/8/4K3 b - - 0 1 NKP",
    ]
    p = _forward(out / "model.onnx", dicechess.features(dfens, "rich-9-v1"))
    got = dicechess.evaluate(dfens, model=out)
    np.testing.assert_allclose(got, -20000 * (p - 0.5), rtol=1e-4, atol=0.05)
    # And the bots take it at their leaves (a role they refused before).
    move = dicechess.bestmove(dfens[1], bot="expectimax", model=str(out))
    assert move["stats"]["candidates_completed"] > 0 and move["stats"]["leaves"] > 0
