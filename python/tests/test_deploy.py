"""The deploy/ recipes parse, agree with themselves, and their commands, run locally on two
slices and merged, give the CLI's single-process run byte for byte."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from conftest import same_tree

SMALL = {"GAMES": "6", "SEED": "4", "SHARD_GAMES": "2", "WHITE": "greedy", "BLACK": "random",
         "FEATURES": "kcp-13", "THREADS": "1"}


@pytest.fixture
def reference(cli, tmp_path):
    out = tmp_path / "reference"
    r = cli("selfplay", "--games", 6, "--seed", 4, "--shard-games", 2, "--white", "greedy",
            "--black", "random", "--features", "kcp-13", "--out", out)
    assert r.returncode == 0, r.stderr
    return out


def env_with_cli(cli_bin: str, **extra: str) -> dict:
    env = dict(os.environ)
    env["PATH"] = f"{Path(cli_bin).resolve().parent}{os.pathsep}{env['PATH']}"
    env.update(extra)
    return env


def job(repo: Path, name: str) -> dict:
    docs = list(yaml.safe_load_all((repo / "deploy/kubernetes" / name).read_text()))
    assert len(docs) == 1 and docs[0]["kind"] == "Job"
    return docs[0]


def container(j: dict) -> dict:
    (c,) = j["spec"]["template"]["spec"]["containers"]
    return c


def run_container(c: dict, env: dict) -> None:
    own = {e["name"]: e["value"] for e in c.get("env", [])}
    own.update({k: v for k, v in env.items() if k in own or k == "JOB_COMPLETION_INDEX"})
    full = dict(env, **own)
    r = subprocess.run(c["command"] + c["args"], env=full, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_kubernetes_indexed_job_runs_two_slices_and_merges(repo, cli_bin, reference, tmp_path):
    sp, mg = job(repo, "selfplay-job.yaml"), job(repo, "merge-job.yaml")
    spec = sp["spec"]
    assert spec["completionMode"] == "Indexed"
    c = container(sp)
    env = {e["name"]: e["value"] for e in c["env"]}
    assert env["SLICES"] == str(spec["completions"]), "SLICES must equal completions"
    assert "--shard \"$JOB_COMPLETION_INDEX/$SLICES\"" in c["args"][0]
    out = tmp_path / "data"
    for k in range(2):
        run_container(c, env_with_cli(cli_bin, **SMALL, SLICES="2", OUT=str(out),
                                      JOB_COMPLETION_INDEX=str(k)))
    assert sorted(p.name for p in out.iterdir()) == ["slice-0", "slice-1"]
    run_container(container(mg), env_with_cli(cli_bin, OUT=str(out)))
    same_tree(reference, out / "merged")
    # Both Jobs mount the same claim at the same place.
    mounts = [container(j)["volumeMounts"][0]["mountPath"] for j in (sp, mg)]
    claims = [j["spec"]["template"]["spec"]["volumes"][0]["persistentVolumeClaim"]["claimName"]
              for j in (sp, mg)]
    assert mounts[0] == mounts[1] and claims[0] == claims[1]
    assert env["OUT"].startswith(mounts[0])


def sbatch_options(script: Path) -> dict:
    opts = {}
    for line in script.read_text().splitlines():
        m = re.match(r"#SBATCH --([\w-]+)(?:=(.*))?$", line)
        if m:
            opts[m.group(1)] = m.group(2)
    return opts


def test_slurm_array_runs_two_slices_and_merges(repo, cli_bin, reference, tmp_path):
    script = repo / "deploy/slurm/selfplay.sbatch"
    opts = sbatch_options(script)
    first, last = map(int, re.fullmatch(r"(\d+)-(\d+)", opts["array"]).groups())
    assert first == 0 and last >= first, "the array must be 0-(N-1): task k is slice k/N"
    out = tmp_path / "selfplay"
    for k in range(2):
        r = subprocess.run(["bash", str(script)], capture_output=True, text=True,
                           env=env_with_cli(cli_bin, **SMALL, OUT=str(out),
                                            SLURM_ARRAY_TASK_ID=str(k),
                                            SLURM_ARRAY_TASK_COUNT="2",
                                            SLURM_CPUS_PER_TASK="1"))
        assert r.returncode == 0, r.stderr
    merge = repo / "deploy/slurm/merge.sbatch"
    assert "job-name" in sbatch_options(merge)
    r = subprocess.run(["bash", str(merge)], capture_output=True, text=True,
                       env=env_with_cli(cli_bin, OUT=str(out)))
    assert r.returncode == 0, r.stderr
    same_tree(reference, out / "merged")
    # Outside an array job the script refuses instead of running the whole run.
    r = subprocess.run(["bash", str(script)], capture_output=True, text=True,
                       env=env_with_cli(cli_bin, OUT=str(tmp_path / "x")))
    assert r.returncode != 0 and "array job" in r.stderr
    submit = (repo / "deploy/slurm/submit.sh").read_text()
    assert "--dependency=" in submit and "merge.sbatch" in submit
