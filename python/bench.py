"""Speed of the Python package, in process, with its answers asserted.

    target/pyenv/bin/python python/bench.py

- uniform boards per second on the empty 10x10 board (target: at least 1,000,000/s);
- the exact heat map of the empty 10x10 board, timed on fresh games (the library's own time
  is that of ``broadside probs`` on the same board; docs/PERFORMANCE.md gives the ratio);
- the cost of a call on a small state: a cached answer, a shot, and a shot with its map.
"""

import math
import statistics
import sys
import time

import numpy as np

import broadside


def timed(f, repeat):
    """Median seconds of ``repeat`` calls of ``f``."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def per_call(f, number=20_000):
    """Mean seconds per call over ``number`` calls (best of three runs)."""
    best = math.inf
    for _ in range(3):
        t = time.perf_counter()
        for _ in range(number):
            f()
        best = min(best, (time.perf_counter() - t) / number)
    return best


def main():
    standard = broadside.Game()
    assert standard.count() == 15_046_987_768
    n = 1_000_000
    sampling = timed(lambda: broadside.sample(standard, n, seed=1), 5)
    boards = broadside.sample(standard, n, seed=1)
    assert boards.shape == (n, 10, 10) and (boards.sum(axis=(1, 2)) == 17).all()
    print(f"sample: {n:,} boards of the empty 10x10 in {sampling:.3f} s: {n / sampling:,.0f} boards/s")

    probs = timed(lambda: broadside.Game().probs(), 9)
    assert abs(broadside.Game().probs().sum() - 17) < 1e-9
    print(f"probs: empty 10x10, fresh game, median of 9: {probs * 1000:.0f} ms")

    small = broadside.Game(size=(5, 5), fleet=[3, 2], rules="no-touch")
    small.record("C3 hit\nA1 miss\nE5 miss")
    assert small.count() == 72  # as `broadside count` says of the same record
    small.probs()
    cached = per_call(small.probs)
    shot = per_call(lambda: (small.shoot("B2", "miss"), small.undo()), 5_000) / 2
    with_map = per_call(lambda: (small.shoot("B2", "miss"), small.probs(), small.undo()), 5_000)
    print(f"5x5 state: probs() of a known map {cached * 1e6:.1f} us; a shot (or an undo) "
          f"{shot * 1e6:.1f} us; shot + probs() + undo {with_map * 1e6:.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
