#!/usr/bin/env python3
"""How long the web page waits for the computer's shot: matches against `broadside serve` on the
standard game, the person firing at cells in a random order (seeded), each `POST
/api/match/fire` timed from the request to the whole answer (the person's shot, the
computer's reply and the match's state).

    benches/match_moves.py SHOOTER [MATCHES] [THINK] [ahead]

SHOOTER is the word `POST /api/match` takes (`pilot`, `strongest`); MATCHES (default 6) are
seeded 1, 2, ...; THINK (default 0) is the seconds the person waits before each shot, during
which the server's computer chooses its next shot. With `ahead`, the person fires as the page
does (`wait=0`: answered at once, the computer's answers following), and once the person can
fire no more the computer's answers still owed are fetched (`POST /api/match/replies`); each
fire request is timed as before, and so is the wait for the last answers at the end. Prints the
number of moves and their median, 95th percentile and maximum. The binary is `$BROADSIDE`, else
`target/release/broadside`; it is started on a free port and stopped at the end. Standard
library only.
"""

import json
import os
import random
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request

GAME = b"size: 10x10\nfleet: 5 4 3 3 2\nrules: touch\nsinking: announced\n"


def post(base, path, body=b""):
    """The status and JSON answer of a POST request."""
    req = urllib.request.Request(base + path, data=body, method="POST")
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, None


def play(base, shooter, seed, think, ahead):
    """The seconds each of one match's fire requests took, the seconds its last answers took
    to come once the person could fire no more (`ahead`), and the most shots the computer was
    behind."""
    _, state = post(base, f"/api/match?seed={seed}&shooter={shooter}", GAME)
    match = state["id"]
    cells = [f"{c}{r}" for c in "ABCDEFGHIJ" for r in range(1, 11)]
    random.Random(seed).shuffle(cells)
    took, behind = [], 0
    wait = "&wait=0" if ahead else ""
    for cell in cells:
        time.sleep(think)
        start = time.perf_counter()
        status, answer = post(base, f"/api/match/fire?id={match}&cell={cell}{wait}")
        if status == 409:
            break
        took.append(time.perf_counter() - start)
        state = answer
        behind = max(behind, state["owed"])
        if state.get("winner"):
            break
    start = time.perf_counter()
    while not state.get("winner"):
        _, state = post(base, f"/api/match/replies?id={match}")
    return took, time.perf_counter() - start, behind


def summary(seconds):
    """Median, 95th percentile and maximum, in milliseconds."""
    ms = sorted(t * 1000 for t in seconds)
    return statistics.median(ms), ms[int(0.95 * len(ms))], ms[-1]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    shooter = sys.argv[1]
    matches = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    think = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    ahead = len(sys.argv) > 4 and sys.argv[4] == "ahead"
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
        took, ends, behind = [], [], 0
        for seed in range(1, matches + 1):
            t, end, b = play(base, shooter, seed, think, ahead)
            took += t
            ends.append(end)
            behind = max(behind, b)
    finally:
        server.terminate()
        server.wait()
    median, p95, most = summary(took)
    print(
        f"{shooter}, think {think} s{', ahead' if ahead else ''}: {len(took)} moves, "
        f"median {median:.1f} ms, p95 {p95:.1f} ms, max {most:.0f} ms"
    )
    if ahead:
        median, _, most = summary(ends)
        print(
            f"the last answers, once the person could fire no more: median {median:.0f} ms, "
            f"max {most:.0f} ms; the computer at most {behind} shots behind"
        )


if __name__ == "__main__":
    main()
