"""Self-play tables and exact counts spread over many processes or machines: a Dask cluster
(``dask.distributed``; ``dask-jobqueue`` for Slurm and PBS), or any
``concurrent.futures.Executor``.

A table is split into chunks of game indices; each chunk is played by a module-level function
that takes only plain values (:func:`play_chunk`), so it can run anywhere and be retried: game
``i`` of a seed is the same game wherever and whenever it is played, so the table is the same
as one run in one process, game for game. A count is split into shards, each the layouts with
one pattern of water and ships on a few open cells; the shards partition the layouts, so their
counts add up to the count exactly.

``broadside.simulate`` and ``broadside.count``/``broadside.counts`` are re-exported from here.
"""

import json
import math
import os
import time
from concurrent.futures import Executor, as_completed
from dataclasses import dataclass
from typing import Any, Iterable, Optional, Sequence, Tuple, Union

import numpy as np

from . import _broadside
from ._broadside import Game

__all__ = ["Run", "simulate", "play_chunk", "count", "counts", "count_part"]

# The normal quantile of a two-sided 95% interval, as the command line rounds it.
_Z95 = 1.96


def _worker_threads() -> Optional[int]:
    """The threads of the Dask worker this runs on (its tasks run one to a thread, so each
    task's pool gets one thread a worker thread shares), or ``None`` outside a worker."""
    try:
        from distributed import get_worker

        w = get_worker()
    except (ImportError, ValueError):
        return None
    n = getattr(w, "nthreads", None) or getattr(getattr(w, "state", None), "nthreads", None)
    return max(1, int(n)) if n else 1


def play_chunk(params: dict, first: int, games: int, threads: Optional[int] = None) -> list:
    """Plays games ``first + 1`` to ``first + games`` of the table ``params`` (the arguments of
    :func:`simulate`) and returns the shots of each, in order. Inside a Dask worker the games
    use the worker's threads (not one a core: two workers on a machine must not each start a
    pool of every core); in an executor's process, one thread unless ``threads`` says."""
    if threads is None:
        threads = _worker_threads() or 1
    shots = _broadside.simulate_chunk(
        params["shooter"],
        games,
        first=first,
        seed=params["seed"],
        size=tuple(params["size"]),
        fleet=params["fleet"],
        rules=params["rules"],
        sinking=params["sinking"],
        placer=params["placer"],
        threads=threads,
    )
    return [int(s) for s in shots]


@dataclass
class Run:
    """A table played: ``shots[i]`` is game ``first + i + 1`` of the seed, as
    ``broadside simulate --first FIRST`` plays it."""

    params: dict
    first: int
    shots: np.ndarray
    seconds: float = 0.0
    chunks_played: int = 0
    chunks_kept: int = 0

    def summary(self) -> dict:
        """The figures ``broadside simulate --json`` prints for these games (less the time a
        game, which depends on where they ran): games, mean, its 95% interval, sd, median,
        min, max, hit ratio, shooter and placer."""
        s = self.shots.astype(np.float64)
        n = s.size
        mean = float(s.mean())
        sd = float(s.std(ddof=1)) if n > 1 else 0.0
        half = _Z95 * sd / math.sqrt(n) if n > 1 else 0.0
        cells = _fleet_cells(self.params)
        return {
            "games": n,
            "mean": mean,
            "ci95": [mean - half, mean + half],
            "sd": sd,
            "median": float(np.median(s)),
            "min": int(s.min()),
            "max": int(s.max()),
            "hit_ratio": cells * n / float(s.sum()),
            "shooter": _broadside.word_of("shooter", self.params["shooter"]),
            "placer": _broadside.word_of("placer", self.params["placer"]),
            "complete": True,
        }

    def compare(self, baseline: "Run") -> dict:
        """This run against ``baseline`` on the games both hold (the same seed and board: game
        ``i`` hides the same layout in both), as ``broadside summarize --against`` reports it:
        the mean of this run's shots minus the baseline's, game by game, with its 95% interval."""
        if {k: v for k, v in self.params.items() if k != "shooter"} != {
            k: v for k, v in baseline.params.items() if k != "shooter"
        }:
            raise ValueError("the runs are not on the same boards: they differ in more than the shooter")
        lo = max(self.first, baseline.first)
        hi = min(self.first + self.shots.size, baseline.first + baseline.shots.size)
        if lo >= hi:
            raise ValueError("no game is in both runs")
        a = self.shots[lo - self.first : hi - self.first].astype(np.float64)
        b = baseline.shots[lo - baseline.first : hi - baseline.first].astype(np.float64)
        d = a - b
        n = d.size
        sd = float(d.std(ddof=1)) if n > 1 else 0.0
        half = _Z95 * sd / math.sqrt(n) if n > 1 else 0.0
        mean = float(d.mean())
        return {
            "games": n,
            "mean": float(a.mean()),
            "baseline_mean": float(b.mean()),
            "difference": mean,
            "ci95": [mean - half, mean + half],
            "sd": sd,
            "fewer": int((d < 0).sum()),
            "more": int((d > 0).sum()),
            "equal": int((d == 0).sum()),
        }


