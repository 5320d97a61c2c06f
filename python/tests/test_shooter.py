"""Shooter: broadside's shooters asked for one shot at a time, as opponents and baselines."""

import numpy as np
import pytest

import broadside


def play(shooter, board):
    """`shooter`'s game against `board` to the end: the cells it fired at."""
    game = board.view()
    fired = []
    while not board.over:
        cell = shooter.choose(game)
        assert 0 <= cell < game.shape[0] * game.shape[1]
        fired.append(cell)
        game.record(board.fire(cell))
    return fired


@pytest.mark.parametrize("word", ["greedy", "fast", "pilot:200", "strongest"])
def test_a_shooter_sinks_a_hidden_fleet_without_firing_twice(word):
    board = broadside.Board(size=(6, 6), fleet=[3, 2, 2], seed=3)
    fired = play(broadside.Shooter(word, seed=1), board)
    assert len(fired) == len(set(fired)) == board.shots
    assert 7 <= board.shots <= 36
    # Every ship cell was fired at.
    ships = np.flatnonzero(board.ships().reshape(-1))
    assert set(ships.tolist()) <= set(fired)


def test_greedy_fires_at_a_cell_of_highest_exact_probability():
    board = broadside.Board(size=(7, 7), fleet=[4, 3, 2], rules="no-touch", seed=5)
    shooter = broadside.Shooter("greedy")
    game = board.view()
    while not board.over:
        cell = shooter.choose(game)
        # The exact probabilities of the cells not fired at (a hit's is 1).
        probs = np.where(game.grid().reshape(-1) == 0, game.probs().reshape(-1), -1.0)
        assert probs[cell] == pytest.approx(probs.max(), abs=1e-12)
        game.record(board.fire(cell))


def test_a_seed_gives_the_same_game_and_a_new_game_starts_afresh():
    games = []
    for _ in range(2):
        shooter = broadside.Shooter("pilot:100", seed=7)
        games.append(play(shooter, broadside.Board(size=(6, 6), fleet=[3, 2, 2], seed=4)))
    assert games[0] == games[1]
    # One shooter for two games: the second game's first shot is the empty board's.
    shooter = broadside.Shooter("fast")
    first = shooter.choose(broadside.Game(size=(6, 6), fleet=[3, 2, 2]))
    play(shooter, broadside.Board(size=(6, 6), fleet=[3, 2, 2], seed=4))
    assert shooter.choose(broadside.Game(size=(6, 6), fleet=[3, 2, 2])) == first


def test_bad_words_and_finished_games_are_value_errors():
    with pytest.raises(ValueError, match="nosuch"):
        broadside.Shooter("nosuch")
    with pytest.raises(ValueError, match="seed"):
        broadside.Shooter("greedy", seed=-1)
    board = broadside.Board(size=(4, 4), fleet=[2], seed=1)
    shooter = broadside.Shooter("greedy")
    play(shooter, board)
    with pytest.raises(ValueError, match="over"):
        shooter.choose(board.view())
    assert repr(broadside.Shooter("strongest")) == "Shooter('pilot:layouts=3200,candidates=8')"
    assert broadside.Shooter("pilot:1600.8").word == "pilot:layouts=1600,candidates=8"


def test_a_shooter_is_a_baseline_in_the_gymnasium_environment():
    gymnasium = pytest.importorskip("gymnasium")
    import broadside.gym  # noqa: F401

    env = gymnasium.make("broadside/Battleship-v0", size=(6, 6), fleet=[3, 2, 2], probs=False)
    env.reset(seed=2)
    shooter = broadside.Shooter("strongest", seed=2)
    steps, done = 0, False
    while not done:
        action = shooter.choose(env.unwrapped.game)
        _, _, terminated, truncated, info = env.step(action)
        assert info["result"].startswith(("A", "B", "C", "D", "E", "F"))
        steps += 1
        done = terminated or truncated
    assert terminated and steps <= 36
