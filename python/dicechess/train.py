"""Train a value model on self-play shards and export a model package.

    python -m dicechess.train --data selfplay-data --out models/gen1 \\
        [--labels LABELS...] [--result-weight 0.0] \\
        [--role position-value|chance-collapse|move-prerank] [--hidden 32] [--epochs 40] [--seed 0]

Reads every ``*.rows.parquet`` under the ``--data`` folders (schema v0, docs/data-formats.md:
the feature columns named by the footer key ``columns``, the label ``result`` = 1 / 0.5 / 0
for the side to move), splits the *games* (never positions of one game on both sides) into
training and holdout sets, and fits a small multilayer perceptron with a sigmoid output
to P(side to move wins) by minimising the binary cross-entropy with Adam, on the CPU with
numpy alone.

With ``--labels`` the target is a searched label instead of the game's result (docs/labels.md):
label shards that ``dicechess label`` wrote (``--kind p1|p2|a1|a2``, any input), matched to the
training rows by position (board, side to move, castling, e.p.: the fields a label depends on).
A ``p`` label is the side to move's win probability (``p1_win``); an ``a`` label is the previous
mover's, so the side to move's is ``1 − a1_win``. ``--result-weight λ`` mixes in the game
result: ``target = (1 − λ)·label + λ·result``. Every row must have a label. The feature standardisation is folded into the first layer, so the exported
graph reads the raw feature row.

``--role chance-collapse`` trains the other side of the same positions: each row is read as
an after-state (the side that just moved waits for the opponent's roll) and its target is the
side that just moved's win probability, ``1 −`` the side to move's (an ``a`` label as it
stands, a ``p`` label or the result complemented). The features stay the side to move's, the
side about to roll (the dice-aware terms describe the next roll: docs/model-packages.md). The
graph is the same MLP with a final sigmoid: P(the side that just moved wins), the expectation
of the chance node that follows. The engine serves it at the root (``--collapse``) or at the
leaves (``--model``), where it stands in for the last chance node of every line
(docs/search.md §4.6).

The package (docs/model-packages.md) is ``model.onnx`` (weights inside the file),
``manifest.json`` (1.1.0, the role, ``side-to-move``, the real SHA-256 of ``model.onnx``, the
schema and its width) and ``train-report.json`` (data size, losses per epoch, the baseline
loss of always predicting the mean). It is written to a temporary folder beside ``--out``
(each file synced) and renamed into place, so a package is either complete or absent; an
older package under ``--out`` is swapped out in one atomic step (Linux ``renameat2``), so
a killed run leaves the old package or the new one there, never neither. A failed write (a
full disk) exits with status 1 and ``error: <file>: <cause>``, leaving no temporary behind.
The package depends only on the shards' contents and the arguments: the same seed gives the
same bytes, wherever the ``--data`` folders are (docs/faults.md).

Needs ``pyarrow`` and ``onnx`` besides numpy (``pip install ./python[train]``).
"""

from __future__ import annotations

import argparse
import ctypes
import errno
import hashlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import numpy as np

ROLES = ("position-value", "chance-collapse", "move-prerank")
ENGINE_COMPATIBILITY = ">=0.1.0 <1.0.0"
OPSET = 13
IR_VERSION = 8


class TrainError(Exception):
    """Input the trainer refuses (no shards, mixed schemas, bad labels)."""


class PackageWriteError(Exception):
    """Writing the package failed (a full disk, say); the message names the package's file
    and the operating system's cause."""


#: Label kinds a value target can come from, and whether the label is the previous mover's
#: view (so the side to move's win probability is one minus it).
LABEL_KINDS = {"p1": False, "p2": False, "a1": True, "a2": True}


def position_key(fen: str) -> str:
    """The fields a label depends on: board, side to move, castling rights, e.p. square."""
    return " ".join(fen.split()[:4])


def label_files(paths: Sequence[str]) -> List[Path]:
    """Every ``*.parquet`` below the folders (or the files themselves), sorted."""
    files: List[Path] = []
    for d in paths:
        p = Path(d)
        if p.is_file():
            files.append(p)
        elif p.is_dir():
            files.extend(sorted(q for q in p.rglob("*.parquet") if ".parts" not in q.parts[-2]))
        else:
            raise TrainError(f"--labels {d}: no such file or folder")
    if not files:
        raise TrainError(f"no *.parquet label files under {', '.join(paths)}")
    return files


