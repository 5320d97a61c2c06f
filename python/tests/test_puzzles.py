"""solve and count on puzzle files, checked against the command line and recorded solutions."""

import json
from pathlib import Path

import numpy as np
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


def _solution_marks(g):
    """The recorded solution of a puzzle as a progress string: ``*`` ship, ``~`` water."""
    rows = json.loads(g.to_json())["solution"]
    return "\n".join("".join("~" if c == "." else "*" for c in row) for row in rows)


def test_check_and_hint_take_progress_as_text_or_array():
    g = broadside.Game.load(PUZZLES / "10x10" / "rubin-113.txt")
    assert g.progress.shape == (10, 10) and not g.progress.any()
    r = g.check()
    assert (r["correct"], r["solved"], r["mistakes"], r["solutions"]) == (True, False, [], 1)
    solved = _solution_marks(g)
    assert g.check(solved)["solved"]
    # The same marks as a list of rows and as an array of codes.
    rows = solved.split("\n")
    assert g.check(rows)["solved"]
    codes = np.array([[2 if c == "*" else 1 for c in row] for row in rows], dtype=np.int8)
    assert g.check(codes)["solved"]
    # A wrong mark is found, and a hint names it before any step.
    codes[0, 0] = 2
    r = g.check(codes)
    assert (r["correct"], r["mistakes"]) == (False, ["A1"])
    h = g.hint(codes)
    assert (h["mistakes"], h["step"]) == (["A1"], None)
    with pytest.raises(ValueError, match="progress"):
        g.check("..")
    with pytest.raises(ValueError, match="not a mark"):
        g.check(np.full((10, 10), 7))


def test_hints_applied_in_python_reach_the_solution():
    g = broadside.Game.load(PUZZLES / "8x8" / "luke-1.txt")
    marks = np.zeros(g.shape, dtype=np.int8)
    rows, cols = g.shape
    for _ in range(rows * cols):
        h = g.hint(marks)
        assert h["mistakes"] == []
        if h["solved"]:
            break
        step = h["step"]
        assert step["tier"] in (1, 2, 3, 4, 5) and step["text"]
        for code, cells in ((2, step["ship"]), (1, step["water"])):
            for name in cells:
                r, c = int(name[1:]) - 1, ord(name[0]) - ord("A")
                marks[r, c] = code
    assert g.check(marks)["solved"]
    truth = np.array([[c == "*" for c in row] for row in _solution_marks(g).split("\n")])
    clues = g.grid()
    assert ((np.where(clues == 0, marks, clues) == 2) == truth).all()


def _digital_example() -> str:
    """docs/FORMAT.md's Digital Battleships example, without its solution."""
    doc = (REPO / "docs" / "FORMAT.md").read_text()
    start = doc.index("name: digital-5x5")
    return doc[start : doc.index("solution:", start)]


def test_a_digital_puzzle_is_solved_counted_and_hinted():
    g = broadside.Game.parse(_digital_example(), name="digital.txt")
    assert g.count() == 1
    assert g.count(engine="sat") == 1
    assert g.solve() == ["...<>", ".....", "<m>..", ".....", "o...."]
    # The first hint is the rules' sum rule, and hints reach the solution.
    assert g.hint()["step"]["text"].startswith("row 2's ships already sum to 0")
    marks = np.zeros(g.shape, dtype=np.int8)
    for _ in range(25):
        h = g.hint(marks)
        if h["solved"]:
            break
        step = h["step"]
        for code, cells in ((2, step["ship"]), (1, step["water"])):
            for name in cells:
                marks[int(name[1:]) - 1, ord(name[0]) - ord("A")] = code
    assert g.check(marks)["solved"]
    with pytest.raises(ValueError, match="Digital Battleships"):
        g.count(engine="dp")
