"""A two-player PettingZoo environment for Battleship: each side places its fleet, then the
two fire in turn until one has sunk the other's.

``battleship_v0.env(...)`` is the usual wrapped AEC environment, ``battleship_v0.raw_env`` the
bare one. Agents are ``"player_0"`` (who moves first) and ``"player_1"``.

**Placement** (``placement=True``, the default): the players place one ship each per turn,
largest first, until both fleets are down. Action ``a`` puts the ship's first cell at cell
``a % (H*W)`` (reading order), lying right from there when ``a < H*W`` and down when not; the
action mask holds exactly the placements after which the rest of the fleet still fits under
the rules (the engine decides it: a placement that boxes in a later ship is masked). With
``placement=False`` both fleets are hidden by ``placer`` (``"uniform"``: exactly uniform over
legal layouts) and the game starts with the shots.

**Shots**: action ``a < H*W`` fires at cell ``a``; the mask holds the cells not fired at.
Sinkings are reported as ``sinking`` says.

**Observations** are ``{"observation", "action_mask"}``; ``observation`` is an ``int8`` array
``(2, H, W)``: plane 0 what the agent knows of the enemy board (0 not fired at, 1 water, 2 hit,
3 part of a ship reported sunk, as ``Game.grid``), plane 1 its own board (0 water, 1 its ship,
plus 2 where the enemy has fired). ``info["shots"]`` lists the agent's shots as a game record
writes them; ``env.unwrapped.knowledge(agent)`` is what the agent knows of the enemy board as a
``broadside.Game`` (exact probabilities, best cell, ...).

**Rewards** come at the end: +1 to the player who sinks the last enemy ship, -1 to the other.

>>> from broadside.pettingzoo import battleship_v0
>>> env = battleship_v0.env(size=(5, 5), fleet=[3, 2])
>>> env.reset(seed=1)
"""

from types import SimpleNamespace
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector, wrappers

from ._broadside import Board, Game

__all__ = ["battleship_v0", "env", "raw_env"]

_SEGMENTS = {"h": ("<", "m", ">"), "v": ("^", "m", "v")}


def _lengths(fleet: Union[Sequence[int], str]) -> list[int]:
    """The ship lengths of a fleet given as lengths or as the fleet text (``"5 4 3x2"``,
    ``"2x3"`` meaning two ships of 3)."""
    if not isinstance(fleet, str):
        return sorted((int(n) for n in fleet), reverse=True)
    out: list[int] = []
    for token in fleet.replace(",", " ").split():
        count, _, length = token.partition("x")
        if not length:
            out.append(int(count))
        else:
            out.extend([int(length)] * int(count))
    return sorted(out, reverse=True)


