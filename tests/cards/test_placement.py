"""The placement preview (sixnimmt_env/cards/placement.py) against the independent scalar
references, and the two bugs its copies had: the demo ignored which rows were allowed
(Die Sechste's twin question), and the card-features encoder called a card that may
follow its twin "too low"."""

from __future__ import annotations

import numpy as np
import pytest

from agents.cards.heuristics import outlook
from experiments.play.demo import play_demo
from sixnimmt_env import RuleConfig, from_deal
from sixnimmt_env.cards.encoding import HAND_SLOT_FIELDS, card_layout
from sixnimmt_env.cards.placement import cheapest_row, is_sixth, target_rows
from sixnimmt_env.cards.rules import VARIANTS
from sixnimmt_env.cards.seat_view import SeatView
from tests.support import reference as ref_classic
from tests.support import reference_sechste as ref

SECHSTE = VARIANTS["die-sechste"]


def _sechste_card(card_id: int) -> ref.Card:
    """The reference's (rank, suit, copy) of an engine id."""
    face = (card_id - 1) % 52
    return (face // 4, face % 4, (card_id - 1) // 52)


def random_table(rng, n_ids=104):
    """Four rows of 1..5 distinct ids, and a card that is on none of them."""
    ids = rng.permutation(np.arange(1, n_ids + 1))
    lengths = rng.integers(1, 6, size=4)
    rows, at = [], 0
    for n in lengths:
        rows.append(ids[at:at + n].tolist())
        at += n
    return rows, int(ids[at])


def test_target_row_matches_the_die_sechste_reference():
    for seed in range(400):
        _check_sechste_table(seed)


def _check_sechste_table(seed):
    rng = np.random.default_rng(seed)
    rows, card = random_table(rng)
    if seed % 2:  # make twin-ended rows and twins of row ends common
        twin = rows[0][-1] + 52 if rows[0][-1] <= 52 else rows[0][-1] - 52
        if all(twin not in r for r in rows):
            rows[1][-1] = twin
    ref_rows = [[_sechste_card(c) for c in r] for r in rows]
    asked = []
    result = ref.play_turn(ref_rows, [_sechste_card(card)], 0, "player",
                           lambda seat, options: asked.append(options) or options[0])
    last = np.array([SECHSTE.order[r[-1]] for r in rows])
    count = np.array([len(r) for r in rows])
    row, too_low = target_rows(last, count, np.array([SECHSTE.order[card]]))
    if asked and asked[0] == [0, 1, 2, 3]:  # the reference asks for a row only when too low
        assert too_low[0] and row[0] == -1
        return
    assert not too_low[0]
    placed = next(r for r in range(4) if _sechste_card(card) in result.rows[r])
    assert row[0] == placed  # the shorter twin row, or (equal: the owner) the lower index
    assert is_sixth(count, row)[0] == (count[placed] == 5)


def test_target_row_and_cheapest_row_match_the_classic_reference():
    for seed in range(200):
        _check_classic_table(seed)


def _check_classic_table(seed):
    rng = np.random.default_rng(1000 + seed)
    rows, card = random_table(rng)
    result = ref_classic.play_turn(rows, [card], row_choice="cheapest")
    last = np.array([r[-1] for r in rows])
    count = np.array([len(r) for r in rows])
    bulls = np.array([sum(ref_classic.bullheads(c) for c in r) for r in rows])
    row, too_low = target_rows(last, count, np.array([card]))
    _, _, placed, taken = result.placements[0]
    assert too_low[0] == (result.chooser is not None)
    if too_low[0]:
        assert cheapest_row(bulls, count) == placed == ref_classic.cheapest_row(rows)
    else:
        assert row[0] == placed and is_sixth(count, row)[0] == bool(taken)
    options = rng.random(4) < 0.5
    options[rng.integers(4)] = True
    allowed = [r for r in range(4) if options[r]]
    sechste_rows = [[_sechste_card(c) for c in r] for r in rows]  # same ids, other points
    expect = ref.cheapest(sechste_rows, allowed)
    points = np.array([ref.row_points(r) for r in sechste_rows])
    assert cheapest_row(points, count, options) == expect


def test_batched_shapes():
    last = np.array([[5, 10, 20, 30], [1, 2, 3, 4]])
    count = np.array([[1, 2, 5, 1], [1, 1, 1, 1]])
    row, low = target_rows(last, count, np.array([[4, 21, 31], [9, 1, 0]]))
    assert row.tolist() == [[-1, 2, 3], [3, 0, -1]]
    assert low.tolist() == [[True, False, False], [False, False, True]]
    assert is_sixth(count, row).tolist() == [[False, True, False], [False, False, False]]


@pytest.mark.parametrize("seed", [8, 0, 1, 2, 3])
def test_demo_plays_die_sechste_twin_questions(seed):
    """Seed 8 used to end in IllegalActionError: row 2 cannot be chosen; legal rows: [1, 3]."""
    lines = []
    record = play_demo(RuleConfig(players=10, variant="die-sechste"), seed, echo=lines.append)
    assert lines[-1].startswith("winner") and record["winners"]


def _twin_position():
    """Die Sechste, 5 players: row 0 ends in 7C (id 25), seat 0 holds its twin 7C* (77)."""
    config = RuleConfig(players=5, variant="die-sechste")
    rows = [[3, 25, 0, 0, 0], [40, 0, 0, 0, 0], [60, 0, 0, 0, 0], [90, 0, 0, 0, 0]]  # row 0 ends in 7C
    hands = [[77, 100], [5, 101], [6, 102], [7, 103], [8, 104]]
    return config, from_deal(config, [hands], [rows])


def test_card_features_let_a_card_follow_its_twin():
    config, st = _twin_position()
    layout = card_layout(config, "card-features")
    slots = layout.decode(SeatView(st, [0]).encode(layout)[0])["hand_slots"]
    k = {name: i for i, (name, _) in enumerate(HAND_SLOT_FIELDS)}
    twin = slots[0]  # the hand sorted by id: 77 first
    assert twin[k["id"]] == pytest.approx(77 / 104)
    assert twin[k["too_low"]] == 0  # it follows its twin on row 0 (it used to say 1)
    assert twin[k["row_count"]] == pytest.approx(2 / 5)
    assert twin[k["gap"]] == 0 and twin[k["unseen_gap"]] == 0 and twin[k["others_gap"]] == 0
    o = outlook(SeatView(st, [0]))  # the heuristics agree
    i = int(np.flatnonzero(o.card[0] == 77)[0])
    assert not o.too_low[0, i] and o.gap[0, i] == 0
