"""The label factory across machines on Ray: the ``--slice i/n`` chunk slices of one
``dicechess label`` run as Ray tasks, merged into one file byte-identical to a single
process.

    python -m dicechess.ray_label INPUT --kind KIND --out OUT --workers W [--address ADDR]

The input's bytes go to the tasks through the object store (no shared file system). Each
task writes them to a temporary file on its node, computes its slice's chunks with
:func:`dicechess.label_file` (``slice=(i, n)``: chunk ``k`` when ``k % n == i``) and returns
the finished part files and the run record. The driver puts every returned part into
``OUT.parts/`` as it arrives, then runs the plain command, which finds every chunk finished
(each part's checksum verified, the run record checked: the same input bytes, kind,
evaluator, chunk size and engine) and only merges. A chunk depends only on the input and
the settings, so the file is the one ``dicechess label`` writes in one process. A task whose
worker dies is retried by Ray (``--max-retries``) and computes the same bytes again.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, Optional

import dicechess


def label_slice(
    index: int,
    count: int,
    input_name: str,
    input_bytes: bytes,
    kind: str,
    options: Dict[str, Any],
) -> Dict[str, bytes]:
    """Label slice ``index/count`` of the input into a temporary folder and return the
    parts folder's files (``run.json``, ``part-*.parquet``, ``part-*.sha256``) by name. Runs
    inside a Ray task."""
    work = tempfile.mkdtemp(prefix=f"dicechess-label-slice-{index}-")
    try:
        src = Path(work, Path(input_name).name)
        src.write_bytes(input_bytes)
        out = Path(work, "out" + options.pop("suffix"))
        dicechess.label_file(src, out, kind, slice=(index, count), **options)
        parts = Path(str(out) + ".parts")
        return {
            f.name: f.read_bytes()
            for f in sorted(parts.iterdir())
            if f.name == "run.json" or f.name.startswith("part-")
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _stage(parts: Path, files: Dict[str, bytes]) -> int:
    """Write a slice's part files into ``parts`` (each under a temporary name, renamed; the
    checksum files last, so a part is finished only once its checksum is there); the run
    record only when there is none yet. Returns the parts written."""
    parts.mkdir(parents=True, exist_ok=True)
    written = 0
    names = sorted(files, key=lambda n: (n.endswith(".sha256"), n))
    for name in names:
        if "/" in name or name.startswith(".") or not (
            name == "run.json" or name.startswith("part-")
        ):
            raise RuntimeError(f"refused file name {name!r} from a task")
        dest = parts / name
        if name == "run.json" and dest.exists():
            continue
        tmp = parts / f".{name}.ray-partial"
        tmp.write_bytes(files[name])
        os.replace(tmp, dest)
        written += name.endswith(".parquet")
    return written


def run(
    input: os.PathLike,
    out: os.PathLike,
    kind: str,
    workers: int,
    *,
    address: Optional[str] = None,
    cpus_per_worker: int = 1,
    max_retries: int = 3,
    slice_fn: Callable[..., Dict[str, bytes]] = label_slice,
    log: Callable[[str], None] = lambda line: print(line, file=sys.stderr, flush=True),
    **options: Any,
) -> Dict[str, Any]:
    """Label ``input`` as ``workers`` slices on Ray and merge them into ``out``; returns the
    summary of the merging run (``written`` rows, ...). ``options`` are
    :func:`dicechess.label_file`'s (``evaluator``, ``model``, ``top``, ``prerank``,
    ``max_work``, ``chunk_rows``, ``skip_bad``); ``threads`` is ``cpus_per_worker``.
    ``slice_fn`` is what each task runs, with :func:`label_slice`'s arguments (tests inject
    faults with it). Connects to ``address`` when given (``auto`` for a running cluster),
    else starts or reuses a local Ray."""
    import ray

    if workers < 1:
        raise ValueError("--workers: must be at least 1")
    if cpus_per_worker < 1:
        raise ValueError("--cpus-per-worker: must be at least 1")
    if "slice" in options or "threads" in options or "restart" in options:
        raise ValueError("slice, threads and restart are set by the driver")
    input, out = Path(input), Path(out)
    if out.exists():
        raise ValueError(f"--out {out}: already exists")
    suffix = out.suffix
    if suffix.lower() not in (".parquet", ".npy"):
        raise ValueError(f"--out {out}: use .parquet or .npy")
    # Refuse a bad kind, evaluator or model package before any task starts.
    check = {k: options[k] for k in ("evaluator", "model", "top", "prerank", "max_work") if k in options}
    dicechess.label([], kind, **check)
    data = input.read_bytes()
    if not ray.is_initialized():
        ray.init(address=address, log_to_driver=False)
    task = ray.remote(num_cpus=cpus_per_worker, max_retries=max_retries)(
        lambda *args: slice_fn(*args)
    )
    ref = ray.put(data)
    opts = dict(options, threads=cpus_per_worker, suffix=suffix)
    parts = Path(str(out) + ".parts")
    t0 = time.monotonic()
    pending = {task.remote(i, workers, input.name, ref, kind, dict(opts)): i for i in range(workers)}
    log(f"ray_label: {input} ({len(data)} bytes) as {workers} slice(s) of kind {kind}")
    done = 0
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        i = pending.pop(ready[0])
        n = _stage(parts, ray.get(ready[0]))
        done += 1
        log(
            f"ray_label: slice {i}/{workers} done ({n} part(s)); {done}/{workers} in "
            f"{time.monotonic() - t0:.1f} s"
        )
    merge_opts = {k: v for k, v in options.items()}
    summary = dicechess.label_file(input, out, kind, **merge_opts)
    if summary["computed"] != 0:
        raise RuntimeError(
            f"the merge computed {summary['computed']} rows itself: a slice's parts were missing"
        )
    log(
        f"ray_label: merged {summary['written']} rows into {out} in "
        f"{time.monotonic() - t0:.1f} s"
    )
    return summary


def main(argv: Optional[list] = None) -> int:
    """The command line (``python -m dicechess.ray_label --help``)."""
    p = argparse.ArgumentParser(
        prog="python -m dicechess.ray_label",
        description="The label factory's chunk slices as Ray tasks, merged byte-identically.",
    )
    p.add_argument("input", help="DFEN lines, a Parquet dfen/fen column or a v0 shard")
    p.add_argument("--kind", required=True, choices=dicechess.LABEL_KINDS)
    p.add_argument("--out", required=True, help="output file (.parquet or .npy)")
    p.add_argument("--workers", type=int, required=True, help="slices (Ray tasks)")
    p.add_argument("--evaluator", default="dice-aware", help="material or dice-aware")
    p.add_argument("--model", default=None, help="a position-value model package")
    p.add_argument("--top", type=int, default=None, help="candidates: keep the best K")
    p.add_argument("--prerank", default=None, help="candidates --top: the pre-ranker")
    p.add_argument("--max-work", type=int, default=None, help="work units per position")
    p.add_argument("--chunk-rows", type=int, default=None, help="positions per chunk")
    p.add_argument("--skip-bad", action="store_true", help="skip bad records")
    p.add_argument("--address", default=None, help="Ray cluster address (e.g. auto)")
    p.add_argument("--cpus-per-worker", type=int, default=1, help="threads per task")
    p.add_argument("--max-retries", type=int, default=3, help="retries of a dead task")
    a = p.parse_args(argv)
    opts: Dict[str, Any] = {"evaluator": a.evaluator, "skip_bad": a.skip_bad}
    for k in ("model", "top", "prerank", "max_work", "chunk_rows"):
        if getattr(a, k) is not None:
            opts[k] = getattr(a, k)
    try:
        run(
            a.input,
            a.out,
            a.kind,
            a.workers,
            address=a.address,
            cpus_per_worker=a.cpus_per_worker,
            max_retries=a.max_retries,
            **opts,
        )
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
