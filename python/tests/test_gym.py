"""The Gymnasium environment: the checker passes, episodes end when the fleet is sunk, and
the posterior in ``info`` is the exact one."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import broadside
import broadside.gym
from broadside.gym import BattleshipEnv, greedy


def fresh(game):
    """The same position as a game of its own, which counts afresh (a view of a board
    shares the positions the board's views counted)."""
    return broadside.Game.parse(game.to_json(), "game.json")


def test_the_environment_checker_passes():
    for options in [
        dict(size=(5, 5), fleet=[3, 2], render_mode="ansi"),
        dict(size=(4, 6), fleet=[3, 2], rules="no-touch", sinking="none"),
    ]:
        check_env(gymnasium.make("broadside/Battleship-v0", **options).unwrapped)


def test_registered_and_made_with_options():
    env = gymnasium.make(
        "broadside/Battleship-v0", size=(6, 6), fleet=[3, 2, 2], placer="sequential"
    )
    obs, info = env.reset(seed=5)
    assert obs.shape == (6, 6) and env.action_space.n == 36
    assert info["probs"].shape == (6, 6)


def test_a_greedy_episode_sinks_the_fleet_and_its_return_counts_the_shots():
    env = BattleshipEnv(size=(6, 6), fleet=[3, 2, 2], rules="no-touch")
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=11)
    total, steps, terminated = 0.0, 0, False
    while not terminated:
        probs = info["probs"]
        # The posterior in info is what a Game of the same shots answers, counted afresh.
        np.testing.assert_array_equal(probs, fresh(env.game).probs())
        assert abs(probs[obs == 0].sum() + (obs >= 2).sum() - 7) < 1e-9
        obs, reward, terminated, truncated, info = env.step(greedy(info, rng))
        total += reward
        steps += 1
        assert not truncated
    assert total == -steps == -info["shots"]
    assert (obs >= 2).sum() == 7
    assert info["result"].split()[1] == "sunk"


def test_the_seed_fixes_the_hidden_fleet_and_repeats_waste_a_step():
    env = BattleshipEnv(size=(5, 5), fleet=[3, 2], probs=False, max_steps=3)
    a, _ = env.reset(seed=3)
    first = env.step(12)
    env.reset(seed=3)
    again = env.step(12)
    assert (first[0] == again[0]).all() and first[4]["result"] == again[4]["result"]
    obs, _, _, truncated, info = env.step(12)
    assert info["shots"] == 1 and info["action_mask"][12] == 0 and "probs" not in info
    _, _, terminated, truncated, _ = env.step(0)
    assert truncated != terminated or terminated
    with pytest.raises(ValueError):
        env.step(25)


def test_the_board_hides_a_fleet_of_the_placer():
    b = broadside.Board(size=(10, 10), fleet=[5, 4, 3, 3, 2], placer="ed1", seed=2)
    ships = b.ships()
    assert ships.sum() == 17
    # Sakuta & Iida's ED1 hides every ship on the outermost line.
    inner = ships[1:-1, 1:-1]
    assert not inner.any()
    for cell in np.argwhere(ships):
        result = b.fire(tuple(int(x) for x in cell))
        assert result.split()[1] in ("hit", "sunk")
    assert b.over and b.shots == 17
    assert b.view().count() == 1


def test_action_masks_are_the_cells_not_fired_at():
    env = BattleshipEnv(size=(5, 5), fleet=[3, 2], probs=False)
    _, info = env.reset(seed=2)
    mask = env.action_masks()
    assert mask.dtype == bool and mask.shape == (25,) and mask.all()
    _, _, _, _, info = env.step(7)
    mask = env.action_masks()
    assert not mask[7] and mask.sum() == 24
    assert (info["action_mask"] == mask.astype(np.int8)).all()


def test_episodes_share_the_positions_they_count_and_answer_as_counted_afresh():
    """The environment's board keeps the heat maps its views count (mirror images share
    one), so a later episode looks its openings up: every answer is still the one a game
    counting afresh gives, whichever episode counted it first."""
    env = BattleshipEnv(size=(9, 9), fleet=[4, 3, 3, 2])
    # A1 then I1 (its mirror image) then the centre, in episodes with different fleets.
    for seed, actions in [(1, [0, 40]), (2, [8, 40]), (3, [0, 40, 80]), (4, [80, 0])]:
        obs, info = env.reset(seed=seed)
        np.testing.assert_array_equal(info["probs"], fresh(env.game).probs())
        for action in actions:
            obs, reward, terminated, truncated, info = env.step(action)
            np.testing.assert_array_equal(info["probs"], fresh(env.game).probs())
