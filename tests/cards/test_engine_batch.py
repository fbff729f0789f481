"""Batching, seeding, invariants and state handling of the engine."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from sixnimmt_env import PHASE_CARDS, PHASE_ROW, RuleConfig, concat, from_deal, game_seeds, new_games, step
from sixnimmt_env.core.sorting import sorting_network
from tests.cards.test_engine_reference import random_actions

FULL_DECK_BULLHEADS = 171


def play_out(st, seed: int):
    """Play a batch to its end with random actions; yields (before, actions, after)."""
    rngs = [np.random.default_rng([seed, int(s % 2**32)]) for s in st.seed]
    while not st.game_over().all():
        # One generator per game keeps each game's actions independent of its batch.
        actions = np.concatenate([random_actions(st.take(b), rngs[b]) for b in range(st.batch_size)], 1)
        after, _ = step(st, actions)
        yield st, actions, after
        st = after


@pytest.mark.parametrize("n", range(2, 11))
def test_sorting_network_sorts_every_0_1_input(n):
    """0-1 principle: a network sorting all 0/1 inputs sorts everything."""
    pairs = sorting_network(n)
    for bits in itertools.product((0, 1), repeat=n):
        v = list(bits)
        for i, j in pairs:
            if v[i] > v[j]:
                v[i], v[j] = v[j], v[i]
        assert v == sorted(v)


def test_game_is_the_same_alone_or_in_a_batch():
    cfg = RuleConfig(players=5)
    seeds = game_seeds(11, 64)
    big = new_games(cfg, seeds)
    for b in (0, 17, 63):
        alone = new_games(cfg, seeds[b:b + 1])
        assert (alone.hands[..., 0] == big.hands[..., b]).all()
        assert (alone.rows[..., 0] == big.rows[..., b]).all()
        assert alone.dealer[0] == big.dealer[b]


def test_later_rounds_depend_only_on_the_game_seed():
    """Whole games played in a batch equal the same games played one at a time."""
    cfg = RuleConfig(players=3, row_choice="player")
    seeds = game_seeds(5, 6)
    batched = [after for *_, after in play_out(new_games(cfg, seeds), seed=1)][-1]
    for b in range(6):
        alone = [after for *_, after in play_out(new_games(cfg, seeds[b:b + 1]), seed=1)][-1]
        assert (alone.score[:, 0] == batched.score[:, b]).all()
        assert alone.round[0] == batched.round[b]


def test_same_seed_same_games_different_seed_different_games():
    cfg = RuleConfig(players=4)
    a, b = new_games(cfg, game_seeds(1, 8)), new_games(cfg, game_seeds(1, 8))
    c = new_games(cfg, game_seeds(2, 8))
    assert (a.hands == b.hands).all() and (a.rows == b.rows).all()
    assert not (a.hands == c.hands).all()


def test_deals_are_uniform_enough():
    """Each card lands in seat 0's hand with probability 10/104 (chi-square style bound)."""
    cfg = RuleConfig(players=4)
    st = new_games(cfg, game_seeds(3, 20000))
    counts = np.bincount(st.hands[0].ravel(), minlength=105)[1:]
    expected = 20000 * 10 / 104
    assert np.abs(counts - expected).max() < 5 * np.sqrt(expected)
    starters = np.bincount(st.starters.ravel(), minlength=105)[1:]
    assert np.abs(starters - 20000 * 4 / 104).max() < 5 * np.sqrt(20000 * 4 / 104)


@pytest.mark.parametrize("players,row_choice,deck", [(2, "player", "full"), (4, "cheapest", "full"),
                                                     (7, "player", "exact"), (10, "player", "full")])
