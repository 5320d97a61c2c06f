"""broadside: exact Battleship for Python.

The exact number of layouts consistent with a game's shots, the exact chance of a ship on
every cell, exactly uniform random boards, and the solitaire puzzles (solve, count), from the
broadside engine in Rust. ``broadside.gym`` holds a Gymnasium environment.

>>> import broadside
>>> g = broadside.Game(size=(5, 5), fleet=[3, 2], rules="no-touch")
>>> g.count()
524
>>> g.shoot("C3", "hit")
>>> g.count()
100
"""

from ._broadside import Board, Game, __version__, count, sample, solve

__all__ = ["Board", "Game", "__version__", "count", "sample", "solve"]
