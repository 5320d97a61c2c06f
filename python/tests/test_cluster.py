"""Tables and counts beyond one process: on a real Dask LocalCluster (two worker processes on
127.0.0.1) and on a process pool, game for game equal to the in-process run and to the command
line's, with a worker killed mid-run, resumed from a cut file, and counts in shards that add up
to the count."""

import json
import os
import pickle
import signal
import subprocess
import threading
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

import broadside
from conftest import REPO

BIN = REPO / "target" / "release" / "broadside"

distributed = pytest.importorskip("distributed")
from distributed import Client, LocalCluster  # noqa: E402

TABLE = dict(size=(5, 5), fleet=[3, 2], rules="no-touch", seed=3)


@pytest.fixture(scope="module")
def client():
    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster, Client(cluster) as c:
        yield c


def cli_shots(shooter, games, out):
    """Shots per game of `broadside simulate --out`, in game order."""
    subprocess.run(
        [
            str(BIN),
            "simulate",
            "--shooter",
            shooter,
            "--games",
            str(games),
            "--seed",
            str(TABLE["seed"]),
            "--size",
            "5x5",
            "--fleet",
            "3 2",
            "--rules",
            "no-touch",
            "--out",
            str(out),
        ],
        check=True,
        capture_output=True,
    )
    records = [json.loads(l) for l in out.read_text().splitlines() if l.strip()]
    return [len(r["shots"]) for r in records]


def test_a_cluster_plays_the_table_game_for_game(client, cli, tmp_path):
    # `cli` builds the release binary when it is missing.
    local = broadside.simulate("density", games=2000, chunk=100, **TABLE)
    spread = broadside.simulate("density", games=2000, chunk=100, client=client, **TABLE)
    assert spread.shots.tolist() == local.shots.tolist()
    assert spread.chunks_played == 20
    assert local.shots.tolist() == cli_shots("density", 2000, tmp_path / "g.jsonl")
    # The summary is the command line's.
    s = spread.summary()
    run = subprocess.run(
        [str(BIN), "simulate", "--shooter", "density", "--games", "2000", "--seed", "3",
         "--size", "5x5", "--fleet", "3 2", "--rules", "no-touch", "--json"],
        check=True, capture_output=True, text=True,
    )
    want = json.loads(run.stdout)
    for key in ["games", "median", "min", "max", "shooter", "placer"]:
        assert s[key] == want[key], key
    for key in ["mean", "sd", "hit_ratio"]:
        assert s[key] == pytest.approx(want[key], rel=1e-12), key
    assert s["ci95"] == pytest.approx(want["ci95"], rel=1e-12)


def test_two_shooters_compare_game_by_game_as_summarize_does(client, cli, tmp_path):
    a = broadside.simulate("parity", games=400, chunk=100, client=client, **TABLE)
    b = broadside.simulate("density", games=400, chunk=100, client=client, **TABLE)
    d = a.compare(b)
    for name, shooter in [("a.jsonl", "parity"), ("b.jsonl", "density")]:
        cli_shots(shooter, 400, tmp_path / name)
    run = subprocess.run(
        [str(BIN), "summarize", str(tmp_path / "a.jsonl"), "--against", str(tmp_path / "b.jsonl"),
         "--json"],
        check=True, capture_output=True, text=True,
    )
    want = json.loads(run.stdout)
    for key in ["games", "fewer", "more", "equal"]:
        assert d[key] == want[key], key
    for key in ["mean", "baseline_mean", "difference", "sd"]:
        assert d[key] == pytest.approx(want[key], rel=1e-12, abs=1e-12), key
    with pytest.raises(ValueError, match="same boards"):
        a.compare(broadside.simulate("density", games=10, **{**TABLE, "seed": 4}))


def test_a_killed_worker_loses_nothing(client, tmp_path):
    local = broadside.simulate("greedy", games=3000, chunk=50, **TABLE)
    pids = client.run(os.getpid)
    victim = sorted(pids.values())[0]
    out = tmp_path / "killed.jsonl"
    kept_at_kill = []

    def chunks_kept():
        # The file's first line names the run; each further line is a chunk played.
        return len(out.read_text().splitlines()) - 1 if out.exists() else 0

    def kill():
        # Once the run has kept its first chunk, so the kill falls mid-run however fast the
        # machine plays (a minute at most, in case the run fails first).
        deadline = time.monotonic() + 60
        while chunks_kept() < 1 and time.monotonic() < deadline:
            time.sleep(0.001)
        kept_at_kill.append(chunks_kept())
        os.kill(victim, signal.SIGKILL)

    t = threading.Thread(target=kill)
    t.start()
    spread = broadside.simulate(
        "greedy", games=3000, chunk=50, client=client, out=str(out), **TABLE
    )
    t.join()
    assert 1 <= kept_at_kill[0] < 60, f"the kill came after {kept_at_kill[0]} of 60 chunks"
    assert spread.shots.tolist() == local.shots.tolist()
    # The worker was killed (the nanny starts another in its place).
    assert victim not in client.run(os.getpid).values()