def test_invariants_hold_on_every_step(players, row_choice, deck):
    """Every card accounted for, bullheads conserved, rows of 1..5, a legal action for
    every seat that must act, and none for seats that need not."""
    cfg = RuleConfig(players=players, row_choice=row_choice, deck=deck, end_score=None, max_rounds=2)
    v = cfg.variant_data
    deck_ids = set(v.deck(players, deck).tolist())
    int(v.bullheads[list(deck_ids)].sum())
    st = new_games(cfg, game_seeds(players, 16))
    rng = np.random.default_rng(0)
    taken = np.zeros(st.batch_size, dtype=int)  # cards taken this round, from the events
    steps = 0
    while not st.game_over().all():
        for b in range(st.batch_size):
            if st.game_over()[b]:
                continue
            hands = [c for h in st.hand_lists(b) for c in h]
            rows = [c for r in st.row_lists(b) for c in r]
            # in the row phase the turn's cards have left the hands but wait to be placed
            waiting = [int(c) for c in st.revealed[:, b] if c] if st.phase[b] == PHASE_ROW else []
            assert len(hands) == players * (10 - st.turn[b] - len(waiting) // players)
            everything = hands + rows + waiting
            assert set(everything) <= deck_ids
            assert len(set(everything)) == len(everything), "a card is in two places"
            assert len(everything) + taken[b] == 10 * players + 4, "a card went missing"
            assert all(1 <= len(r) <= 5 for r in st.row_lists(b))
            legal = st.legal_cards()[:, :, b].any(axis=1) | st.legal_rows()[:, :, b].any(axis=1)
            if st.phase[b] == PHASE_CARDS:
                assert legal.all()
            else:
                assert legal.tolist() == [p == st.chooser[b] for p in range(players)]
        st, ev = step(st, random_actions(st, rng), report=True)
        taken += (ev.taken > 0).sum(axis=(0, 1))
        taken[ev.round_over] = 0
        steps += 1
    assert steps >= 20


def test_full_deck_holds_171_bullheads_and_penalties_conserve_them():
    """Bullheads in hands + rows + penalties stay 171 minus the unused cards' bullheads."""
    cfg = RuleConfig(players=10, end_score=None, max_rounds=1)  # 104 cards: all in play
    v = cfg.variant_data
    assert int(v.bullheads.sum()) == FULL_DECK_BULLHEADS
    st = new_games(cfg, game_seeds(0, 8))
    rng = np.random.default_rng(2)
    while not st.game_over().all():
        for b in range(8):
            cards = [c for h in st.hand_lists(b) for c in h] + [c for r in st.row_lists(b) for c in r]
            waiting = [int(c) for c in st.revealed[:, b] if c] if st.phase[b] == PHASE_ROW else []
            assert int(v.bullheads[cards + waiting].sum()) + int(st.total()[:, b].sum()) == 171
        st, _ = step(st, random_actions(st, rng))


def test_take_repeat_concat_copy():
    cfg = RuleConfig(players=4)
    st = new_games(cfg, game_seeds(0, 5))
    part = st.take([1, 3])
    assert part.batch_size == 2 and (part.hands[..., 1] == st.hands[..., 3]).all()
    rep = st.take([2]).repeat(1000)
    assert rep.batch_size == 1000 and (rep.hands == st.hands[..., 2:3]).all()
    both = concat([part, st.take(np.array([False, False, False, False, True]))])
    assert both.batch_size == 3 and (both.rows[:, 2] == st.rows[:, 4]).all()
    cp = st.copy()
    cp.hands[:] = 0
    assert st.hands.any()
    # branched games evolve independently
    rng = np.random.default_rng(1)
    after, _ = step(rep, random_actions(rep, rng))
    assert len({tuple(after.hands[:, :, b].ravel()) for b in range(1000)}) > 1


def test_from_deal_mid_round_position_plays_like_the_original():
    """A position rebuilt from cards alone continues exactly like the game it came from."""
    cfg = RuleConfig(players=4, row_choice="cheapest", end_score=None, max_rounds=1)
    st = new_games(cfg, game_seeds(9, 1))
    rng = np.random.default_rng(0)
    for _ in range(4):
        st, _ = step(st, random_actions(st, rng))
    rows = np.zeros((1, 4, 5), dtype=np.int64)
    for r, row in enumerate(st.row_lists(0)):
        rows[0, r, :len(row)] = row
    hands = np.array([[h for h in st.hand_lists(0)]])
    rebuilt = from_deal(cfg, hands, rows, dealer=st.dealer, penalty=st.penalty.T)
    assert rebuilt.turn[0] == 4
    while not st.game_over()[0]:
        actions = random_actions(st, rng)
        st, _ = step(st, actions)
        rebuilt, _ = step(rebuilt, actions)
        assert rebuilt.row_lists(0) == st.row_lists(0) or st.game_over()[0]
    assert (rebuilt.total() == st.total()).all()


def test_step_is_pure_unless_inplace():
    cfg = RuleConfig(players=3)
    st = new_games(cfg, game_seeds(0, 4))
    before = st.copy()
    actions = random_actions(st, np.random.default_rng(0))
    after, _ = step(st, actions)
    assert (st.hands == before.hands).all() and (st.rows == before.rows).all()
    same, _ = step(st, actions, inplace=True)
    assert same is st and (st.rows == after.rows).all()
