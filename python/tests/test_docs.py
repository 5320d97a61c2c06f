"""The examples of docs/PYTHON.md and the package's docstrings run as written."""

import doctest

import broadside
import broadside.gym
import broadside.pettingzoo
from conftest import REPO


def test_the_guide_runs_as_written(monkeypatch):
    monkeypatch.chdir(REPO)
    result = doctest.testfile(str(REPO / "docs" / "PYTHON.md"), module_relative=False)
    assert result.attempted > 10 and result.failed == 0


def test_the_docstrings_run_as_written():
    for module in [broadside, broadside.gym, broadside.pettingzoo]:
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__


def test_the_examples_print_the_figures_the_guide_gives():
    """docs/PYTHON.md quotes what each example prints with its defaults; each run must agree."""
    import re
    import subprocess
    import sys

    guide = (REPO / "docs" / "PYTHON.md").read_text()
    quoted = re.search(r"`(greedy won \d+ of \d+ games against random)`", guide)
    assert quoted, "the guide quotes the PettingZoo example's result"
    example = REPO / "python" / "examples" / "pettingzoo_random_vs_greedy.py"
    printed = subprocess.run(
        [sys.executable, str(example)], capture_output=True, text=True, check=True
    ).stdout
    assert printed.startswith(quoted.group(1)), printed
