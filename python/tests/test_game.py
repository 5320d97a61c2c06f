"""Game: exact answers equal the command line's, shots recorded and refused as it would."""

import copy
import os
import stat
import math

import numpy as np
import pytest

import broadside
from conftest import PUZZLES

GAMES = sorted((PUZZLES / "game").glob("*.txt"))


def test_the_empty_5x5_board_has_its_known_count():
    g = broadside.Game(size=(5, 5), fleet=[3, 2], rules="no-touch")
    assert g.count() == 524
    assert g.shape == (5, 5)
    assert (g.fleet, g.rules, g.sinking) == ("3 2", "no-touch", "announced")


def test_defaults_are_the_standard_game():
    g = broadside.Game()
    assert g.shape == (10, 10)
    assert g.fleet == "5 4 3 3 2"
    assert (g.rules, g.sinking) == ("touch", "announced")
    assert g.count() == 15_046_987_768


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_counts_and_probs_equal_the_command_line(path, cli_json):
    g = broadside.Game.load(path)
    want = cli_json("probs", str(path))
    assert g.count() == want["layouts"]
    counts = g.counts()
    assert counts.shape == g.shape
    assert counts.tolist() == want["counts"]
    probs = g.probs()
    assert probs.dtype == np.float64
    np.testing.assert_array_equal(probs, np.array(want["probabilities"]))
    best = cli_json("best", str(path))
    # A finished game (every ship sunk) has no open cell that can hold a ship.
    assert g.best() == (best["cells"][0]["cell"] if best["cells"] else None)


def test_every_engine_agrees():
    g = broadside.Game(size=(5, 5), fleet=[3, 2], rules="touch", sinking="none")
    g.record("C3 hit\nA1 miss\nC4 miss")
    want = g.counts()
    for engine in ["enum", "sat", "dp"]:
        assert g.count(engine=engine) == g.count()
        np.testing.assert_array_equal(g.counts(engine=engine), want)


def test_probs_are_counts_over_the_count():
    g = broadside.Game(size=(6, 6), fleet=[3, 2, 2], rules="no-touch")
    g.shoot("C3", "hit")
    g.shoot((0, 0), "miss")
    g.shoot(35, "miss")
    assert g.shots == ["C3 hit", "A1 miss", "F6 miss"]
    np.testing.assert_allclose(g.probs(), g.counts().astype(float) / g.count(), rtol=1e-15)
    assert g.probs()[2, 2] == 1.0
    assert g.probs()[0, 0] == 0.0


def test_counts_past_two_to_the_64_are_exact_python_ints():
    # 18 single-cell ships that may touch: any 18 of the 100 cells.
    g = broadside.Game(fleet="18x1")
    assert g.count() == math.comb(100, 18) > 2**64
    counts = g.counts()
    assert counts.dtype == object
    assert counts[4, 7] == math.comb(99, 17)
    assert abs(g.probs()[0, 0] - 0.18) < 1e-12


def test_counts_past_two_to_the_128_are_exact_python_ints():
    # 60 single-cell ships on 14x14: C(196, 60), a number of 171 bits.
    g = broadside.Game(size=(14, 14), fleet="60x1", rules="touch")
    assert g.count() == math.comb(196, 60) > 2**128
    assert g.counts()[13, 0] == math.comb(195, 59)
    assert abs(g.probs()[5, 5] - 60 / 196) < 1e-12
    with pytest.raises(ValueError, match="2\\^128"):
        broadside.sample(g, 1)


def test_sinking_rules_change_the_answer():
    announced = broadside.Game(size=(4, 4), fleet=[2, 2], sinking="announced")
    revealed = broadside.Game(size=(4, 4), fleet=[2, 2], sinking="revealed")
    announced.record("A1 hit\nA2 sunk 2")
    revealed.shoot("A1", "hit")
    revealed.shoot("A2", "sunk", ship=2, cells=["A1", "A2"])
    assert announced.count() == revealed.count()
    assert announced.grid()[1, 0] == 3 and revealed.grid()[0, 0] == 3
    none = broadside.Game(size=(4, 4), fleet=[2, 2], sinking="none")
    none.record("A1 hit\nA2 hit")
    assert none.count() > announced.count()


def test_undo_copy_and_the_record_round_trip(tmp_path):
    g = broadside.Game(size=(5, 5), fleet=[3, 2])
    g.record("B2 miss\nC3 hit")
    before = g.count()
    h = copy.deepcopy(g)
    h.shoot("C4", "miss")
    assert g.shots == ["B2 miss", "C3 hit"] and h.count() < before
    h.undo()
    assert h.count() == before
    for name in ["state.txt", "state.json"]:
        g.save(tmp_path / name)
        back = broadside.Game.load(tmp_path / name)
        assert back.shots == g.shots and back.count() == before
    assert broadside.Game.parse(g.to_text()).count() == before
    with pytest.raises(ValueError, match="no shot to take back"):
        broadside.Game().undo()


def test_a_save_that_cannot_be_written_names_the_file_and_keeps_what_was_there(tmp_path):
    g = broadside.Game(size=(5, 5), fleet=[3, 2])
    g.shoot("B2", "miss")
    missing = tmp_path / "no-such-folder" / "state.txt"
    with pytest.raises(OSError, match="no-such-folder"):
        g.save(missing)
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "kept.txt").write_text("kept")
    with pytest.raises(OSError, match="folder"):
        g.save(folder)
    assert (folder / "kept.txt").read_text() == "kept"
    if os.path.exists("/dev/full"):
        with pytest.raises(OSError, match="/dev/full"):
            g.save("/dev/full")
        assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]