def test_an_executor_plays_it_too():
    local = broadside.simulate("parity", games=600, chunk=75, **TABLE)
    with ProcessPoolExecutor(max_workers=2) as ex:
        spread = broadside.simulate("parity", games=600, chunk=75, executor=ex, **TABLE)
    assert spread.shots.tolist() == local.shots.tolist()


def test_out_is_kept_chunk_by_chunk_and_a_rerun_plays_only_what_is_missing(tmp_path):
    out = tmp_path / "t.jsonl"
    whole = broadside.simulate("density", games=1000, chunk=100, out=str(out), **TABLE)
    lines = out.read_text().splitlines()
    assert len(lines) == 1 + 10
    # As if killed after four chunks, the fifth cut mid-line.
    out.write_text("\n".join(lines[:5]) + "\n" + lines[5][:7])
    again = broadside.simulate("density", games=1000, chunk=100, out=str(out), **TABLE)
    assert again.shots.tolist() == whole.shots.tolist()
    assert (again.chunks_kept, again.chunks_played) == (4, 6)
    # A file of another table is refused, not mixed.
    with pytest.raises(ValueError, match="other arguments"):
        broadside.simulate("parity", games=1000, chunk=100, out=str(out), **TABLE)


def test_bad_arguments_fail_at_once(client):
    start = time.perf_counter()
    with pytest.raises(ValueError, match="unknown shooter"):
        broadside.simulate("sniper", games=10, client=client)
    with pytest.raises(ValueError):
        broadside.simulate("density", games=10, size=(2, 2), fleet=[5], client=client)
    assert time.perf_counter() - start < 5


def test_shards_add_up_to_the_count(client):
    g = broadside.Game(size=(6, 6), fleet=[3, 2, 2], rules="no-touch")
    g.shoot("C3", "miss")
    g.shoot("D4", "hit")
    exact = g.count()
    for k in [1, 7, 64]:
        assert broadside.count(g, shards=k) == exact, k
    assert broadside.count(g, client=client, shards=7) == exact
    cells = broadside.counts(g, client=client, shards=7)
    assert cells.astype(np.uint64).tolist() == g.counts().tolist()
    # The empty 10x10 board, ships touching: the known count, on the cluster.
    assert broadside.count(broadside.Game(), client=client, shards=64) == 15_046_987_768
    # A part is 0 to K - 1.
    for part, parts in [(3, 3), (0, 0)]:
        with pytest.raises(ValueError):
            broadside.cluster.count_part(g.to_text(), part, parts)
    # A run of parts counted in one setup is the sum of its parts.
    text = g.to_text()
    one_by_one = [broadside.cluster.count_part(text, k, 9, per_cell=True) for k in range(9)]
    run = broadside.cluster.count_part(text, 2, 9, per_cell=True, upto=6)
    assert run[0] == sum(c for c, _ in one_by_one[2:6])
    assert run[1] == [sum(p[1][i] for p in one_by_one[2:6]) for i in range(36)]
    with pytest.raises(ValueError, match="upto"):
        broadside.cluster.count_part(text, 2, 9, upto=2)


def test_a_million_shards_are_batched(client):
    # A part's setup walks the search's first levels: a million of them one by one took hours.
    # In this process they are counted together; on a cluster in at most MOST_TASKS runs.
    runs = broadside.cluster._batches(10**6, broadside.cluster.MOST_TASKS)
    assert len(runs) == 1024 and runs[0][0] == 0 and runs[-1][1] == 10**6
    assert all(a[1] == b[0] and a[0] < a[1] for a, b in zip(runs, runs[1:]))
    start = time.perf_counter()
    assert broadside.count(broadside.Game(), shards=10**6) == 15_046_987_768
    assert broadside.count(broadside.Game(), client=client, shards=10**6) == 15_046_987_768
    assert time.perf_counter() - start < 60


def test_a_game_pickles():
    g = broadside.Game(size=(5, 5), fleet=[3, 2], rules="no-touch", sinking="revealed")
    g.shoot("A1", "hit")
    h = pickle.loads(pickle.dumps(g))
    assert (h.shots, h.rules, h.sinking, h.count()) == (g.shots, g.rules, g.sinking, g.count())

