"""The other players modelled from their play: a likelihood-weighted mixture of candidate models.

A search is as good as its model of the other seats (issue 61: modelled as our own network,
a table of `mcs` is misread and the search loses to the network alone). `OpponentMixture`
keeps, for every game and observing seat, a weight per other seat and candidate model —
the shipped network `ppo`, `ppo-all` (the imitation of `mcs`), the heuristics `min-gap` and
`greedy`, random — and
re-weights them every turn by how likely each candidate made the card that seat played:

- before a card turn, the game's worlds of the observing seat are kept (`remember`);
- once the turn's cards are public, each other seat's card is put into its hand in those
  worlds (swapped with the card's place there), and each candidate's probability of that
  card from the seat's view, averaged over the worlds, multiplies its weight (`observe`;
  a floor keeps one odd card from ruling a model out for the game).

The search (`guided:others=mixture`) plays each other seat of each world by a candidate
drawn from that seat's weights (`assign`, `play`). A network is scored by its softmax, a
heuristic as its rule's card with probability 1 - `SLIP` (else uniform), random uniformly.
In the worlds a candidate plays its best card (a network its argmax, a heuristic its rule)
or, with `sample` (`guided:others=mixture:sample=true`), a card drawn from the very
distribution it is scored by, so that a seat of the worlds plays as the mixture believes
it does: the other seat's card follows the weights' mixture of the candidates'
distributions. Why: a player such as `mcs:rollouts=100` plays the same card on a second
try only half the time, so one guess of its card misreads it whichever model guesses
(experiments/search-2026-12-07.md).

With a `slip` (`guided:others=mixture:slip=0.05`) the candidate `ppo` is replaced by
`ppo-argmax`, the table's network as `ppo` plays it: scored by its softmax as `ppo` is,
but a seat it plays in the worlds plays its argmax but for a share `slip` of uniform cards
(with `sample`; without, its argmax). Why: the softmax puts on average 0.80 on its argmax
while `ppo` plays that argmax every time, so sampled seats of a `ppo` table play a card the
real one never would about one turn in five. Why the softmax still scores it: seen from
the observing seat, whose worlds deal the other hands anew, an argmax player's plays are
as likely by the softmax as by its argmax (measured at 64 worlds: -1.275 and -1.277 a
turn), and in the 8 worlds a play is scored in the argmax is coarser and lower (-1.444
against -1.373), so scored by its argmax the candidate would lose the weight of the very
table it models (experiments/search-2026-12-07.md, the seventh session).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from sixnimmt_env.cards.seat_view import SeatView
from sixnimmt_env.cards.state import PHASE_CARDS, concat

from ..ppo import PPOAgent, action_logits
from .heuristics import HeuristicAgent

SLIP = 0.1
"""A heuristic's chance of a card other than its rule's, when its plays are scored."""
FLOOR = 0.02
"""The least probability a candidate gives a play (one unexpected card costs it a factor 50, not the game)."""
WORLDS = 8
"""The worlds a play is scored in."""
CANDIDATES = ("ppo", "ppo-all", "min-gap", "greedy", "random")
"""The candidate models by name: the table's shipped network, the imitation of mcs, two heuristics, random."""
ARGMAX = "ppo-argmax"
"""The table's shipped network as `ppo` plays it: scored by its softmax, played at its argmax
but for a share `slip` of uniform cards (the candidate `ppo` becomes with a mixture's `slip`)."""


