#!/usr/bin/env python3
"""The sampler suite of docs/SAMPLING.md: every sampler on a fixed set of states, measured
by `broadside validate` against the exact answer (seed 1, 100,000 samples, 30 s at most per
run). Prints the Markdown table the document carries.

Usage: python3 benches/sampling_suite.py [path/to/broadside]
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "broadside")
N = 100_000

INLINE = {
    "6x6 touch, hits and misses": "size: 6x6\nfleet: 3 2 2\nrules: touch\ngrid:\n. . ~ . . .\n. * . . ~ .\n. . . ~ . .\n~ . . . . .\n. . ~ . * .\n. . . . . ~\n",
    "5x4 polyominoes, rock, hit": "size: 5x4\nshape ell: #./##\nfleet: ell x2\nrules: touch\ngrid:\n. . # . .\n. * . . .\n~ . . . .\n. . . ~ #\n",
    "5x5 sonar": "size: 5x5\nfleet: 2 1\nrules: no-touch\nshots:\nC3 sonar 2\nA1 miss\n",
    "4x2 sunk announced": "size: 4x2\nfleet: 2 2\nrules: touch\nsinking: announced\nshots:\nA1 hit\nC1 hit\nB1 sunk 2\n",
}
STATES = [
    ("empty 10x10 {5,4,3,3,2} touch", ["--size", "10x10", "--fleet", "5 4 3 3 2", "--rules", "touch"]),
    ("empty 10x10 {5,4,3,3,2} no-touch", ["--size", "10x10", "--fleet", "5 4 3 3 2", "--rules", "no-touch"]),
    ("empty 5x5 {3,2} no-touch", ["--size", "5x5", "--fleet", "3 2", "--rules", "no-touch"]),
    ("kancko-5x5 (game state)", ["puzzles/game/kancko-5x5.txt"]),
    ("kancko-10x10-midgame", ["puzzles/game/kancko-10x10-midgame.txt"]),
    ("sakuta-iida-10x10-opening", ["puzzles/game/sakuta-iida-10x10-opening.txt"]),
    ("sakuta-iida-10x10-midgame", ["puzzles/game/sakuta-iida-10x10-midgame.txt"]),
    ("naslausky-8x8-rocks (polyominoes)", ["puzzles/game/naslausky-8x8-rocks.txt"]),
] + [(name, None) for name in INLINE]
SAMPLERS = ["uniform", "rejection", "sequential", "weighted"]


def run(name, args, sampler):
    stdin = None
    if args is None:
        stdin, args = INLINE[name], ["-"]
    args = [a if not a.endswith(".txt") else os.path.join(ROOT, a) for a in args]
    try:
        out = subprocess.run([BIN, "validate", *args, "--sampler", sampler, "-n", str(N), "--seed", "1", "--json"],
                             input=stdin, capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        return "too slow (over 30 s)"
    if not out.stdout.strip():
        return "error: " + out.stderr.strip()[:60]
    v = json.loads(out.stdout)
    verdict = "**pass**" if v["pass"] else "FAIL"
    cells = v["cells"]
    text = f"{verdict}: max err {cells['max_error']:.4f}, {cells['outside_99']}/{cells['tested']} out"
    if v["fit"]:
        text += f", p {v['fit']['p_value']:.3f}, TV {v['fit']['tv']:.3f}"
    return text


def main():
    print("| state | layouts | " + " | ".join(SAMPLERS) + " |")
    print("| --- | --- | " + " | ".join("---" for _ in SAMPLERS) + " |")
    for name, args in STATES:
        stdin = INLINE.get(name)
        cargs = ["-"] if args is None else [a if not a.endswith(".txt") else os.path.join(ROOT, a) for a in args]
        layouts = json.loads(subprocess.run([BIN, "count", *cargs, "--json"], input=stdin, capture_output=True, text=True).stdout)["count"]
        cells = [run(name, args, s) for s in SAMPLERS]
        print(f"| {name} | {layouts:,} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
