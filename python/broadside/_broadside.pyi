"""Type stubs of the extension module; ``broadside`` re-exports everything here."""

import os
from typing import Any, Literal, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

Size = Union[Tuple[int, int], int, str]
"""``(rows, cols)``, one number for a square board, or the command line's ``"WxH"``."""
FleetSpec = Union[Sequence[int], str]
"""Ship lengths (``[5, 4, 3, 3, 2]``) or the command line's fleet text (``"1x4 2x3"``)."""
Cell = Union[str, Tuple[int, int], int]
"""A cell's name (``"B5"``: column letter, row number), ``(row, col)`` from 0, or its index
in reading order (``row * cols + col``)."""
Engine = Literal["auto", "enum", "sat", "dp"]
PathLike = Union[str, "os.PathLike[str]"]
Progress = Union[str, Sequence[str], npt.ArrayLike]
"""A person's marks: the text format's symbols (``.`` open, ``~`` water, ``*`` a ship cell),
as one string or a row a string, or a (rows, cols) integer array (0 open, 1 water, 2 ship)."""

class Game:
    """What one side knows of a board: its size, fleet, rules, how sinkings are reported, and
    the shots so far. Also any problem file the command line reads, puzzles included.

    Answers are exact and kept until the state changes. Errors the command line reports as
    bad input raise ``ValueError`` with the command line's message.
    """

    def __init__(
        self,
        size: Optional[Size] = (10, 10),
        fleet: Optional[FleetSpec] = (5, 4, 3, 3, 2),
        rules: Literal["touch", "no-touch"] = "touch",
        sinking: Literal["none", "announced", "revealed"] = "announced",
        rocks: Optional[Sequence[Cell]] = None,
    ) -> None: ...
    @staticmethod
    def load(path: PathLike) -> "Game":
        """The one problem of a file, in any format the command line reads."""
    @staticmethod
    def load_all(path: PathLike) -> list["Game"]:
        """Every problem of a file (a JSON-lines collection, say)."""
    @staticmethod
    def parse(text: str, name: str = "<text>") -> "Game":
        """The one problem of a text; ``name`` (a file name) helps tell formats apart."""
    def shoot(
        self,
        cell: Cell,
        result: Literal["miss", "hit", "sunk", "sonar"],
        ship: Union[int, str, None] = None,
        cells: Optional[Sequence[Cell]] = None,
        distance: Optional[int] = None,
    ) -> None:
        """Records one shot. ``"sunk"`` takes ``ship`` (a length or a type's name) and, when
        sinkings are revealed, the ship's ``cells``; ``"sonar"`` takes ``distance``. A shot
        that is malformed, repeats a cell or leaves an obvious conflict raises ``ValueError``
        and leaves the game as it was."""
    def record(self, lines: str) -> None:
        """Records shots written as a game record writes them, one a line
        (``"B5 miss"``, ``"C5 sunk 3"``): all of them, or on an error none."""
    def undo(self) -> None:
        """Takes back the last shot."""
    @property
    def shots(self) -> list[str]:
        """The shots so far, as a game record writes them."""
    @property
    def shape(self) -> Tuple[int, int]:
        """``(rows, cols)``."""
    @property
    def fleet(self) -> str: ...
    @property
    def rules(self) -> str: ...
    @property
    def sinking(self) -> str: ...
    @property
    def name(self) -> Optional[str]: ...
    def grid(self) -> npt.NDArray[np.int8]:
        """Per cell: 0 not fired at, 1 water, 2 hit, 3 part of a ship reported sunk, 4 rock."""
    def count(
        self,
        engine: Engine = "auto",
        limit: Optional[int] = None,
        time_limit: Optional[float] = None,
    ) -> int:
        """The exact number of consistent layouts (identical ships not told apart). ``limit``
        stops counting there; ``time_limit`` (seconds) raises ``TimeoutError``."""
    def counts(
        self, engine: Engine = "auto", time_limit: Optional[float] = None
    ) -> npt.NDArray[Union[np.uint64, np.object_]]:
        """Per cell, the exact number of layouts with a ship there: uint64, or Python ints
        (dtype object) when a count passes 2**64. Raises ``ValueError`` when no layout fits."""
    def probs(
        self, engine: Engine = "auto", time_limit: Optional[float] = None
    ) -> npt.NDArray[np.float64]:
        """Per cell, the exact probability of a ship there. Raises ``ValueError`` when no
        layout fits, ``TimeoutError`` when ``time_limit`` runs out."""
    def best(
        self, engine: Engine = "auto", time_limit: Optional[float] = None
    ) -> Optional[str]:
        """An open cell of highest probability (the first in reading order among ties), or
        ``None`` when no open cell can hold a ship."""
    def solve(self, engine: Engine = "auto") -> Optional[list[str]]:
        """One consistent layout as rows of the layout picture, or ``None``."""
    @property
    def progress(self) -> npt.NDArray[np.int8]:
        """A person's marks on this puzzle (its file's ``progress:``): 0 open, 1 water, 2 a
        ship cell."""
    def check(
        self,
        progress: Optional[Progress] = None,
        engine: Engine = "auto",
        time_limit: Optional[float] = None,
    ) -> dict[str, Any]:
        """A person's marks judged against the puzzle's solutions: the fields of ``broadside
        check --json`` (``correct``, ``solved``, ``mistakes`` as cell names, ``conflict``,
        ``marked``, ``open``, ``solutions``, ``reasons``). ``None`` checks the puzzle's own
        progress; ``time_limit`` (seconds) raises ``TimeoutError``."""
    def hint(
        self,
        progress: Optional[Progress] = None,
        all: bool = False,
        engine: Engine = "auto",
        time_limit: Optional[float] = None,
    ) -> dict[str, Any]:
        """The next step from a person's marks: the fields of ``broadside hint --json``
        (``solved``, ``mistakes``, ``conflict``, ``step`` with ``rule``, ``tier``, ``search``,
        ``text``, ``ship`` and ``water``). The first mistake (or ``all``) comes before any
        step."""
    def to_text(self) -> str:
        """The state in the text format (a game record ``broadside probs`` reads)."""
    def to_json(self) -> str:
        """The state in the JSON format."""
    def save(self, path: PathLike) -> None:
        """Writes the state: JSON when ``path`` ends in ``.json``, else text; whole, through a
        temporary file renamed over ``path``, so an old file is replaced whole or left as it
        was. A file that cannot be written (a missing folder, a full disk, a folder or a
        device in the way) raises ``OSError`` naming it."""
    def copy(self) -> "Game": ...
    def __copy__(self) -> "Game": ...
    def __deepcopy__(self, memo: object) -> "Game": ...

