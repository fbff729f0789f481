"""Search agents: they sample the cards they cannot see and simulate with the engine.

Both simulate in the game's own worlds (`SeatView.worlds`: the real game as the seat
knows it, the other hands dealt anew from the cards it has not seen) — determinization —
and never read the real hidden hands. Simulations run batched through the engine, every
seat where it sits in the real game; every seat in a simulation takes its cheapest row
when too low, and a simulation ends with the round.

- `bayes`: one-step expected penalty. For each card in hand, `samples` sampled plays
  of the others for this turn; the card with the lowest mean immediate penalty wins.
- `mcs`: flat Monte-Carlo search. For each card in hand (or, when it must take a row,
  each row), `rollouts` determinized rollouts of the rest of the round with random
  play; the lowest mean own penalty (`score=own`) or own minus the others' mean
  (`score=relative`) wins. `batched=true` simulates every entry's rollouts at once (the
  same search, faster over many games, other random draws).
"""

from __future__ import annotations

import dataclasses

import numpy as np
from numpy.typing import NDArray

from sixnimmt_env.cards.actions import pass_action, row_action
from sixnimmt_env.cards.engine import play_slots, step
from sixnimmt_env.cards.rules import HAND_SIZE, N_ROWS, RuleConfig
from sixnimmt_env.cards.seat_view import SeatView
from sixnimmt_env.cards.state import PHASE_CARDS, concat

from .heuristics import cheapest_rows

WORLDS_PER_CALL = 65536  # simulated games per batched call (memory, not speed)


def sim_config(config: RuleConfig) -> RuleConfig:
    """The rules simulations use: this round only, automatic rows."""
    return dataclasses.replace(config, row_choice="cheapest", end_score=None, max_rounds=1)


def sim_worlds(view: SeatView, entries, count: int, rng: np.random.Generator, deal: NDArray | None = None):
    """`count` worlds of each of `entries` (the game's own: `SeatView.worlds`, world r of
    entry i at game i * count + r), played under the simulation rules (`sim_config`)."""
    st = view.worlds(entries, count, rng, deal)
    return dataclasses.replace(st, config=sim_config(st.config))


def seat_order(seats: NDArray, players: int) -> NDArray[np.intp]:
    """(P, G) the absolute seat of each relative seat (0: the observer's `seats` (G,), 1 the
    seat to its left, ...): a world keeps the real game's seats."""
    return (np.asarray(seats, dtype=np.intp)[None, :] + np.arange(players)[:, None]) % players


