#!/usr/bin/env python3
"""Writes the hard benchmark set: puzzles with row and column counts and no given cells.

Each puzzle is a layout drawn by `broadside sample --sampler sequential` (ships placed one at
a time, not uniform: any layout will do) with the seed in its name, and the counts of that
layout. The layout is not recorded: such a puzzle has many solutions, and a recorded solution
claims to be the only one. Run from the repository's top:

    cargo build --release && python3 puzzles/hard/make.py
"""

import json
import subprocess

BIN = "target/release/broadside"

# (size, fleet, seeds): the MiniZinc Challenge's battleship family is 15x15 with up to 21
# ships; the bigger boards carry proportionally more.
SETS = [
    ("15x15", "5 4 4 3 3 3 2 2 2 2 1 1 1 1", range(1, 5)),
    ("15x15", "5 4 4 3 3 3 3 2 2 2 2 2 1 1 1 1 1 1 1 1 1", range(1, 5)),
    ("20x20", "5 5 4 4 4 3 3 3 3 2 2 2 2 2 1 1 1 1 1 1 1 1", range(1, 4)),
    ("20x20", "5 5 4 4 4 4 3 3 3 3 3 3 2 2 2 2 2 2 2 1 1 1 1 1 1 1 1 1", range(1, 4)),
    ("30x30", "5 5 5 4 4 4 4 3 3 3 3 3 3 2 2 2 2 2 2 2 2 1 1 1 1 1 1 1 1 1 1", range(1, 3)),
]


def draw(size, fleet, seed):
    out = subprocess.run(
        [BIN, "sample", "--size", size, "--fleet", fleet, "--sampler", "sequential",
         "-n", "1", "--seed", str(seed), "--json"],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[0])["layout"]


def write(size, fleet, seed, rows):
    ships = len(fleet.split())
    name = f"hard-{size}-{ships}ships-s{seed}"
    cols = ["".join(r[c] for r in rows) for c in range(len(rows[0]))]
    count = lambda line: sum(ch != "." for ch in line)
    lines = [
        f"name: {name}",
        f"source: broadside's hard set (puzzles/hard/make.py): a layout of the fleet drawn by the sequential sampler, "
        f"seed {seed}, and its counts; no cell is given, and the puzzle has many solutions",
        f"size: {size}",
        f"fleet: {fleet}",
        "rules: no-touch",
        "grid:",
        "    " + " ".join(f"{count(c):>2}" for c in cols),
    ]
    lines += [f"{count(r):>2}  " + " ".join(" ." for _ in r) for r in rows]
    with open(f"puzzles/hard/{name}.txt", "w") as f:
        f.write("\n".join(lines) + "\n")


for size, fleet, seeds in SETS:
    for seed in seeds:
        write(size, fleet, seed, draw(size, fleet, seed))
