"""The self-play league: groups of opponents with sampling weights.

Groups: `random`; `heuristics` (the rule-based agents); `search` (mcs at a small
budget); `self` (frozen snapshots of the learner, the most recent `max_snapshots`).
Each opponent seat of each game draws a group by weight (renormalised over the groups
that have members), then a member uniformly. The pool is saved with the run
(`pool.json`) and restored on resume.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from agents.registry import make_agent
from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.strict_json import json_text
from sixnimmt_env.core.untrusted import read_json

FIXED_GROUPS = ("random", "heuristics", "search")
"""Groups whose members are agent specs, fixed when the pool is made."""
GROUPS = (*FIXED_GROUPS, "self")
"""Every group, in sampling order; `self` fills with snapshots during the run."""


class OpponentPool:
    """Opponents by group; `agents` is append-only so indices stay valid."""

    def __init__(self, weights: dict[str, float], members: dict[str, list[str]], players: int,
                 max_snapshots: int = 5, game: str | None = None):
        """`weights` by group (missing groups weigh 0); `members`: agent specs of the fixed
        groups (see agents.registry); `players` seats per game, so players - 1 opponents;
        `game` the game kind they play (built for it alone: a card run's `mcs` does not
        build, and compile, the board's too; None: for every game they play)."""
        self.weights = {g: float(weights.get(g, 0.0)) for g in GROUPS}
        self.players, self.max_snapshots = players, max_snapshots
        self.agents: list = []
        self.names: list[str] = []
        self.group_of: list[str] = []
        self.snapshots: list[str] = []
        for group in FIXED_GROUPS:
            for spec in members.get(group, []):
                self._add(make_agent(spec, game), spec, group)

    @classmethod
    def for_run(cls, cfg) -> "OpponentPool":
        """A new run's pool: `cfg`'s group weights, its heuristics and search agents, `random`."""
        return cls(cfg.pool_weights, {"random": ["random"], "heuristics": list(cfg.pool_heuristics),
                                      "search": list(cfg.pool_search)}, cfg.players, cfg.max_snapshots, cfg.game)

    def _add(self, agent, name: str, group: str) -> None:
        """Append one opponent (its index in `agents` is what `sample` returns)."""
        self.agents.append(agent)
        self.names.append(name)
        self.group_of.append(group)

    def add_snapshot(self, path: str | Path) -> None:
        """Freeze a saved model into the `self` group."""
        from agents.ppo import PPOAgent
        self._add(PPOAgent(str(path)), f"ppo:path={path}", "self")
        self.snapshots.append(str(path))

    def _members(self) -> dict[str, list[int]]:
        """Agent indices by group; `self` keeps only the newest `max_snapshots`."""
        members = {g: [i for i, gr in enumerate(self.group_of) if gr == g] for g in GROUPS}
        members["self"] = members["self"][-self.max_snapshots:]
        return members

    def probabilities(self, weights: dict[str, float] | None = None) -> dict[str, float]:
        """The group weights (default: the pool's), renormalised over non-empty groups."""
        members = self._members()
        live = {g: w for g, w in (weights or self.weights).items() if members[g] and w > 0}
        total = sum(live.values())
        if not total:
            raise ConfigError("the opponent pool's weights give every group with members weight 0")
        return {g: w / total for g, w in live.items()}

    def sample(self, n: int, rng: np.random.Generator, weights: dict[str, float] | None = None) -> np.ndarray:
        """(n, P-1) agent indices: each opponent seat of n games (groups drawn by `weights`,
        default the pool's)."""
        members = self._members()
        probs = self.probabilities(weights)
        groups = list(probs)
        picks = rng.choice(len(groups), size=(n, self.players - 1), p=[probs[g] for g in groups])
        out = np.empty((n, self.players - 1), dtype=np.int64)
        for k, g in enumerate(groups):
            where = picks == k
            out[where] = np.asarray(members[g])[rng.integers(0, len(members[g]), size=int(where.sum()))]
        return out

    def weighted(self, weights: dict[str, float]) -> "WeightedPool":
        """The same opponents (snapshots added later included) drawn by other group weights."""
        return WeightedPool(self, {g: float(weights.get(g, 0.0)) for g in GROUPS})

    def to_dict(self) -> dict:
        """What `load` needs to rebuild the pool (weights, members, snapshot paths), and the
        current group probabilities for the reader (ignored by `load`)."""
        return {"weights": self.weights, "max_snapshots": self.max_snapshots,
                "members": {g: [n for n, gr in zip(self.names, self.group_of) if gr == g]
                            for g in FIXED_GROUPS},
                "snapshots": self.snapshots, "probabilities": self.probabilities()}

    def save(self, path: str | Path) -> None:
        """Write `to_dict` as JSON atomically (a temporary file, then a rename)."""
        tmp = Path(str(path) + ".tmp")
        tmp.write_text(json_text(self.to_dict(), indent=1) + "\n")
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path, players: int, game: str | None = None) -> "OpponentPool":
        """The pool `save` wrote, for `players` seats of `game`; snapshots whose file is gone are skipped."""
        data = read_json(path)
        if not isinstance(data, dict) or not {"weights", "members", "max_snapshots", "snapshots"} <= set(data):
            raise ConfigError(f"{path} is not a saved opponent pool")
        pool = cls(data["weights"], data["members"], players, data["max_snapshots"], game)
        for snap in data["snapshots"]:
            if Path(snap).exists():
                pool.add_snapshot(snap)
        return pool


class WeightedPool:
    """A view of an `OpponentPool` with its own group weights: one league, two fields (the
    whole-game part of a run with `game_share` draws from `game_pool_weights`)."""

    def __init__(self, pool: OpponentPool, weights: dict[str, float]):
        self.pool, self.weights = pool, weights
        self.agents = pool.agents  # append-only and shared: indices stay valid

    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """(n, P-1) agent indices of the pool, drawn by this view's weights."""
        return self.pool.sample(n, rng, self.weights)
