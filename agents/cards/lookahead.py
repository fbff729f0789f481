"""`guided`'s lookahead: each candidate card in the game's worlds, the network playing the others.

For the entries of a `guided` decision (agents/cards/guided.py) holding as many cards
each: the worlds are the game's (`SeatView.worlds`, from the belief model when there is
one); in every world the other seats play the card their model chooses from their own
seat (the searching network, `others`, or a share `mix` of each), the turn is resolved by
the engine, `depth` - 1 more turns are played by the network in every seat, and the value
head judges what is left of the round. `rollout_values` is `mcs`'s search of the same
candidates instead. The class is a mixin of `GuidedSearchAgent`, whose settings it reads
(`worlds`, `top`, `depth`, `belief`, `others`, `mix`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from sixnimmt_env.cards.engine import step
from sixnimmt_env.cards.seat_view import SeatView

from ..ppo import action_logits, top_k
from .opponents import drawn
from .search import seat_order, sim_worlds


class Lookahead:
    """The values of candidate cards in the game's worlds (a mixin: see the module doc)."""

    def _others_cards(self, st, order: NDArray, kind: NDArray | None, model, layout, config, rng=None) -> NDArray:
        """(P-1, W) the cards (encoded) the other seats (order[1:] (P-1, W), `seat_order`)
        of the W simulated games play now. With `others=mixture`, `kind` (P-1, W) is the
        candidate model playing each seat (agents/cards/opponents.py). Else where
        `kind` (P-1, W) is set the `others` network's, elsewhere the searching network's. Why
        a second network: the search's gain rests on its model of the others, and against a
        table that is not the network (three `mcs`) the network's card is the wrong guess
        (experiments/training-2026-12-05g.md); `mix` below 1 models the others as a mixture
        of the two, a seat of each world being one or the other throughout. With `sample`
        each plays a card drawn from its network's softmax instead of its best (with the
        mixture, from its candidate's distribution, `OpponentMixture.play`): a player
        such as `mcs:rollouts=100` plays another card on a second try half the time
        (experiments/search-2026-12-07.md, the third session), so its worlds must hold its
        spread, not one guess."""
        P, W = order.shape
        view = SeatView(st, order[1:].reshape(-1), np.tile(np.arange(W), P - 1))
        if self.mixture is not None:
            return self.mixture.play(view, kind.reshape(-1), rng, sample=self.sample).reshape(P - 1, W)
        theirs = np.zeros(view.n, dtype=bool) if kind is None else kind.reshape(-1)
        players = [(~theirs, model, layout)]
        if theirs.any():
            players.insert(0, (theirs, *self.others.network_for(config, P)))
        cards = np.empty(view.n, dtype=np.int64)
        for where, net, net_layout in players:  # each network encodes only the seats it plays
            if where.any():
                part = view.subset(np.flatnonzero(where))
                if self.sample:
                    cards[where] = sampled_cards(net, net_layout.encode(part), part.action_mask(), rng)
                else:
                    cards[where] = self._policy(net, net_layout.encode(part), part.action_mask())
        return cards.reshape(P - 1, W)

    def _net_best(self, view: SeatView, entries: NDArray, hands: NDArray, model, layout) -> NDArray[np.intp]:
        """(k,) the position in `hands` (k, m) card ids of the card the network rates best."""
        return self._hand_logits(view, entries, hands, model, layout).argmax(axis=1)

    @staticmethod
    def _hand_logits(view: SeatView, entries: NDArray, hands: NDArray, model, layout) -> NDArray:
        """(k, m) the network's logits of the cards `hands` (k, m) of the entries."""
        logits = action_logits(model.policy, layout.encode(view.subset(entries)))
        return np.take_along_axis(logits, hands.astype(np.intp) - 1, axis=1)

    def rollout_values(self, view: SeatView, entries: NDArray, rng, model, layout):
        """(cards (k, m), values (k, m)): `mcs`'s estimates of the entries' cards (each
        holding as many), of the `top` the network rates best when `top` is set."""
        hands = np.sort(view.hand[entries], axis=1)
        n = int((hands[0] > 0).sum())
        slots = self._top_slots(view, entries, hands[:, hands.shape[1] - n:], model, layout) if 0 < self.top < n else None
        out = self.mcs.card_estimates_many(view, entries, rng, slots)
        return np.stack([c for c, _ in out]), np.stack([v for _, v in out])

    def _top_slots(self, view: SeatView, entries: NDArray, hands: NDArray, model, layout) -> NDArray[np.intp]:
        """(k, top) the positions in `hands` (k, n) ascending card ids of the `top` cards the
        network's logits rate best, for both searches' `top=K`."""
        return top_k(self._hand_logits(view, entries, hands, model, layout), self.top)

    sample = False
    """The other seats of the worlds play a card drawn from their network's softmax (`_others_cards`)."""

    @staticmethod
    def _policy(model, obs: NDArray, mask: NDArray) -> NDArray[np.int64]:
        if len(obs) == 0:
            return np.zeros(0, dtype=np.int64)
        chosen, _ = model.predict(obs, deterministic=True, action_masks=mask)
        return np.asarray(chosen, dtype=np.int64)

    def _values(self, model, obs: NDArray) -> NDArray[np.float64]:
        """The value head's estimate of the bullheads to come (it predicts minus them)."""
        import torch as th
        with th.no_grad():
            value = model.policy.predict_values(th.as_tensor(obs))
        return -value.numpy()[:, 0].astype(np.float64)

    def card_values(self, view: SeatView, entries: NDArray, rng, model=None, layout=None, worlds: int | None = None,
                    depth: int | None = None):
        """(candidates (k, m) ascending, values (k, m, worlds)): each candidate card's
        estimated bullheads from now to the round's end in each world (the same worlds for
        every card of an entry), for entries holding n cards each; the candidates are the
        hand, or its `top` best by the network. The worlds are the game's (`SeatView.worlds`:
        the real game, every public field as it is, the other hands dealt anew): until
        2026-12-07 they were built here field by field, and two fixes (6c9cf7e, 9d3005a)
        were fields it had missed. `worlds` and `depth` override the agent's (a budget's
        batches, agents/cards/budget.py)."""
        if model is None:
            model, layout = self.for_table(view.config, view.players)
        P, K = view.players, worlds or self.worlds
        depth = depth or self.depth
        held = np.sort(view.hand[entries], axis=1)
        n = int((held[0] > 0).sum())
        held = held[:, held.shape[1] - n:]  # (k, n) the whole hands: every world is dealt the real sizes
        hands = held  # the candidates
        if 0 < self.top < n:  # only the cards the network rates best: their worlds are what decide
            hands = np.take_along_axis(held, self._top_slots(view, entries, held, model, layout), axis=1)
        m, k = hands.shape[1], len(entries)
        # the worlds are the game's (`SeatView.worlds`), from the belief model when there is one
        deal = None if self.belief is None else self.belief.of_view(view.subset(entries))
        world = sim_worlds(view, entries, K, rng, deal)
        W = k * K
        # the others' cards this turn: the network's (or `others`'), from their seats in each world
        if self.mixture is not None:  # each seat of each world one candidate model, drawn by its weights
            kind = self.mixture.assign(self.mixture.weights(view, entries), K, rng)
        else:
            kind = None if self.others is None else rng.random((P - 1, W)) < self.mix
        world_seats = np.repeat(view.seats[entries], K)
        other_cards = self._others_cards(world, seat_order(world_seats, P), kind, model, layout, view.config, rng)
        # every candidate in every world: G = k * m * K games, candidate-major within an entry
        G = W * m
        expand = np.repeat(np.arange(k), m * K) * K + np.tile(np.arange(K), k * m)  # world of each game
        st = world.take(expand)
        order, games = seat_order(world_seats[expand], P), np.arange(G)
        actions = np.zeros((P, G), dtype=np.int64)
        # the engine takes card ids (the encoded card actions are ids - 1)
        actions[order[0], games] = np.repeat(hands.reshape(-1), K)
        actions[order[1:], games] = other_cards[:, expand] + 1
        before = st.total()[order[0], games].astype(np.float64)
        step(st, actions, inplace=True, validate=False)
        self._play_on(st, order, None if kind is None else kind[:, expand], depth - 1, model, layout, view.config, rng)
        taken = st.total()[order[0], games].astype(np.float64) - before
        if not st.game_over()[0]:
            taken += self._values(model, layout.encode(SeatView(st, order[0], games)))
        return hands, taken.reshape(k, m, K)

    def _play_on(self, st, order: NDArray, kind: NDArray | None, turns: int, model, layout, config, rng) -> None:
        """In place: up to `turns` more turns of the round, the searching seats (order[0])
        playing the network, the others their model (`_others_cards`, `kind` per seat and game)."""
        P, G = order.shape
        games = np.arange(G)
        for _ in range(turns):
            if st.game_over()[0]:
                break
            if kind is None and not self.sample:  # one network in every seat, its best card: one call
                every = SeatView(st, np.repeat(np.arange(P), G), np.tile(games, P))
                chosen = self._policy(model, layout.encode(every), every.action_mask()).reshape(P, G)
            else:
                chosen = np.empty((P, G), dtype=np.int64)
                mine = SeatView(st, order[0], games)
                chosen[order[0], games] = self._policy(model, layout.encode(mine), mine.action_mask())
                chosen[order[1:], games] = self._others_cards(st, order, kind, model, layout, config, rng)
            step(st, chosen + 1, inplace=True, validate=False)  # cards only: rows are automatic


def sampled_cards(model, obs: NDArray, mask: NDArray, rng: np.random.Generator) -> NDArray[np.int64]:
    """(n,) an action of each row drawn from the masked softmax of `model`'s policy logits."""
    if len(obs) == 0:
        return np.zeros(0, dtype=np.int64)
    logits = np.where(mask, action_logits(model.policy, obs), -np.inf)
    return drawn(np.exp(logits - logits.max(axis=1, keepdims=True)), rng)
