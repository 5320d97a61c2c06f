"""The exact greedy agent through the Gymnasium environment: mean shots to sink the fleet,
with a 95% interval.

    target/pyenv/bin/python python/examples/greedy_baseline.py --size 5 --fleet 3 2 \\
        --rules no-touch --episodes 2000

The same agent as ``broadside simulate --shooter greedy``: each step fires at a cell of highest
exact probability of a ship, ties broken at random.
"""

import argparse
import math
import statistics
import time

import numpy as np

from broadside.gym import BattleshipEnv, greedy


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, nargs="+", default=[10, 10], help="rows [cols]")
    ap.add_argument("--fleet", type=int, nargs="+", default=[5, 4, 3, 3, 2])
    ap.add_argument("--rules", default="touch")
    ap.add_argument("--sinking", default="announced")
    ap.add_argument("--placer", default="uniform")
    ap.add_argument("--episodes", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    size = tuple(a.size) if len(a.size) == 2 else (a.size[0], a.size[0])
    env = BattleshipEnv(size, a.fleet, a.rules, a.sinking, a.placer)
    rng = np.random.default_rng(a.seed)
    shots = []
    start = time.perf_counter()
    for episode in range(a.episodes):
        _, info = env.reset(seed=a.seed * 1_000_003 + episode)
        done = False
        while not done:
            _, _, terminated, truncated, info = env.step(greedy(info, rng))
            done = terminated or truncated
        shots.append(info["shots"])
    seconds = time.perf_counter() - start
    mean = statistics.fmean(shots)
    half = 1.96 * statistics.stdev(shots) / math.sqrt(len(shots)) if len(shots) > 1 else math.nan
    print(
        f"greedy through the env: {size[0]}x{size[1]} {a.fleet} {a.rules}, sinking {a.sinking}, "
        f"{a.placer} placer: {len(shots)} episodes, mean {mean:.2f} shots "
        f"(95% CI {mean - half:.2f}-{mean + half:.2f}), {seconds / len(shots) * 1000:.0f} ms an episode"
    )


if __name__ == "__main__":
    main()
