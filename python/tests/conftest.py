"""Shared fixtures: the repository, its bundled problems, and the command line to compare with."""

import json
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PUZZLES = REPO / "puzzles"


@pytest.fixture(scope="session")
def cli():
    """Runs the release command line and gives (exit code, stdout, stderr); built if absent."""
    binary = REPO / "target" / "release" / "broadside"
    if not binary.exists():
        subprocess.run(["cargo", "build", "--release"], cwd=REPO, check=True)

    def run(*args: str):
        p = subprocess.run([str(binary), *args], capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr

    return run


@pytest.fixture(scope="session")
def cli_json(cli):
    """The command line's --json answer, parsed."""

    def run(*args: str):
        code, out, err = cli(*args, "--json")
        assert code in (0, 1), err
        return json.loads(out)

    return run
