"""Shared fixtures: the repository, the CLI binary the package is compared with, and a
runner for it.

``DICECHESS_BIN`` names the CLI (``.ci/test-python`` sets it to ``target/release/dicechess``);
the suite fails, never skips, without it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def cli_bin() -> str:
    path = os.environ.get("DICECHESS_BIN")
    assert path, "set DICECHESS_BIN to the dicechess CLI (cargo build --release)"
    assert os.access(path, os.X_OK), f"DICECHESS_BIN={path} is not executable"
    return path


@pytest.fixture(scope="session")
def cli(cli_bin):
    """Run the CLI; returns the CompletedProcess (text), never raising on exit status."""

    def run(*args, **kw):
        return subprocess.run(
            [cli_bin, *map(str, args)], capture_output=True, text=True, **kw
        )

    return run


def same_tree(a: Path, b: Path) -> None:
    """Assert that two folders hold the same file names with the same bytes."""
    names_a = sorted(p.relative_to(a).as_posix() for p in a.rglob("*"))
    names_b = sorted(p.relative_to(b).as_posix() for p in b.rglob("*"))
    assert names_a == names_b
    for name in names_a:
        pa, pb = a / name, b / name
        if pa.is_file():
            assert pa.read_bytes() == pb.read_bytes(), f"{name} differs"