def load_labels(paths: Sequence[str]) -> Tuple[str, str, Dict[str, float]]:
    """(kind, evaluator, {position key: the side to move's win probability}) from label
    shards of one kind and one leaf evaluator."""
    import pyarrow.parquet as pq

    kind = evaluator = None
    labels: Dict[str, float] = {}
    for f in label_files(paths):
        table = pq.read_table(f)
        meta = {k.decode(): v.decode() for k, v in (table.schema.metadata or {}).items()}
        k = meta.get("label_kind")
        if k not in LABEL_KINDS:
            raise TrainError(
                f"{f}: label_kind {k!r} is not a value label ({', '.join(LABEL_KINDS)})"
            )
        ev = meta.get("label_evaluator", "")
        if kind is None:
            kind, evaluator = k, ev
        elif (k, ev) != (kind, evaluator):
            raise TrainError(f"{f}: labels {k}/{ev} differ from {kind}/{evaluator}")
        column = f"{k}_win"
        key_column = "fen" if "fen" in table.column_names else "dfen"
        if column not in table.column_names or key_column not in table.column_names:
            raise TrainError(f"{f}: needs the columns {column} and fen (or dfen)")
        win = table.column(column).to_numpy().astype(np.float64)
        if not np.all((win >= 0.0) & (win <= 1.0)):
            raise TrainError(f"{f}: {column} outside [0, 1]")
        if LABEL_KINDS[k]:
            win = 1.0 - win
        for fen, v in zip(table.column(key_column).to_pylist(), win):
            key = position_key(fen)
            old = labels.setdefault(key, float(v))
            if abs(old - v) > 1e-6:
                raise TrainError(f"{f}: two {k} labels for one position ({key}): {old} and {v}")
    return kind, evaluator, labels


def shard_files(dirs: Sequence[str]) -> List[Path]:
    """Every ``*.rows.parquet`` below the folders, sorted (so runs are reproducible)."""
    return [f for _, f in _shards_by_folder(dirs)]


def _shards_by_folder(dirs: Sequence[str]) -> List[Tuple[str, Path]]:
    """Every ``*.rows.parquet`` below the folders, sorted, each with the name its games go
    by: the ``--data`` folder's position and the shard's folder relative to it (``0:.``),
    not the path the folder was given as."""
    files: List[Tuple[str, Path]] = []
    for i, d in enumerate(dirs):
        p = Path(d)
        if not p.is_dir():
            raise TrainError(f"--data {d}: not a folder")
        for f in sorted(p.rglob("*.rows.parquet")):
            files.append((f"{i}:{f.parent.relative_to(p).as_posix()}", f))
    if not files:
        raise TrainError(f"no *.rows.parquet shards under {', '.join(dirs)}")
    return files


def load_rows(
    files: Sequence[Path] | Sequence[Tuple[str, Path]],
) -> Tuple[str, List[str], np.ndarray, np.ndarray, np.ndarray, List[str]]:
    """(schema id, feature columns, features [n, w] float32, results [n], game ids [n],
    FENs [n]). ``files`` are paths, or (folder name, path) pairs: a game is named by its
    folder's name and its ``game_id``."""
    import pyarrow.parquet as pq

    schema_id = None
    columns: List[str] = []
    xs, ys, games, fens = [], [], [], []
    for item in files:
        folder, f = item if isinstance(item, tuple) else (str(item.parent), item)
        table = pq.read_table(f)
        meta = {k.decode(): v.decode() for k, v in (table.schema.metadata or {}).items()}
        if meta.get("dicechess_training_schema") not in ("v0", "v0-enriched"):
            raise TrainError(f"{f}: not a v0 training shard (dicechess_training_schema)")
        sid = meta.get("feature_schema", "")
        cols = [c for c in meta.get("columns", "").split(",") if c]
        if not cols:
            raise TrainError(f"{f}: no feature columns in the footer")
        if schema_id is None:
            schema_id, columns = sid, cols
        elif (sid, cols) != (schema_id, columns):
            raise TrainError(f"{f}: feature schema {sid!r} differs from {schema_id!r}")
        missing = [c for c in cols + ["result", "game_id", "fen"] if c not in table.column_names]
        if missing:
            raise TrainError(f"{f}: missing columns {missing}")
        x = np.stack([table.column(c).to_numpy().astype(np.float32) for c in cols], axis=1)
        y = table.column("result").to_numpy().astype(np.float32)
        if not np.all(np.isin(y, (0.0, 0.5, 1.0))):
            raise TrainError(f"{f}: result must be 0, 0.5 or 1")
        if not np.all(np.isfinite(x)):
            raise TrainError(f"{f}: non-finite feature values")
        xs.append(x)
        ys.append(y)
        # Why not the shard's path: it named the games, so the holdout split (a shuffle of
        # the sorted names) changed with where the folders lay (measured: the same two
        # shard folders given as /x/run /x/run2 and as /y/b /y/a trained two different
        # model.onnx files).
        games.append(np.asarray([f"{folder}/{g}" for g in table.column("game_id").to_pylist()]))
        fens.extend(table.column("fen").to_pylist())
    return schema_id, columns, np.concatenate(xs), np.concatenate(ys), np.concatenate(games), fens


