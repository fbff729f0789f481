"""`guided`: search guided by a trained network (the policy and its value head).

For every card in hand it plays `worlds` determinized deals of the unseen cards (as
`mcs` does; the real hidden hands are never read), but instead of random rollouts to the
round's end:

- the other seats play this turn the card the network would play from their seat in
  that world (one batched network call for every world of every deciding entry);
- the turn is resolved by the engine (rows taken automatically, as in `mcs`);
- the rest of the round is not rolled out: the network's value head, read from the
  observing seat after the turn, estimates the bullheads still to come (`depth` > 1 plays
  that many turns with the network in every seat before asking it).

The card with the least mean (bullheads this turn + the value's estimate of the rest) is
played. With `rollout=mcs` the search is `mcs`'s instead (`worlds` random rollouts of the
round per candidate, no value head). `top=K` (with either) judges only the K cards the
network's logits rate best, so the worlds go where the choice is close (at equal time,
`top=3:worlds=96` against every card in 32 worlds: experiments/training-2026-12-05b.md).
Row choices, and hands of one card, are the network's own. What the spec does not give
is the table's recipe (`table_recipe`): at 2-4 classic players the network `ppo` plays
there (agents/ppo.py `shipped_model_for`: `ppo-4p` at 4, `imitate-2p` at 2, `ppo-all` at
3), its 3 best cards in 96 worlds, trusting its own card (`trust=2`); at 5
or more and in Die Sechste the table's imitation network (`ppo-all`, `imitate-sechste`),
every card in 32 worlds, the least mean. Each is ahead, or level and cheaper, where it is
the default, measured with whole worlds (experiments/training-2026-12-06b.md); at 4 players the first is ahead of
the network alone at a table of that network (against three `mcs` behind it: the search
models the others as the network, experiments/training-2026-12-05f.md). With `belief=FILE` (or
`belief=shipped`: agents/models/belief-4p.npz) the worlds are dealt from a belief model
of who holds which unseen card (agents/cards/belief.py) instead of uniformly. With
`others=FILE` the other seats of the worlds are played by that network instead (this turn
and every `depth` turn; the searching seat keeps its own), with `mix=p` only a share p of
them (each seat of each world one network throughout): the search is only as good as its
model of the others, so at a table of `mcs`, `others=agents/models/ppo-all.zip` (the
imitation of `mcs`) with `depth=10` (network rollouts to the round's end, no value head)
leads three `mcs:rollouts=100` by about as much as the network alone (2.61 against 2.73,
experiments/training-2026-12-06b.md), while at a table of `ppo`
the same model of the others halves the default's gain, and half and half gains nothing
measurable at either (experiments/training-2026-12-05g.md). With `others=mixture` the
other seats are played by a likelihood-weighted mixture of candidate models
(agents/cards/opponents.py); `slip=p` puts in it `ppo-argmax`, the table's network at its
argmax but for a share p of uniform cards, the way a table of `ppo` plays, in place of
its `ppo` (scored by the softmax as before).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from sixnimmt_env.cards.actions import pass_action
from sixnimmt_env.cards.seat_view import SeatView
from sixnimmt_env.cards.state import PHASE_CARDS

from ..ppo import PPOAgent
from .belief import load_belief
from .budget import BATCH_GAMES, BREADTH, Budget, one_thread
from .lookahead import Lookahead
from .opponents import OpponentMixture
from .search import MonteCarloAgent, same_hand_chunks

WORLDS_PER_CALL = 32768  # simulated games per batch (memory, not speed; each also meets the network)
DEFAULT_TRUST = 2.0
"""`trust` when none is given, with the network's search (with rollout=mcs: 0, its
estimates are means, not paired worlds). A PPO-tuned network's value head learnt whole
games' returns rather than the round's bullheads, but the part of a game after this
round is nearly the same for every card of the hand, so the search's differences keep
their sense; and with trust the network's card stands unless the search clearly finds
better (experiments/training-2026-12-05c.md)."""


class Recipe(NamedTuple):
    """How guided searches at a table when the spec does not say."""
    worlds: int
    top: int
    """0: every card."""
    trust: float
    imitation: bool
    """True: the table's imitation network (`ppo-all`, `imitate-sechste`), else the table's `ppo`."""


TRUSTING = Recipe(worlds=96, top=3, trust=DEFAULT_TRUST, imitation=False)
"""The network's 3 best cards in 96 worlds, trusting the table's `ppo` network: ahead of
WIDE at 2 and 4 classic players (experiments/training-2026-12-05d.md, re-measured with
whole worlds in experiments/training-2026-12-06b.md)."""
WIDE = Recipe(worlds=32, top=0, trust=0.0, imitation=True)
"""Every card in 32 worlds, the least mean, on the table's imitation network (the default
before 2026-12-05): with whole worlds it is ahead of TRUSTING at 10 players and in Die
Sechste, level at 5 and 6 at less than half the time (experiments/training-2026-12-06b.md)."""
MCS_RECIPE = Recipe(worlds=96, top=3, trust=0.0, imitation=False)
"""rollout=mcs: `mcs`'s rollouts of the network's 3 best cards (no value head to trust)."""
WIDE_FROM_PLAYERS = 5
"""Classic tables of this many players or more search WIDE."""


def table_recipe(variant: str, players: int) -> Recipe:
    """The recipe guided searches by at a table of `variant` with `players` seats, where the
    spec does not say. Chosen by measurement, not by a model of why: with whole worlds
    TRUSTING is ahead at 2 and 4 classic players, level at 5 and 6 (where WIDE costs less
    than half the time), behind at 8 (by the point estimate), 10 and in Die Sechste at 4
    (experiments/training-2026-12-06b.md). The sizes not measured (3, 7, 9) go by the
    nearest measured one; Die Sechste was measured at 4 players only and searches WIDE at
    every size."""
    if variant != "classic" or players >= WIDE_FROM_PLAYERS:
        return WIDE
    return TRUSTING


class GuidedSearchAgent(Lookahead):
    """Determinized one-turn lookahead: the network plays the others, its value head judges."""

    name = "guided"

    def __init__(self, path: str = "", worlds: int | None = None, depth: int = 1, top: int | None = None,
                 rollout: str = "network", belief: str = "", trust: float | None = None, others: str = "",
                 mix: float = 1.0, ms: float = 0.0, sample: bool = False, slip: float = 0.0):
        if ms and (worlds is not None or depth != 1 or rollout != "network"):
            raise ValueError("ms decides worlds and depth (a time budget for the network's search): give it alone")
        self.budget = Budget(ms) if ms else None
        if worlds is not None and worlds < 1:
            raise ValueError("worlds must be >= 1")
        if depth < 1:
            raise ValueError("depth must be >= 1")
        if rollout not in ("network", "mcs"):
            raise ValueError("rollout must be network or mcs")
        if top is not None and top < 0:
            raise ValueError("top must be >= 0 (0: every card)")
        if trust is not None and not 0 <= trust <= 100:
            raise ValueError("trust must be in 0..100 (standard errors; 0: the least mean)")
        if trust and rollout != "network":
            raise ValueError("trust needs rollout=network (its paired worlds)")
        # what the spec gave; the rest is the table's recipe (`table_recipe`), set per table
        self.given = {"worlds": worlds, "top": top, "trust": None if trust is None else float(trust)}
        self.depth = depth
        if rollout == "mcs":  # mcs's search: no network to trust, the former fixed defaults
            self.given = {"worlds": worlds or MCS_RECIPE.worlds, "top": MCS_RECIPE.top if top is None else top,
                          "trust": 0.0}
        self._set(TRUSTING)  # until a table asks (`for_table`)
        self.mcs = MonteCarloAgent(rollouts=self.given["worlds"]) if rollout == "mcs" else None
        self.net = PPOAgent(path)
        # the table's imitation network, for the recipe that reads it (only without a path;
        # mcs's search reads a network only for `top`, its own)
        self.imitation = None if path or self.mcs is not None else PPOAgent("", trained="imitation")
        if belief and rollout != "network":
            raise ValueError("belief needs rollout=network (mcs deals its own worlds)")
        self.belief = load_belief(belief)  # None: uniform deals
        if not 0 <= slip < 1:
            raise ValueError("slip must be in 0..1 (the share of uniform cards of the mixture's ppo-argmax; 0: plain ppo)")
        if slip and others != "mixture":
            raise ValueError("slip needs others=mixture (it puts ppo-argmax in the mixture in place of ppo)")
        self.mixture = OpponentMixture(slip=slip or None) if others == "mixture" else None
        if others == "mixture":
            others = ""
            if mix != 1:
                raise ValueError("mix needs others=FILE (the mixture weighs its models by their plays)")
        if self.mixture is not None and rollout != "network":
            raise ValueError("others=mixture needs rollout=network (mcs rolls the others out at random)")
        if others and rollout != "network":
            raise ValueError("others needs rollout=network (mcs rolls the others out at random)")
        if not 0 <= mix <= 1:
            raise ValueError("mix must be in 0..1 (the share of the other seats `others` plays in the worlds)")
        if mix != 1 and not others:
            raise ValueError("mix needs others=FILE (the network that plays that share of the other seats)")
        self.others = PPOAgent(others) if others else None  # None: the others play the searching network
        self.mix = float(mix)
        if sample and rollout != "network":
            raise ValueError("sample needs rollout=network (mcs rolls the others out at random)")
        # the others of the worlds draw their card from their network's softmax (with the
        # mixture: from the distribution of the candidate playing the seat)
        self.sample = bool(sample)

    def check(self, game) -> None:
        """Refuse, before the first turn, a table the network this agent would search with
        there was not trained for (ConfigError)."""
        self.for_table(game.rules, game.info.players)
        if self.others is not None:
            self.others.check(game)

    def _set(self, recipe: Recipe) -> None:
        """`worlds`, `top` and `trust`: the spec's where it gave them, else `recipe`'s."""
        mine = recipe._replace(**{k: v for k, v in self.given.items() if v is not None})
        self.worlds, self.top, self.trust = mine.worlds, mine.top, mine.trust

    def for_table(self, config, players: int) -> tuple:
        """The network (model, layout) this agent searches with at a table of `config` and
        `players`, with `worlds`, `top` and `trust` set to the spec's or else the table's
        recipe (`table_recipe`). Set per call because one agent may meet tables of several
        sizes (a tournament over seat counts); the network is loaded once per table kind."""
        recipe = table_recipe(config.variant, players)
        self._set(recipe)
        net = self.imitation if recipe.imitation and self.imitation is not None else self.net
        return net.network_for(config, players)

    def act(self, view: SeatView, rng: np.random.Generator) -> NDArray[np.int64]:
        if self.budget is None:
            return self._act(view, rng)
        with one_thread():  # the budget is one core's CPU time (`one_thread`)
            return self._act(view, rng)

    def _act(self, view: SeatView, rng: np.random.Generator) -> NDArray[np.int64]:
        """`act`, on the threads it is given."""
        model, layout = self.for_table(view.config, view.players)  # (a network's first load is not the decision's)
        started = None if self.budget is None else self.budget.clock()
        if self.mixture is not None:  # the plays made public since the last call re-weight the models
            self.mixture.observe(view, rng)
        actions = np.full(view.n, pass_action(view.config), dtype=np.int64)
        if view.n == 0:
            return actions
        search = self._searching(view)
        plain = view.must_act & ~search  # rows, last cards: the network's choice
        if plain.any():
            actions[plain] = self._policy(model, layout.encode(view)[plain], view.action_mask()[plain])
        decisions = int(view.must_act.sum())
        allotted = 0.0 if started is None or not search.any() else self.budget.allot(decisions)
        deadline = None if started is None else started + allotted
        for chunk, hands, values in self._searched(view, np.flatnonzero(search), rng, model, layout, deadline):
            if values.ndim == 3:  # (k, n, worlds): each candidate in the same worlds
                chosen = self._trusted(values, self._net_best(view, chunk, hands, model, layout)) if self.trust \
                    else values.mean(axis=2).argmin(axis=1)
            else:
                chosen = values.argmin(axis=1)
            actions[chunk] = hands[np.arange(len(chunk)), chosen].astype(np.int64) - 1
        if started is not None:
            self.budget.record(self.budget.clock() - started, decisions, allotted)
        return actions

    def batched_estimates(self, view: SeatView, rng) -> dict[int, tuple[NDArray[np.int64], NDArray[np.float64]]]:
        """Entry -> (candidate cards, encoded; the search's estimate of each, lower is better)
        for every entry choosing a card from a hand of several: the estimates the label stage
        learns from when guided is the teacher (training/labels.py), as `mcs`'s. With the
        network's search they are `judged`'s: each card against the network's own in the
        same worlds, pessimistic by `trust` standard errors. Row choices are not rated
        (the network's own: the labeller asks `act` for them)."""
        model, layout = self.for_table(view.config, view.players)
        out: dict[int, tuple[NDArray[np.int64], NDArray[np.float64]]] = {}
        if self.mixture is not None:
            self.mixture.observe(view, rng)
        searching = np.flatnonzero(self._searching(view))
        deadline = None if self.budget is None else self.budget.clock() + self.budget.allot(len(searching))
        for chunk, hands, values in self._searched(view, searching, rng, model, layout, deadline):
            if values.ndim == 3:
                values = self._judged(values, self._net_best(view, chunk, hands, model, layout))
            for e, hand, q in zip(chunk, hands, values):
                out[int(e)] = (hand.astype(np.int64) - 1, q.astype(np.float64))
        return out

    @staticmethod
    def _searching(view: SeatView) -> NDArray[np.bool_]:
        """(n,) the entries the search decides: a card to choose from a hand of several."""
        return (view.phase == PHASE_CARDS) & (view.hand_size > 1)

    def _searched(self, view: SeatView, entries: NDArray, rng, model, layout, deadline: float | None = None):
        """(chunk of entries, their candidate cards (k, m), the values of `card_values` or
        `rollout_values`) for the `entries`, those holding as many cards together; with a
        budget, each chunk in its share of the time to `deadline` (`_budgeted_values`)."""
        values_of = self.card_values if self.mcs is None else self.rollout_values
        worlds = self.worlds if self.budget is None else BREADTH
        left = len(entries)
        for chunk in same_hand_chunks(entries, view.hand_size, lambda n: min(n, self.top or n) * worlds,
                                      WORLDS_PER_CALL):
            if deadline is None:
                yield (chunk, *values_of(view, chunk, rng, model, layout))
                continue
            seconds = (deadline - self.budget.clock()) * len(chunk) / left
            left -= len(chunk)
            yield (chunk, *self._budgeted_values(view, chunk, rng, model, layout, seconds))

    def _budgeted_values(self, view: SeatView, chunk: NDArray, rng, model, layout, seconds: float):
        """`card_values` of `chunk` in as many worlds as `seconds` buy, at the depth they buy
        (agents/cards/budget.py): batches of worlds, each paired across the candidates, joined."""
        budget, P, clock = self.budget, view.players, self.budget.clock
        start, k, n = clock(), len(chunk), int(view.hand_size[chunk[0]])
        m = min(n, self.top or n)
        depth = budget.depth(P, seconds, k, m, n)
        turns = min(depth, n)
        parts: list[NDArray] = []
        while True:
            worlds = budget.worlds(P, seconds - (clock() - start), k, m, turns, sum(v.shape[2] for v in parts))
            worlds = min(worlds, max(BATCH_GAMES // (k * m), 1))  # batches of the fastest size
            if worlds < 1:
                break
            began = clock()
            hands, values = self.card_values(view, chunk, rng, model, layout, worlds=worlds, depth=depth)
            budget.learn(P, clock() - began, k, m, worlds, turns)
            parts.append(values)
        return hands, np.concatenate(parts, axis=2)

    def _judged(self, values: NDArray, net: NDArray[np.intp]) -> NDArray[np.float64]:
        """(k, n) each candidate's paired mean difference to the network's card over the same
        worlds, plus `trust` standard errors of it (the network's own: 0). Their least is
        below 0 only for a clear find, so it is the card `_trusted` plays but for near ties
        between finds (the least pessimistic against the least mean)."""
        mean, se = self._paired(values, net)
        return mean + self.trust * se

    @staticmethod
    def _paired(values: NDArray, net: NDArray[np.intp]) -> tuple[NDArray, NDArray]:
        """(k, n) each card's mean difference to the network's card `net` (k,) over the same
        worlds of `values` (k, n, worlds), and the standard error of that mean."""
        k, _, K = values.shape
        diff = values - values[np.arange(k), net][:, None, :]
        se = diff.std(axis=2, ddof=1) / np.sqrt(K) if K > 1 else np.zeros(diff.shape[:2])
        return diff.mean(axis=2), se

    def _trusted(self, values: NDArray, net: NDArray[np.intp]) -> NDArray[np.intp]:
        """(k,) the candidate to play: the network's own (`net`, a position in the candidates)
        unless the best other's mean over the same worlds is lower by `trust` standard errors
        of the paired difference. Why: the value head errs per world, and a one-turn lookahead
        that follows every small difference of means swaps the network's choice for noise as
        often as for a find (level with the network alone, experiments/training-2026-12-05b.md);
        paired by world, the difference's error is the search's own, so only clear finds
        overrule the network."""
        mean, se = self._paired(values, net)
        best = mean.argmin(axis=1)
        rows = np.arange(len(net))
        clear = mean[rows, best] < -self.trust * se[rows, best]
        return np.where(clear, best, net)