def test_bad_input_raises_value_error_with_the_command_line_message(tmp_path, cli):
    bad = tmp_path / "bad.txt"
    bad.write_text("size: 5x5\nfleet: 3 2\nshots:\nA1 hit\nZ9 miss\n")
    code, _, err = cli("probs", str(bad))
    assert code == 2
    with pytest.raises(ValueError) as e:
        broadside.Game.load(bad)
    assert err.strip() == f"broadside: {e.value}"
    assert "line 5, column 1" in str(e.value)

    with pytest.raises(ValueError, match="only 0 place"):
        broadside.Game(size=(3, 3), fleet=[5])
    g = broadside.Game(size=(5, 5), fleet=[3, 2])
    g.shoot("C3", "hit")
    with pytest.raises(ValueError, match="fired at twice"):
        g.shoot("C3", "miss")
    with pytest.raises(ValueError, match="off the 5x5 board"):
        g.record("B2 miss\nZ9 hit")
    assert g.shots == ["C3 hit"], "a refused record leaves the game as it was"
    with pytest.raises(ValueError, match="no ship type"):
        g.shoot("A1", "sunk", ship=7)
    with pytest.raises(ValueError, match="unknown rules"):
        broadside.Game(rules="sometimes")
    with pytest.raises(ValueError, match="unknown engine"):
        g.count(engine="fast")
    with pytest.raises(ValueError, match="size"):
        broadside.Game(size=(0, 4))
    with pytest.raises(ValueError, match="time_limit"):
        g.count(time_limit=-1.0)
    with pytest.raises(ValueError):
        broadside.Game.load(tmp_path / "missing.txt")


def test_an_inconsistent_state_counts_zero_and_has_no_map():
    # A 3 and a 2 that never touch need six cells of a row of five: found only by counting.
    g = broadside.Game(size=(5, 1), fleet=[3, 2], rules="no-touch", sinking="none")
    assert g.count() == 0
    with pytest.raises(ValueError, match="no layout is consistent"):
        g.probs()


def test_limits():
    g = broadside.Game()
    assert g.count(limit=1000, engine="enum") == 1000
    with pytest.raises(TimeoutError):
        broadside.Game(size=(12, 12), fleet="1x4 2x3 3x2 4x1").counts(time_limit=0.05)


def test_a_shot_is_one_shot_and_a_size_is_no_boolean():
    game = broadside.Game(size=(5, 5), fleet=[3, 2])
    with pytest.raises(ValueError):
        game.shoot("A1", "miss\nA2 miss")
    with pytest.raises(ValueError):
        game.shoot("A1", "sunk", ship="2\nA2 miss")
    assert game.shots == []
    with pytest.raises(ValueError):
        broadside.Game(size=True, fleet=[1])


def test_a_board_pickles_and_copies_in_its_state():
    import pickle

    board = broadside.Board(size=(6, 6), fleet=[3, 2], seed=11)
    board.reset()
    for cell in ["A1", "C3", "F6"]:
        board.fire(cell)
    for other in [pickle.loads(pickle.dumps(board)), copy.deepcopy(board), copy.copy(board)]:
        assert (other.ships() == board.ships()).all()
        assert other.shots == board.shots == 3
        # The same layouts come next.
        other.reset()
        board_next = copy.deepcopy(board)
        board_next.reset()
        assert (other.ships() == board_next.ships()).all()
    # A layout hidden by hand is kept too.
    board.hide(["<>....", "......", "..^...", "..m...", "..v...", "......"])
    again = pickle.loads(pickle.dumps(board))
    assert (again.ships() == board.ships()).all()


def test_negative_numbers_are_value_errors_naming_the_parameter():
    g = broadside.Game(size=(5, 5), fleet=[3, 2])
    for call, name in [
        (lambda: broadside.sample(g, -1), "n"),
        (lambda: broadside.sample(g, 3, seed=-5), "seed"),
        (lambda: g.count(limit=-1), "limit"),
        (lambda: broadside.Board(size=(5, 5), fleet=[3, 2], seed=-5), "seed"),
        (lambda: g.shoot("A1", "sonar", distance=-1), "distance"),
    ]:
        with pytest.raises(ValueError, match=f"^{name} must be 0 or more"):
            call()


def test_the_shooter_table_is_the_command_line_s(cli_json):
    table = broadside.shooters()
    assert table == cli_json("shooters")
    names = [e["name"] for e in table["shooters"]["entries"]]
    assert "pilot" in names and "density" in names
    pilot = next(e for e in table["shooters"]["entries"] if e["name"] == "pilot")
    assert [p["name"] for p in pilot["params"]] == ["layouts", "candidates", "afloat"]
    # A preset, a word by position and the same by name are one shooter, written one way.
    assert broadside.shooters()["shooters"]["presets"][1]["name"] == "fast"
    for word in ["fast", "density:50.1.2", "density:hunt=1,lattice=2"]:
        assert broadside._broadside.word_of("shooter", word) == "density:hunt=1,lattice=2"
    assert broadside._broadside.word_of("placer", "pk:3x7") == "pk:short=3,long=7"