class Candidate:
    """One model of a seat: `probabilities(view)` (n, A) of its actions (what it is scored
    by), `draw` and `play(view, rng)` (n,) its card in the worlds (sampled or its best);
    `slip` only for `ppo-argmax`."""

    def __init__(self, name: str, slip: float | None = None):
        self.name = name
        if (name == ARGMAX) != (slip is not None) or (slip is not None and not 0 < slip < 1):
            raise ValueError(f"a slip in (0, 1) is {ARGMAX}'s alone: {name} with slip {slip!r}")
        self.slip = slip
        if name in ("ppo", ARGMAX):
            self.net = PPOAgent("")
        elif name == "ppo-all":
            self.net = PPOAgent("", trained="imitation")
        elif name == "random":
            self.net = None
        else:
            self.net, self.rule = None, HeuristicAgent(name)

    def probabilities(self, view: SeatView, rng: np.random.Generator) -> NDArray[np.float64]:
        mask = view.action_mask()
        if self.name == "random":
            return slipped(mask, None, 1.0)
        if self.net is None:
            return slipped(mask, self.rule.act(view, rng), SLIP)
        model, layout = self.net.network_for(view.config, view.players)
        logits = np.where(mask, action_logits(model.policy, layout.encode(view)), -np.inf)
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        return p / p.sum(axis=1, keepdims=True)

    def draw(self, view: SeatView, rng: np.random.Generator) -> NDArray[np.int64]:
        """(n,) a card drawn from this model's `probabilities` (what it is scored by); for
        `ppo-argmax`, its argmax but for a share `slip` of uniform cards."""
        p = self.probabilities(view, rng)
        if self.slip is not None:
            p = slipped(view.action_mask(), p.argmax(axis=1), self.slip)
        return drawn(p, rng)

    def play(self, view: SeatView, rng: np.random.Generator) -> NDArray[np.int64]:
        if self.name == "random":
            return view.random_legal_actions(rng)
        if self.net is None:
            return self.rule.act(view, rng)
        return self.net.act(view, rng)