def same_hand_chunks(entries: NDArray, hand_size: NDArray, worlds, limit: int = WORLDS_PER_CALL):
    """`entries` in groups holding as many cards, each cut into chunks of about `limit`
    simulated games (`worlds(n)`: the simulations of one entry holding n cards), for the
    searches that simulate many entries at once."""
    for n in np.unique(hand_size[entries]):
        same = entries[hand_size[entries] == n]
        per_call = max(1, limit // worlds(int(n)))
        for at in range(0, len(same), per_call):
            yield same[at:at + per_call]


def _score(st, before: NDArray, order: NDArray, relative: bool) -> NDArray:
    """(G,) the observer's result of finished simulations, lower is better: its bullheads
    since `before` (st.total() when they began), less the others' mean with `relative`;
    `order` (P, G) the seats from the observer's (`seat_order`)."""
    games = np.arange(st.batch_size)
    taken = st.total().astype(np.float64) - before
    own = taken[order[0], games]
    if not relative:
        return own
    return own - (taken.sum(axis=0) - own) / (st.players - 1)


def _random_round(st, rng: np.random.Generator, first: tuple[NDArray, NDArray] | None = None) -> None:
    """Play the rest of the round with uniformly random cards (the rollout policy); `first`
    (seats (G,), hand slots (G,)): those seats' first cards."""
    P, G = st.players, st.batch_size
    while not st.game_over()[0]:
        left = HAND_SIZE - int(st.turn[0])
        slots = (rng.random((P, G)) * left).astype(np.intp)
        if first is not None:
            slots[first[0], np.arange(G)] = first[1]
            first = None
        play_slots(st, slots)


class MonteCarloAgent:
    """Flat Monte-Carlo search over cards (and rows), rollouts batched in the engine."""

    name = "mcs"

    def __init__(self, rollouts: int = 100, score: str = "own", batched: bool = False):
        if rollouts < 1:
            raise ValueError("rollouts must be >= 1")
        if score not in ("own", "relative"):
            raise ValueError("score must be own or relative")
        self.rollouts, self.relative, self.batched = rollouts, score == "relative", batched

    def act(self, view: SeatView, rng: np.random.Generator) -> NDArray[np.int64]:
        if self.batched:
            return self._act_batched(view, rng)
        actions = np.full(view.n, pass_action(view.config), dtype=np.int64)
        for e in np.flatnonzero(view.phase == PHASE_CARDS):
            actions[e] = self._card(view, e, rng) - 1
        for e in np.flatnonzero(view.is_chooser):
            actions[e] = row_action(view.config, self._row(view, e, rng))
        return actions

    def _act_batched(self, view: SeatView, rng: np.random.Generator) -> NDArray[np.int64]:
        """`act` with the rollouts of every entry holding as many cards in one simulation
        (`batched=true`: the same search, several times faster over many games; the random
        draws differ from the entry-by-entry search)."""
        actions = view.random_legal_actions(rng)  # single options stay as drawn: the only legal ones
        for e, (candidates, means) in self.batched_estimates(view, rng).items():
            actions[e] = candidates[int(np.argmin(means))]
        return actions

    def batched_estimates(self, view: SeatView, rng) -> dict[int, tuple[NDArray[np.int64], NDArray[np.float64]]]:
        """Entry -> (candidate actions, encoded; mean rollout result of each) for every entry
        with a choice: its cards, or its rows as chooser (entries with one legal action are
        left out). Entries holding as many cards are simulated together, in calls of about
        WORLDS_PER_CALL games (`card_estimates_many`, `row_estimates_many`): cards first,
        then rows, each in entry order."""
        out: dict[int, tuple[NDArray[np.int64], NDArray[np.float64]]] = {}
        size, R = view.hand_size, self.rollouts
        cards = np.flatnonzero((view.phase == PHASE_CARDS) & (size > 1))
        for chunk in same_hand_chunks(cards, size, lambda n: n * R):
            for e, (hand, means) in zip(chunk, self.card_estimates_many(view, chunk, rng)):
                out[int(e)] = (hand.astype(np.int64) - 1, means)
        choosers = np.flatnonzero(view.is_chooser & (view.row_options.sum(axis=1) > 1))
        for chunk in same_hand_chunks(choosers, size, lambda n: N_ROWS * R):
            for e, (rows, means) in zip(chunk, self.row_estimates_many(view, chunk, rng)):
                out[int(e)] = (np.asarray(row_action(view.config, rows), dtype=np.int64), means)
        return out

    def _card(self, view: SeatView, e: int, rng) -> int:
        """The card of entry e with the best mean rollout result."""
        hand = view.hand[e][view.hand[e] > 0]
        if len(hand) == 1:
            return int(hand[0])
        cards, means = self.card_estimates(view, e, rng)
        return int(cards[int(np.argmin(means))])

    def _row(self, view: SeatView, e: int, rng) -> int:
        """The row entry e should take, by rollouts after each allowed choice."""
        options = np.flatnonzero(view.row_options[e])
        if len(options) == 1:
            return int(options[0])
        rows, means = self.row_estimates(view, e, rng)
        return int(rows[int(np.argmin(means))])

    def estimates(self, view: SeatView, rng) -> dict[int, tuple[NDArray, NDArray[np.float64]]]:
        """Entry -> (candidate actions, mean rollout result of each) for every entry that
        must act: its cards, or its rows as chooser; one candidate gets mean 0, nothing
        simulated. The board's mcs has the same method, so a UI shows hints of any game
        from it (lower is better here: the results are penalties)."""
        out: dict[int, tuple[NDArray, NDArray[np.float64]]] = {}
        for e in np.flatnonzero(view.phase == PHASE_CARDS):
            hand = np.sort(view.hand[e][view.hand[e] > 0]).astype(np.int64)
            if len(hand) == 1:
                out[int(e)] = (hand - 1, np.zeros(1))
            else:
                cards, means = self.card_estimates(view, e, rng)
                out[int(e)] = (cards.astype(np.int64) - 1, means)
        for e in np.flatnonzero(view.is_chooser):
            options = np.flatnonzero(view.row_options[e])
            if len(options) == 1:
                out[int(e)] = (np.asarray(row_action(view.config, options), dtype=np.int64), np.zeros(1))
            else:
                rows, means = self.row_estimates(view, e, rng)
                out[int(e)] = (np.asarray(row_action(view.config, rows), dtype=np.int64), means)
        return out

    def card_estimates(self, view: SeatView, e: int, rng) -> tuple[NDArray, NDArray[np.float64]]:
        """Each card of entry e's hand (ascending id) and its mean rollout result.

        The result is what `score` names: own bullheads from now to the round's end, or
        those minus the others' mean. `act` plays the argmin; hints show the whole list.
        """
        return self.card_estimates_many(view, [e], rng)[0]

    def card_estimates_many(self, view: SeatView, entries, rng, slots: NDArray | None = None
                            ) -> list[tuple[NDArray, NDArray[np.float64]]]:
        """`card_estimates` of several entries holding as many cards each, simulated in one
        batch (the labelling of training data asks for thousands at once). The random
        numbers are drawn entry by entry for the deals, then for the rollouts of all: with
        one entry, exactly the draws of the entry-by-entry search. `slots` (k, m): only
        those candidates of each entry (indices into its ascending hand), each `rollouts`
        times; the cards returned are those candidates."""
        entries = np.asarray(entries, dtype=np.intp)
        P, R = view.players, self.rollouts
        hands = np.sort(view.hand[entries], axis=1)
        hands = hands[:, hands.shape[1] - int((hands[0] > 0).sum()):]  # the held cards (0s sort first)
        k, n = hands.shape
        if (hands <= 0).any():
            raise ValueError("card_estimates_many: the entries must hold as many cards each")
        slots = np.tile(np.arange(n), (k, 1)) if slots is None else np.asarray(slots, dtype=np.intp)
        m = slots.shape[1]
        G = m * R
        st = sim_worlds(view, entries, G, rng)  # world g of entry i at i * G + g: candidate g // R
        order = seat_order(np.repeat(view.seats[entries], G), P)
        cards = np.repeat(np.take_along_axis(hands, slots, axis=1).reshape(-1), R)  # (k * G,)
        held = st.hands[order[0], :, np.arange(k * G)]  # (k * G, H) the observer's hand in each world
        first = (order[0], np.argmax(held == cards[:, None], axis=1))
        before = st.total().astype(np.float64)
        _random_round(st, rng, first)
        means = _score(st, before, order, self.relative).reshape(k, m, R).mean(axis=2)
        return [(hands[i, slots[i]], means[i]) for i in range(k)]

    def row_estimates(self, view: SeatView, e: int, rng) -> tuple[NDArray, NDArray[np.float64]]:
        """Each row entry e may take now and its mean rollout result (as card_estimates)."""
        return self.row_estimates_many(view, [e], rng)[0]

    def row_estimates_many(self, view: SeatView, entries, rng) -> list[tuple[NDArray, NDArray[np.float64]]]:
        """`row_estimates` of several choosing entries holding as many cards each, in one
        batch (random numbers drawn as `card_estimates_many` does)."""
        entries = np.asarray(entries, dtype=np.intp)
        P, R = view.players, self.rollouts
        row_options = view.row_options
        options = [np.flatnonzero(row_options[e]) for e in entries]
        sizes = np.array([len(o) * R for o in options])
        # each entry's worlds (as many as its candidates' rollouts), one batch
        st = concat([sim_worlds(view, [e], int(G), rng) for e, G in zip(entries, sizes)])
        order = seat_order(np.repeat(view.seats[entries], sizes), P)
        actions = np.zeros((P, int(sizes.sum())), dtype=np.int64)
        actions[order[0], np.arange(st.batch_size)] = np.concatenate([np.repeat(o, R) for o in options])
        before = st.total().astype(np.float64)
        step(st, actions, inplace=True, validate=False)
        _random_round(st, rng)
        scores = _score(st, before, order, self.relative)
        out, at = [], 0
        for o, G in zip(options, sizes):
            out.append((o, scores[at:at + G].reshape(len(o), R).mean(axis=1)))
            at += G
        return out


class BayesAgent:
    """One-step expected penalty over sampled plays of the other seats."""

    name = "bayes"

    def __init__(self, samples: int = 200):
        if samples < 1:
            raise ValueError("samples must be >= 1")
        self.samples = samples

    def act(self, view: SeatView, rng: np.random.Generator) -> NDArray[np.int64]:
        actions = np.full(view.n, pass_action(view.config), dtype=np.int64)
        for e in np.flatnonzero(view.phase == PHASE_CARDS):
            actions[e] = self._card(view, e, rng) - 1
        choosing = view.is_chooser
        if choosing.any():  # one step ahead, a row costs what it holds
            actions = np.where(choosing, row_action(view.config, cheapest_rows(view)), actions)
        return actions

    def _card(self, view: SeatView, e: int, rng) -> int:
        hand = np.sort(view.hand[e][view.hand[e] > 0])
        n, P, K = len(hand), view.players, self.samples
        if n == 1:
            return int(hand[0])
        G = n * K
        st = sim_worlds(view, [e], G, rng)
        order = seat_order(np.full(G, view.seats[e]), P)
        games = np.arange(G)
        actions = np.zeros((P, G), dtype=np.int64)
        actions[order[0], games] = np.repeat(hand, K)
        # each other seat plays its first card: the worlds' hands are dealt in random order
        actions[order[1:], games] = st.hands[order[1:], 0, games]
        before = st.total()[order[0], games]
        step(st, actions, inplace=True, validate=False)
        means = (st.total()[order[0], games] - before).reshape(n, K).mean(axis=1)
        return int(hand[int(np.argmin(means))])
