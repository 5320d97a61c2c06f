"""sample: exactly uniform boards, consistent with the shots, fixed by the seed."""

import numpy as np
import pytest

import broadside
from conftest import PUZZLES


def chi_square_per_cell(boards, probs):
    """The largest per-cell z-score of the boards' ship frequencies against the exact map."""
    n = boards.shape[0]
    freq = boards.mean(axis=0)
    sd = np.sqrt(np.maximum(probs * (1 - probs), 1e-300) / n)
    z = np.where((probs > 0) & (probs < 1), (freq - probs) / sd, 0.0)
    return float(np.abs(z).max())


@pytest.mark.parametrize(
    "game",
    [
        broadside.Game(size=(5, 5), fleet=[3, 2], rules="no-touch"),
        broadside.Game(),
        broadside.Game.load(PUZZLES / "game" / "kancko-10x10-midgame.txt"),
        broadside.Game.load(PUZZLES / "game" / "sakuta-iida-10x10-midgame.txt"),
    ],
    ids=["5x5", "standard", "kancko-midgame", "sakuta-iida-midgame"],
)
def test_boards_are_uniform_and_consistent(game):
    n = 200_000
    boards = broadside.sample(game, n, seed=3)
    assert boards.shape == (n, *game.shape) and boards.dtype == np.bool_
    probs = game.probs()
    # Every board agrees with what is known: ships on certain cells, none on impossible ones.
    assert not boards[:, probs == 0].any()
    assert boards[:, probs == 1].all()
    # Frequencies within 5 standard deviations of the exact chances on every cell.
    assert chi_square_per_cell(boards, probs) < 5


def test_each_board_holds_the_fleet():
    g = broadside.Game(size=(8, 8), fleet=[4, 3, 2], rules="no-touch")
    boards = broadside.sample(g, 5000, seed=1)
    assert (boards.sum(axis=(1, 2)) == 9).all()


def test_the_seed_fixes_the_boards():
    g = broadside.Game()
    a = broadside.sample(g, 3000, seed=7)
    assert (a == broadside.sample(g, 3000, seed=7)).all()
    assert (a != broadside.sample(g, 3000, seed=8)).any()
    # A prefix of a longer draw is the shorter draw.
    assert (broadside.sample(g, 5000, seed=7)[:3000] == a).all()
    assert broadside.sample(g, 0).shape == (0, 10, 10)


def test_no_layout_is_an_error():
    g = broadside.Game(size=(5, 1), fleet=[3, 2], rules="no-touch")
    with pytest.raises(ValueError, match="no layout"):
        broadside.sample(g, 10)


def test_a_sample_too_large_for_memory_raises_memory_error():
    game = broadside.Game(size=(5, 5), fleet=[3, 2])
    with pytest.raises(MemoryError):
        broadside.sample(game, 10**12)
    # The game is as it was, and a sensible sample still works.
    assert broadside.sample(game, 3, seed=1).shape == (3, 5, 5)
