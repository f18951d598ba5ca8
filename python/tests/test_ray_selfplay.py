"""Self-play slices as Ray tasks on a local cluster: the merged folder is byte-identical to
the CLI's single-process run, and a killed worker's slice is retried without loss."""

from __future__ import annotations

import functools
import os
import signal
import sys

import pytest
import ray

from conftest import same_tree

from dicechess import ray_selfplay

GAMES, SEED, SHARD_GAMES = 8, 21, 2


@pytest.fixture(scope="module")
def local_ray():
    # The fault-injecting task below lives in this test module, which Ray's workers cannot
    # import: ship it by value.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def reference(cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("cli") / "run"
    r = cli(
        "selfplay", "--games", GAMES, "--seed", SEED, "--shard-games", SHARD_GAMES,
        "--threads", 1, "--out", out,
    )
    assert r.returncode == 0, r.stderr
    return out


def test_ray_slices_merge_into_the_cli_run(local_ray, reference, tmp_path):
    lines = []
    merged = ray_selfplay.run(
        tmp_path / "out", GAMES, workers=3, seed=SEED, shard_games=SHARD_GAMES,
        log=lines.append, progress_every=0.05,
    )
    same_tree(reference, tmp_path / "out")
    assert len(merged["shards"]) == GAMES // SHARD_GAMES
    assert sum("done" in line for line in lines) == 3
    played = [int(line.split()[1]) for line in lines if " games played in " in line]
    assert played and played == sorted(played) and played[-1] <= GAMES
    assert any(line.startswith("ray_selfplay: merged 4 shard(s), 8 games") for line in lines)


def die_once(marker: str, index: int, *args, **kw):
    """Slice 1's first attempt kills its own worker process (SIGKILL) mid-task."""
    if index == 1 and not os.path.exists(marker):
        open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    return ray_selfplay.play_slice(index, *args, **kw)


def test_a_killed_worker_is_retried_and_nothing_is_lost(local_ray, reference, tmp_path):
    marker = tmp_path / "killed-once"
    ray_selfplay.run(
        tmp_path / "out", GAMES, workers=2, seed=SEED, shard_games=SHARD_GAMES,
        slice_fn=functools.partial(die_once, str(marker)), log=lambda _: None,
    )
    assert marker.exists(), "the fault was never injected"
    same_tree(reference, tmp_path / "out")


def test_without_retries_the_killed_slice_fails_the_run(local_ray, tmp_path):
    marker = tmp_path / "killed-once"
    with pytest.raises(ray.exceptions.RayError):
        ray_selfplay.run(
            tmp_path / "out", GAMES, workers=2, seed=SEED, shard_games=SHARD_GAMES,
            max_retries=0, slice_fn=functools.partial(die_once, str(marker)),
            log=lambda _: None,
        )
    assert not (tmp_path / "out/manifest.json").exists()


def test_the_command_line_runs_and_refuses_bad_settings(local_ray, reference, tmp_path, capsys):
    out = tmp_path / "out"
    code = ray_selfplay.main([
        "--games", str(GAMES), "--workers", "2", "--seed", str(SEED), "--out", str(out),
        "--shard-games", str(SHARD_GAMES),
    ])
    assert code == 0
    same_tree(reference, out)
    assert "ray_selfplay: merged 4 shard(s)" in capsys.readouterr().err
    # A second run into the same folder, and a bad bot, are refused before any task.
    assert ray_selfplay.main(["--games", "2", "--workers", "1", "--out", str(out)]) == 2
    assert "already holds a self-play run" in capsys.readouterr().err
    code = ray_selfplay.main(["--games", "2", "--workers", "1", "--out", str(tmp_path / "b"),
                              "--white", "nope"])
    assert code == 2
    assert 'bot "nope": unknown bot' in capsys.readouterr().err


def stage_slice(out, index, count, seed):
    files = ray_selfplay.play_slice(index, count, GAMES, seed, {"shard_games": SHARD_GAMES})
    ray_selfplay._stage(out / ray_selfplay.STAGING, index, count, files)


def test_a_rerun_reuses_the_staged_slices_of_the_same_run(local_ray, reference, tmp_path):
    out = tmp_path / "out"
    stage_slice(out, 0, 2, SEED)
    lines = []
    ray_selfplay.run(out, GAMES, workers=2, seed=SEED, shard_games=SHARD_GAMES, log=lines.append)
    assert "ray_selfplay: slice 0/2 already staged" in lines
    assert f"ray_selfplay: {GAMES} games in 2 slice(s), 1 to play" in lines
    same_tree(reference, out)


def test_staged_slices_of_another_run_are_replayed(local_ray, reference, tmp_path):
    out = tmp_path / "out"
    stage_slice(out, 0, 2, SEED + 1)
    lines = []
    ray_selfplay.run(out, GAMES, workers=2, seed=SEED, shard_games=SHARD_GAMES, log=lines.append)
    assert not any("already staged" in line for line in lines)
    same_tree(reference, out)
