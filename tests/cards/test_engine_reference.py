"""The batched engine against the slow scalar reference (tests/support/reference.py), turn by turn.

Random players (uniform legal cards, uniform rows when asked) play batches of games; after
every step each game's rows and penalties must match what the reference computes from
the position before it, and so must the step's placements and their rule flags
(StepEvents.rule). Covers 2–10 players, both row-choice modes and both decks.
"""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env import PHASE_CARDS, PHASE_OVER, PHASE_ROW, RuleConfig, game_seeds, new_games, step
from tests.support import reference as ref
from tests.support.rule_flags import rule_names


def random_actions(st, rng: np.random.Generator) -> np.ndarray:
    """(P, B) uniformly random legal actions for every seat of every game."""
    P, B = st.players, st.batch_size
    actions = np.zeros((P, B), dtype=np.int64)
    n_cards = 10 - st.turn.astype(np.int64)
    slots = (rng.random((P, B)) * np.maximum(n_cards, 1)).astype(np.int64)
    actions[:] = np.take_along_axis(st.hands.transpose(2, 0, 1), slots.T[:, :, None], 2)[:, :, 0].T
    rows = rng.integers(0, 4, size=B)
    for b in np.flatnonzero(st.phase == PHASE_ROW):
        actions[st.chooser[b], b] = rows[b]
    return actions


def placements(ev, b: int) -> list[tuple[int, int, int, set[str]]]:
    """(seat, card, row, rule names) of every placement of game b in one step's events."""
    return [(int(ev.seat[k, b]), int(ev.card[k, b]), int(ev.row[k, b]), set(rule_names(int(ev.rule[k, b]))))
            for k in np.flatnonzero(ev.card[:, b])]


def expected_placements(result: ref.TurnResult) -> list[tuple[int, int, int, set[str]]]:
    """The same from the reference: the chooser's card is the too-low one (Rule 4), any
    other card that takes cards is a sixth card (Rule 3)."""
    out = []
    for seat, card, row, taken in result.placements:
        rules = {"too_low"} if seat == result.chooser else ({"sixth"} if taken else set())
        out.append((seat, card, row, rules))
    return out


def play_against_reference(cfg: RuleConfig, batch: int, seed: int) -> int:
    """Play `batch` games to the end, checking every step; returns the turns checked."""
    rng = np.random.default_rng(seed)
    st = new_games(cfg, game_seeds(seed, batch))
    waiting: dict[int, tuple] = {}  # game -> (rows, cards) of a turn parked for a row choice
    checked = 0
    while not st.game_over().all():
        before_rows = [st.row_lists(b) for b in range(batch)]
        before_total = st.total().copy()
        before_phase = st.phase.copy()
        before_dealer, before_round = st.dealer.copy(), st.round.copy()
        actions = random_actions(st, rng)
        st, ev = step(st, actions, report=True)
        for b in range(batch):
            if before_phase[b] == PHASE_OVER:
                continue
            if before_phase[b] == PHASE_CARDS:
                cards = actions[:, b].tolist()
                needs_choice = cfg.row_choice == "player" and min(cards) < min(r[-1] for r in before_rows[b])
                if needs_choice:
                    assert st.phase[b] == PHASE_ROW, f"game {b}: too-low card must wait for a choice"
                    assert st.chooser[b] == cards.index(min(cards))
                    assert st.row_lists(b) == before_rows[b], "nothing is placed before the choice"
                    waiting[b] = (before_rows[b], cards, before_total[:, b].copy())
                    continue
                result = ref.play_turn(before_rows[b], cards, cfg.row_choice)
                start_total = before_total[:, b]
            else:
                rows0, cards, start_total = waiting.pop(b)
                chooser = cards.index(min(cards))
                result = ref.play_turn(rows0, cards, "player", choice=int(actions[chooser, b]))
            checked += 1
            assert placements(ev, b) == expected_placements(result), f"game {b}: placements or rule flags differ"
            expected_total = start_total + np.array(result.penalties)
            assert (st.total()[:, b] == expected_total).all(), f"game {b}: penalties differ"
            if ev.round_over[b]:
                assert st.game_over()[b] == ref.game_over(
                    st.score[:, b].tolist(), int(before_round[b]) + 1, cfg.end_score, cfg.max_rounds)
                if st.game_over()[b]:
                    assert np.flatnonzero(st.winners()[:, b]).tolist() == ref.winners(st.score[:, b].tolist())
                else:
                    assert st.dealer[b] == ref.next_dealer(int(before_dealer[b]), cfg.players)
                    assert st.round[b] == before_round[b] + 1
            else:
                assert st.row_lists(b) == result.rows, f"game {b}: rows differ"
    return checked


CONFIGS = [
    (players, row_choice, deck)
    for players in range(2, 11)
    for row_choice in ("player", "cheapest")
    for deck in ("full", "exact")
]


@pytest.mark.parametrize("players,row_choice,deck", CONFIGS)
def test_single_rounds_match_reference(players, row_choice, deck):
    """2,160 one-round games (60 per configuration) agree with the reference on every turn."""
    cfg = RuleConfig(players=players, row_choice=row_choice, deck=deck, end_score=None, max_rounds=1)
    assert play_against_reference(cfg, batch=60, seed=players * 10 + len(row_choice)) >= 600


@pytest.mark.parametrize("players,row_choice", [(2, "player"), (4, "player"), (5, "cheapest"), (10, "player")])
def test_whole_games_match_reference(players, row_choice):
    """Games to 66 points: scoring, dealer rotation, game end and winners match too."""
    cfg = RuleConfig(players=players, row_choice=row_choice)
    play_against_reference(cfg, batch=12, seed=100 + players)
