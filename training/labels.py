"""Training data from search: positions of real games, each labelled with the value a
search teacher gives every legal action.

`Labeller` sits in the teacher's seats of ordinary duplicate games (`agents.arena`): at
every decision with more than one legal action it asks the teacher (`mcs`, whose card
and row estimates are batched across all entries that hold as many cards) for the mean
rollout result of each action, records what the seat saw (the flat observation of the
chosen layout), the legal actions and those estimates, then plays the teacher's best
action (or, with probability `explore`, a random legal one, so the data also holds the
positions a weaker player reaches). With `guided` as the teacher the estimates are its
search's (each card against its network's own, agents/cards/guided.py
`batched_estimates`) and the choices it does not rate (rows) are its own play. Once the games are over each record also gets the
seat's bullheads from that decision to the end of its round (`ret`: the value target
of round episodes, and the leaf value of the guided search) and of the game (`ret_game`).

The estimates are noisy (a few hundred rollouts each), but a network fitted to millions
of them by least squares learns their expectation: the teacher with unlimited rollouts.
`label_unit` is one unit of work: one table size, one seating, one file.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from agents.arena import build_agents, play_duplicate
from agents.cards.guided import GuidedSearchAgent
from agents.cards.search import MonteCarloAgent
from sixnimmt_env.core.errors import ConfigError, writing
from sixnimmt_env.core.game import make_game
from sixnimmt_env.core.rng import game_seeds

LABEL_FIELDS = ("obs", "mask", "q", "ret", "ret_game", "players")


@dataclass
class LabelBatch:
    """Records of one or more label files: obs (N, D) float16, mask (N, A) bool, q (N, A)
    float32 (the teacher's mean result of each labelled action, lower is better; NaN for
    actions it did not rate), ret (N,) float32 (own bullheads from the decision to the
    round's end), ret_game (N,) float32 (to the game's end), players (N,) int8 (the table
    size)."""

    obs: NDArray[np.float16]
    mask: NDArray[np.bool_]
    q: NDArray[np.float32]
    ret: NDArray[np.float32]
    ret_game: NDArray[np.float32]
    players: NDArray[np.int8]

    def __len__(self) -> int:
        return len(self.ret)

    def save(self, path: Path) -> None:
        """Write atomically (a temporary file, then a rename): a killed run leaves whole files."""
        tmp = path.with_name(path.name + ".tmp.npz")
        with writing(path):
            np.savez(tmp, **{k: getattr(self, k) for k in LABEL_FIELDS})
            tmp.replace(path)

    @classmethod
    def empty(cls, game, observation: str) -> "LabelBatch":
        """No records (a unit whose teacher had no choice to make), shaped for `game`."""
        A, D = game.info.n_actions, game.layout(observation).size
        return cls(np.zeros((0, D), np.float16), np.zeros((0, A), bool), np.zeros((0, A), np.float32),
                   np.zeros(0, np.float32), np.zeros(0, np.float32), np.zeros(0, np.int8))

    @classmethod
    def load(cls, paths) -> "LabelBatch":
        """The records of every file in `paths`, in order, each field filled in place into one
        array (not a list of parts concatenated: a few million board records of float16
        observations are several GB, and a concatenation would hold them twice)."""
        paths = list(paths)
        if not paths:
            raise ConfigError("no label files to load")
        offsets = [0]
        for p in paths:  # first pass: the records of each file (its small `ret` field)
            with _label_file(p) as z:
                offsets.append(offsets[-1] + len(z["ret"]))
        out = {}
        for p, lo, hi in zip(paths, offsets, offsets[1:]):
            with _label_file(p) as z:
                for k in LABEL_FIELDS:
                    part = z[k]  # (each z[k] reads and decompresses the field anew: read once)
                    if k not in out:  # each field's row shape and type: the first file's
                        out[k] = np.empty((offsets[-1], *part.shape[1:]), part.dtype)
                    if part.shape[1:] != out[k].shape[1:] or len(part) != hi - lo:
                        raise ConfigError(f"{p} is not a label file of this run ({k} shaped {part.shape})")
                    out[k][lo:hi] = part
        return cls(**out)


@contextmanager
def _label_file(path):
    """An open label file (np.load without pickles); a ConfigError naming it when it is not one."""
    try:
        with np.load(path) as z:
            missing = [k for k in LABEL_FIELDS if k not in z.files]
            if missing:
                raise KeyError(", ".join(missing))
            yield z
    except (OSError, KeyError, ValueError) as e:
        raise ConfigError(f"{path} is not a label file ({e})") from None


class Labeller:
    """The teacher's seats: act as the teacher and record every rated decision
    (`MonteCarloAgent.batched_estimates`: every entry with a choice)."""

    def __init__(self, teacher: MonteCarloAgent, observation: str, explore: float, name: str = "teacher"):
        self.teacher, self.observation, self.explore, self.name = teacher, observation, explore, name
        self.records: list[tuple] = []  # (obs, mask, q, games, seats, rounds, total so far)
        self.round_ends = RoundEnds()
        self.observers = [self.round_ends]  # what the unit's games report to (label_unit)

    def act(self, view, rng: np.random.Generator) -> NDArray[np.int64]:
        actions = view.random_legal_actions(rng)
        mask = view.action_mask()
        estimates = self.teacher.batched_estimates(view, rng)
        own = mask.sum(axis=1) > 1  # a choice the teacher does not rate (guided's rows): its own play
        own[list(estimates)] = False
        if own.any():
            actions[own] = self.teacher.act(view.subset(np.flatnonzero(own)), rng)
        if estimates:
            q = np.full(mask.shape, np.nan, dtype=np.float32)
            for e, (candidates, means) in estimates.items():
                q[e, candidates] = means
            rated = np.zeros(view.n, dtype=bool)
            rated[list(estimates)] = True
            best = np.argmin(np.where(np.isnan(q[rated]), np.inf, q[rated]), axis=1)
            keep = rng.random(len(best)) >= self.explore
            actions[np.flatnonzero(rated)[keep]] = best[keep]
            layout = make_game("cards", view.config).layout(self.observation)
            obs = layout.encode(view)[rated]
            self.records.append((obs.astype(np.float16), mask[rated], q[rated], view.games[rated],
                                 view.seats[rated], view.round[rated], view.scores[rated, 0]))
        return actions

    def batch(self, totals: NDArray, game) -> LabelBatch:
        """The records of `game` (a Game) with their value targets, from the games' (P, B)
        final totals and the totals at each round's end (`round_ends`, observed)."""
        if not self.records:
            return LabelBatch.empty(game, self.observation)
        obs, mask, q, games, seats, rounds, so_far = (np.concatenate(parts) for parts in zip(*self.records))
        at_round_end = np.array([self.round_ends.totals[(g, r)][s] for g, r, s in zip(games, rounds, seats)])
        return LabelBatch(obs, mask, q, (at_round_end - so_far).astype(np.float32),
                          (totals[seats, games] - so_far).astype(np.float32), np.full(len(q), game.info.players, np.int8))


