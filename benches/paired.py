#!/usr/bin/env python3
"""Two shooters compared on paired boards: the games `broadside simulate --out` wrote for each,
with the same seed (so game i hides the same layout in both files).

    python3 benches/paired.py A.jsonl B.jsonl
    python3 benches/paired.py A1.jsonl,A2.jsonl B1.jsonl,B2.jsonl   (runs in parts, --first)

Prints the mean of B's shots minus A's, game by game, with its 95% interval (normal
approximation), and how many games each side needed fewer shots in. The interval excluding 0 is
a significant difference at the 5% level.
"""

import json
import math
import sys


def shots(paths):
    """Per game name: the number of shots and the hidden layout, from the files named in
    `paths` (comma-separated: the parts of one run). A game in two parts is an error."""
    out = {}
    for path in paths.split(","):
        with open(path) as f:
            for line in f:
                if line.strip():
                    g = json.loads(line)
                    if g["name"] in out:
                        sys.exit(f"{path}: {g['name']} is in two parts of the run")
                    out[g["name"]] = (len(g["shots"]), g["solution"])
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = shots(sys.argv[1]), shots(sys.argv[2])
    names = sorted(set(a) & set(b))
    if not names:
        sys.exit("no game is in both files")
    for n in names:
        if a[n][1] != b[n][1]:
            sys.exit(f"{n} hides different layouts: the runs are not paired (same seed?)")
    d = [b[n][0] - a[n][0] for n in names]
    k = len(d)
    mean = sum(d) / k
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (k - 1)) if k > 1 else 0.0
    half = 1.96 * sd / math.sqrt(k)
    print(f"{k} paired games: B - A = {mean:+.4f} shots (95% CI {mean - half:+.4f} to {mean + half:+.4f}), sd {sd:.3f}")
    print(f"B fewer shots in {sum(x < 0 for x in d)}, A fewer in {sum(x > 0 for x in d)}, equal in {sum(x == 0 for x in d)}")


if __name__ == "__main__":
    main()
