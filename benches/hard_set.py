#!/usr/bin/env python3
"""Times each engine and `auto` on the hard benchmark set: `solve` and `count --limit 2`.

The set is every puzzle of `puzzles/hard` (row and column counts, no given cell) and the three
puzzles of `puzzles/external` the enumerator takes longest on. Each command runs as a
whole process, three times (once when it passes the timeout), and the median wall time is
printed as a Markdown table with `auto`'s ratio to the best single engine and whether it is
within the target: 1.2 x best + 20 ms. Run from the repository's top after a release build:

    cargo build --release && python3 benches/hard_set.py [TIMEOUT_SECONDS]
"""

import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

BIN = "target/release/broadside"
TIMEOUT = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
EXTERNAL = [("rubin303.jsonl", "rubin-2794"), ("ist25.jsonl", "ist-instance10"),
            ("rubin303.jsonl", "rubin-13082")]


def external(tmp):
    out = []
    for corpus, name in EXTERNAL:
        path = os.path.join("puzzles", "external", corpus)
        with open(path) as f:
            for line in f:
                if line.strip() and json.loads(line).get("id") == name:
                    one = os.path.join(tmp, f"{name}.jsonl")
                    with open(one, "w") as g:
                        g.write(line)
                    out.append(one)
    return out


def wall(args):
    """Median wall seconds of three runs, or None past the timeout."""
    times = []
    for _ in range(3):
        # `timeout` rather than Python's: its wait polls with growing sleeps, which rounds
        # short runs up to the next sleep.
        start = time.perf_counter()
        done = subprocess.run(["timeout", str(TIMEOUT), BIN] + args,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
        if done.returncode == 124:
            return None
    return statistics.median(times)


def cell(t):
    return f"> {TIMEOUT:.0f} s" if t is None else f"{t * 1000:.0f} ms"


def main():
    with tempfile.TemporaryDirectory() as tmp:
        files = sorted(glob.glob("puzzles/hard/*.txt")) + external(tmp)
        print("| puzzle | question | enum | sat | auto | auto / best | target |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for f in files:
            name = os.path.splitext(os.path.basename(f))[0]
            for question in (["solve"], ["count", "--limit", "2"]):
                t = {e: wall(question + ["--engine", e, f]) for e in ("enum", "sat", "auto")}
                best = min(v for k, v in t.items() if k != "auto" and v is not None)
                auto = t["auto"]
                ratio = "" if auto is None else f"{auto / best:.2f}"
                ok = auto is not None and auto <= 1.2 * best + 0.020
                print(f"| {name} | {' '.join(question)} | {cell(t['enum'])} | {cell(t['sat'])} "
                      f"| {cell(auto)} | {ratio} | {'yes' if ok else '**no**'} |", flush=True)


main()
