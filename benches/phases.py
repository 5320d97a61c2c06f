#!/usr/bin/env python3
"""Where a shooter's shots go, from the games `broadside simulate --out` wrote: per game, the
shots fired while hunting (no ship hit and still afloat: before the first hit, and between a
sinking and the next hit) and while finishing (some ship hit and not yet sunk); among the
finishing shots, the misses and those off the wounded ships' lines (in no row or column of a
wounded ship's hit within the longest ship's reach), and the ships found while finishing (first
hit while another ship was wounded). The hidden layout of each record says which ship a hit
belongs to.

    benches/phases.py greedy.jsonl density.jsonl [habr.jsonl ...]

A second table splits the hunting and the finishing by the ships sunk before each shot.

Every file must hold the same games (the same seed and board): the last table pairs each file
with the first, game by game. Standard library only.
"""

import json
import math
import sys


def cell_index(name, width):
    col = ord(name[0].upper()) - ord("A")
    return (int(name[1:]) - 1) * width + col


def ships_of(solution, width):
    """Per cell, the ship covering it (an id), from the layout picture's rows."""
    owner = {}
    rows = [list(r) for r in solution]
    height = len(rows)
    seen = set()
    next_id = 0
    for r in range(height):
        for c in range(width):
            if rows[r][c] == "." or (r, c) in seen:
                continue
            # Straight ships: flood along the row or column of connected segment symbols.
            stack, cells = [(r, c)], []
            while stack:
                y, x = stack.pop()
                if (y, x) in seen or not (0 <= y < height and 0 <= x < width) or rows[y][x] == ".":
                    continue
                s = rows[y][x]
                seen.add((y, x))
                cells.append((y, x))
                if s in "<m" and x + 1 < width and rows[y][x + 1] in "m>":
                    stack.append((y, x + 1))
                if s in "m>" and x > 0 and rows[y][x - 1] in "<m":
                    stack.append((y, x - 1))
                if s in "^m" and y + 1 < height and rows[y + 1][x] in "mv":
                    stack.append((y + 1, x))
                if s in "mv" and y > 0 and rows[y - 1][x] in "^m":
                    stack.append((y - 1, x))
            for y, x in cells:
                owner[y * width + x] = next_id
            next_id += 1
    return owner


# The columns: shots per phase, then among the finishing shots the misses and those off the
# wounded ships' lines, the ships found while finishing, and all shots.
KEYS = ["first hit", "hunting later", "finishing", "finishing misses", "off the line", "found finishing", "all"]
# The second table's columns: hunting and finishing shots after 0, 1, ... sinkings (the
# standard fleet's five ships; a larger fleet's later sinkings are left out).
SUNK_KEYS = [f"{phase} after {k}" for phase in ("hunting", "finishing") for k in range(5)]


def phases(record):
    w = record["width"]
    owner = ships_of(record["solution"], w)
    size = {}
    for s in owner.values():
        size[s] = size.get(s, 0) + 1
    reach = max(size.values(), default=1) - 1
    hits = {}
    out = {key: 0 for key in KEYS}
    # Per shot, the ships sunk before it: its phase is split by them too.
    sunk = 0
    by_sunk = {key: 0 for key in SUNK_KEYS}
    # The cells hit so far.
    hit = set()
    for shot in record["shots"]:
        cell = cell_index(shot.split()[0], w)
        wounded = [c for c in hit if hits[owner[c]] < size[owner[c]]]
        split = f"{'finishing' if wounded else 'hunting'} after {sunk}"
        if split in by_sunk:
            by_sunk[split] += 1
        if wounded:
            out["finishing"] += 1
            if cell not in owner:
                out["finishing misses"] += 1
            elif owner[cell] not in hits:
                out["found finishing"] += 1
            (r, q) = divmod(cell, w)
            if not any(
                (r == c // w and abs(q - c % w) <= reach) or (q == c % w and abs(r - c // w) <= reach)
                for c in wounded
            ):
                out["off the line"] += 1
        elif not hit:
            out["first hit"] += 1
        else:
            out["hunting later"] += 1
        if cell in owner and cell not in hit:
            hit.add(cell)
            hits[owner[cell]] = hits.get(owner[cell], 0) + 1
            sunk += hits[owner[cell]] == size[owner[cell]]
    out["all"] = len(record["shots"])
    return out, by_sunk


def mean_ci(values):
    n = len(values)
    m = sum(values) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return m, 1.96 * sd / math.sqrt(n)


def main():
    runs = []
    for path in sys.argv[1:]:
        games = {}
        with open(path) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    games[r["name"]] = (r["solution"], phases(r))
        runs.append((path, games))
    names = sorted(set.intersection(*(set(g) for _, g in runs)), key=lambda n: int(n.split("-")[1]))
    for _, g in runs[1:]:
        for n in names:
            if g[n][0] != runs[0][1][n][0]:
                sys.exit(f"{n} hides different layouts: the files are not the same games")
    print(f"{len(names)} games; mean shots per game (95% CI)")
    for table, keys in enumerate([KEYS, SUNK_KEYS]):
        print()
        print("| file | " + " | ".join(keys) + " |")
        print("| --- " * (len(keys) + 1) + "|")
        for path, g in runs:
            cells = []
            for k in keys:
                m, h = mean_ci([g[n][1][table][k] for n in names])
                cells.append(f"{m:.2f} ± {h:.2f}")
            print(f"| {path} | " + " | ".join(cells) + " |")
        base_path, base = runs[0]
        for path, g in runs[1:]:
            cells = []
            for k in keys:
                m, h = mean_ci([g[n][1][table][k] - base[n][1][table][k] for n in names])
                cells.append(f"{m:+.2f} ± {h:.2f}")
            print(f"| {path} minus {base_path} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
