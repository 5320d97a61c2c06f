#!/usr/bin/env python3
"""How long the web page waits for the computer's shot: matches against `broadside serve` on the
standard game, the person firing at cells in a random order (seeded), each `POST
/api/match/fire` timed from the request to the whole answer (the person's shot, the
computer's reply and the match's state).

    benches/match_moves.py SHOOTER [MATCHES] [THINK]

SHOOTER is the word `POST /api/match` takes (`pilot`, `strongest`); MATCHES (default 6) are
seeded 1, 2, ...; THINK (default 0) is the seconds the person waits before each shot, during
which the server's computer chooses its next shot. Prints the number of moves and their median,
95th percentile and maximum. The binary is `$BROADSIDE`, else `target/release/broadside`; it is
started on a free port and stopped at the end. Standard library only.
"""

import json
import os
import random
import statistics
import subprocess
import sys
import time
import urllib.request

GAME = b"size: 10x10\nfleet: 5 4 3 3 2\nrules: touch\nsinking: announced\n"


def post(base, path, body=b""):
    """The JSON answer of a POST request."""
    req = urllib.request.Request(base + path, data=body, method="POST")
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def play(base, shooter, seed, think):
    """The seconds each of one match's fire requests took."""
    state = post(base, f"/api/match?seed={seed}&shooter={shooter}", GAME)
    cells = [f"{c}{r}" for c in "ABCDEFGHIJ" for r in range(1, 11)]
    random.Random(seed).shuffle(cells)
    took = []
    for cell in cells:
        time.sleep(think)
        start = time.perf_counter()
        state = post(base, f"/api/match/fire?id={state['id']}&cell={cell}")
        took.append(time.perf_counter() - start)
        if state.get("winner"):
            break
    return took


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    shooter = sys.argv[1]
    matches = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    think = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    binary = os.environ.get("BROADSIDE", "target/release/broadside")
    server = subprocess.Popen(
        [binary, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True
    )
    try:
        # "broadside serve: listening on http://127.0.0.1:PORT/ (Ctrl-C stops)"
        line = server.stdout.readline()
        base = line.split("listening on ")[1].split("/ ")[0]
        # The page's opening map is counted when the server starts: let it finish.
        time.sleep(3)
        took = []
        for seed in range(1, matches + 1):
            took += play(base, shooter, seed, think)
    finally:
        server.terminate()
        server.wait()
    ms = sorted(t * 1000 for t in took)
    p95 = ms[int(0.95 * len(ms))]
    print(
        f"{shooter}, think {think} s: {len(ms)} moves, median {statistics.median(ms):.1f} ms, "
        f"p95 {p95:.1f} ms, max {ms[-1]:.0f} ms"
    )


if __name__ == "__main__":
    main()
