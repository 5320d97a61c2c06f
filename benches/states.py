#!/usr/bin/env python3
"""Every state of real games, timed as a whole process: the exact heat map (`probs --json`)
of each state of 20 greedy and 20 density:50 games of the standard game under each rule
variant (touch or no-touch; sinkings announced, not reported, or revealed), of the bundled game records, and of
"hand clicks" (1 to 10 misses anywhere, no hit), each state once.

    python3 benches/states.py BROADSIDE [BASELINE] [--games 20] [--clicks 5] [--jobs 1]

prints the ten slowest states of each binary (best of three runs for those ten), how many
states are over 50 ms, and the median; with a baseline, the two side by side. The states
are written under target/states/ (one file each), so any of them can be timed again.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "target" / "states"
COLS = "ABCDEFGHIJ"


def games(broadside, shooter, rules, sinking, n, seed):
    path = OUT / f"games-{shooter.replace(':', '')}-{rules}-{sinking}.jsonl"
    if not path.exists():
        subprocess.run(
            [broadside, "simulate", "--shooter", shooter, "--games", str(n), "--seed", str(seed),
             "--rules", rules, "--sinking", sinking, "--out", str(path)],
            check=True, stdout=subprocess.DEVNULL)
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def prefixes(game):
    """The states of a game: its record cut after 0, 1, ... shots (all of them)."""
    state = {key: v for key, v in game.items() if key not in ("name", "source", "solution")}
    if "shots" not in game:
        # Shots marked on the grid: the record as it is.
        yield state
        return
    for k in range(len(game["shots"]) + 1):
        yield dict(state, shots=game["shots"][:k])


def clicks(rules, per_k, rng):
    for k in range(1, 11):
        for _ in range(per_k):
            cells = rng.sample(range(100), k)
            yield {"width": 10, "height": 10, "rules": rules, "fleet": "5 4 3 3 2",
                   "sinking": "announced",
                   "shots": [f"{COLS[c % 10]}{c // 10 + 1} miss" for c in cells]}


def timed(binary, path):
    t = time.perf_counter()
    r = subprocess.run([binary, "probs", "--json", str(path)], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    dt = time.perf_counter() - t
    if r.returncode != 0:
        sys.exit(f"{binary} probs {path}: exit {r.returncode}: {r.stderr.decode()}")
    return dt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("broadside")
    ap.add_argument("baseline", nargs="?")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--clicks", type=int, default=5)
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    states = {}

    def add(state, what):
        key = json.dumps(state, sort_keys=True)
        states.setdefault(key, (state, what))

    for rules in ("touch", "no-touch"):
        for sinking in ("announced", "none", "revealed"):
            for shooter in ("greedy", "density:50"):
                for g in games(args.broadside, shooter, rules, sinking, args.games, 1):
                    for i, s in enumerate(prefixes(g)):
                        add(s, f"{shooter} {rules} {sinking} {g['name']} shot {i}")
        for s in clicks(rules, args.clicks, random.Random(7)):
            add(s, f"{len(s['shots'])} misses {rules}")
    for record in sorted((ROOT / "puzzles" / "game").glob("*.txt")):
        game = json.loads(subprocess.run([args.broadside, "convert", "--to", "json", str(record)],
                                         check=True, capture_output=True, text=True).stdout)
        for i, s in enumerate(prefixes(game)):
            add(s, f"{record.name} shot {i}")
    files = []
    for i, (key, (state, what)) in enumerate(states.items()):
        path = OUT / f"state-{i:05}.jsonl"
        path.write_text(json.dumps(state) + "\n")
        files.append((path, what))
    binaries = [args.broadside] + ([args.baseline] if args.baseline else [])
    report = {}
    for b in binaries:
        times = []
        for n, (path, what) in enumerate(files):
            times.append((timed(b, path), str(path), what))
            if n % 500 == 0:
                print(f"{b}: {n}/{len(files)}", file=sys.stderr, flush=True)
        times.sort(reverse=True)
        # The ten slowest again, best of three.
        top = sorted(((min(timed(b, p) for _ in range(3)), p, w) for _, p, w in times[:20]),
                     reverse=True)[:10]
        over = sum(1 for t, _, _ in times if t > 0.050)
        median = sorted(t for t, _, _ in times)[len(times) // 2]
        report[b] = (top, over, median, len(times))
        print(f"\n{b}: {len(times)} states, median {median * 1e3:.1f} ms, {over} over 50 ms "
              f"(one run each); the ten slowest, best of 3:")
        for t, p, w in top:
            print(f"  {t * 1e3:7.1f} ms  {w}  ({os.path.relpath(p, ROOT)})")


if __name__ == "__main__":
    main()
