#!/usr/bin/env python3
"""Peer measurement: an OR-Tools CP-SAT placement model on the same puzzles broadside's
`benches/puzzles.rs` solves.

For each puzzle: one Boolean per ship placement (length, orientation, position), a cell is
a ship cell exactly when one chosen placement covers it, no placement's halo holds a ship
cell (no touching), exactly n placements of a length the fleet has n of, row and column
counts, and the hints. CP-SAT (one worker) finds a solution, then a clause excluding it is
added and a second solve proves there is no other. The time per puzzle includes building
the model, as the reference figures in puzzles/external/README.md do.

Usage: python3 benches/peers/cpsat_rubin.py [FILE.jsonl]   (default: rubin303)
Needs: pip install ortools
"""
import json
import statistics
import sys
import time

from ortools.sat.python import cp_model

SEG = {"S": "o", "M": "m", "U": "^", "D": "v", "L": "<", "R": ">"}


def solve(p):
    h, w = p["height"], p["width"]
    m = cp_model.CpModel()
    cell = [[m.NewBoolVar("") for _ in range(w)] for _ in range(h)]
    cover = [[[] for _ in range(w)] for _ in range(h)]
    by_len = {}
    hints = {(r, c): k for r, c, k in p["hints"]}
    for length, count in p["fleet"].items():
        L = int(length)
        vs = []
        for dr, dc in ([(0, 1), (1, 0)] if L > 1 else [(0, 1)]):
            for r in range(h):
                for c in range(w):
                    cells = [(r + dr * i, c + dc * i) for i in range(L)]
                    if any(a >= h or b >= w for a, b in cells):
                        continue
                    # The segment kind each cell of this placement would show.
                    kinds = {}
                    for i, (a, b) in enumerate(cells):
                        if L == 1:
                            kinds[(a, b)] = "o"
                        elif i == 0:
                            kinds[(a, b)] = "<" if dc else "^"
                        elif i == L - 1:
                            kinds[(a, b)] = ">" if dc else "v"
                        else:
                            kinds[(a, b)] = "m"
                    if any(hints.get(x) == "W" or (hints.get(x) in SEG and SEG[hints[x]] != kinds[x]) for x in cells):
                        continue
                    v = m.NewBoolVar("")
                    vs.append((v, cells))
                    for a, b in cells:
                        cover[a][b].append(v)
                    halo = {(a + i, b + j) for a, b in cells for i in (-1, 0, 1) for j in (-1, 0, 1)}
                    for a, b in halo - set(cells):
                        if 0 <= a < h and 0 <= b < w:
                            m.AddImplication(v, cell[a][b].Not())
        m.Add(sum(v for v, _ in vs) == count)
        by_len[L] = vs
    for r in range(h):
        for c in range(w):
            m.Add(sum(cover[r][c]) == cell[r][c])
    for r in range(h):
        m.Add(sum(cell[r]) == p["rows"][r])
    for c in range(w):
        m.Add(sum(cell[r][c] for r in range(h)) == p["cols"][c])
    for (r, c), k in hints.items():
        m.Add(cell[r][c] == (0 if k == "W" else 1))
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    if s.Solve(m) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, False
    chosen = [v for vs in by_len.values() for v, _ in vs if s.Value(v)]
    grid = ["".join("#" if s.Value(cell[r][c]) else "." for c in range(w)) for r in range(h)]
    m.AddBoolOr([v.Not() for v in chosen])
    unique = s.Solve(m) == cp_model.INFEASIBLE
    return grid, unique


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "puzzles/external/rubin303.jsonl"
    times = []
    for line in open(path):
        p = json.loads(line)
        t = time.perf_counter()
        grid, unique = solve(p)
        times.append(time.perf_counter() - t)
        want = ["".join("." if ch == "." else "#" for ch in row) for row in p["solution"]]
        assert grid == want and unique, p["id"]
    print(f"cpsat per puzzle ({len(times)} puzzles, 1 worker): median {statistics.median(times)*1e3:.1f} ms, "
          f"max {max(times)*1e3:.1f} ms, total {sum(times):.2f} s")


if __name__ == "__main__":
    main()
