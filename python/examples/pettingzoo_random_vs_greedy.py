"""A random agent against the exact greedy agent in the two-player PettingZoo environment:
both place their fleets (the random agent at random among the legal placements, the greedy one
too), then fire in turn; the greedy agent fires at a cell of highest exact probability of a
ship given its shots. Prints how often each side wins, with a 95% interval.

    target/pyenv/bin/python python/examples/pettingzoo_random_vs_greedy.py --size 6 --fleet 3 2 2 --games 100
"""

import argparse
import math

import numpy as np

from broadside.pettingzoo import battleship_v0


def greedy_action(env, agent, mask):
    """The open cell of highest exact probability (the first among ties)."""
    probs = env.unwrapped.knowledge(agent).probs().reshape(-1)
    probs = np.where(mask[: probs.size].astype(bool), probs, -1.0)
    return int(np.argmax(probs))


def play(env, seed, rng, greedy_agent):
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            if reward > 0:
                winner = agent
            env.step(None)
            continue
        mask = obs["action_mask"]
        if agent == greedy_agent and info["phase"] == "fire":
            action = greedy_action(env, agent, mask)
        else:
            action = int(rng.choice(np.flatnonzero(mask)))
        env.step(action)
    return winner


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, nargs="+", default=[6, 6], help="rows [cols]")
    ap.add_argument("--fleet", type=int, nargs="+", default=[3, 2, 2])
    ap.add_argument("--rules", default="touch")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    size = (a.size[0], a.size[-1])
    env = battleship_v0.env(size=size, fleet=a.fleet, rules=a.rules)
    rng = np.random.default_rng(a.seed)
    wins = 0
    for g in range(a.games):
        # The greedy agent moves first in half the games, second in the other half.
        greedy_agent = ("player_0", "player_1")[g % 2]
        wins += play(env, a.seed * 1_000_003 + g, rng, greedy_agent) == greedy_agent
    p = wins / a.games
    half = 1.96 * math.sqrt(p * (1 - p) / a.games)
    print(
        f"greedy won {wins} of {a.games} games against random: "
        f"{p:.3f} (95% CI {max(0, p - half):.3f} to {min(1, p + half):.3f})"
    )


if __name__ == "__main__":
    main()
