"""The two-player PettingZoo environment: PettingZoo's own API and seed tests, placement masks
equal to an independent brute force, and whole games played to the end."""

import itertools

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from broadside.pettingzoo import battleship_v0  # noqa: E402


@pytest.mark.parametrize("placement", [True, False])
@pytest.mark.parametrize("rules", ["touch", "no-touch"])
def test_passes_pettingzoo_api_and_seed_tests(placement, rules):
    make = lambda: battleship_v0.env(  # noqa: E731
        size=(5, 5), fleet=[3, 2], rules=rules, placement=placement
    )
    api_test(make(), num_cycles=300)
    seed_test(make, num_cycles=300)


def ship_cells(rows, cols, length):
    """Every placement of a straight ship as (action, cells), as the environment numbers them."""
    n = rows * cols
    for a in range(2 * n):
        cell, down = a % n, a >= n
        if length == 1 and down:
            continue
        r, c = divmod(cell, cols)
        if down and r + length <= rows:
            yield a, frozenset((r + k) * cols + c for k in range(length))
        elif not down and c + length <= cols:
            yield a, frozenset(r * cols + c + k for k in range(length))


def touches(a, b, cols):
    return any(
        abs(x // cols - y // cols) <= 1 and abs(x % cols - y % cols) <= 1 for x in a for y in b
    )


def completable(rows, cols, lengths, placed, rules):
    """Brute force: whether ships of ``lengths`` can be added to ``placed`` under ``rules``."""
    if not lengths:
        return True
    taken = set().union(*placed) if placed else set()
    for _, cells in ship_cells(rows, cols, lengths[0]):
        if cells & taken:
            continue
        if rules == "no-touch" and any(touches(cells, p, cols) for p in placed):
            continue
        if completable(rows, cols, lengths[1:], placed + [cells], rules):
            return True
    return False


@pytest.mark.parametrize(
    "size,fleet,rules",
    [((3, 3), [3, 2], "no-touch"), ((4, 4), [3, 2, 2], "no-touch"), ((3, 4), [3, 3, 2], "touch")],
)
def test_placement_masks_are_exactly_the_placements_that_leave_a_layout(size, fleet, rules):
    env = battleship_v0.env(size=size, fleet=fleet, rules=rules)
    env.reset(seed=5)
    rows, cols = size
    rng = np.random.default_rng(0)
    placed = {"player_0": [], "player_1": []}
    lengths = sorted(fleet, reverse=True)
    boxed_in = 0
    for agent in env.agent_iter():
        obs, _, termination, truncation, info = env.last()
        if termination or truncation or info["phase"] != "place":
            break
        mask = obs["action_mask"]
        k = len(placed[agent])
        expected = np.zeros_like(mask)
        for a, cells in ship_cells(rows, cols, lengths[k]):
            free = not (cells & set().union(*placed[agent])) if placed[agent] else True
            ok = free and (
                rules == "touch" or not any(touches(cells, p, cols) for p in placed[agent])
            )
            if ok and completable(rows, cols, lengths[k + 1 :], placed[agent] + [cells], rules):
                expected[a] = 1
            elif ok:
                boxed_in += 1
        assert np.array_equal(mask, expected), (agent, k)
        action = int(rng.choice(np.flatnonzero(mask)))
        placed[agent].append(dict(ship_cells(rows, cols, lengths[k]))[action])
        env.step(action)
    if size == (3, 3):
        # The 3-ship across the middle would leave no room for the 2-ship: masked.
        assert boxed_in > 0


def test_a_whole_game_ends_with_one_winner_and_true_observations():
    env = battleship_v0.env(size=(6, 6), fleet=[3, 2, 2], rules="no-touch", sinking="revealed")
    env.reset(seed=11)
    rng = np.random.default_rng(3)
    final = {}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            final[agent] = reward
            env.step(None)
            continue
        # What the agent sees of its own board: its ships, and the enemy's shots on them.
        own = obs["observation"][1]
        if info["phase"] == "fire":
            assert (own % 2).sum() == 7  # 3 + 2 + 2 ship cells
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert sorted(final.values()) == [-1.0, 1.0]
    # Placement (3 ships each) plus at most every cell each.
    assert 6 < steps <= 6 + 2 * 36


def test_illegal_actions_are_refused():
    env = battleship_v0.raw_env(size=(4, 4), fleet=[2], placement=False)
    env.reset(seed=1)
    env.step(0)
    env.step(0)
    with pytest.raises(ValueError, match="not legal"):
        env.step(0)  # player_0 fired at cell 0 already


def test_an_environment_pickles_and_deep_copies_mid_game():
    import copy
    import pickle

    env = battleship_v0.env(size=(6, 6), fleet=[3, 2], rules="no-touch", placement=False)
    env.reset(seed=5)
    for _ in range(6):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    for twin in [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]:
        # The copy goes on as the original does: the same observations, move for move.
        a, b = copy.deepcopy(env), twin
        for _ in range(8):
            oa, ob = a.last()[0], b.last()[0]
            assert (oa["observation"] == ob["observation"]).all()
            move = int(np.flatnonzero(oa["action_mask"])[0])
            a.step(move)
            b.step(move)
