"""The fault matrix of ``python -m dicechess.train``'s model package (docs/faults.md; the
engine's writers are in tests/fault_matrix.rs).

Under a full disk (a size-limited tmpfs mounted in a user and mount namespace of its own,
``unshare --user --map-root-user --mount``) and under SIGKILL (at seeded random points of a
run, and before and after every step of writing the package), ``--out`` holds the older
package or the new one, whole, never a part of either; a full disk is ``error: <file>:
No space left on device`` with exit status 1 and no temporary left; and a rerun ends
byte-identical to an uninterrupted run. Training is not resumable: a killed run trains
again from the start.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict

import pytest

import dicechess

NAME = "gen"
ARGS = ["--epochs", "2", "--quiet"]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    out = tmp_path_factory.mktemp("selfplay") / "run"
    dicechess.selfplay(out, 40, white="greedy", black="aggressive", seed=3, shard_games=20)
    return out


def train_cmd(data: Path, out: Path, seed: int):
    return [sys.executable, "-m", "dicechess.train", "--data", str(data), "--out", str(out),
            "--seed", str(seed), *ARGS]


def run_train(data: Path, out: Path, seed: int) -> float:
    t = time.monotonic()
    r = subprocess.run(train_cmd(data, out, seed), capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return time.monotonic() - t


def package(folder: Path) -> Dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def packages(data, tmp_path_factory):
    """The older package (seed 1) a run replaces, the new one (seed 2) of an uninterrupted
    run, and how long that run took."""
    root = tmp_path_factory.mktemp("reference")
    run_train(data, root / "old" / NAME, 1)
    took = run_train(data, root / "new" / NAME, 2)
    old, new = package(root / "old" / NAME), package(root / "new" / NAME)
    assert old != new
    return old, new, took


def check_left(parent: Path, old, new, temporaries_allowed: bool) -> str:
    """What an interrupted run left beside and under ``parent / NAME``: the old package or
    the new one, whole; its own hidden temporaries (only when allowed); nothing else.
    Returns which package is there."""
    for p in parent.iterdir():
        if p.name == NAME:
            continue
        assert p.name.startswith(f".{NAME}."), f"unexpected {p}"
        assert temporaries_allowed, f"a failed run left the temporary {p}"
    got = package(parent / NAME)
    assert got in (old, new), f"{parent / NAME} holds {sorted(got)}, neither package whole"
    return "old" if got == old else "new"


def test_the_package_depends_on_the_data_not_where_it_lies(data, tmp_path):
    # Two folders, copied where their names sort the other way round: the games' names
    # (once their paths) decide the holdout split.
    other = tmp_path / "other"
    dicechess.selfplay(other, 20, white="greedy", black="random", seed=4, shard_games=20)
    shutil.copytree(data, tmp_path / "y" / "b")
    shutil.copytree(other, tmp_path / "y" / "a")
    runs = [[data, other], [tmp_path / "y" / "b", tmp_path / "y" / "a"]]
    for i, folders in enumerate(runs):
        cmd = train_cmd(folders[0], tmp_path / str(i) / NAME, 2)
        cmd[cmd.index("--data") + 1 : cmd.index("--data") + 2] = map(str, folders)
        r = subprocess.run(cmd, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    assert package(tmp_path / "0" / NAME) == package(tmp_path / "1" / NAME)


# One shell: mount a tmpfs over $MNT, put the older package there, then for each size of
# $SIZES (KiB) grow the tmpfs to it and run the trainer ("$@"), keeping its exit status and
# standard error and a copy of the folder in $LOG/<attempt>; stop after the first success.
LADDER = r"""
set -u
first=${SIZES%% *}
mount -t tmpfs -o "size=${first}k" tmpfs "$MNT" || exit 97
cp -a "$OLD" "$MNT/" || exit 96
i=0
for size in $SIZES; do
    mount -o "remount,size=${size}k" "$MNT" || exit 98
    "$@" >/dev/null 2>"$LOG/$i.err"
    rc=$?
    echo "$rc" >"$LOG/$i.rc"
    cp -a "$MNT" "$LOG/$i.tree" || exit 99
    i=$((i + 1))
    [ "$rc" = 0 ] && break
