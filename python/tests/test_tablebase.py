"""Endgame tables from Python: build, probe, errors (docs/tablebases.md)."""

import math

import numpy as np
import pytest

import dicechess


def test_build_then_probe_the_bare_kings(tmp_path):
    steps = dicechess.tablebase_build(tmp_path, "kk")
    assert [s["table"] for s in steps] == ["KvK"]
    assert steps[0]["converged"] and steps[0]["positions"] == 2 * 64 * 63
    # Kings side by side: V = (91 + 62.5(1 + g)) / (216 + 125 g), g = 0.99 (hand computed).
    g = 0.99
    exact = (91 + 62.5 * (1 + g)) / (216 + 125 * g)
    v = dicechess.tablebase_probe(tmp_path, "8/8/8/3k4/3K4/8/8/8 w - - 0 1")
    assert abs(v - exact) < 2e-5
    many = dicechess.tablebase_probe(
        tmp_path,
        ["8/8/8/3k4/3K4/8/8/8 b - - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"],
    )
    assert many.dtype == np.float64 and abs(many[0] - exact) < 2e-5 and math.isnan(many[1])
    # A second build keeps the table.
    assert dicechess.tablebase_build(tmp_path, ["kk"]) == [{"table": "KvK", "kept": True}]


def test_bad_input_names_what_is_wrong(tmp_path):
    with pytest.raises(ValueError, match="unknown table"):
        dicechess.tablebase_build(tmp_path, "kppkp")
    with pytest.raises(ValueError, match="no table files"):
        dicechess.tablebase_probe(tmp_path, "8/8/8/3k4/3K4/8/8/8 w - - 0 1")
    dicechess.tablebase_build(tmp_path, "kk")
    with pytest.raises(ValueError, match=r"dfens\[1\]: bad DFEN"):
        dicechess.tablebase_probe(tmp_path, ["8/8/8/3k4/3K4/8/8/8 w - - 0 1", "nonsense"])
    (tmp_path / "KvK.dctb").write_bytes(b"DCTBASE\0garbage")
    with pytest.raises(ValueError, match="KvK.dctb"):
        dicechess.tablebase_probe(tmp_path, "8/8/8/3k4/3K4/8/8/8 w - - 0 1")