class RoundEnds:
    """An arena observer: every game's (P,) totals at the end of each of its rounds."""

    def __init__(self):
        self.totals: dict[tuple[int, int], NDArray] = {}

    def observe(self, before, actions, after, events) -> None:
        ended = (after.round != before.round) | (after.game_over() & ~before.game_over())
        if ended.any():
            totals = after.total()
            for g in np.flatnonzero(ended):
                self.totals[(int(g), int(before.round[g]))] = totals[:, g].copy()


def seating(players: int, field: tuple[str, ...], field_seats: int, rng: np.random.Generator) -> list[str]:
    """The agent at each table position: the teacher, with `field_seats` of them drawn from `field`."""
    names = ["teacher"] * players
    for pos in rng.choice(players, size=min(field_seats, players - 1), replace=False):
        names[int(pos)] = str(rng.choice(list(field)))
    return names


def label_unit(index: int, players: int, deals: int, teacher: str, field: tuple[str, ...], field_seats: int,
               explore: float, observation: str, rules: dict, seed: int, kind: str = "cards",
               labeller=Labeller, searcher=(MonteCarloAgent, GuidedSearchAgent)) -> tuple[int, LabelBatch, float, str]:
    """Label unit `index`: `deals` duplicate deals at a table of `players` of the game
    `kind` under its rule options `rules` (make_game's keywords less players), the teacher
    (a `searcher`, recorded by a `labeller`) in every seat but `field_seats` drawn from
    `field`. Its games and random draws depend only on (seed, index), so a unit is the
    same on any process or node. Returns (index, its LabelBatch, seconds, the node it
    ran on); the caller writes the file (the driver's disk, whichever node labelled it)."""
    import time

    from agents.registry import make_agent
    t0 = time.perf_counter()
    rng = np.random.default_rng([seed, index])
    game = make_game(kind, players=players, **rules)
    teacher_agent = make_agent(teacher, kind)
    if not isinstance(teacher_agent, searcher):
        raise ConfigError(f"the teacher must be a search that rates actions (mcs, guided), got {teacher!r}")
    recorder = labeller(teacher_agent, observation, explore)
    names = seating(players, field, field_seats, rng)
    _, agents = build_agents([n for n in names if n != "teacher"], kind)
    agents["teacher"] = recorder
    rows, *_ = play_duplicate(names, agents, game, game_seeds(seed, deals, start=index * deals), rng,
                              observers=recorder.observers)
    totals = np.array([r["totals"] for r in rows]).T  # (P, B), games in batch order
    return index, recorder.batch(totals, game), time.perf_counter() - t0, node_name()


def node_name() -> str:
    """The machine this process runs on: in a Ray worker its node (host and node id: the
    nodes of a cluster on one machine share the host), else the host."""
    import socket
    import sys
    ray = sys.modules.get("ray")  # a Ray worker has it imported; nothing here imports it
    if ray is not None and ray.is_initialized():
        return f"{socket.gethostname()}/{ray.get_runtime_context().get_node_id()[:8]}"
    return socket.gethostname()
