"""`guided` for the board game: the board `mcs` with a trained network in place of random play.

The candidates, the determinized worlds and the common random numbers are `mcs`'s
(`BoardMonteCarloAgent.candidate_worlds`: the tiles and action cards the seat has not
seen dealt at random; the real hidden ones are never read). In each world:

- every seat's decisions (the others' tiles and answers this turn, the searcher's own
  later questions) are the network's policy, read from that seat's view of the world —
  one batched network call per engine step for every seat of every world that must decide;
- after `horizon` turns counting the current one the rollout stops, and the network's
  value head, read from the searching seat, estimates the points still to win (0 for a
  game that ended).

The candidate with the most mean points (won in the rollout plus the value's estimate
of the rest) is played.

Two options spend the same time differently. `top=K` searches only the network's K best
candidates of a decision (its logits learnt the search's estimates, so its best few
nearly always hold the search's best): the rollouts go where the choice is close.
`rollout=mcs` plays the rollouts with `mcs`'s cheap policy for `horizon` turns and no
value head (`mcs`'s estimate exactly), so a decision costs one network call and the
rollouts: `guided:top=3:rollout=mcs:worlds=56:horizon=3` costs about what `mcs` (32
rollouts of every candidate) costs, rolls out the close candidates nearly twice as often,
and beats it (experiments/training-2026-12-04.md).

The network is a board model of `sixnimmt imitate` or `sixnimmt train` (`path`; without
one, the shipped imitation network of the table's variant, agents/models/board-V.zip, or
a clear error where none fits): its value head learnt the points to the game's end, and
its logits the search's estimates, which `top` reads as such (a PPO-tuned network's
logits learnt to win against its league instead).
"""

from __future__ import annotations

import threading

import numpy as np
from numpy.typing import NDArray

from sixnimmt_env.board import engine
from sixnimmt_env.board.actions import PASS_ACTION
from sixnimmt_env.board.game import BoardGame
from sixnimmt_env.board.seat_view import BoardSeatView
from sixnimmt_env.board.state import PHASE_OVER, BoardState

from ..ppo import PPOAgent, action_logits, top_k
from .search import BoardMonteCarloAgent


class BoardGuidedAgent(BoardMonteCarloAgent):
    """Determinized search over tiles and answers, the network playing every seat and judging the rest."""

    name = "guided"

    # Alike by design (repeated-code scan): agents/cards/guided.py checks the card game's options; they differ.
    def __init__(self, path: str = "", worlds: int = 16, horizon: int = 1, batch: int = 4096, top: int = 0,
                 rollout: str = "network"):
        if horizon < 1:
            raise ValueError("horizon must be >= 1 (the value head judges what follows)")
        if top < 0:
            raise ValueError("top must be >= 0 (0: every candidate)")
        if rollout not in ("network", "mcs"):
            raise ValueError("rollout must be network or mcs")
        super().__init__(rollouts=worlds, horizon=horizon, tie_break="none", batch=batch)
        self.top, self.cheap = top, rollout == "mcs"
        self.net = PPOAgent(path, trained="imitation")
        self._calls = threading.local()  # per thread: the web server shares one agent between games decided at once

    @property
    def _network(self):
        """(model, layout) of the table this thread's call decides (set by `act`)."""
        return self._calls.network

    def check(self, game) -> None:
        self.net.check(game)

    def act(self, view: BoardSeatView, rng: np.random.Generator) -> NDArray[np.int64]:
        # the table's network belongs to this call, not to the agent: two games decided at once
        # from two threads each read their own (one kept on self gave shape mismatches)
        self._calls.network = self.net.network_for(view.config, view.players)
        return super().act(view, rng)

    def candidates(self, view: BoardSeatView) -> dict[int, NDArray[np.int64]]:
        """`mcs`'s candidates; with `top`, the network's `top` best of them (by its
        logits, one batched call)."""
        out = BoardMonteCarloAgent.candidates(view)
        wide = [e for e, c in out.items() if len(c) > self.top > 0]
        if wide:
            logits = self.logits(view, np.array(wide))
            for i, e in enumerate(wide):
                out[e] = np.sort(out[e][top_k(logits[i, out[e]], self.top)])
        return out

    def logits(self, view: BoardSeatView, entries: NDArray) -> NDArray[np.float32]:
        """(len(entries), A) the network's raw logits for those entries of `view` (the
        imitation fitted them to the search's estimates: higher, more points)."""
        model, layout = self._network
        return action_logits(model.policy, layout.encode(view.subset(entries)))

    def policy(self, st: BoardState, seats: NDArray, games: NDArray) -> NDArray[np.int64]:
        """The network's actions for seat seats[i] of game games[i] of `st`, from their views."""
        model, layout = self._network
        if len(seats) == 0:
            return np.zeros(0, dtype=np.int64)
        view = BoardSeatView(st, seats, games)
        chosen, _ = model.predict(layout.encode(view), deterministic=True, action_masks=view.action_mask())
        return np.asarray(chosen, dtype=np.int64)

    def values(self, st: BoardState, seats: NDArray) -> NDArray[np.float64]:
        """(G,) the value head's estimate of the points seat seats[g] still wins in game g (0 when over)."""
        import torch as th
        model, layout = self._network
        over = st.phase == PHASE_OVER
        out = np.zeros(st.batch_size)
        live = np.flatnonzero(~over)
        if len(live):
            obs = layout.encode(BoardSeatView(st, seats[live], live))
            with th.no_grad():
                out[live] = model.policy.predict_values(th.as_tensor(obs)).numpy()[:, 0]
        return out

    def _step(self, st: BoardState, live: NDArray, forced: tuple | None = None) -> None:
        """One engine step of the `live` games with the network deciding for every seat
        that must; `forced` (seats, first): those seats play `first` instead."""
        P, G = st.players, st.batch_size
        to_act = BoardGame(st.config).to_act(st) & live[None, :]
        if forced is not None:
            to_act[forced[0], np.arange(G)] = False
        seats, games = np.nonzero(to_act)
        actions = np.full((P, G), PASS_ACTION, dtype=np.int64)
        actions[seats, games] = self.policy(st, seats, games)
        if forced is not None:
            actions[forced[0], np.arange(G)] = forced[1]
        engine.step(st, actions, inplace=True, validate=False, games=live)

    def _simulate(self, view: BoardSeatView, entries: NDArray, cands: list[NDArray],
                  rng: np.random.Generator) -> list[NDArray]:
        """Mean points of every candidate of `entries`: won in `horizon` turns of network
        play, plus the value head's estimate of the rest (one engine batch); with
        `rollout=mcs`, `mcs`'s rollouts and estimate."""
        if self.cheap:
            return super()._simulate(view, entries, cands, rng)
        st, seats, first, counts = self.candidate_worlds(view, entries, cands, rng)
        R, G = self.rollouts, st.batch_size
        rows = np.arange(G)
        before = st.score[seats, rows].astype(np.float64)
        self._step(st, np.ones(G, dtype=bool), forced=(seats, first))
        limit = view.turn[entries].astype(np.int64).repeat(counts * R) + self.horizon
        while True:
            live = (st.phase != PHASE_OVER) & (st.turn < limit)
            if not live.any():
                break
            self._step(st, live)
        points = st.score[seats, rows].astype(np.float64) - before + self.values(st, seats)
        bounds = np.concatenate([[0], np.cumsum(counts * R)])
        return [points[bounds[i]:bounds[i + 1]].reshape(counts[i], R).mean(axis=1) for i in range(len(entries))]