def _fleet_cells(params: dict) -> int:
    """Ship cells in the fleet: every game hits each once."""
    g = Game(tuple(params["size"]), params["fleet"], params["rules"], params["sinking"])
    # A solution of the empty board shows every ship cell once.
    rows = g.solve()
    if rows is None:
        raise ValueError(f"the fleet {g.fleet} has no layout on this board")
    return sum(ch != "." for row in rows for ch in row)


def _chunks(first: int, games: int, chunk: int) -> list[Tuple[int, int]]:
    return [(k, min(chunk, first + games - k)) for k in range(first, first + games, chunk)]


def _read_out(path: str, header: dict) -> dict[int, list]:
    """The chunks already in ``path`` (by first game), refusing a file of other arguments."""
    done: dict[int, list] = {}
    if not os.path.exists(path):
        return done
    with open(path) as f:
        lines = [l for l in f.read().split("\n")]
    # A last line cut short by a kill is dropped; every whole line is kept.
    whole = lines[:-1] if lines and lines[-1] else lines
    if not whole or not whole[0].strip():
        return done
    try:
        first = json.loads(whole[0])
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: line 1: not a table file of broadside.simulate: {e}") from e
    if first.get("table") != header["table"]:
        raise ValueError(
            f"{path} holds a table of other arguments ({first.get('table')}), not of "
            f"{header['table']}: give another out= or remove the file"
        )
    for i, line in enumerate(whole[1:], start=2):
        if not line.strip():
            continue
        try:
            part = json.loads(line)
            done[int(part["first"])] = [int(s) for s in part["shots"]]
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
            raise ValueError(f"{path}: line {i}: not a chunk of games: {e}") from e
    return done


