"""Labels from the board game's search: `imitate` with `game = "board"`.

`BoardLabeller` sits in the teacher's seats of duplicate board games (`agents.arena`):
at every decision with more than one legal action — a tile to put out (either pick of a
play-two turn), a yes/no question ("2x", "+5"), the luck card to take, and on the pro
side the action card to play (or none) and the free row a moved tile goes to — it asks
the board `mcs` (`BoardMonteCarloAgent.estimates`, every entry of the view in one
engine batch) for the mean rollout result of each candidate, records what the seat saw
(the board's flat observation), the legal actions and the estimates, then plays the
best one (or, with probability `explore`, a random legal one).

**The sign.** The board game scores points and the most points win (GameInfo.utility
+1); the search's means are the seat's own points (higher is better). LabelBatch holds
costs, lower is better, as the card game's bullheads are: a board record's `q` is minus
the search's mean, and its `ret`/`ret_game` minus the points the seat won from the
decision to the game's end (the board game has no rounds: both are that). So the fit of
training/imitate.py is the same for both games: the logits learn -q / tau (the network's
argmax is the search's best, the most points), the value -ret (the points still to win:
the return of PPO's `points` reward with gamma 1).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from agents.board.search import BoardMonteCarloAgent
from sixnimmt_env.board.actions import PASS_ACTION
from sixnimmt_env.core.game import make_game

from .labels import LabelBatch

BOARD_IMITATION_DEFAULTS = {
    "variant": "basic", "policy": "mlp", "observation": "basic", "teacher": "mcs:rollouts=32",
    "field": ["random", "board-greedy", "board-safe", "board-green"], "tau": 1.0}
"""An imitation run's defaults where the board game's differ from the card game's (the
mcs default budget: 32 rollouts of 3 turns per candidate)."""


def fitted_meta(cfg, train_meta: dict, fit: dict) -> dict:
    """The model.json of an imitation run's fitted network: what the training config of
    that network would record (`train_meta`: training.train.model_meta) of the rules,
    the sizes labelled, the teacher and the fit's figures."""
    keep = ("game", "variant", "deck", "row_choice", "observation")
    if cfg.game == "board":
        keep = ("game", "variant", "observation", "next_row", "layout", "plus5_cards", "double_cards", "action_cards")
    meta = {key: value for key, value in train_meta.items() if key in keep}
    value = "points to the game's end" if cfg.game == "board" else "bullheads to the round's end"
    meta.update({"players": sorted(set(cfg.players)), "trained": "imitation", "teacher": cfg.teacher,
                 "value": value, "fit": fit})
    return meta


class BoardLabeller:
    """The teacher's seats of board games: act as the board mcs, record every decision
    with a choice (see the module doc for what is recorded, and its sign)."""

    def __init__(self, teacher: BoardMonteCarloAgent, observation: str, explore: float, name: str = "teacher"):
        self.teacher, self.observation, self.explore, self.name = teacher, observation, explore, name
        self.records: list[tuple] = []  # (obs, mask, q, games, seats, points so far)
        self.observers: list = []  # one round: the final totals are all batch() needs

    def act(self, view, rng: np.random.Generator) -> NDArray[np.int64]:
        actions = np.full(view.n, PASS_ACTION, dtype=np.int64)
        mask = view.action_mask()
        estimates = self.teacher.estimates(view, rng)
        q = np.full(mask.shape, np.nan, dtype=np.float32)
        for e, (candidates, means) in estimates.items():
            legal = mask[e, candidates]  # (a luck card's candidates include an empty stack's)
            q[e, candidates[legal]] = -np.asarray(means)[legal]  # a cost: minus the points expected
            actions[e] = candidates[legal][0] if legal.any() else actions[e]
        rated = (~np.isnan(q)).sum(axis=1) > 1
        if rated.any():
            best = np.nanargmin(q[rated], axis=1)
            keep = rng.random(len(best)) >= self.explore
            where = np.flatnonzero(rated)
            actions[where] = best
            explored = where[~keep]
            actions[explored] = view.random_legal_actions(rng)[explored]
            obs = make_game("board", view.config).layout(self.observation).encode(view)[rated]
            self.records.append((obs.astype(np.float16), mask[rated], q[rated], view.games[rated],
                                 view.seats[rated], view.scores[rated, 0]))
        return actions

    def batch(self, totals: NDArray, game) -> LabelBatch:
        """The records with their value targets, from the games' (P, B) final totals."""
        if not self.records:
            return LabelBatch.empty(game, self.observation)
        obs, mask, q, games, seats, so_far = (np.concatenate(parts) for parts in zip(*self.records))
        cost = -(totals[seats, games] - so_far).astype(np.float32)  # minus the points still won
        return LabelBatch(obs, mask, q, cost, cost.copy(), np.full(len(q), game.info.players, np.int8))
