"""The learning loop: self-play → searched labels → train → package → arena gate → promote.

    python -m dicechess.generation --work gens --generations 5 --games 3000 \\
        [--features dice-terms-v1] [--label p1] [--label-with-champion] \\
        [--role position-value|chance-collapse] \\
        [--hidden 32] [--epochs 30] [--result-weight 0.0] [--window 2] [--d3-candidates 0] \\
        [--gate-move-ms 200 | --gate-tc 1+0 | --gate-untimed] [--gate-pairs 2000] \\
        [--gate-against best-v1|champion] [--seed 300] [--bin target/release/dicechess] \\
        [--benchmark suites/decisions-v1.jsonl [--benchmark-limit N]]

Generation ``g`` (1, 2, …) under ``--work``:

1. ``gen-<g>/games``: ``dicechess selfplay`` of ``best`` against itself, with the current
   champion's value net at its leaves (none before the first promotion: the dice-aware
   evaluator), rows of ``--features``, seed ``--seed + g``. ``best`` runs with
   ``--d3-candidates`` (default 0: its depth-2 search and wave 2's deepening, the search the
   nets are judged in, in self-play and in the gate alike).
2. ``gen-<g>/labels``: ``dicechess label --kind <label>`` of every shard, with dice-aware
   leaves (``--label-with-champion``: the champion's net).
3. ``gen-<g>/model``: ``python -m dicechess.train`` on the games and labels of the last
   ``--window`` generations (target ``(1 − λ)·label + λ·result``), in ``--role``: a
   ``position-value`` net, or a ``chance-collapse`` net (each row read from the side that
   just moved, docs/model-packages.md), which the bots serve at their leaves just the same.
4. ``gen-<g>/gate.json``: ``dicechess arena`` of ``best --white-model gen-<g>/model`` against
   the frozen ``best-v1`` (``--gate-against champion``: against the champion), colour-mirrored
   pairs with SPRT (elo0 0, elo1 20, α = β = 0.05) at the gate's time control, dice seed
   ``--gate-seed + g`` (never a seed the data came from), at most ``--gate-pairs`` pairs.
5. With ``--benchmark SET``: ``gen-<g>/equity-lost.json``, ``dicechess equity-lost score`` of
   the same bot on the benchmark set at the gate's time per turn (``--gate-move-ms``;
   untimed otherwise): the mean equity it gives away per decision against the set's depth-3
   teacher, an opponent-independent measure beside the arena's (docs/analysis.md). Its log
   (``gen-<g>/equity-lost.log``) resumes it; the teacher's values of turns off the set's
   shortlist are shared by every generation in ``teacher.cache``.
6. A line in ``generations.jsonl`` (data, label kind and evaluator, losses, arena score, Elo ±
   95 %, pentanomial, LLR, decision, time control, kept or not); a generation whose gate
   accepts H1 is promoted: its package is copied to ``champion`` (a temporary folder renamed
   into place, so ``champion`` is always a whole package or absent).

Every step is resumable: self-play and labels verify and skip finished shards, training
skips a package that is there, the arena resumes from its journal (``gen-<g>/gate.jsonl``),
and a generation with a line in ``generations.jsonl`` is not run again. Kill the loop at any
point and rerun the same command to go on. The subprocesses show their own progress bars.

Needs ``pyarrow`` and ``onnx`` (``pip install ./python[train]``) and the ``dicechess`` CLI
(``--bin``, else ``$DICECHESS_BIN``, else ``dicechess`` on ``PATH``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from . import train

#: The arena decision that promotes a generation.
PROMOTE = "accept-h1"


class GenerationError(Exception):
    """A step failed; the message names the step and its command."""


def _cli(args: argparse.Namespace) -> str:
    path = args.bin or os.environ.get("DICECHESS_BIN") or shutil.which("dicechess")
    if not path:
        raise GenerationError("no dicechess CLI: pass --bin, set DICECHESS_BIN or put it on PATH")
    if not os.access(path, os.X_OK):
        raise GenerationError(f"--bin {path}: not an executable file")
    return path


def _run(step: str, cmd: Sequence[str], quiet: bool) -> None:
    if not quiet:
        print(f"[{step}] {' '.join(cmd)}", file=sys.stderr, flush=True)
    r = subprocess.run(list(cmd), stdout=subprocess.DEVNULL if quiet else None,
                       stderr=subprocess.PIPE if quiet else None, text=True)
    if r.returncode != 0:
        tail = (r.stderr or "").strip().splitlines()[-3:] if quiet else []
        raise GenerationError(
            f"{step}: exit status {r.returncode}: {' '.join(cmd)}" + ("\n" + "\n".join(tail) if tail else "")
        )


def read_generations(work: Path) -> List[Dict]:
    """The finished generations recorded in ``work/generations.jsonl``, in order."""
    path = work / "generations.jsonl"
    if not path.exists():
        return []
    rows = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise GenerationError(f"{path}:{n}: not a JSON line ({e})") from e
    return rows


def _append_generation(work: Path, row: Dict) -> None:
    """Append one line and sync it: a generation is recorded whole or not at all (a torn
    last line is refused by :func:`read_generations`, naming it)."""
    path = work / "generations.jsonl"
    with open(path, "a") as f:
        f.write(json.dumps(row, sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())


def promote(package: Path, champion: Path) -> None:
    """Copy ``package`` to ``champion`` through a temporary folder renamed into place."""
    tmp = champion.with_name(f".{champion.name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(package, tmp)
    old = champion.with_name(f".{champion.name}.old")
    shutil.rmtree(old, ignore_errors=True)
    if champion.exists():
        os.replace(champion, old)
    os.replace(tmp, champion)
    shutil.rmtree(old, ignore_errors=True)


def gate_time(args: argparse.Namespace) -> List[str]:
    """The arena's time-control flags of the gate, and its label."""
    if args.gate_untimed:
        return []
    if args.gate_tc:
        return ["--tc", args.gate_tc]
    return ["--move-ms", str(args.gate_move_ms)]