def simulate(
    shooter: str,
    games: int,
    seed: int = 0,
    size: Union[Tuple[int, int], int] = (10, 10),
    fleet: Union[Sequence[int], str] = (5, 4, 3, 3, 2),
    rules: str = "touch",
    sinking: str = "announced",
    placer: str = "uniform",
    *,
    first: int = 0,
    client: Any = None,
    executor: Optional[Executor] = None,
    chunk: int = 1000,
    out: Optional[str] = None,
    retries: int = 3,
) -> Run:
    """Plays games ``first + 1`` to ``first + games`` of a seed, as ``broadside simulate``
    does, in chunks of ``chunk`` games: on a Dask ``client``, on an ``executor``, or in this
    process (``client=None``, one thread a core).

    ``out`` keeps the table as it is played: a JSON-lines file whose first line names the
    arguments and each further line one chunk (``{"first": K, "shots": [...]}``), written as
    chunks finish. Run again with the same arguments, the chunks already there are kept and
    only the others are played; a file of other arguments is refused. Returns a :class:`Run`
    (``run.shots[i]`` is game ``first + i + 1``; ``run.summary()``).
    """
    if games < 1 or chunk < 1 or first < 0:
        raise ValueError("games and chunk must be at least 1, first at least 0")
    if client is not None and executor is not None:
        raise ValueError("give a client or an executor, not both")
    if isinstance(size, int):
        size = (size, size)
    params = {
        "shooter": str(shooter),
        "seed": int(seed),
        "size": [int(size[0]), int(size[1])],
        "fleet": fleet if isinstance(fleet, str) else [int(n) for n in fleet],
        "rules": rules,
        "sinking": sinking,
        "placer": placer,
    }
    # Bad arguments fail here, at once, not in a worker.
    _check(params)
    header = {"table": params, "chunk": chunk}
    parts = _chunks(first, games, chunk)
    done = _read_out(out, header) if out else {}
    kept = {k: v for k, v in done.items() if any(k == p[0] and len(v) == p[1] for p in parts)}
    todo = [p for p in parts if p[0] not in kept]
    start = time.perf_counter()
    sink = None
    if out:
        fresh = not os.path.exists(out) or os.path.getsize(out) == 0
        sink = open(out, "a")
        if fresh:
            sink.write(json.dumps(header) + "\n")
            sink.flush()
    results = dict(kept)
    try:
        for k, shots in _run(params, todo, client, executor, retries):
            if len(shots) != dict(todo)[k]:
                raise RuntimeError(f"chunk from game {k + 1} came back with {len(shots)} games")
            results[k] = shots
            if sink:
                sink.write(json.dumps({"first": k, "shots": shots}) + "\n")
                sink.flush()
    finally:
        if sink:
            sink.close()
    # Every game exactly once, in order.
    shots: list = []
    for k, n in parts:
        got = results[k]
        if len(got) != n:
            raise RuntimeError(f"chunk from game {k + 1}: {len(got)} games, not {n}")
        shots.extend(got)
    return Run(
        params=params,
        first=first,
        shots=np.asarray(shots, dtype=np.int64),
        seconds=time.perf_counter() - start,
        chunks_played=len(todo),
        chunks_kept=len(parts) - len(todo),
    )


def _check(params: dict) -> None:
    """Raises ``ValueError`` for arguments no game can be played with (an unknown shooter, a
    fleet that does not fit), by playing no game: the arguments are read as a run reads them."""
    _broadside.simulate_chunk(
        params["shooter"], 0, seed=params["seed"], size=tuple(params["size"]),
        fleet=params["fleet"], rules=params["rules"], sinking=params["sinking"],
        placer=params["placer"], threads=1,
    )


def _run(
    params: dict,
    todo: list[Tuple[int, int]],
    client: Any,
    executor: Optional[Executor],
    retries: int,
) -> Iterable[Tuple[int, list]]:
    """The chunks' shots as they finish, each with its first game."""
    if client is not None:
        from distributed import as_completed as dask_completed

        futures = {}
        for k, n in todo:
            f = client.submit(
                play_chunk, params, k, n, key=f"broadside-simulate-{k}-{n}-{_key(params)}",
                retries=retries, pure=False,
            )
            futures[f] = k
        for f in dask_completed(list(futures)):
            yield futures[f], f.result()
    elif executor is not None:
        futures = {executor.submit(play_chunk, params, k, n): k for k, n in todo}
        for f in as_completed(futures):
            yield futures[f], f.result()
    else:
        for k, n in todo:
            yield k, play_chunk(params, k, n, threads=os.cpu_count())


def _key(params: dict) -> str:
    import hashlib

    return hashlib.sha1(json.dumps(params, sort_keys=True).encode()).hexdigest()[:12]


# -- counts in shards ----------------------------------------------------------------------