class raw_env(AECEnv):
    """Two fleets on two boards of the same size; see the module documentation.

    Args:
        size: ``(rows, cols)`` or one number for a square.
        fleet: ship lengths (straight ships), or the fleet text.
        rules: ``"touch"`` or ``"no-touch"``, for both placement and the shooters' knowledge.
        sinking: ``"none"``, ``"announced"`` or ``"revealed"``.
        placement: whether the players place their ships (else ``placer`` hides them).
        placer: the placer of both fleets when ``placement`` is false.
        render_mode: ``"ansi"`` or ``None``.
    """

    metadata = {
        "render_modes": ["ansi"],
        "name": "battleship_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        size: Union[Tuple[int, int], int] = (10, 10),
        fleet: Union[Sequence[int], str] = (5, 4, 3, 3, 2),
        rules: str = "touch",
        sinking: str = "announced",
        placement: bool = True,
        placer: str = "uniform",
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self._lengths = _lengths(fleet)
        fleet_text = " ".join(str(n) for n in self._lengths)
        # The knowledge of an empty enemy board checks the size, fleet and rules at once.
        self._blank = Game(size, fleet_text, rules, sinking)
        self._rows, self._cols = self._blank.shape
        self._cells = self._rows * self._cols
        self._fleet, self._rules, self._sinking = fleet_text, rules, sinking
        self._placement, self._placer = placement, placer
        self.possible_agents = ["player_0", "player_1"]
        n = 2 * self._cells if placement else self._cells
        self._action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        0, 3, shape=(2, self._rows, self._cols), dtype=np.int8
                    ),
                    "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    # -- placement ---------------------------------------------------------------------------

    def _ship_cells(self, action: int, length: int) -> Optional[list[int]]:
        """The cells of a ship of ``length`` placed by ``action``; ``None`` off the board."""
        cell, down = action % self._cells, action >= self._cells
        r, c = divmod(cell, self._cols)
        if down:
            if r + length > self._rows:
                return None
            return [(r + k) * self._cols + c for k in range(length)]
        if c + length > self._cols:
            return None
        return [r * self._cols + c + k for k in range(length)]

    def _picture(self, ships: list[list[int]]) -> list[str]:
        """The layout picture of straight ships (their cells in order)."""
        grid = [["."] * self._cols for _ in range(self._rows)]
        for cells in ships:
            if len(cells) == 1:
                symbols = ["o"]
            else:
                ends = _SEGMENTS["v" if cells[1] - cells[0] == self._cols else "h"]
                symbols = [ends[0]] + [ends[1]] * (len(cells) - 2) + [ends[2]]
            for cell, s in zip(cells, symbols):
                grid[cell // self._cols][cell % self._cols] = s
        return ["".join(row) for row in grid]

    def _fits(self, ships: list[list[int]]) -> bool:
        """Whether the whole fleet has a layout under the rules with ``ships`` where they are."""
        text = (
            f"size: {self._cols}x{self._rows}\nfleet: {self._fleet}\nrules: {self._rules}\n"
            "grid:\n" + "\n".join(self._picture(ships)) + "\n"
        )
        try:
            return Game.parse(text).count(limit=1) > 0
        except ValueError:
            # Clues that contradict each other outright (ships side by side as one line).
            return False

    def _placement_mask(self, agent: str) -> np.ndarray:
        key = (agent, tuple(tuple(s) for s in self._placed[agent]))
        if key in self._mask_cache:
            return self._mask_cache[key]
        placed = self._placed[agent]
        taken = {c for s in placed for c in s}
        length = self._lengths[len(placed)]
        mask = np.zeros(2 * self._cells, dtype=np.int8)
        for a in range(2 * self._cells):
            cells = self._ship_cells(a, length)
            if cells is None or taken.intersection(cells):
                continue
            if length == 1 and a >= self._cells:
                continue  # a one-cell ship has one placement per cell: the first
            if self._fits(placed + [cells]):
                mask[a] = 1
        self._mask_cache[key] = mask
        return mask

    # -- the AEC interface -------------------------------------------------------------------

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        rng = np.random.default_rng(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._placed: dict[str, list[list[int]]] = {a: [] for a in self.agents}
        self._mask_cache: dict = {}
        self._boards = {
            a: Board(
                (self._rows, self._cols),
                self._fleet,
                self._rules,
                self._sinking,
                # With placement the players' own layouts replace the placed one.
                "sequential" if self._placement else self._placer,
                seed=int(rng.integers(0, 2**63)),
            )
            for a in self.agents
        }
        # What each player knows of the other's board.
        self._knowledge = {a: self._blank.copy() for a in self.agents}
        self._fired_at = {a: np.zeros(self._cells, dtype=np.int8) for a in self.agents}
        self._phase = "place" if self._placement else "fire"
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._selector.reset()
        self.infos = {a: self._info(a) for a in self.agents}

    def _enemy(self, agent: str) -> str:
        return self.possible_agents[1 - self.possible_agents.index(agent)]

    def _info(self, agent: str) -> dict[str, Any]:
        return {"phase": self._phase, "shots": self._knowledge[agent].shots}

    def knowledge(self, agent: str) -> Game:
        """What ``agent`` knows of the enemy board: a copy of its shots as a ``broadside.Game``."""
        return self._knowledge[agent].copy()

    def _mask(self, agent: str) -> np.ndarray:
        if self._phase == "place":
            return self._placement_mask(agent)
        mask = np.zeros(self.action_space(agent).n, dtype=np.int8)
        mask[: self._cells] = self._knowledge[agent].grid().reshape(-1) == 0
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        mine = np.zeros(self._cells, dtype=np.int8)
        if self._phase == "place":
            for s in self._placed[agent]:
                mine[s] = 1
        else:
            mine[:] = self._boards[agent].ships().reshape(-1)
        mine += 2 * self._fired_at[self._enemy(agent)]
        obs = np.stack(
            [
                self._knowledge[agent].grid().astype(np.int8),
                mine.reshape(self._rows, self._cols),
            ]
        )
        mask = self._mask(agent) if agent == self.agent_selection else np.zeros(
            self.action_space(agent).n, dtype=np.int8
        )
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = int(action)
        if not self._mask(agent)[action]:
            raise ValueError(f"{agent}: action {action} is not legal now (see the action mask)")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if self._phase == "place":
            length = self._lengths[len(self._placed[agent])]
            self._placed[agent].append(self._ship_cells(action, length))
            if all(len(self._placed[a]) == len(self._lengths) for a in self.agents):
                for a in self.agents:
                    self._boards[a].hide(self._picture(self._placed[a]))
                self._phase = "fire"
        else:
            enemy = self._enemy(agent)
            result = self._boards[enemy].fire(action)
            self._fired_at[agent][action] = 1
            self._knowledge[agent].record(result)
            if self._boards[enemy].over:
                self.rewards = {agent: 1.0, enemy: -1.0}
                self.terminations = {a: True for a in self.agents}
        self.agent_selection = self._selector.next()
        self.infos = {a: self._info(a) for a in self.agents}
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> Optional[str]:
        if self.render_mode != "ansi":
            return None
        out = []
        for a in self.possible_agents:
            grid = self._knowledge[a].grid()
            out.append(f"{a} has fired at:")
            out.extend("".join(".~x#"[v] for v in row) for row in grid)
        return "\n".join(out) + "\n"

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers (an illegal action raises, order of
    calls enforced)."""
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


battleship_v0 = SimpleNamespace(env=env, raw_env=raw_env)
"""The environment under its versioned name, as PettingZoo's own environments are found."""
