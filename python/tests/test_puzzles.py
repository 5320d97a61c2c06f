"""solve and count on puzzle files, checked against the command line and recorded solutions."""

import json
from pathlib import Path

import pytest

import broadside
from conftest import PUZZLES, REPO

# Game states have their own tests; the hard benchmark set (puzzles/hard) has many solutions
# per puzzle, too many to count.
BUNDLED = sorted(
    p
    for p in PUZZLES.rglob("*.txt")
    if p.parent.name != "game" and not p.is_relative_to(PUZZLES / "hard")
)
EXTERNAL = PUZZLES / "external"


@pytest.mark.parametrize("path", BUNDLED[::3], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_solve_and_count_equal_the_command_line(path, cli_json):
    games = broadside.Game.load_all(path)
    if len(games) != 1:
        pytest.skip("a collection")
    solved = cli_json("solve", str(path))
    got = broadside.solve(path)
    if solved.get("solved"):
        assert got == solved["solution"]
    else:
        assert got is None
    assert broadside.count(str(path)) == cli_json("count", str(path))["count"]


def test_real_puzzles_have_their_recorded_solution():
    files = sorted(EXTERNAL.rglob("*.jsonl"))[:1]
    assert files, f"the external puzzles are in {EXTERNAL}"
    games = broadside.Game.load_all(files[0])[:20]
    assert games
    for g in games:
        record = json.loads(g.to_json())
        assert broadside.count(g, limit=2) == 1, g.name
        assert broadside.solve(g) == record["solution"], g.name


def test_a_path_or_a_game_and_nothing_else():
    with pytest.raises(ValueError, match="Game or a path"):
        broadside.count(42)
    g = broadside.Game(size=(5, 5), fleet=[3, 2], rules="no-touch")
    assert broadside.count(g) == 524
    assert broadside.count(g, limit=10) == 10
    assert len(broadside.solve(g)) == 5


def test_a_puzz_link_url_parses_as_its_puzzle():
    url = "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c"
    g = broadside.Game.parse(url)
    assert g.count() == 1
    assert g.rules == "no-touch"
    with pytest.raises(ValueError, match="column 39"):
        broadside.Game.parse("https://puzz.link/p?battleship/6/6/g12!//c")


def test_a_puzz_link_url_goes_where_a_path_goes():
    url = "https://puzz.link/p?battleship/9/9/234223211141152114zzg6zy//d"
    assert broadside.Game.load(url).count() == 1
