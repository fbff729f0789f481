"""`guided`'s worlds (the game's: `SeatView.worlds`) are the real position with the unseen cards dealt: every seat holds as
many cards as at the table (not only the searched candidates), the round is at its real
turn, the earlier turns show who played what as they were played, and the seat has seen
what the real seat has seen (agents/cards/guided.py)."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env.cards.seat_view import SeatView

from .test_belief import mid_round_views


@pytest.mark.parametrize("top, depth", [(3, 1), (0, 1), (3, 10)])
def test_the_worlds_deal_whole_hands_at_the_real_turn_with_the_real_history(monkeypatch, top, depth):
    from agents.cards.guided import GuidedSearchAgent
    turns, P = 3, 4
    _, view = mid_round_views(players=P, turns=turns, games=2)
    agent = GuidedSearchAgent(worlds=5, top=top, depth=depth)
    worlds = []
    others = GuidedSearchAgent._others_cards

    def recorded(self, st, *args):
        worlds.append(st.copy())
        return others(self, st, *args)

    monkeypatch.setattr(GuidedSearchAgent, "_others_cards", recorded)
    entries = np.flatnonzero(view.seats == 1)
    hands, values = agent.card_values(view, entries, np.random.default_rng(0))
    n = 10 - turns
    assert hands.shape == (2, top or n) and values.shape == (2, top or n, 5)
    st = worlds[0]  # the worlds before this turn: 2 entries x 5 worlds
    assert (st.turn == turns).all()
    assert ((st.hands > 0).sum(axis=1) == n).all()  # hands (P, slots, W): every seat of every world holds n
    W = st.batch_size
    sim = SeatView(st, np.repeat(np.arange(P), W), np.tile(np.arange(W), P)).played.reshape(P, W, P, 10)
    real = view.played[entries]  # (2, P, 10), relative to the searching seat
    for j in range(P):  # a world keeps the real seats: seat j is relative seat j - 1 of the searcher (seat 1)
        expect = np.roll(real, -((j - 1) % P), axis=1)  # seen from that relative seat
        assert np.array_equal(sim[j], np.repeat(expect, 5, axis=0))
    # the searcher's seen cards in every world are the real seat's (the taken rows' starters too)
    assert np.array_equal(SeatView(st, np.ones(W, np.intp), np.arange(W)).seen, np.repeat(view.seen[entries], 5, axis=0))
    # the searcher's own hand in every world is its real hand
    mine = np.sort(st.hands[1].T, axis=1)[:, -n:]
    assert np.array_equal(mine, np.repeat(np.sort(view.hand[entries], axis=1)[:, -n:], 5, axis=0))