def targets(args: argparse.Namespace, results: np.ndarray, fens: List[str]) -> Tuple[np.ndarray, dict]:
    """The training target of every row and its description for the report: the game
    result, or with ``--labels`` the searched label mixed with the result by
    ``--result-weight``."""
    if not args.labels:
        return results, {"target": "result"}
    lam = args.result_weight
    if not 0.0 <= lam <= 1.0:
        raise TrainError("--result-weight must be in [0, 1]")
    kind, evaluator, labels = load_labels(args.labels)
    missing = [f for f in fens if position_key(f) not in labels]
    if missing:
        raise TrainError(
            f"{len(missing)} of {len(fens)} rows have no {kind} label "
            f"(first: {position_key(missing[0])!r}); label every shard of --data"
        )
    label = np.asarray([labels[position_key(f)] for f in fens], dtype=np.float32)
    y = ((1.0 - lam) * label + lam * results).astype(np.float32)
    return y, {
        "target": f"{kind}_win" if lam == 0.0 else f"{1 - lam:g}*{kind}_win+{lam:g}*result",
        "label_kind": kind,
        "label_evaluator": evaluator,
        "result_weight": lam,
        "labelled_positions": len(labels),
    }


def collapse_view(y: np.ndarray, target: dict) -> Tuple[np.ndarray, dict]:
    """The target of a ``chance-collapse`` model: the side that just moved's win probability,
    the complement of the side to move's (the row's features stay the side to move's, the
    side about to roll)."""
    view = dict(target)
    view["target"] = f"{target['target']} of the side that just moved"
    view["view"] = "just-moved"
    return (1.0 - y).astype(np.float32), view


def split_games(games: np.ndarray, holdout: float, rng: np.random.Generator) -> np.ndarray:
    """A boolean mask of holdout rows: a random ``holdout`` share of the games."""
    unique = np.unique(games)
    rng.shuffle(unique)
    k = max(1, int(round(holdout * len(unique)))) if len(unique) > 1 else 0
    return np.isin(games, unique[:k])


def bce(p: np.ndarray, y: np.ndarray) -> float:
    """Mean binary cross-entropy (targets may be 0.5)."""
    p = np.clip(p, 1e-7, 1 - 1e-7)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


class Mlp:
    """``sigmoid(W_L · relu(… relu(W_1 · x + b_1) …) + b_L)``, trained with Adam."""

    def __init__(self, sizes: Sequence[int], rng: np.random.Generator):
        self.w = [
            (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float64)
            for a, b in zip(sizes[:-1], sizes[1:])
        ]
        self.b = [np.zeros(b) for b in sizes[1:]]
        self.m = [np.zeros_like(p) for p in self.w + self.b]
        self.v = [np.zeros_like(p) for p in self.w + self.b]
        self.t = 0

    def forward(self, x: np.ndarray) -> Tuple[np.ndarray, list]:
        acts = [x]
        h = x
        for i, (w, b) in enumerate(zip(self.w, self.b)):
            z = h @ w + b
            h = np.maximum(z, 0.0) if i < len(self.w) - 1 else z
            acts.append(h)
        return 1.0 / (1.0 + np.exp(-acts[-1][:, 0])), acts

    def step(self, x: np.ndarray, y: np.ndarray, lr: float, l2: float) -> None:
        p, acts = self.forward(x)
        # d(BCE)/d(logit) = p − y.
        g = ((p - y) / len(y))[:, None]
        grads_w, grads_b = [], []
        for i in range(len(self.w) - 1, -1, -1):
            grads_w.append(acts[i].T @ g + l2 * self.w[i])
            grads_b.append(g.sum(axis=0))
            if i > 0:
                g = (g @ self.w[i].T) * (acts[i] > 0)
        grads = grads_w[::-1] + grads_b[::-1]
        self.t += 1
        params = self.w + self.b
        for k, (p_, g_) in enumerate(zip(params, grads)):
            self.m[k] = 0.9 * self.m[k] + 0.1 * g_
            self.v[k] = 0.999 * self.v[k] + 0.001 * g_ * g_
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            p_ -= lr * mh / (np.sqrt(vh) + 1e-8)

    def predict(self, x: np.ndarray, batch: int = 65536) -> np.ndarray:
        return np.concatenate([self.forward(x[i : i + batch])[0] for i in range(0, len(x), batch)])


