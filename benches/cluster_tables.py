#!/usr/bin/env python3
"""Plays the self-play tables of docs/results/ again on a Dask cluster and checks them game by
game: each file's games, from its recorded arguments, through ``broadside.simulate(...,
client=...)`` in chunks, must give exactly the recorded shots.

    python3 benches/cluster_tables.py [--scheduler ADDRESS] [--workers 2] [--chunk 2000]
                                      [--max-games N] [FILE ...]

Without ``--scheduler`` it starts a LocalCluster of ``--workers`` single-threaded workers on
127.0.0.1. ``--max-games`` plays only the first N games of each file (the exact shooters'
20,000-game tables take hours on two cores). Needs the package installed with ``distributed``.
"""

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def kwargs_of(argv):
    """``broadside simulate`` arguments as keyword arguments of ``broadside.simulate``."""
    if argv[0] != "simulate":
        raise ValueError(f"not a simulate command: {argv}")
    flags = dict(zip(argv[1::2], argv[2::2]))
    known = {"--shooter", "--seed", "--size", "--fleet", "--rules", "--sinking", "--placer"}
    if set(flags) - known:
        raise ValueError(f"arguments the Python runner does not take: {set(flags) - known}")
    kw = {"shooter": flags["--shooter"], "seed": int(flags.get("--seed", 0))}
    if "--size" in flags:
        w, h = flags["--size"].split("x")
        kw["size"] = (int(h), int(w))
    if "--fleet" in flags:
        kw["fleet"] = flags["--fleet"]
    for flag, key in [("--rules", "rules"), ("--sinking", "sinking"), ("--placer", "placer")]:
        if flag in flags:
            kw[key] = flags[flag]
    return kw


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*")
    ap.add_argument("--scheduler")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--chunk", type=int, default=2000)
    ap.add_argument("--max-games", type=int)
    args = ap.parse_args()
    import broadside
    from dask.distributed import Client, LocalCluster

    if args.scheduler:
        client = Client(args.scheduler)
    else:
        client = Client(LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                     host="127.0.0.1", dashboard_address=None))
    files = [Path(f) for f in args.files] or sorted((ROOT / "docs" / "results").glob("*.json"))
    bad = 0
    for path in files:
        rec = json.loads(path.read_text())
        games = rec["games"] if args.max_games is None else min(rec["games"], args.max_games)
        start = time.perf_counter()
        run = broadside.simulate(games=games, first=rec["first"], client=client,
                                 chunk=args.chunk, **kwargs_of(rec["argv"]))
        seconds = time.perf_counter() - start
        same = np.array_equal(run.shots, np.array(rec["shots"][:games]))
        bad += not same
        print(f"{path.name}: {games} games in {seconds:.1f} s, mean {run.shots.mean():.3f}: "
              f"{'the same shots' if same else 'DIFFERENT shots'}", flush=True)
    client.close()
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