done
exit 0
"""


def test_full_disk(data, packages, tmp_path):
    old, new, _ = packages
    if shutil.which("unshare") is None:
        pytest.fail("the full-disk test needs unshare (util-linux)")
    mnt, log, seed_old = tmp_path / "mnt", tmp_path / "log", tmp_path / "old"
    for d in (mnt, log, seed_old):
        d.mkdir()
    (seed_old / NAME).mkdir()
    for name, b in old.items():
        (seed_old / NAME / name).write_bytes(b)
    # tmpfs counts whole pages: the old package's, then room for none, one, two … more.
    pages = sum(-(-len(b) // 4096) * 4 for b in old.values())
    sizes = [pages + 4 * k for k in range(0, 8)] + [64 << 10]
    r = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", LADDER, "sh",
         *train_cmd(data, mnt / NAME, 2)],
        env={**os.environ, "MNT": str(mnt), "LOG": str(log), "OLD": str(seed_old / NAME),
             "SIZES": " ".join(map(str, sizes))},
        capture_output=True, text=True,
    )
    assert r.returncode == 0, f"needs user and mount namespaces: {r.returncode} {r.stderr}"
    failed = set()
    for i, size in enumerate(sizes):
        rc = int((log / f"{i}.rc").read_text())
        err = (log / f"{i}.err").read_text()
        tree = log / f"{i}.tree"
        if rc == 0:
            assert check_left(tree, old, new, False) == "new"
            assert len(failed) >= 2, f"failed writing only {failed}"
            print(f"train full disk: failed writing {sorted(failed)}, then identical")
            return
        assert rc == 1, f"at {size} KiB: exit {rc}: {err}"
        assert "Traceback" not in err, err
        line = err.strip().splitlines()[-1]
        assert line.startswith(f"error: {mnt / NAME}/"), line
        assert "No space left on device" in line, line
        failed.add(line.split(":")[1].strip().rsplit("/", 1)[-1])
        print(f"train full disk {size} KiB: exit {rc} {line}")
        assert check_left(tree, old, new, False) == "old"
    pytest.fail("no attempt succeeded")


def _killed_at(cmd, delay: float) -> bool:
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    hit = p.poll() is None
    if hit:
        p.kill()
    p.wait()
    return hit


def test_sigkill_at_random_points(data, packages, tmp_path):
    old, new, took = packages
    (tmp_path / NAME).mkdir()
    for name, b in old.items():
        (tmp_path / NAME / name).write_bytes(b)
    rng = random.Random(0x7a1)
    hits = 0
    for _ in range(3):
        delay = took * rng.uniform(0.1, 1.0)
        hits += _killed_at(train_cmd(data, tmp_path / NAME, 2), delay)
        check_left(tmp_path, old, new, True)
    assert hits >= 1
    run_train(data, tmp_path / NAME, 2)
    assert check_left(tmp_path, old, new, True) == "new"


# Runs the trainer and kills itself (SIGKILL) just before or just after the k-th step of
# writing the package: each file written, each folder synced, the swap, each rename and
# removal.
KILL_AT_STEP = r"""
import os, shutil, signal, sys
from dicechess import train

k, step, armed = int(sys.argv[1]), [0], [False]

def tick():
    if armed[0]:
        step[0] += 1
        if step[0] == k:
            os.kill(os.getpid(), signal.SIGKILL)

def counted(f):
    def g(*a, **kw):
        tick()
        r = f(*a, **kw)
        tick()
        return r
    return g

write_package = train.write_package
def armed_write_package(*a, **kw):
    armed[0] = True
    return write_package(*a, **kw)

train.write_package = armed_write_package
for name in ("_write_synced", "_sync_dir", "_exchange"):
    setattr(train, name, counted(getattr(train, name)))
os.replace = counted(os.replace)
shutil.rmtree = counted(shutil.rmtree)
sys.exit(train.main(sys.argv[2:]))
"""


def test_sigkill_at_each_step_of_writing_the_package(data, packages, tmp_path):
    old, new, _ = packages
    (tmp_path / NAME).mkdir()
    for name, b in old.items():
        (tmp_path / NAME / name).write_bytes(b)
    seen = []
    for k in range(1, 40):
        # Each run starts from the older package.
        shutil.rmtree(tmp_path / NAME)
        (tmp_path / NAME).mkdir()
        for name, b in old.items():
            (tmp_path / NAME / name).write_bytes(b)
        r = subprocess.run(
            [sys.executable, "-c", KILL_AT_STEP, str(k), *train_cmd(data, tmp_path / NAME, 2)[3:]],
            capture_output=True, text=True,
        )
        if r.returncode == 0:
            break
        assert r.returncode == -9, r.stderr
        seen.append(check_left(tmp_path, old, new, True))
    else:
        pytest.fail("the run never finished")
    # The old package until the swap, the new one after it; never neither.
    assert seen[0] == "old" and seen[-1] == "new", seen
    assert seen == sorted(seen, key=["old", "new"].index), seen
    print(f"train SIGKILL at {len(seen)} steps of writing: {seen}")
    run_train(data, tmp_path / NAME, 2)
    assert check_left(tmp_path, old, new, True) == "new"