class Board:
    """A hidden layout to fire at, placed by one of broadside's placers (``"uniform"``,
    ``"sequential"``, ``"ed1"``, ``"pk"``, ``"adversarial:density"``, ``"file:PATH"``, ...)."""

    def __init__(
        self,
        size: Optional[Size] = (10, 10),
        fleet: Optional[FleetSpec] = (5, 4, 3, 3, 2),
        rules: Literal["touch", "no-touch"] = "touch",
        sinking: Literal["none", "announced", "revealed"] = "announced",
        placer: str = "uniform",
        seed: Optional[int] = None,
    ) -> None: ...
    def reset(self, seed: Optional[int] = None) -> None:
        """Hides a new layout and clears the shots."""
    def hide(self, layout: Sequence[str]) -> None:
        """Hides ``layout`` (rows of the layout picture) instead of a placed one and clears
        the shots; ``ValueError`` when it does not fit the fleet or the rules."""
    def fire(self, cell: Cell) -> str:
        """Fires at ``cell``: ``"B5 miss"``, ``"B5 hit"``, ``"B5 sunk 3"``, ..."""
    @property
    def over(self) -> bool: ...
    @property
    def shots(self) -> int: ...
    def ships(self) -> npt.NDArray[np.bool_]:
        """The hidden ships."""
    def view(self) -> Game:
        """What the shooter knows."""

class Shooter:
    """One of broadside's shooters by its word (``"strongest"``, ``"pilot:800"``,
    ``"greedy"``, ...; ``shooters()`` lists them), asked for one shot at a time."""

    def __init__(
        self, word: str = "strongest", seed: int = 0, time_limit: Optional[float] = None
    ) -> None: ...
    def choose(self, game: Game) -> int:
        """The cell it fires at next after ``game``'s shots, as ``row * cols + col`` (the
        Gymnasium action); shots that do not go on from the last call's start a new game."""
    @property
    def word(self) -> str: ...

def sample(game: Game, n: int, seed: Optional[int] = None) -> npt.NDArray[np.bool_]:
    """``n`` exactly uniform consistent boards, shape ``(n, rows, cols)``."""

def solve(
    puzzle: Union[Game, PathLike], engine: Engine = "auto"
) -> Optional[list[str]]:
    """A solution of a puzzle as rows of the layout picture, or ``None``."""

def count(
    puzzle: Union[Game, PathLike],
    limit: Optional[int] = None,
    engine: Engine = "auto",
    time_limit: Optional[float] = None,
) -> int:
    """The exact number of solutions of a puzzle."""

def simulate_chunk(
    shooter: str,
    games: int,
    first: int = 0,
    seed: int = 0,
    size: Optional[Size] = None,
    fleet: Optional[FleetSpec] = None,
    rules: Literal["touch", "no-touch"] = "touch",
    sinking: Literal["none", "announced", "revealed"] = "announced",
    placer: str = "uniform",
    threads: Optional[int] = None,
) -> npt.NDArray[np.uint32]:
    """The shots of games ``first + 1`` to ``first + games`` of a simulation, as
    ``broadside simulate`` plays them (none for ``games=0``: the arguments checked)."""

def count_part(
    text: str,
    part: int,
    parts: int,
    per_cell: bool = False,
    threads: Optional[int] = None,
    upto: Optional[int] = None,
) -> Tuple[int, Optional[list[int]]]:
    """Part ``part`` of ``parts`` of the count (and per-cell counts) of the layouts of problem
    ``text``: those under every ``parts``-th subtree of the enumerator's search. The parts add
    up to the count for any ``parts``. With ``upto``, parts ``part`` to ``upto - 1`` summed,
    in one setup."""

def word_of(kind: Literal["shooter", "placer"], word: str) -> str:
    """A shooter's or placer's word as the command line writes it back."""

def shooters() -> dict[str, Any]:
    """The shooters and placers as ``broadside shooters --json`` prints them: ``shooters``
    and ``placers``, each with its ``entries`` (``name``, ``summary``, ``source``, ``cost``
    and ``params`` with their values, default and meaning) and ``presets``. Any entry's name,
    then its parameters by name or position (``pilot:layouts=3200,candidates=8``), or a
    preset's name, is a word ``simulate`` and ``Game`` take."""
