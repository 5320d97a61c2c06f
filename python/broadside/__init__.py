"""broadside: exact Battleship for Python.

The exact number of layouts consistent with a game's shots, the exact chance of a ship on
every cell, exactly uniform random boards, and the solitaire puzzles (solve, count), from the
broadside engine in Rust. ``broadside.simulate`` plays self-play tables and ``broadside.count``
counts, in this process or spread over a Dask cluster (``broadside.cluster``).
``broadside.gym`` holds a Gymnasium environment, ``broadside.pettingzoo`` a two-player one.

>>> import broadside
>>> g = broadside.Game(size=(5, 5), fleet=[3, 2], rules="no-touch")
>>> g.count()
524
>>> g.shoot("C3", "hit")
>>> g.count()
100
"""

from ._broadside import Board, Game, Shooter, __version__, sample, shooters, solve
from .cluster import Run, count, counts, simulate

__all__ = ["Board", "Game", "Run", "Shooter", "__version__", "count", "counts", "sample", "shooters", "simulate", "solve"]
