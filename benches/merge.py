#!/usr/bin/env python3
"""The summary of a `broadside simulate` run played in parts (`--first N --out part.jsonl`):
the games of every part together, as `simulate` would print them for the whole run.

    python3 benches/merge.py part1.jsonl part2.jsonl ...

Prints games, mean shots with its 95% interval (normal approximation), sd, median, min, max
and hit ratio. Each game must be in one part only (game names are their numbers).
"""

import json
import math
import sys

from paired import shots


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    games = shots(",".join(sys.argv[1:]))
    s = sorted(n for n, _ in games.values())
    k = len(s)
    mean = sum(s) / k
    sd = math.sqrt(sum((x - mean) ** 2 for x in s) / (k - 1)) if k > 1 else 0.0
    half = 1.96 * sd / math.sqrt(k)
    median = s[k // 2] if k % 2 else (s[k // 2 - 1] + s[k // 2]) / 2
    ship_cells = sum(sum(c not in ". " for c in row) for row in next(iter(games.values()))[1])
    print(json.dumps({
        "games": k,
        "mean": mean,
        "ci95": [mean - half, mean + half],
        "sd": sd,
        "median": median,
        "min": s[0],
        "max": s[-1],
        "hit_ratio": ship_cells * k / sum(s),
    }, indent=2))


if __name__ == "__main__":
    main()
