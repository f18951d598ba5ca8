"""Self-play across machines on Ray: the ``--shard i/n`` slices of one run as Ray tasks,
merged with the digest checks into one folder byte-identical to a single-process run.

    python -m dicechess.ray_selfplay --games N --workers W --seed S --out DIR [--address ADDR]

Each task plays one slice into a private temporary folder on its node and returns the
slice's files (its ``manifest.json`` and shard files) through the object store, so the
nodes need no shared file system. The driver writes each slice into ``DIR/.ray-slices/``
as it finishes, merges them into ``DIR`` with :func:`dicechess.merge` (file names, counts
and every SHA-256 checked) and removes the staging folder. A task whose worker dies (a
killed process, a lost node) is retried by Ray (``--max-retries``); a game depends only on
(seed, game index), so a retried slice is the same bytes and nothing is lost. A rerun
after an interrupted driver reuses the slices already staged.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, Optional

import dicechess

#: The staging folder of finished slices inside the output folder.
STAGING = ".ray-slices"


def slice_dir_name(index: int, count: int) -> str:
    """The staging folder name of slice ``index`` of ``count``."""
    return f"slice-{index:05}-of-{count:05}"


def play_slice(
    index: int,
    count: int,
    games: int,
    seed: int,
    options: Dict[str, Any],
    progress: Any = None,
) -> Dict[str, bytes]:
    """Play slice ``index/count`` of the run into a temporary folder and return its files
    (``manifest.json`` and every shard file it lists) by name. Runs inside a Ray task;
    ``progress`` is the driver's :class:`Progress` actor (games reported twice a second
    at most)."""
    work = tempfile.mkdtemp(prefix=f"dicechess-slice-{index}-")
    last = [0.0]

    def report(played: int, positions: int, total: int) -> None:
        now = time.monotonic()
        if progress is not None and (now - last[0] >= 0.5 or played == total):
            last[0] = now
            progress.report.remote(index, played, total)

    try:
        manifest = dicechess.selfplay(
            work, games, seed=seed, shard=(index, count), progress=report, **options
        )
        names = ["manifest.json"]
        for shard in manifest["shards"]:
            names.extend(sorted(shard["files"]))
        return {name: Path(work, name).read_bytes() for name in names}
    finally:
        shutil.rmtree(work, ignore_errors=True)


class Progress:
    """Games played per slice, as the tasks report them (a Ray actor in :func:`run`)."""

    def __init__(self) -> None:
        self.slices: Dict[int, tuple] = {}

    def report(self, index: int, played: int, total: int) -> None:
        """Slice ``index`` has played ``played`` of its ``total`` games (this attempt)."""
        self.slices[index] = (played, total)

    def played(self) -> int:
        """Games played over every slice."""
        return sum(p for p, _ in self.slices.values())


def _stage(staging: Path, index: int, count: int, files: Dict[str, bytes]) -> Path:
    """Write a finished slice's files into its staging folder (manifest last, atomically
    renamed into place, so a staged folder with a manifest is complete)."""
    d = staging / slice_dir_name(index, count)
    partial = staging / (slice_dir_name(index, count) + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    for name, data in files.items():
        if "/" in name or name.startswith("."):
            raise RuntimeError(f"slice {index}: refused file name {name!r}")
        (partial / name).write_bytes(data)
    shutil.rmtree(d, ignore_errors=True)
    partial.rename(d)
    return d


#: Manifest keys that define a run (a staged slice must agree on them to be reused).
RUN_KEYS = ("format", "engineVersion", "ruleset", "seed", "shardGames", "white", "black",
            "start", "limits", "featureSchema", "perspective")


def _staged(staging: Path, index: int, count: int, games: int, run_manifest: Dict[str, Any]) -> bool:
    """Whether slice ``index/count`` is staged complete for this very run; a staged folder
    of another run (or an incomplete one) is removed."""
    d = staging / slice_dir_name(index, count)
    try:
        m = _manifest(d)
    except (OSError, ValueError):
        shutil.rmtree(d, ignore_errors=True)
        return False
    shard_games = run_manifest["shardGames"]
    shard_count = -(-games // shard_games)
    same = (
        all(m.get(k) == run_manifest.get(k) for k in RUN_KEYS)
        and m.get("games") == games
        and m.get("slice") == f"{index}/{count}"
        and sorted(s["index"] for s in m.get("shards", [])) == list(range(index, shard_count, count))
    )
    if not same:
        shutil.rmtree(d, ignore_errors=True)
    return same


def run(
    out: os.PathLike,
    games: int,
    workers: int,
    seed: int = 0,
    *,
    address: Optional[str] = None,
    cpus_per_worker: int = 1,
    max_retries: int = 3,
    slice_fn: Callable[..., Dict[str, bytes]] = play_slice,
    log: Callable[[str], None] = lambda line: print(line, file=sys.stderr, flush=True),
    progress_every: float = 5.0,
    **options: Any,
) -> Dict[str, Any]:
    """Run ``games`` self-play games as ``workers`` slices on Ray and merge them into
    ``out``; returns the merged manifest (the same as ``dicechess.selfplay(out, games,
    seed=seed, **options)`` would write). ``options`` are :func:`dicechess.selfplay`'s
    (``white``, ``black``, ``features``, ``shard_games``, ...; ``threads`` is
    ``cpus_per_worker``). ``slice_fn`` is what each task runs, with :func:`play_slice`'s
    arguments (any picklable callable; tests inject faults with it). Connects to
    ``address`` when given (``auto`` for a running cluster), else starts or reuses a local
    Ray. ``log`` receives the progress lines (standard error by default): one per
    finished slice, and the games played so far every ``progress_every`` seconds while
    none finishes."""
    import ray

    if workers < 1:
        raise ValueError("--workers: must be at least 1")
    if cpus_per_worker < 1:
        raise ValueError("--cpus-per-worker: must be at least 1")
    if "shard" in options or "threads" in options:
        raise ValueError("shard and threads are set by the driver")
    out = Path(out)
    if (out / "manifest.json").exists():
        raise ValueError(f"--out {out}: already holds a self-play run")
    # Refuse bad settings (bot ids, feature schema, ...) before any task starts: a run of
    # no games checks them all and writes only a manifest.
    with tempfile.TemporaryDirectory(prefix="dicechess-check-") as check:
        run_manifest = dicechess.selfplay(check, 0, seed=seed, **options)
    staging = out / STAGING
    staging.mkdir(parents=True, exist_ok=True)
    if not ray.is_initialized():
        ray.init(address=address, log_to_driver=False)

    def play(*args: Any) -> Dict[str, bytes]:
        return slice_fn(*args)

    task = ray.remote(num_cpus=cpus_per_worker, max_retries=max_retries)(play)
    progress = ray.remote(num_cpus=0)(Progress).remote()
    opts = dict(options, threads=cpus_per_worker)
    t0 = time.monotonic()
    pending = {}
    done = 0
    for i in range(workers):
        if _staged(staging, i, workers, games, run_manifest):
            done += 1
            log(f"ray_selfplay: slice {i}/{workers} already staged")
            continue
        pending[task.remote(i, workers, games, seed, opts, progress)] = i
    log(f"ray_selfplay: {games} games in {workers} slice(s), {len(pending)} to play")
    shown = -1
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1, timeout=progress_every)
        if not ready:
            played = ray.get(progress.played.remote())
            if played != shown:
                shown = played
                secs = time.monotonic() - t0
                rate = played / max(secs, 1e-9)
                log(f"ray_selfplay: {played} games played in {secs:.1f} s ({rate:.1f} games/s)")
            continue
        ref = ready[0]
        i = pending.pop(ref)
        files = ray.get(ref)
        d = _stage(staging, i, workers, files)
        done += 1
        slice_games = sum(s["counts"]["games"] for s in _manifest(d)["shards"])
        log(
            f"ray_selfplay: slice {i}/{workers} done ({slice_games} games); "
            f"{done}/{workers} slices in {time.monotonic() - t0:.1f} s"
        )
    dirs = [staging / slice_dir_name(i, workers) for i in range(workers)]
    merged = dicechess.merge(dirs, out)
    shutil.rmtree(staging)
    t = merged["shards"]
    log(
        f"ray_selfplay: merged {len(t)} shard(s), "
        f"{sum(s['counts']['games'] for s in t)} games into {out} "
        f"in {time.monotonic() - t0:.1f} s"
    )
    return merged


def _manifest(d: Path) -> Dict[str, Any]:
    return json.loads((d / "manifest.json").read_text())


def main(argv: Optional[list] = None) -> int:
    """The command line (``python -m dicechess.ray_selfplay --help``)."""
    p = argparse.ArgumentParser(
        prog="python -m dicechess.ray_selfplay",
        description="Self-play slices as Ray tasks, merged with digest checks.",
    )
    p.add_argument("--games", type=int, required=True, help="games in the whole run")
    p.add_argument("--workers", type=int, required=True, help="slices (Ray tasks)")
    p.add_argument("--seed", type=int, default=0, help="run seed")
    p.add_argument("--out", required=True, help="output folder (must not hold a run)")
    p.add_argument("--address", default=None, help="Ray cluster address (e.g. auto)")
    p.add_argument("--cpus-per-worker", type=int, default=1, help="threads per task")
    p.add_argument("--max-retries", type=int, default=3, help="retries of a dead task")
    p.add_argument("--white", default="greedy", help="White's bot")
    p.add_argument("--black", default="greedy", help="Black's bot")
    p.add_argument("--features", default="rich-9-v1", help="feature schema of the rows")
    p.add_argument("--shard-games", type=int, default=None, help="games per shard")
    a = p.parse_args(argv)
    try:
        run(
            a.out,
            a.games,
            a.workers,
            a.seed,
            address=a.address,
            cpus_per_worker=a.cpus_per_worker,
            max_retries=a.max_retries,
            white=a.white,
            black=a.black,
            features=a.features,
            shard_games=a.shard_games,
        )
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