def time_label(args: argparse.Namespace) -> str:
    if args.gate_untimed:
        return "untimed"
    if args.gate_tc:
        return f"tc {args.gate_tc}"
    return f"{args.gate_move_ms} ms/turn"


def run_generation(args: argparse.Namespace, g: int, done: List[Dict]) -> Dict:
    """Run (or resume) generation ``g``; returns its ``generations.jsonl`` row."""
    cli = _cli(args)
    work = Path(args.work)
    gen = work / f"gen-{g}"
    gen.mkdir(parents=True, exist_ok=True)
    champion = work / "champion"
    parent: Optional[Path] = champion if champion.exists() else None
    model_flags = lambda side: [f"--{side}-model", str(parent)] if parent else []  # noqa: E731

    games = gen / "games"
    _run(f"gen {g}: self-play", [
        cli, "selfplay", "--games", str(args.games), "--out", str(games),
        "--white", "best", "--black", "best", *model_flags("white"), *model_flags("black"),
        "--d3-candidates", str(args.d3_candidates),
        "--features", args.features, "--seed", str(args.seed + g),
        "--shard-games", str(args.shard_games), *(["--threads", str(args.threads)] if args.threads else []),
    ], args.quiet)

    labels = gen / "labels"
    labels.mkdir(exist_ok=True)
    label_model = ["--model", str(parent)] if (args.label_with_champion and parent) else []
    for shard in sorted(games.glob("shard-*.rows.parquet")):
        out = labels / shard.name.replace(".rows.parquet", f".{args.label}.parquet")
        if out.exists():
            continue
        _run(f"gen {g}: label {shard.name}", [
            cli, "label", str(shard), "--kind", args.label, "--out", str(out), *label_model,
        ], args.quiet)

    window = list(range(max(1, g - args.window + 1), g + 1))
    data = [str(work / f"gen-{k}" / "games") for k in window]
    label_dirs = [str(work / f"gen-{k}" / "labels") for k in window]
    model = gen / "model"
    if not (model / "manifest.json").exists():
        if not args.quiet:
            print(f"[gen {g}: train] on generations {window}", file=sys.stderr, flush=True)
        argv = ["--data", *data, "--labels", *label_dirs, "--out", str(model),
                "--result-weight", str(args.result_weight), "--hidden", str(args.hidden),
                "--epochs", str(args.epochs), "--seed", str(g), "--model-id", f"{work.name}-gen-{g}",
                "--role", args.role,
                *(["--quiet"] if args.quiet else [])]
        if train.main(argv) != 0:
            raise GenerationError(f"gen {g}: train: python -m dicechess.train {' '.join(argv)} failed")
    report = json.loads((model / "train-report.json").read_text())

    if args.gate_against == "champion" and parent:
        opponent = ["--black", "best", "--black-model", str(parent),
                    "--black-d3-candidates", str(args.d3_candidates)]
        opponent_label = f"best[model=champion: {done[-1]['generation'] if done else '?'}]"
    else:
        opponent, opponent_label = ["--black", "best-v1"], "best-v1"
    gate_json = gen / "gate.json"
    _run(f"gen {g}: arena gate", [
        cli, "arena", "--white", "best", "--white-model", str(model), *opponent,
        "--d3-candidates", str(args.d3_candidates),
        "--sprt", args.gate_sprt, "--games", str(args.gate_pairs), "--seed", str(args.gate_seed + g),
        *gate_time(args), "--resume", str(gen / "gate.jsonl"), "--json", str(gate_json),
        *(["--threads", str(args.threads)] if args.threads else []), *(["--quiet"] if args.quiet else []),
    ], args.quiet)
    gate = json.loads(gate_json.read_text())
    elo = gate.get("elo") or {}
    equity_lost = None
    if args.benchmark:
        bench_json = gen / "equity-lost.json"
        timing = [] if args.gate_tc or args.gate_untimed else ["--time-ms", str(args.gate_move_ms)]
        _run(f"gen {g}: equity lost", [
            cli, "equity-lost", "score", str(args.benchmark), "--bot", "best", "--model", str(model),
            "--d3-candidates", str(args.d3_candidates), *timing,
            "--log", str(gen / "equity-lost.log"), "--teacher-cache", str(work / "teacher.cache"),
            "--json", str(bench_json),
            *(["--limit", str(args.benchmark_limit)] if args.benchmark_limit else []),
            *(["--threads", str(args.threads)] if args.threads else []),
        ], args.quiet)
        summary = json.loads(bench_json.read_text())["summary"]
        equity_lost = {"set": Path(args.benchmark).name, "decisions": summary["all"]["decisions"],
                       "milli": summary["all"]["milli"], "ci95_milli": summary["all"]["ci95Milli"],
                       "agreement": summary["agreement"],
                       "time": f"{args.gate_move_ms} ms" if timing else "untimed"}
    kept = gate["decision"] == PROMOTE
    row = {
        "generation": g,
        "parent": str(parent.relative_to(work)) if parent else "dice-aware",
        "role": report.get("role", "position-value"),
        "data": {"generations": window, "games": report["games"],
                 "rows": report["rows_train"] + report["rows_holdout"],
                 "features": report["schema"], "selfplay_seed": args.seed + g},
        "label": {"kind": report.get("label_kind"), "evaluator": report.get("label_evaluator"),
                  "result_weight": report.get("result_weight")},
        "loss": {"train": report["train_loss"], "holdout": report["holdout_loss"],
                 "baseline": report["baseline_holdout_loss"]},
        "gate": {"opponent": opponent_label, "time": time_label(args), "seed": args.gate_seed + g,
                 "pairs": gate["pairs"], "score": gate["score"], "elo": elo.get("elo"),
                 "elo_low": elo.get("low"), "elo_high": elo.get("high"), "pentanomial": gate["pentanomial"], "llr": gate["llr"],
                 "decision": gate["decision"]},
        "equity_lost": equity_lost,
        "kept": kept,
    }
    if kept:
        promote(model, champion)
    _append_generation(work, row)
    return row


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m dicechess.generation", description=__doc__.split("\n\n")[0])
    ap.add_argument("--work", required=True, help="the loop's folder (one per loop)")
    ap.add_argument("--generations", type=int, default=5, help="generations to reach")
    ap.add_argument("--games", type=int, default=3000, help="self-play games per generation")
    ap.add_argument("--shard-games", type=int, default=100)
    ap.add_argument("--features", default="dice-terms-v1")
    ap.add_argument("--label", default="p1", choices=["p1", "p2", "a1", "a2"])
    ap.add_argument("--label-with-champion", action="store_true",
                    help="label with the champion's net instead of dice-aware leaves")
    ap.add_argument("--role", default="position-value", choices=["position-value", "chance-collapse"],
                    help="the nets' role (a chance-collapse net reads each row from the side that just moved)")
    ap.add_argument("--result-weight", type=float, default=0.0)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--window", type=int, default=2, help="generations of data each model trains on")
    ap.add_argument("--d3-candidates", type=int, default=0,
                    help="best's selective depth 3 in self-play and the gate (0: off, the "
                         "depth-2 search the nets are judged in; 8: today's best)")
    t = ap.add_mutually_exclusive_group()
    t.add_argument("--gate-move-ms", type=int, default=200)
    t.add_argument("--gate-tc", default=None, help="a game clock, e.g. 1+0")
    t.add_argument("--gate-untimed", action="store_true")
    ap.add_argument("--gate-pairs", type=int, default=2000, help="most pairs a gate plays")
    ap.add_argument("--gate-sprt", default="0,20,0.05,0.05")
    ap.add_argument("--gate-against", default="best-v1", choices=["best-v1", "champion"])
    ap.add_argument("--seed", type=int, default=300, help="self-play seed base (generation g: seed + g)")
    ap.add_argument("--gate-seed", type=int, default=20, help="gate dice seed base (generation g: + g)")
    ap.add_argument("--benchmark", default=None,
                    help="an equity-lost set (suites/decisions-v1.jsonl) to score each generation on")
    ap.add_argument("--benchmark-limit", type=int, default=None,
                    help="only the set's first N decisions (a quick look)")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--bin", default=None, help="the dicechess CLI")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    for name in ("generations", "games", "shard_games", "hidden", "epochs", "window", "gate_pairs"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be at least 1")
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    try:
        done = read_generations(work)
        for g in range(len(done) + 1, args.generations + 1):
            row = run_generation(args, g, done)
            done.append(row)
            gate = row["gate"]
            print(f"generation {g}: holdout {row['loss']['holdout']:.4f} (baseline {row['loss']['baseline']:.4f}); "
                  f"gate {gate['time']} vs {gate['opponent']}: {gate['score'] * 100:.1f} % over {gate['pairs']} pairs, "
                  f"{gate['decision']}; {'promoted' if row['kept'] else 'not kept'}", flush=True)
    except (GenerationError, train.TrainError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
