#!/usr/bin/env python3
"""Cross-check: the projected model count of `broadside count --dimacs` equals broadside's
layout count, measured by Ganak (an independent exact model counter).

Every case is counted twice: by broadside's enumerator (`count --json`) and by Ganak on the
DIMACS file with the placement variables (the `c p show` line) as the projection set. Any
difference fails the script (exit 1). Needs `pip install pyganak`; without it the script
says so and exits 0, so CI runs it wherever Ganak is installed.

Usage: python3 benches/peers/ganak_check.py [--full] [path/to/broadside]
The default set takes about a minute; --full adds the 9x9 empty board (Ganak needs about
4.5 minutes for it here, broadside 0.03 s).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

try:
    from pyganak import Counter
except ImportError:
    print("ganak_check: pyganak is not installed (pip install pyganak); skipped")
    sys.exit(0)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARGS = [a for a in sys.argv[1:] if a != "--full"]
FULL = "--full" in sys.argv[1:]
BIN = ARGS[0] if ARGS else os.path.join(ROOT, "target", "release", "broadside")

CASES = [
    ["--size", "5x5", "--fleet", "3 2", "--rules", "no-touch"],
    ["--size", "7x7", "--fleet", "4 3 2", "--rules", "touch"],
    ["--size", "8x8", "--fleet", "4 3 3 2", "--rules", "no-touch"],
    ["puzzles/game/kancko-10x10-midgame.txt"],
    ["puzzles/game/sakuta-iida-10x10-midgame.txt"],
    ["puzzles/game/naslausky-8x8-rocks.txt"],
    ["puzzles/10x10/rubin-113.txt"],
    ["puzzles/15x15/luke-4.txt"],
    ["puzzles/made/made-12x10.txt"],
]


SLOW = [["--size", "9x9", "--fleet", "5 4 3 3 2", "--rules", "no-touch"]]


def ganak_count(path):
    c = Counter()
    show = None
    clauses = []
    with open(path) as f:
        for line in f:
            if line.startswith("c p show"):
                show = [int(x) for x in line.split()[3:] if x != "0"]
            elif line.startswith("p cnf"):
                nvars = int(line.split()[2])
            elif line and not line.startswith("c"):
                lits = [int(x) for x in line.split()]
                clauses.append(lits[:-1])
    c.new_vars(nvars)
    for cl in clauses:
        c.add_clause(cl)
    c.set_sampling_set(show)
    return int(c.count())


def main():
    failed = 0
    cases = CASES + (SLOW if FULL else [])
    for case in cases:
        args = [a if not a.endswith(".txt") else os.path.join(ROOT, a) for a in case]
        out = subprocess.run([BIN, "count", "--json", *args], capture_output=True, text=True, check=True)
        ours = json.loads(out.stdout)["count"]
        with tempfile.NamedTemporaryFile(suffix=".cnf", delete=False) as tmp:
            path = tmp.name
        subprocess.run([BIN, "count", "--dimacs", path, *args], capture_output=True, check=True)
        t = time.perf_counter()
        theirs = ganak_count(path)
        secs = time.perf_counter() - t
        os.unlink(path)
        verdict = "ok" if ours == theirs else "MISMATCH"
        failed += ours != theirs
        print(f"{' '.join(case):55} broadside {ours:>12}  ganak {theirs:>12}  ({secs:.2f} s)  {verdict}")
    print(f"ganak_check: {len(cases) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
