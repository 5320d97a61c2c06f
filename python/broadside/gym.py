"""A Gymnasium environment for Battleship, with the exact posterior in ``info``.

``BattleshipEnv`` hides a fleet with one of broadside's placers; each step fires at one
cell. The observation is the shot grid (``Game.grid``: 0 not fired at, 1 water, 2 hit,
3 part of a ship reported sunk), the reward is -1 per shot (so an episode's return is minus
the shots it took), and the episode ends when every ship is sunk. ``info["probs"]`` is the
exact probability of a ship on each cell given the shots so far, ``info["action_mask"]``
the cells not fired at (also ``env.action_masks()``, as sb3-contrib's ``MaskablePPO`` asks
for it). Importing this module registers ``broadside/Battleship-v0``.

>>> import gymnasium, broadside.gym
>>> env = gymnasium.make("broadside/Battleship-v0", size=(5, 5), fleet=[3, 2])
>>> obs, info = env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.step(broadside.gym.greedy(info))
"""

from typing import Any, Optional, Sequence, Tuple, Union

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ._broadside import Board, Game

__all__ = ["BattleshipEnv", "greedy"]


class BattleshipEnv(gym.Env):
    """One side's fleet hidden on a board; the agent fires until every ship is sunk.

    Args:
        size: ``(rows, cols)``, one number for a square, or ``"WxH"``.
        fleet: ship lengths, or a fleet text such as ``"5 4 3 3 2"``.
        rules: ``"touch"`` or ``"no-touch"``.
        sinking: ``"none"``, ``"announced"`` or ``"revealed"``.
        placer: how the fleet is hidden (``"uniform"``, ``"sequential"``, ``"ed1"``, ...).
        probs: whether ``info`` carries the exact posterior (it costs an exact count per
            step: milliseconds on small boards, up to about a second early in a 10x10 game).
        max_steps: steps before the episode is truncated (default: twice the cells; a
            repeated cell wastes a step).
        render_mode: ``"ansi"`` or ``None``.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        size: Union[Tuple[int, int], int, str] = (10, 10),
        fleet: Union[Sequence[int], str] = (5, 4, 3, 3, 2),
        rules: str = "touch",
        sinking: str = "announced",
        placer: str = "uniform",
        probs: bool = True,
        max_steps: Optional[int] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        fleet = fleet if isinstance(fleet, str) else list(fleet)
        self._board = Board(size, fleet, rules, sinking, placer, seed=0)
        self._game = self._board.view()
        rows, cols = self._game.shape
        self._with_probs = probs
        self._max_steps = max_steps if max_steps is not None else 2 * rows * cols
        self._steps = 0
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(rows * cols)
        self.observation_space = spaces.Box(0, 4, shape=(rows, cols), dtype=np.int8)

    @property
    def game(self) -> Game:
        """What the agent knows: a copy of the shots so far as a ``broadside.Game``."""
        return self._game.copy()

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as a boolean vector over the cells: those not fired at (the
        method sb3-contrib's ``MaskablePPO`` looks for)."""
        return (self._game.grid() == 0).reshape(-1)

    def _info(self, result: Optional[str] = None) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": self.action_masks().astype(np.int8),
            "shots": self._board.shots,
        }
        if result is not None:
            info["result"] = result
        if self._with_probs:
            info["probs"] = self._game.probs()
        return info

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> Tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._board.reset(int(self.np_random.integers(0, 2**63)))
        self._game = self._board.view()
        self._steps = 0
        return self._game.grid(), self._info()

    def step(self, action: int) -> Tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if not self.action_space.contains(action):
            raise ValueError(f"action {action!r} is not a cell index below {self.action_space.n}")
        fired_before = self._board.shots
        result = self._board.fire(int(action))
        if self._board.shots > fired_before:
            self._game.record(result)
        self._steps += 1
        terminated = self._board.over
        truncated = not terminated and self._steps >= self._max_steps
        return self._game.grid(), -1.0, terminated, truncated, self._info(result)

    def render(self) -> Optional[str]:
        if self.render_mode != "ansi":
            return None
        marks = ".~x#R"
        rows = ["".join(marks[v] for v in row) for row in self._game.grid()]
        return "\n".join(rows) + "\n"


def greedy(info: dict[str, Any], rng: Optional[np.random.Generator] = None) -> int:
    """The exact greedy agent: a cell not fired at of highest probability of a ship (ties
    broken at random with ``rng``, or the first when none is given)."""
    probs = np.where(info["action_mask"].astype(bool), info["probs"].reshape(-1), -1.0)
    top = np.flatnonzero(probs == probs.max())
    return int(top[0] if rng is None else rng.choice(top))


gym.register(id="broadside/Battleship-v0", entry_point=BattleshipEnv)
