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