def export_onnx(mlp: Mlp, mean: np.ndarray, std: np.ndarray, path: Path, model_id: str) -> None:
    """Write :func:`onnx_bytes` to ``path``."""
    path.write_bytes(onnx_bytes(mlp, mean, std, model_id))


def onnx_bytes(mlp: Mlp, mean: np.ndarray, std: np.ndarray, model_id: str) -> bytes:
    """The network as an ONNX graph ``input [N, w] → output [N, 1]``, standardisation folded
    into the first layer: ``((x − μ)/σ) W + b = x (W/σ) + (b − (μ/σ) W)``."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    ws = [w.copy() for w in mlp.w]
    bs = [b.copy() for b in mlp.b]
    bs[0] = bs[0] - (mean / std) @ ws[0]
    ws[0] = ws[0] / std[:, None]
    nodes, inits = [], []
    h = "input"
    for i, (w, b) in enumerate(zip(ws, bs)):
        inits.append(numpy_helper.from_array(w.astype(np.float32), f"w{i}"))
        inits.append(numpy_helper.from_array(b.astype(np.float32), f"b{i}"))
        z = f"z{i}"
        nodes.append(helper.make_node("Gemm", [h, f"w{i}", f"b{i}"], [z]))
        if i < len(ws) - 1:
            h = f"h{i}"
            nodes.append(helper.make_node("Relu", [z], [h]))
        else:
            nodes.append(helper.make_node("Sigmoid", [z], ["output"]))
    graph = helper.make_graph(
        nodes,
        model_id,
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", ws[0].shape[0]])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["batch", 1])],
        inits,
    )
    model = helper.make_model(
        graph,
        producer_name="dicechess.train",
        opset_imports=[helper.make_opsetid("", OPSET)],
    )
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model)
    return model.SerializeToString()


def train(args: argparse.Namespace) -> dict:
    """Train and write the package; returns the report."""
    if args.role not in ROLES:
        raise TrainError(f"--role {args.role!r}: expected one of {', '.join(ROLES)}")
    if args.hidden <= 0 or args.epochs <= 0 or args.layers < 1:
        raise TrainError("--hidden, --epochs and --layers must be positive")
    if not 0.0 < args.holdout < 1.0:
        raise TrainError("--holdout must be in (0, 1)")
    rng = np.random.default_rng(args.seed)
    files = _shards_by_folder(args.data)
    schema_id, columns, x, results, games, fens = load_rows(files)
    y, target = targets(args, results, fens)
    if args.role == "chance-collapse":
        y, target = collapse_view(y, target)
    hold = split_games(games, args.holdout, rng)
    xt, yt, xh, yh = x[~hold], y[~hold], x[hold], y[hold]
    if len(xt) == 0:
        raise TrainError("no training rows left after the holdout split")
    mean = xt.mean(axis=0).astype(np.float64)
    std = xt.std(axis=0).astype(np.float64)
    std[std < 1e-6] = 1.0
    zt = (xt - mean) / std
    zh = (xh - mean) / std
    mlp = Mlp([x.shape[1]] + [args.hidden] * args.layers + [1], rng)
    base = float(yt.mean())
    report = {
        "schema": schema_id,
        "role": args.role,
        "shards": len(files),
        "games": int(len(np.unique(games))),
        "rows_train": int(len(xt)),
        "rows_holdout": int(len(xh)),
        "hidden": args.hidden,
        "layers": args.layers,
        "epochs": args.epochs,
        "seed": args.seed,
        **target,
        "baseline_holdout_loss": bce(np.full(len(yh), base), yh) if len(yh) else None,
        "epoch_losses": [],
    }
    best = None
    for epoch in range(args.epochs):
        perm = rng.permutation(len(zt))
        for i in range(0, len(perm), args.batch):
            idx = perm[i : i + args.batch]
            mlp.step(zt[idx], yt[idx], args.lr, args.l2)
        tl = bce(mlp.predict(zt), yt)
        hl = bce(mlp.predict(zh), yh) if len(yh) else tl
        report["epoch_losses"].append({"epoch": epoch + 1, "train": tl, "holdout": hl})
        if not args.quiet:
            print(f"epoch {epoch + 1:3d}  train {tl:.5f}  holdout {hl:.5f}", file=sys.stderr)
        if best is None or hl < best[0]:
            best = (hl, tl, epoch + 1, [w.copy() for w in mlp.w], [b.copy() for b in mlp.b])
    # Keep the epoch with the lowest holdout loss (early stopping without a rerun).
    hl, tl, ep, mlp.w, mlp.b = best
    report.update({"best_epoch": ep, "train_loss": tl, "holdout_loss": hl})
    write_package(args, mlp, mean, std, schema_id, columns, report)
    return report


def write_package(args, mlp, mean, std, schema_id, columns, report) -> None:
    """The package into a temporary folder beside ``--out``, then renamed over it.

    Raises :class:`PackageWriteError` naming the file when the operating system refuses a
    write (the temporary folder is removed, an older package is left as it was)."""
    out = Path(args.out)
    model_id = args.model_id or out.name
    model = onnx_bytes(mlp, mean, std, model_id)
    manifest = {
        "manifestVersion": "1.1.0",
        "modelId": model_id,
        "modelSha256": hashlib.sha256(model).hexdigest(),
        "modelRole": args.role,
        "featureSchema": schema_id,
        "featureCount": len(columns),
        "inputName": "input",
        "outputName": "output",
        "perspective": "side-to-move",
        "engineCompatibility": ENGINE_COMPATIBILITY,
        "provenance": {
            "trainer": "dicechess.train",
            "games": report["games"],
            "rows": report["rows_train"] + report["rows_holdout"],
            "holdoutLoss": report["holdout_loss"],
            "target": report["target"],
        },
    }
    files = {
        "model.onnx": model,
        "manifest.json": (json.dumps(manifest, indent=2) + "\n").encode(),
        "train-report.json": (json.dumps(report, indent=2) + "\n").encode(),
    }
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    except OSError as e:
        raise PackageWriteError(f"{out}: {e.strerror or e} (creating its temporary folder)") from e
    try:
        for name, data in files.items():
            try:
                _write_synced(tmp / name, data)
            except OSError as e:
                raise PackageWriteError(f"{out / name}: {e.strerror or e} (writing {tmp / name})") from e
        try:
            _sync_dir(tmp)
            _put_in_place(tmp, out)
        except OSError as e:
            raise PackageWriteError(f"{out}: {e.strerror or e} (renaming {tmp} into place)") from e
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _write_synced(path: Path, data: bytes) -> None:
    """Write ``data`` to the new file ``path`` and sync it, so a rename never publishes a
    file whose bytes are not on the disk yet."""
    with open(path, "xb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def _sync_dir(path: Path) -> None:
    """Sync a folder's entries (the names renamed into it), where the platform allows."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


