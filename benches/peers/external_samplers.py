#!/usr/bin/env python3
"""Peer measurement: two external SAT samplers, UniGen (approximately uniform, with
guarantees) and CMSGen ("uniform-like"), sample the projected CNF that
`broadside count --dimacs` writes for a small puzzle state; their models are turned back
into layouts (through the `c placement` lines) and judged by `broadside validate --samples`
against the exact answer, side by side with broadside's own uniform sampler.

Usage: python3 benches/peers/external_samplers.py [N] [path/to/broadside]
Needs: pip install pyunigen pycmsgen (each one missing is reported and skipped).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
N = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
BIN = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "target", "release", "broadside")
STATE = os.path.join(ROOT, "tests", "data", "rubin-1234-no-hints.txt")


def read_cnf(path):
    clauses, show, placement, nvars = [], [], {}, 0
    for line in open(path):
        if line.startswith("c p show"):
            show = [int(x) for x in line.split()[3:] if x != "0"]
        elif line.startswith("c placement"):
            w = line.split()
            placement[int(w[2])] = [int(c) for c in w[4:]]
        elif line.startswith("p cnf"):
            nvars = int(line.split()[2])
        elif line.strip() and not line.startswith("c"):
            clauses.append([int(x) for x in line.split()[:-1]])
    return nvars, clauses, show, placement


def layout_rows(true_vars, placement, width, height):
    grid = [["."] * width for _ in range(height)]
    for v in true_vars:
        cells = placement[v]
        if len(cells) == 1:
            grid[cells[0] // width][cells[0] % width] = "o"
            continue
        across = cells[1] == cells[0] + 1
        for i, c in enumerate(cells):
            sym = "m"
            if i == 0:
                sym = "<" if across else "^"
            elif i == len(cells) - 1:
                sym = ">" if across else "v"
            grid[c // width][c % width] = sym
    return ["".join(r) for r in grid]


def validate(samples_path):
    out = subprocess.run([BIN, "validate", STATE, "--samples", samples_path, "--json"], capture_output=True, text=True)
    return json.loads(out.stdout)


def report(name, layouts, secs):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for rows in layouts:
            f.write(json.dumps({"layout": rows}) + "\n")
        path = f.name
    v = validate(path)
    os.unlink(path)
    fit = v["fit"] or {}
    print(f"| {name} | {len(layouts)} | {len(layouts) / secs:,.0f} | {'pass' if v['pass'] else 'FAIL'} | "
          f"{v['cells']['max_error']:.3f} | {fit.get('p_value', float('nan')):.4f} | {fit.get('tv', float('nan')):.3f} |")


def main():
    with tempfile.NamedTemporaryFile(suffix=".cnf", delete=False) as f:
        cnf = f.name
    subprocess.run([BIN, "count", STATE, "--dimacs", cnf], check=True, capture_output=True)
    nvars, clauses, show, placement = read_cnf(cnf)
    os.unlink(cnf)
    width = height = 10
    print(f"state: {os.path.relpath(STATE, ROOT)}, {N} samples per sampler")
    print("| sampler | samples | samples/s | verdict | max cell error | chi-square p | TV distance |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    t = time.perf_counter()
    out = subprocess.run([BIN, "sample", STATE, "-n", str(N), "--seed", "1", "--json"], capture_output=True, text=True, check=True)
    layouts = [json.loads(l)["layout"] for l in out.stdout.splitlines()]
    report("broadside uniform", layouts, time.perf_counter() - t)
    try:
        from pyunigen import Sampler
        s = Sampler(seed=1)
        for c in clauses:
            s.add_clause(c)
        t = time.perf_counter()
        _, _, samples = s.sample(num=N, sampling_set=show)
        secs = time.perf_counter() - t
        layouts = [layout_rows([l for l in sample if l > 0 and l in placement], placement, width, height) for sample in samples]
        report("UniGen (pyunigen)", layouts, secs)
    except ImportError:
        print("| UniGen | not installed (pip install pyunigen) | | | | | |")
    try:
        from pycmsgen import Solver
        s = Solver(seed=1)
        for c in clauses:
            s.add_clause(c)
        t = time.perf_counter()
        layouts = []
        for _ in range(N):
            sat, model = s.solve()
            assert sat
            layouts.append(layout_rows([v for v in placement if model[v]], placement, width, height))
        report("CMSGen (pycmsgen)", layouts, time.perf_counter() - t)
    except ImportError:
        print("| CMSGen | not installed (pip install pycmsgen) | | | | | |")


if __name__ == "__main__":
    main()
