#!/usr/bin/env python3
"""What a shooter's departures from density:50.1 fire at: for each departure that `broadside
gains --out` measured, the exact probability of a ship on the cell the shooter fired at and on
the cell density:50.1 would have fired at (`broadside probs` of the position before the shot),
split by phase: hunting (no ship wounded: every hit so far belongs to a ship reported sunk)
and finishing (some ship wounded), and by the ships sunk before the shot.

    benches/departures.py GAMES.jsonl GAINS.jsonl

GAMES.jsonl is what `broadside simulate --out` wrote (the game records: shots and rules),
GAINS.jsonl what `broadside gains GAMES.jsonl --out GAINS.jsonl` wrote (each game's departures
and what each is worth); the phases need sinkings announced with their length. The binary is
`$BROADSIDE`, else `target/release/broadside`. Standard library only; under the no-touch rule
the probabilities are those of the rules, the water around sunk ships included.
"""

import json
import os
import subprocess
import sys

from phases import cell_index


def records(path):
    """The game records of a `simulate --out` file, by name (its first line names the run)."""
    games = {}
    with open(path) as f:
        for line in f:
            g = json.loads(line)
            if "name" in g and "shots" in g:
                games[g["name"]] = g
    return games


def probabilities(binary, record, shots):
    """Per cell, the exact probability of a ship after `shots` (a list of "C5 hit" words)."""
    text = (
        f"size: {record['width']}x{record['height']}\n"
        f"fleet: {record['fleet']}\n"
        f"rules: {record['rules']}\n"
        f"sinking: {record['sinking']}\n"
        "shots:\n" + "".join(s + "\n" for s in shots)
    )
    out = subprocess.run(
        [binary, "probs", "-", "--json"], input=text, capture_output=True, text=True, check=True
    )
    rows = json.loads(out.stdout)["probabilities"]
    return [p for row in rows for p in row]


def wounded(shots):
    """Whether some hit of `shots` belongs to no ship reported sunk: the hits and sinkings
    less the sunk ships' lengths (sinkings announce the length)."""
    ship_cells = sum(1 for s in shots if s.split()[1] in ("hit", "sunk"))
    sunk = sum(int(s.split()[2]) for s in shots if s.split()[1] == "sunk")
    return ship_cells > sunk


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary = os.environ.get("BROADSIDE", "target/release/broadside")
    games = records(sys.argv[1])
    rows = []
    measured = 0
    with open(sys.argv[2]) as f:
        for line in f:
            g = json.loads(line)
            if "departures" not in g:
                continue
            measured += 1
            record = games[g["name"]]
            if record["sinking"] != "announced":
                sys.exit(f"{g['name']}: the phases need sinkings announced with their length")
            width = record["width"]
            for d in g["departures"]:
                before = record["shots"][: d["shot"] - 1]
                fired_word = record["shots"][d["shot"] - 1].split()[0]
                if fired_word != d["fired"]:
                    sys.exit(f"{g['name']}: shot {d['shot']} is {fired_word}, not {d['fired']}")
                p = probabilities(binary, record, before)
                fired_at = {cell_index(s.split()[0], width) for s in before}
                top = max(q for c, q in enumerate(p) if c not in fired_at)
                pf, pb = p[cell_index(d["fired"], width)], p[cell_index(d["base"], width)]
                rows.append(
                    {
                        "phase": "finishing" if wounded(before) else "hunting",
                        "sunk": d["sunk"],
                        "gain": d["gain"],
                        "fired": pf,
                        "base": pb,
                        "base_top": pb >= top - 1e-12,
                    }
                )
    print(f"{measured} games, {len(rows)} departures")
    print(
        "| phase | ships sunk before | departures a game | gain a game | gain a departure "
        "| P(ship), cell fired | P(ship), base's cell | fired more likely | base's cell the "
        "most likely |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    groups = [("all", None)]
    groups += [("hunting", k) for k in range(5)] + [("finishing", k) for k in range(5)]
    for phase, sunk in groups:
        rs = [
            r
            for r in rows
            if (phase == "all" or r["phase"] == phase) and (sunk is None or r["sunk"] == sunk)
        ]
        if not rs:
            continue
        n = len(rs)
        mean = lambda key: sum(r[key] for r in rs) / n  # noqa: E731
        share = lambda test: sum(1 for r in rs if test(r)) / n  # noqa: E731
        print(
            f"| {phase} | {'any' if sunk is None else sunk} | {n / measured:.2f} "
            f"| {sum(r['gain'] for r in rs) / measured:+.3f} | {mean('gain'):+.3f} "
            f"| {mean('fired'):.3f} | {mean('base'):.3f} "
            f"| {share(lambda r: r['fired'] > r['base'] + 1e-12):.0%} "
            f"| {share(lambda r: r['base_top']):.0%} |"
        )


if __name__ == "__main__":
    main()
