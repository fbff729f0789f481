"""The compiled driver's policies play the games the public step plays: the search's
rollout policy (`engine.rollout`, _kernel/play.ROLLOUT) against `Game.step` with the
rollout policy's actions computed in NumPy (`search.rollout_actions`), on thousands of
whole games of every variant and 2-6 players; the board `mcs` estimates (and so its
decisions) the same either way on a fixed sample of decisions; the seat views' compiled
masks and random legal actions against their definitions."""

from __future__ import annotations

import numpy as np
import pytest

from agents.board import search
from agents.board.search import BoardMonteCarloAgent, rollout_actions
from sixnimmt_env.board import engine, worlds
from sixnimmt_env.board._driver import answer_masks
from sixnimmt_env.board.actions import ANSWER_NO, LUCK_ACTION, N_ACTIONS, PASS_ACTION
from sixnimmt_env.board.rules import DOUBLE, PLUS5, VARIANTS
from sixnimmt_env.board.state import ASK_ACTION, ASK_FREE_ROW, ASK_LUCK_CARD, PHASE_ASK, PHASE_OVER, PHASE_PICK, PHASE_PICK_SECOND
from sixnimmt_env.core.game import make_game
from sixnimmt_env.core.rng import game_seeds

FIELDS = ("hands", "tiles", "length", "score", "luck", "stack", "action", "discard", "deck", "deck_at", "phase",
          "ask", "asker", "stage", "turn", "picks", "drawn", "refilled", "gone", "stops")


def stepped_rollout(st, limit, first=None, threads=None):
    """The rollout as the search played it before the driver: one `engine.step` a decision
    with the NumPy rollout policy's actions (`first` where it is >= 0 in the first)."""
    if first is not None:
        actions = rollout_actions(st)
        actions[first >= 0] = first[first >= 0]
        engine.step(st, actions, inplace=True, validate=False)
    while (live := (st.phase != PHASE_OVER) & (st.turn < limit)).any():
        engine.step(st, rollout_actions(st), inplace=True, validate=False, games=live)


def assert_same(a, b, where):
    for name in FIELDS:
        assert (getattr(a, name) == getattr(b, name)).all(), (where, name)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_rollout_driver_plays_the_games_of_the_public_step(variant, players):
    game = make_game("board", players=players, variant=variant)
    batch = 120
    start = game.new_games(game_seeds(players * 100 + VARIANTS.index(variant), batch))
    # whole games, and three turns from a few turns in (the search's horizon)
    for limit in (np.full(batch, 10 ** 6), None):
        fast, slow = start.copy(), start.copy()
        if limit is None:
            rng = np.random.default_rng(players)
            for _ in range(5):  # into the game: some games asked a question, some picking a second tile
                actions = np.stack([game.view(fast, [p] * batch).random_legal_actions(rng) for p in range(players)])
                game.step(fast, actions, inplace=True)
            slow = fast.copy()
            limit = fast.turn.astype(np.int64) + 3
        first = None
        if players % 2:  # a given first decision for one seat of each game (a searcher's candidate)
            first = np.full((players, batch), -1, dtype=np.int64)
            for p in range(players):
                view = game.view(fast, [p] * batch)
                mine = np.flatnonzero(view.must_act & (np.arange(batch) % players == p))
                first[p, mine] = view.random_legal_actions(np.random.default_rng(p))[mine]
        engine.rollout(fast, limit, first)
        stepped_rollout(slow, limit, first)
        assert_same(fast, slow, (variant, players))
        assert ((fast.phase == PHASE_OVER) | (fast.turn >= limit)).all()


def fixed_sample(variant, players=4, batch=6, steps=7, seed=3):
    """A view of every seat of `batch` games a few random steps in."""
    game = make_game("board", players=players, variant=variant)
    st = game.new_games(game_seeds(seed, batch))
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        game.step(st, np.stack([game.view(st, [p] * batch).random_legal_actions(rng) for p in range(players)]),
                  inplace=True)
    seats = np.repeat(np.arange(players), batch)
    return game, st, game.view(st, seats, np.tile(np.arange(batch), players))


@pytest.mark.parametrize("variant", VARIANTS)
def test_search_estimates_are_the_same_through_the_driver(variant, monkeypatch):
    agent = BoardMonteCarloAgent(rollouts=8)
    _, st, view = fixed_sample(variant)
    after = agent.estimates(view, np.random.default_rng(11))
    acts_after = agent.act(view, np.random.default_rng(12))
    monkeypatch.setattr(search.engine, "rollout", stepped_rollout)
    before = agent.estimates(view, np.random.default_rng(11))
    acts_before = agent.act(view, np.random.default_rng(12))
    assert after.keys() == before.keys() and len(after) > 0
    for e in after:
        assert (after[e][0] == before[e][0]).all() and (after[e][1] == before[e][1]).all(), e
    assert (acts_after == acts_before).all()


