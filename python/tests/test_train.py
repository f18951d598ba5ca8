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
