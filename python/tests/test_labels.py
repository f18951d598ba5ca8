"""Labels from Python: ``dicechess.label`` equals the CLI's values bit for bit,
``dicechess.label_file`` writes the CLI's bytes, and ``python -m dicechess.ray_label`` merges
its slices (one of them killed once) into the same bytes."""

from __future__ import annotations

import functools
import os
import signal
import sys

import numpy as np
import pyarrow.parquet as pq
import pytest
import ray

import dicechess
from dicechess import ray_label


@pytest.fixture(scope="module")
def sample(repo, tmp_path_factory):
    """Four positions of each class of the committed self-play sample, as a DFEN file."""
    lines = []
    for cls in ("opening", "middlegame", "endgame"):
        text = (repo / "tests" / "data" / f"sample_{cls}.txt").read_text()
        lines += [l for l in text.splitlines() if l.strip() and not l.startswith("#")][:4]
    path = tmp_path_factory.mktemp("sample") / "in.dfen"
    path.write_text("\n".join(lines) + "\n")
    return path, lines


def cli_label(cli, src, out, *args):
    r = cli("label", src, "--out", out, *args)
    assert r.returncode == 0, r.stderr
    return pq.read_table(out)


@pytest.mark.parametrize("kind", ["a1", "p1"])
def test_values_equal_the_cli(cli, sample, tmp_path, kind):
    src, lines = sample
    t = cli_label(cli, src, tmp_path / "o.parquet", "--kind", kind)
    got = dicechess.label(lines, kind)
    assert set(got) == {kind, kind + "_win"}
    assert got[kind].dtype == np.float32
    assert np.array_equal(got[kind], t.column(kind).to_numpy())
    assert np.array_equal(got[kind + "_win"], t.column(kind + "_win").to_numpy())
    assert np.all((got[kind + "_win"] >= 0) & (got[kind + "_win"] <= 1))


def test_candidates_equal_the_cli(cli, sample, tmp_path):
    src, lines = sample
    t = cli_label(
        cli, src, tmp_path / "c.parquet", "--kind", "candidates", "--top", "5",
        "--evaluator", "material",
    )
    got = dicechess.label(lines, "candidates", "material", top=5)
    assert got["moves"] == t.column("moves").to_pylist()
    assert got["after"] == t.column("after").to_pylist()
    assert np.array_equal(got["a1"], t.column("a1").to_numpy())
    assert np.array_equal(got["prerank"], t.column("prerank").to_numpy())
    rolls = np.stack([t.column(f"roll_{r}").to_numpy() for r in dicechess.ROLLS], axis=1)
    assert got["rolls"].shape == (len(got["a1"]), 56)
    assert np.array_equal(got["rolls"], rolls)
    # Each root's candidates are contiguous and at most five.
    roots = got["root"]
    assert list(roots) == sorted(roots) and np.bincount(roots).max() <= 5
    assert [lines[i] for i in roots] and t.column("dfen").to_pylist()[0].startswith(
        lines[0].split()[0]
    )


def test_bad_input_is_a_value_error():
    with pytest.raises(ValueError, match="kind"):
        dicechess.label(["4k3/8/8/8/8/8/8/4K3 w - - 0 1"], "q9")
    with pytest.raises(ValueError, match=r"dfens\[1\]: bad DFEN: side"):
        dicechess.label(["4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 x - - 0 1"], "a1")
    with pytest.raises(ValueError, match="work units"):
        dicechess.label(
            ["r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"],
            "p1",
            max_work=100,
        )
    with pytest.raises(ValueError, match="dice"):
        dicechess.label(["4k3/8/8/8/8/8/8/4K3 w - - 0 1"], "candidates")


def test_label_file_writes_the_cli_bytes(cli, sample, tmp_path):
    src, _ = sample
    cli_label(cli, src, tmp_path / "cli.parquet", "--kind", "a1", "--chunk-rows", "5")
    s = dicechess.label_file(src, tmp_path / "py.parquet", "a1", chunk_rows=5)
    assert s["merged"] and s["written"] == 12 and s["chunks"] == 3
    assert (tmp_path / "py.parquet").read_bytes() == (tmp_path / "cli.parquet").read_bytes()


@pytest.fixture(scope="module")
def local_ray():
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def die_once(marker: str, index: int, *args, **kw):
    """Slice 1's first attempt kills its own worker process (SIGKILL) mid-task."""
    if index == 1 and not os.path.exists(marker):
        open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    return ray_label.label_slice(index, *args, **kw)


def test_ray_slices_merge_into_the_cli_bytes(local_ray, cli, sample, tmp_path):
    src, _ = sample
    cli_label(
        cli, src, tmp_path / "cli.parquet", "--kind", "candidates", "--top", "3",
        "--chunk-rows", "2",
    )
    marker = tmp_path / "killed-once"
    lines = []
    s = ray_label.run(
        src, tmp_path / "ray.parquet", "candidates", workers=3, top=3, chunk_rows=2,
        slice_fn=functools.partial(die_once, str(marker)), log=lines.append,
    )
    assert marker.exists(), "the fault was never injected"
    assert s["computed"] == 0 and s["written"] > 0
    assert sum(" done " in line for line in lines) == 3
    assert (tmp_path / "ray.parquet").read_bytes() == (tmp_path / "cli.parquet").read_bytes()
    assert not (tmp_path / "ray.parquet.parts").exists()