def defined_mask(view, st):
    """(n, A) the legal actions as the views defined them in NumPy before the compiled masks."""
    mask = np.zeros((view.n, N_ACTIONS), dtype=bool)
    hand = st.hands[view.seats, :, view.games]
    picking = ((view.phase == PHASE_PICK) | (view.phase == PHASE_PICK_SECOND)) & (hand > 0).any(axis=1)
    asker = (view.phase == PHASE_ASK) & (st.asker[view.games] == view.seats)
    for e in np.flatnonzero(picking):
        mask[e, hand[e][hand[e] > 0] - 1] = True
    if asker.any():
        mask[asker] = answer_masks(st, view.games[asker])
    mask[:, PASS_ACTION] = ~(picking | asker)
    return mask, picking, asker


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_views_compiled_masks_and_random_actions_follow_their_definition(variant):
    game = make_game("board", players=4, variant=variant)
    batch = 64
    st = game.new_games(game_seeds(5, batch))
    rng = np.random.default_rng(5)
    seen_pro = seen_luck = 0
    while not game.game_over(st).all():
        actions = []
        for p in range(4):
            view = game.view(st, [p] * batch)
            mask, picking, asker = defined_mask(view, st)
            assert (view.action_mask() == mask).all() and (view.picking == picking).all()
            assert (view.is_asker == asker).all() and (view.hand_size == (view.hand > 0).sum(axis=1)).all()
            state = rng.bit_generator.state
            a = view.random_legal_actions(rng)
            assert mask[np.arange(batch), a].all()
            # the numbers drawn: n for the tiles when any entry picks, n for the answers, one per pro question
            again = np.random.default_rng()
            again.bit_generator.state = state
            pick = again.random(batch) if picking.any() else None
            if asker.any():
                ask = again.random(batch)
                pro = asker & np.isin(view.ask, (ASK_ACTION, ASK_FREE_ROW))
                u_pro = again.random(int(pro.sum())) if pro.any() else None
                for k, e in enumerate(np.flatnonzero(pro)):
                    legal = np.flatnonzero(mask[e])
                    assert a[e] == legal[int(u_pro[k] * len(legal))]
                    seen_pro += 1
                for e in np.flatnonzero(asker & ~pro):
                    second = int(ask[e] < 0.5)
                    if view.ask[e] == ASK_LUCK_CARD:
                        stack = view.stack[e]
                        second = 1 if stack[PLUS5] == 0 else 0 if stack[DOUBLE] == 0 else second
                        assert a[e] == LUCK_ACTION[PLUS5] + second
                        seen_luck += 1
                    else:
                        assert a[e] == ANSWER_NO + second
            if pick is not None:
                for e in np.flatnonzero(picking):
                    assert a[e] == view.hand[e, int(pick[e] * view.hand_size[e])] - 1
            assert again.bit_generator.state == rng.bit_generator.state
            actions.append(a)
        game.step(st, np.stack(actions), inplace=True)
    assert seen_pro > 0 if game.rules.pro else seen_luck > 0 if game.rules.luck else True


def test_the_unseen_action_cards_are_dealt_as_the_others_hold_them_and_the_rest_to_the_deck():
    game, st, view = fixed_sample("pro", batch=8, steps=20, seed=4)
    known = view.known_state()
    P, K = 4, len(st.config.action_cards)
    absolute = (np.arange(P)[None, :] - view.seats[:, None]) % P
    counts = np.take_along_axis(view.action_counts, absolute, axis=1)
    before = known.action.copy()
    worlds.deal_action_cards(known, view.seats, counts, np.random.default_rng(0))
    for g in range(known.batch_size):
        seat = view.seats[g]
        pool = np.array(st.config.action_cards) - before[:, seat, g] - known.discard[:, g]
        others = [p for p in range(P) if p != seat]
        assert (known.action[:, seat, g] == before[:, seat, g]).all()
        assert [int(known.action[:, p, g].sum()) for p in others] == [int(counts[g, p]) for p in others]
        deck = known.deck[known.deck_at[g]:known.deck_end[g], g]
        dealt = known.action[:, others, g].sum(axis=1) + np.bincount(deck, minlength=K)
        assert (dealt == pool).all(), g