class OpponentMixture:
    """Weights of candidate models for the other seats of each (game, seat) a search plays;
    with a `slip`, `ppo` among `names` is `ppo-argmax` (the network as `ppo` plays it)."""

    def __init__(self, names: tuple[str, ...] = CANDIDATES, slip: float | None = None):
        self.candidates = [Candidate(ARGMAX, slip) if slip is not None and n == "ppo" else Candidate(n)
                           for n in names]
        self._log: dict[tuple[int, int], NDArray[np.float64]] = {}  # (game, seat) -> (P-1, M) log weights
        self._at: dict[tuple[int, int], tuple[int, int]] = {}  # (game, seat) -> (round, turn) last seen
        self._kept: dict[tuple[int, int], tuple] = {}  # (game, seat) -> (round, turn, worlds) before a turn

    def _key(self, view: SeatView, e: int) -> tuple[int, int]:
        return int(view.games[e]), int(view.seats[e])

    def weights(self, view: SeatView, entries: NDArray) -> NDArray[np.float64]:
        """(k, P-1, M) each entry's weights of the candidates for each other seat (relative order)."""
        M, P = len(self.candidates), view.players
        out = np.full((len(entries), P - 1, M), 1.0 / M)
        for i, e in enumerate(entries):
            log = self._log.get(self._key(view, e))
            if log is not None:
                w = np.exp(log - log.max(axis=1, keepdims=True))
                out[i] = w / w.sum(axis=1, keepdims=True)
        return out

    def observe(self, view: SeatView, rng: np.random.Generator) -> None:
        """Re-weight from the plays made public since the kept worlds; keep new worlds for
        the entries about to play a card that is not the round's last; forget a game
        that began anew in an entry's place."""
        scored = []
        for e in range(view.n):
            key, now = self._key(view, e), (int(view.round[e]), int(view.turn[e]))
            if now < self._at.get(key, now):  # the game went back: another game in its place
                self._log.pop(key, None)
                self._kept.pop(key, None)
            self._at[key] = now
            kept = self._kept.get(key)
            if kept is not None and kept[0] == now[0] and kept[1] < now[1]:
                scored.append((e, kept[1], kept[2]))
                del self._kept[key]
        if scored:
            self._score(view, scored, rng)
        keep = np.flatnonzero((view.phase == PHASE_CARDS) & (view.hand_size > 1))
        if len(keep):
            worlds = view.worlds(keep, WORLDS, rng)
            for i, e in enumerate(keep):
                self._kept[self._key(view, e)] = (int(view.round[e]), int(view.turn[e]),
                                                  worlds.take(np.arange(i * WORLDS, (i + 1) * WORLDS)))

    @staticmethod
    def _with_plays(worlds, seat: int, plays: NDArray) -> None:
        """In place: each card of `plays` (P-1,) into its relative seat's hand (slot 0) in
        every world, swapped with where the world had dealt it."""
        P, games = worlds.players, np.arange(worlds.batch_size)
        for j, card in enumerate(plays, start=1):
            holder = (seat + j) % P
            p, h, g = np.nonzero(worlds.hands == card)
            worlds.hands[p, h, g] = worlds.hands[holder, 0, g]
            worlds.hands[holder, 0, games] = card

    def _score(self, view: SeatView, scored: list, rng: np.random.Generator) -> None:
        """Each candidate's log likelihood of the cards the other seats played in the kept
        worlds' turn, for every (entry, turn, worlds) of `scored`, added to the weights:
        one view of every other seat of every world, one call per candidate."""
        P, W = view.players, WORLDS
        plays = np.stack([view.played[e, 1:, turn] for e, turn, _ in scored])  # (k, P-1)
        for (e, _, worlds), cards in zip(scored, plays):
            self._with_plays(worlds, int(view.seats[e]), cards)
        joined = concat([worlds for _, _, worlds in scored])
        k = len(scored)
        seats = np.array([int(view.seats[e]) for e, _, _ in scored])
        # entry i, other seat j, world r at (i * (P-1) + j-1) * W + r
        order = ((np.repeat(seats, P - 1) + np.tile(np.arange(1, P), k)) % P).repeat(W)
        games = np.repeat(np.arange(k) * W, (P - 1) * W) + np.tile(np.arange(W), k * (P - 1))
        others = SeatView(joined, order, games)
        actions = plays.reshape(-1).astype(np.int64).repeat(W) - 1
        for m, candidate in enumerate(self.candidates):
            likely = candidate.probabilities(others, rng)[np.arange(others.n), actions].reshape(k, P - 1, W)
            log = np.log(np.maximum(likely.mean(axis=2), FLOOR))  # (k, P-1)
            for i, (e, _, _) in enumerate(scored):
                key = self._key(view, e)
                self._log.setdefault(key, np.zeros((P - 1, len(self.candidates))))[:, m] += log[i]

    def assign(self, weights: NDArray, worlds: int, rng: np.random.Generator) -> NDArray[np.intp]:
        """(P-1, k * worlds) the candidate playing each other seat of each world: drawn from
        the entry's weights (k, P-1, M), world r of entry i at i * worlds + r (`drawn`: one
        uniform per world and seat, in that order)."""
        k, S, M = weights.shape
        rows = np.repeat(weights, worlds, axis=0).reshape(k * worlds * S, M)
        return drawn(rows, rng).reshape(k * worlds, S).T

    def play(self, view: SeatView, which: NDArray[np.intp], rng: np.random.Generator,
             sample: bool = False) -> NDArray[np.int64]:
        """(n,) the action each entry's candidate `which` (n,) plays from its view: its best,
        or with `sample` one drawn from its distribution (`Candidate.draw`)."""
        actions = np.empty(view.n, dtype=np.int64)
        for m, candidate in enumerate(self.candidates):
            at = np.flatnonzero(which == m)
            if len(at):
                part = view.subset(at)
                actions[at] = candidate.draw(part, rng) if sample else candidate.play(part, rng)
        return actions


def slipped(mask: NDArray, chosen: NDArray[np.int64] | None, slip: float) -> NDArray[np.float64]:
    """(n, A) a player who plays `chosen` (n,) but for a share `slip` of uniform legal cards
    (`mask` (n, A)); `slip` 1 (and no `chosen`): uniform."""
    uniform = mask / np.maximum(mask.sum(axis=1, keepdims=True), 1)
    if chosen is None:
        return uniform
    best = np.zeros_like(uniform)
    best[np.arange(len(mask)), chosen] = 1
    return (1 - slip) * best + slip * uniform


def drawn(p: NDArray[np.float64], rng: np.random.Generator) -> NDArray[np.int64]:
    """(n,) an action of each row drawn from `p` (n, A), rows of non-negative weights
    (not necessarily summing to 1; a zero weight is never drawn)."""
    cumulative = np.cumsum(p, axis=1)
    u = rng.random((len(p), 1)) * cumulative[:, -1:]
    return np.minimum((cumulative <= u).sum(axis=1), p.shape[1] - 1).astype(np.int64)