def count_part(
    text: str, part: int, parts: int, per_cell: bool = False, upto: Optional[int] = None
) -> tuple:
    """Part ``part`` of ``parts`` of the count (and per-cell counts) of the layouts of problem
    ``text``: those under every ``parts``-th subtree of the enumerator's search. The parts add
    up to the count for any ``parts``; with ``upto``, parts ``part`` to ``upto - 1`` summed, in
    one setup of the search. Runs anywhere (plain values only)."""
    return _broadside.count_part(
        text, part, parts, per_cell=per_cell, threads=_worker_threads(), upto=upto
    )


# The most tasks a sharded count submits: past it, each task counts a run of consecutive
# shards in one setup (a part's setup walks the search's first levels, whatever it keeps).
MOST_TASKS = 1024


def _batches(shards: int, tasks: int) -> list:
    """``shards`` parts as at most ``tasks`` runs ``(first, upto)`` of consecutive parts."""
    tasks = max(1, min(shards, tasks))
    bounds = [shards * t // tasks for t in range(tasks + 1)]
    return list(zip(bounds[:-1], bounds[1:]))


def _shards(
    puzzle: Union[Game, str, "os.PathLike[str]"],
    shards: int,
    per_cell: bool,
    client: Any,
    executor: Optional[Executor],
) -> tuple:
    if shards < 1:
        raise ValueError("shards must be at least 1")
    game = puzzle if isinstance(puzzle, Game) else Game.load(puzzle)
    text = game.to_text()
    if client is not None:
        futures = [
            client.submit(count_part, text, a, shards, per_cell, b, retries=3, pure=False)
            for a, b in _batches(shards, MOST_TASKS)
        ]
        results = client.gather(futures)
    elif executor is not None:
        futures = [
            executor.submit(count_part, text, a, shards, per_cell, b)
            for a, b in _batches(shards, MOST_TASKS)
        ]
        results = [f.result() for f in futures]
    else:
        # In this process the shards are counted together, on every core: one setup.
        results = [_broadside.count_part(text, 0, shards, per_cell=per_cell, upto=shards)]
    total = sum(r[0] for r in results)
    cells = None
    if per_cell:
        cells = [sum(r[1][i] for r in results) for i in range(len(results[0][1]))]
    return total, cells, game


def count(
    puzzle: Union[Game, str, "os.PathLike[str]"],
    limit: Optional[int] = None,
    engine: str = "auto",
    time_limit: Optional[float] = None,
    *,
    client: Any = None,
    executor: Optional[Executor] = None,
    shards: Optional[int] = None,
) -> int:
    """The exact number of layouts of a puzzle or game state (a path or a ``Game``). With
    ``shards`` (or a ``client``/``executor``), counted in ``shards`` parts by the enumerator,
    each the layouts under every ``shards``-th subtree of its search, on the cluster or
    executor when given; the parts add up to the count exactly, for any number of shards.
    At most ``MOST_TASKS`` tasks are submitted, each a run of consecutive shards; in this
    process (no client or executor) the shards are counted together, in one setup."""
    if client is None and executor is None and shards is None:
        return _broadside.count(puzzle, limit=limit, engine=engine, time_limit=time_limit)
    if limit is not None or time_limit is not None or engine != "auto":
        raise ValueError("a sharded count takes no limit, time_limit or engine")
    return _shards(puzzle, shards or 1, False, client, executor)[0]


def counts(
    puzzle: Union[Game, str, "os.PathLike[str]"],
    *,
    client: Any = None,
    executor: Optional[Executor] = None,
    shards: int = 1,
) -> np.ndarray:
    """Per cell, the exact number of layouts with a ship there (as ``Game.counts``), counted in
    ``shards`` parts as :func:`count` does: an object array of Python ints, (rows, cols)."""
    _, cells, game = _shards(puzzle, shards, True, client, executor)
    rows, cols = game.shape
    out = np.empty(rows * cols, dtype=object)
    out[:] = cells
    return out.reshape(rows, cols)