#: ``renameat2``'s flag that swaps two existing paths, and the "current folder" descriptor.
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap the paths ``a`` and ``b`` in one atomic step (Linux ``renameat2`` with
    ``RENAME_EXCHANGE``); False where the system or the file system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    renameat2.restype = ctypes.c_int
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _put_in_place(tmp: Path, out: Path) -> None:
    """Rename the finished package folder ``tmp`` to ``out``.

    Why the exchange: an older package is a folder, which a rename cannot replace; moved
    aside first, a run killed between the two renames left no package under ``out`` (the
    old one hidden as ``.<name>.old``). Swapped in one step, ``out`` always holds a whole
    package, and the old one, now in ``tmp``, is removed afterwards."""
    if out.exists() and _exchange(tmp, out):
        shutil.rmtree(tmp, ignore_errors=True)
    elif out.exists():
        old = out.with_name(f".{out.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(out, old)
        os.replace(tmp, out)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(tmp, out)
    _sync_dir(out.parent)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m dicechess.train", description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", nargs="+", required=True, help="self-play output folders")
    ap.add_argument("--out", required=True, help="the package folder to write")
    ap.add_argument(
        "--labels",
        nargs="+",
        default=None,
        help="label shards (dicechess label --kind p1|p2|a1|a2) whose values replace the result",
    )
    ap.add_argument(
        "--result-weight",
        type=float,
        default=0.0,
        help="with --labels: the game result's share of the target (0 = labels only)",
    )
    ap.add_argument(
        "--role",
        default="position-value",
        help="position-value, chance-collapse (the side that just moved's view) or move-prerank",
    )
    ap.add_argument("--model-id", default=None, help="modelId (default: the folder name)")
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--layers", type=int, default=2, help="hidden layers")
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--l2", type=float, default=1e-5)
    ap.add_argument("--holdout", type=float, default=0.1, help="share of games held out")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    try:
        report = train(args)
    except TrainError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except PackageWriteError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(json.dumps({k: report[k] for k in ("games", "rows_train", "rows_holdout", "target", "best_epoch",
                                            "train_loss", "holdout_loss", "baseline_holdout_loss")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
