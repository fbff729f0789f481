"""Data-driven rule cases: every statement of docs/rules/classic.md, run on the engine.

Each section is a table of scripted cases (plain dicts / parametrize rows) and one small
runner. Section names follow classic.md: Material, A round (steps 1-6, Rules 1-4), End of
the game, Common variants, Beginner mistakes; then engine-level contracts (illegal actions,
invalid configurations) the brief asks for.

Conventions: seats 0..P-1; rows 0..3 keep their index when taken; seat s+1 sits to the
left of seat s, so the next dealer is (dealer + 1) % P. Bullhead values used in the
expected numbers: 55 -> 7, multiples of 11 -> 5, multiples of 10 -> 3, ending in 5 -> 2,
others -> 1.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from sixnimmt_env import (
    PHASE_CARDS,
    PHASE_OVER,
    PHASE_ROW,
    ConfigError,
    IllegalActionError,
    RuleConfig,
    concat,
    from_deal,
    game_seeds,
    new_games,
    step,
)

BULLS = RuleConfig().variant_data.bullheads
NO_SEAT = -1


def bulls(cards) -> int:
    """Sum of the bullheads of `cards` per the engine's table."""
    return int(sum(int(BULLS[c]) for c in cards))


def pad_rows(rows: list[list[int]]) -> list[list[int]]:
    """Row contents as the (4, 5) 0-padded layout from_deal takes."""
    return [list(r) + [0] * (5 - len(r)) for r in rows]


def column(values) -> np.ndarray:
    """(P,) per-seat values as a (P, 1) action array for a batch of one game."""
    return np.asarray(values, dtype=np.int64)[:, None]


def table_ok(st, b: int = 0) -> None:
    """The packed row summary (count, bullheads) agrees with the row contents."""
    lists = st.row_lists(b)
    assert st.row_count[:, b].tolist() == [len(r) for r in lists]
    assert st.row_bulls[:, b].tolist() == [bulls(r) for r in lists]


# =========================================================================== Material

BULLHEAD_CLASSES = [
    # (class, cards, bullheads each) -- "Material": the five card classes
    ("55 is a double and a five", [55], 7),
    ("multiples of 11", [11, 22, 33, 44, 66, 77, 88, 99], 5),
    ("multiples of 10", [10, 20, 30, 40, 50, 60, 70, 80, 90, 100], 3),
    ("ending in 5, 55 excepted", [5, 15, 25, 35, 45, 65, 75, 85, 95], 2),
    ("every other card (sample)", [1, 2, 3, 4, 6, 9, 12, 21, 54, 56, 98, 101, 102, 103, 104], 1),
]


@pytest.mark.parametrize("name,cards,value", BULLHEAD_CLASSES, ids=[c[0] for c in BULLHEAD_CLASSES])
def test_bullheads_per_card_class(name, cards, value):
    assert [int(BULLS[c]) for c in cards] == [value] * len(cards)


def test_bullheads_whole_deck_totals():
    assert BULLS.shape == (105,)
    assert int(BULLS[0]) == 0  # card id 0 is the "no card" sentinel
    deck = BULLS[1:105]
    assert int(deck.sum()) == 171
    assert dict(Counter(int(b) for b in deck)) == {7: 1, 5: 8, 3: 10, 2: 9, 1: 76}
    # The class table above lists every card worth more than 1.
    above_one = sorted(c for _, cards, v in BULLHEAD_CLASSES if v > 1 for c in cards)
    assert above_one == [c for c in range(1, 105) if BULLS[c] > 1]


# =========================================================================== A round, step 1: the deal

DEAL_CASES = [(p, deck) for p in range(2, 11) for deck in ("full", "exact")]


@pytest.mark.parametrize("players,deck", DEAL_CASES, ids=[f"P{p}-{d}" for p, d in DEAL_CASES])
def test_deal(players, deck):
    cfg = RuleConfig(players=players, deck=deck)
    st = new_games(cfg, game_seeds(7, 6))
    deck_ids = set(range(1, 105)) if deck == "full" else set(range(1, 10 * players + 5))
    assert cfg.variant_data.deck(players, deck).tolist() == sorted(deck_ids)
    for b in range(st.batch_size):
        hands, rows = st.hand_lists(b), st.row_lists(b)
        assert [len(h) for h in hands] == [10] * players
        assert [len(r) for r in rows] == [1, 1, 1, 1]
        dealt = [c for h in hands for c in h] + [r[0] for r in rows]
        assert len(dealt) == len(set(dealt)) == 10 * players + 4  # all distinct
        assert set(dealt) <= deck_ids
        if deck == "exact" or players == 10:
            assert set(dealt) == deck_ids  # every card of the deck is in play
        assert st.starters[:, b].tolist() == [r[0] for r in rows]
        table_ok(st, b)
    assert (st.phase == PHASE_CARDS).all() and (st.turn == 0).all() and (st.round == 0).all()
    assert (st.penalty == 0).all() and (st.score == 0).all()
    assert ((st.dealer >= 0) & (st.dealer < players)).all()
    assert (st.chooser == NO_SEAT).all()


# =========================================================================== A round, steps 2-4: one turn

# One scripted turn per case. `rows`: the table before the turn; `play`: the card each seat
# reveals (P = len(play)); every seat also holds one spare card, so the turn is not the
# last of the round and the table is not re-dealt. Expected: `placed` = (card, row, taken
# cards) in placing order, `rows` after the turn, `penalty` per seat. A case with `choice`
# is a Rule-4 turn under row_choice="player": the game must first stop in PHASE_ROW with
# `chooser` to pick, then `choice` is played.
TURN_CASES = [
    # --- Rule 1: a card only follows a row whose last card is lower
    dict(id="rule1-follows-lower-not-closer-higher", rows=[[10], [20], [30], [40]], play=[28, 45],
         placed=[(28, 1, []), (45, 3, [])],
         after=[[10], [20, 28], [30], [40, 45]], penalty=[0, 0]),
    dict(id="rule1-last-card-counts-not-first", rows=[[3, 30], [25], [10, 12], [60]], play=[28, 31],
         placed=[(28, 1, []), (31, 0, [])],
         after=[[3, 30, 31], [25, 28], [10, 12], [60]], penalty=[0, 0]),
    # --- Rule 2: of the rows with a lower last card, the closest below wins
    dict(id="rule2-closest-below-wins", rows=[[5], [22], [18], [50]], play=[23, 19],
         placed=[(19, 2, []), (23, 1, [])],
         after=[[5], [22, 23], [18, 19], [50]], penalty=[0, 0]),
    dict(id="rule2-any-row-index", rows=[[50], [98], [99], [96]], play=[100, 51],
         placed=[(51, 0, []), (100, 2, [])],
         after=[[50, 51], [98], [99, 100], [96]], penalty=[0, 0]),
    dict(id="rule2-difference-one-vs-many", rows=[[60], [1, 2, 3, 4], [70], [61]], play=[62, 5, 71],
         placed=[(5, 1, []), (62, 3, []), (71, 2, [])],
         after=[[60], [1, 2, 3, 4, 5], [70, 71], [61, 62]], penalty=[0, 0, 0]),
    # --- Rule 3: a sixth card takes the 5 and starts the row; penalty = their bullheads
    dict(id="rule3-sixth-card-takes-five", rows=[[10, 11, 12, 13, 14], [30], [40], [50]], play=[15, 31],
         placed=[(15, 0, [10, 11, 12, 13, 14]), (31, 1, [])],
         after=[[15], [30, 31], [40], [50]], penalty=[3 + 5 + 1 + 1 + 1, 0]),
    dict(id="rule3-penalty-is-bullheads-not-count", rows=[[44, 45, 50, 52, 55], [60], [70], [80]],
         play=[56, 81],
         placed=[(56, 0, [44, 45, 50, 52, 55]), (81, 3, [])],
         after=[[56], [60], [70], [80, 81]], penalty=[5 + 2 + 3 + 1 + 7, 0]),
    dict(id="rule3-fifth-card-no-penalty", rows=[[10, 11, 12, 13], [30], [40], [50]], play=[14, 51],
         placed=[(14, 0, []), (51, 3, [])],
         after=[[10, 11, 12, 13, 14], [30], [40], [50, 51]], penalty=[0, 0]),
    dict(id="rule3-only-if-rule2-sends-it-there", rows=[[10, 11, 12, 13, 14], [20], [40], [50]],
         play=[21, 41],
         placed=[(21, 1, []), (41, 2, [])],
         after=[[10, 11, 12, 13, 14], [20, 21], [40, 41], [50]], penalty=[0, 0]),
    dict(id="rule3-new-first-card-is-followed", rows=[[10, 11, 12, 13, 14], [30], [40], [50]],
         play=[16, 15],
         placed=[(15, 0, [10, 11, 12, 13, 14]), (16, 0, [])],
         after=[[15, 16], [30], [40], [50]], penalty=[0, 11]),
    # --- Step 3: lowest card first, each against the table the earlier cards left
    dict(id="order-lower-card-fills-row-higher-is-sixth", rows=[[10, 11, 12, 13], [30], [40], [50]],
         play=[15, 14],
         placed=[(14, 0, []), (15, 0, [10, 11, 12, 13, 14])],
         after=[[15], [30], [40], [50]], penalty=[11, 0]),
    dict(id="order-lower-card-changes-target", rows=[[10], [20], [30], [40]], play=[23, 21],
         placed=[(21, 1, []), (23, 1, [])],
         after=[[10], [20, 21, 23], [30], [40]], penalty=[0, 0]),
    dict(id="order-not-seat-order-5p", rows=[[10], [20], [30], [40]], play=[45, 44, 43, 42, 41],
         placed=[(41, 3, []), (42, 3, []), (43, 3, []), (44, 3, []), (45, 3, [40, 41, 42, 43, 44])],
         after=[[10], [20], [30], [45]], penalty=[3 + 1 + 1 + 1 + 5, 0, 0, 0, 0]),
    dict(id="order-10p-mixed", rows=[[5], [25], [50], [75]],
         play=[10, 6, 51, 26, 77, 7, 52, 8, 9, 27],
         placed=[(6, 0, []), (7, 0, []), (8, 0, []), (9, 0, []), (10, 0, [5, 6, 7, 8, 9]),
                 (26, 1, []), (27, 1, []), (51, 2, []), (52, 2, []), (77, 3, [])],
         after=[[10], [25, 26, 27], [50, 51, 52], [75, 77]],
         penalty=[2 + 1 + 1 + 1 + 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    # --- Rule 4, row_choice="cheapest": fewest bullheads, then fewest cards, then lowest index
    dict(id="rule4-cheapest-fewest-bullheads", row_choice="cheapest",
         rows=[[55], [22], [30], [41, 42]], play=[1, 60],
         placed=[(1, 3, [41, 42]), (60, 0, [])],
         after=[[55, 60], [22], [30], [1]], penalty=[2, 0]),
    dict(id="rule4-cheapest-tie-fewest-cards", row_choice="cheapest",
         rows=[[15, 16], [30], [41, 42, 43], [55]], play=[2, 3],
         placed=[(2, 1, [30]), (3, 1, [])],
         after=[[15, 16], [2, 3], [41, 42, 43], [55]], penalty=[3, 0]),
    dict(id="rule4-cheapest-tie-lowest-index", row_choice="cheapest",
         rows=[[55], [20], [30], [40]], play=[4, 2],
         placed=[(2, 1, [20]), (4, 1, [])],
         after=[[55], [2, 4], [30], [40]], penalty=[0, 3]),
    dict(id="rule4-cheapest-may-be-a-five-card-row", row_choice="cheapest",
         rows=[[21, 23, 24, 26, 27], [55], [66, 67], [77, 78]], play=[1, 2],
         placed=[(1, 0, [21, 23, 24, 26, 27]), (2, 0, [])],
         after=[[1, 2], [55], [66, 67], [77, 78]], penalty=[5, 0]),
    # --- Rule 4, row_choice="player": the owner of the too-low card picks any row
    *[dict(id=f"rule4-player-takes-row-{c}", rows=[[10, 11, 12, 13, 14], [20], [30, 33], [55]],
           play=[21, 56, 2], chooser=2, choice=c, placed=placed, after=after, penalty=pen)
      for c, placed, after, pen in [
          # the 5-card row (Rule 4 takes a full row too; 11 bullheads)
          (0, [(2, 0, [10, 11, 12, 13, 14]), (21, 1, []), (56, 3, [])],
           [[2], [20, 21], [30, 33], [55, 56]], [0, 0, 11]),
          # the cheapest row; the choice changes later cards: 21 now follows 14 as a sixth
          (1, [(2, 1, [20]), (21, 0, [10, 11, 12, 13, 14]), (56, 3, [])],
           [[21], [2], [30, 33], [55, 56]], [11, 0, 3]),
          # a 2-card row, not the cheapest
          (2, [(2, 2, [30, 33]), (21, 1, []), (56, 3, [])],
           [[10, 11, 12, 13, 14], [20, 21], [2], [55, 56]], [0, 0, 8]),
          # the 55 row; 56 then follows 33 instead
          (3, [(2, 3, [55]), (21, 1, []), (56, 2, [])],
           [[10, 11, 12, 13, 14], [20, 21], [30, 33, 56], [2]], [0, 0, 7]),
      ]],
    # Only the turn's lowest card can be too low: 7 is below every row end of the table as
    # it was, but follows 5 once 5 started its row -> one choice only.
    dict(id="rule4-only-lowest-card-chooses", rows=[[50], [60], [70], [80]], play=[7, 5],
         chooser=1, choice=2,
         placed=[(5, 2, [70]), (7, 2, [])],
         after=[[50], [60], [5, 7], [80]], penalty=[0, 3]),
    dict(id="rule4-only-lowest-card-chooses-4p", rows=[[50], [60], [70], [80]], play=[6, 5, 8, 7],
         chooser=1, choice=0,
         placed=[(5, 0, [50]), (6, 0, []), (7, 0, []), (8, 0, [])],
         after=[[5, 6, 7, 8], [60], [70], [80]], penalty=[0, 3, 0, 0]),
    dict(id="rule4-cheapest-only-lowest-card", row_choice="cheapest",
         rows=[[50], [61], [70], [80]], play=[6, 5, 8, 7],
         placed=[(5, 1, [61]), (6, 1, []), (7, 1, []), (8, 1, [])],
         after=[[50], [5, 6, 7, 8], [70], [80]], penalty=[0, 1, 0, 0]),
]


def spares(case) -> list[int]:
    """One unused card per seat, so that the scripted turn is not the round's last."""
    used = {c for r in case["rows"] for c in r} | set(case["play"])
    return [c for c in range(104, 0, -1) if c not in used][: len(case["play"])]


def turn_setup(case):
    cfg = RuleConfig(players=len(case["play"]), row_choice=case.get("row_choice", "player"))
    hands = [[[c, s] for c, s in zip(case["play"], spares(case))]]
    return from_deal(cfg, hands, [pad_rows(case["rows"])])


def placements(ev, b: int = 0):
    """(card, seat, row, taken) of each card placed in a step, in placing order."""
    out = []
    for k in range(ev.card.shape[0]):
        if ev.card[k, b]:
            taken = [int(c) for c in ev.taken[k, :, b] if c]
            out.append((int(ev.card[k, b]), int(ev.seat[k, b]), int(ev.row[k, b]), taken))
    return out


def expected_placements(case):
    return [(card, case["play"].index(card), row, taken) for card, row, taken in case["placed"]]


def check_parked(case, st, ev):
    """Rule 4, player choice: the game waits for the too-low card's owner, nothing placed yet."""
    P, chooser = len(case["play"]), case["chooser"]
    assert st.phase[0] == PHASE_ROW
    assert st.chooser[0] == chooser and ev.chooser[0] == chooser
    legal = st.legal_rows()[:, :, 0]
    assert legal[chooser].tolist() == [True] * 4  # any row, whatever its length
    assert not np.delete(legal, chooser, axis=0).any()  # the others have nothing to decide
    assert not st.legal_cards().any()  # no card can be played meanwhile
    assert placements(ev) == []  # the choice comes before the too-low card is placed
    assert st.row_lists(0) == case["rows"] and st.penalty[:, 0].tolist() == [0] * P
    # ...with every revealed card of the turn visible, lowest first, the chooser's first.
    order = sorted(range(P), key=lambda s: case["play"][s])
    assert st.revealed[:, 0].tolist() == sorted(case["play"])
    assert st.revealed_seat[:, 0].tolist() == order
    assert order[0] == chooser
    seen = st.seen()[:, 0]
    assert all(seen[c] for c in case["play"])
    assert [len(h) for h in st.hand_lists(0)] == [1] * P  # the revealed cards left the hands
    assert st.turn[0] == 8  # the turn is not over


def choice_actions(case, junk: int = 999):
    """PHASE_ROW actions: the chooser's row; junk everywhere else (must be ignored)."""
    acts = [junk] * len(case["play"])
    acts[case["chooser"]] = case["choice"]
    return column(acts)


@pytest.mark.parametrize("case", TURN_CASES, ids=[c["id"] for c in TURN_CASES])
def test_turn(case):
    P = len(case["play"])
    st = turn_setup(case)
    assert st.turn[0] == 8 and st.phase[0] == PHASE_CARDS
    st, ev = step(st, column(case["play"]), report=True)
    if "choice" in case:
        check_parked(case, st, ev)
        st, ev = step(st, choice_actions(case), report=True)
    assert placements(ev) == expected_placements(case)
    assert st.phase[0] == PHASE_CARDS and st.chooser[0] == NO_SEAT  # no (second) choice
    assert not st.legal_rows().any()
    assert st.row_lists(0) == case["after"]
    table_ok(st)
    assert st.penalty[:, 0].tolist() == case["penalty"]
    assert st.total()[:, 0].tolist() == case["penalty"]
    for k, (_, _, _, taken) in enumerate(placements(ev)):
        assert ev.taken_bulls[k, 0] == bulls(taken)  # the owner's penalty: their bullheads
    # Step 5: taken cards are gone for good; every hand shrank by exactly one card.
    assert st.turn[0] == 9 and st.round[0] == 0 and st.score[:, 0].tolist() == [0] * P
    assert st.hand_lists(0) == [[s] for s in spares(case)]
    on_table = {c for r in st.row_lists(0) for c in r}
    for _, _, _, taken in placements(ev):
        assert not set(taken) & on_table
        assert not set(taken) & {c for h in st.hand_lists(0) for c in h}


def _turn_groups():
    groups: dict[tuple, list] = {}
    for case in TURN_CASES:
        groups.setdefault((len(case["play"]), case.get("row_choice", "player")), []).append(case)
    return groups


@pytest.mark.parametrize("key", list(_turn_groups()), ids=[f"P{p}-{rc}" for p, rc in _turn_groups()])
def test_turn_cases_batched(key):
    """The same cases stepped together in one batch (mixing games that stop for a Rule-4
    choice with games that do not) give each game the result it gets alone."""
    cases = _turn_groups()[key]
    st = concat([turn_setup(c) for c in cases])
    st, _ = step(st, np.concatenate([column(c["play"]) for c in cases], axis=1))
    spare_cols = [column(spares(c)) for c in cases]
    parked = [b for b, c in enumerate(cases) if "choice" in c]
    for b, case in enumerate(cases):
        if "choice" in case:
            assert st.phase[b] == PHASE_ROW and st.chooser[b] == case["chooser"]
        else:
            assert st.phase[b] == PHASE_CARDS
            assert st.row_lists(b) == case["after"]
            assert st.penalty[:, b].tolist() == case["penalty"]
    if parked:
        # One step: the parked games pick their row while the others play their last card.
        acts = np.concatenate([choice_actions(c) if "choice" in c else spare_cols[b]
                               for b, c in enumerate(cases)], axis=1)
        st, _ = step(st, acts)
        for b in parked:
            assert st.phase[b] == PHASE_CARDS and st.turn[b] == 9
            assert st.row_lists(b) == cases[b]["after"]
            assert st.penalty[:, b].tolist() == cases[b]["penalty"]
            table_ok(st, b)


# =========================================================================== A round, steps 5-6: a whole round

ROUND_CASES = [
    dict(players=2, row_choice="player", deck="full", seed=1),
    dict(players=4, row_choice="cheapest", deck="full", seed=2),
    dict(players=5, row_choice="player", deck="exact", seed=3),
    dict(players=10, row_choice="player", deck="full", seed=4),
    dict(players=10, row_choice="cheapest", deck="exact", seed=5),
]


@pytest.mark.parametrize("case", ROUND_CASES,
                         ids=[f"P{c['players']}-{c['row_choice']}-{c['deck']}" for c in ROUND_CASES])
def test_whole_round(case):
    """Ten turns; hands shrink by one per turn; taken cards never come back; every dealt
    card is in exactly one of hands / rows / penalty piles (/ revealed, while a Rule-4
    choice is pending); then the round is scored, the next seat to the left deals and all
    cards are shuffled and dealt again."""
    P = case["players"]
    cfg = RuleConfig(players=P, row_choice=case["row_choice"], deck=case["deck"])
    games = new_games(cfg, game_seeds(case["seed"], 3))
    rng = np.random.default_rng(case["seed"])
    choices = 0
    for b in range(games.batch_size):
        st = games.take(b)
        dealt = sorted([c for h in st.hand_lists(0) for c in h] + [r[0] for r in st.row_lists(0)])
        first_deal = (st.hand_lists(0), st.row_lists(0))
        dealer0 = int(st.dealer[0])
        piles = [[] for _ in range(P)]
        turn = 0
        while True:
            if st.phase[0] == PHASE_ROW:
                acts = np.full((P, 1), rng.integers(0, 4))
                choices += 1
            else:
                acts = column([rng.choice(h) for h in st.hand_lists(0)])
            was_cards = st.phase[0] == PHASE_CARDS
            st, ev = step(st, acts, report=True)
            for card, seat, row, taken in placements(ev):
                piles[seat].extend(taken)
            if ev.round_over[0]:
                assert turn == 9
                break
            hands = [c for h in st.hand_lists(0) for c in h]
            table = [c for r in st.row_lists(0) for c in r]
            taken = [c for pile in piles for c in pile]
            revealed = [int(c) for c in st.revealed[:, 0] if c]
            if was_cards:  # every seat gave up exactly the card it played
                assert [len(h) for h in st.hand_lists(0)] == [9 - turn] * P
            assert sorted(hands + table + taken + revealed) == dealt  # nothing lost or duplicated
            assert not set(taken) & set(hands)  # taken cards never return to a hand
            assert st.penalty[:, 0].tolist() == [bulls(pile) for pile in piles]
            assert st.score[:, 0].tolist() == [0] * P and st.round[0] == 0
            table_ok(st)
            if st.phase[0] == PHASE_ROW:
                assert case["row_choice"] == "player" and len(revealed) == P
                continue
            assert revealed == []
            turn += 1
            assert st.turn[0] == turn
        # Step 6: scored after the tenth turn.
        assert ev.round_penalty[:, 0].tolist() == [bulls(pile) for pile in piles]
        assert st.penalty[:, 0].tolist() == [0] * P
        assert st.score[:, 0].tolist() == [bulls(pile) for pile in piles]
        assert st.score[:, 0].max() < 66  # (fixed seeds: the game goes on)
        # A new round: dealer one seat to the left, a fresh deal of the whole deck.
        assert st.round[0] == 1 and st.turn[0] == 0 and st.phase[0] == PHASE_CARDS
        assert st.dealer[0] == (dealer0 + 1) % P
        hands, rows = st.hand_lists(0), st.row_lists(0)
        assert [len(h) for h in hands] == [10] * P and [len(r) for r in rows] == [1] * 4
        cards = [c for h in hands for c in h] + [r[0] for r in rows]
        assert len(set(cards)) == 10 * P + 4
        deck_top = 104 if case["deck"] == "full" else 10 * P + 4
        assert set(cards) <= set(range(1, deck_top + 1))
        assert (hands, rows) != first_deal  # shuffled again
    assert (choices > 0) == (case["row_choice"] == "player")  # Rule 4 came up (fixed seeds)


def _policy(st, b: int) -> list[int]:
    """A deterministic player: a function of game b's own state only."""
    P = st.players
    if st.phase[b] == PHASE_ROW:
        acts = [0] * P
        acts[int(st.chooser[b])] = int(st.turn[b] + st.round[b] + st.chooser[b]) % 4
        return acts
    if st.phase[b] == PHASE_OVER:
        return [0] * P
    hands = st.hand_lists(b)
    return [h[(int(st.turn[b]) * 7 + p * 3 + int(st.round[b])) % len(h)] for p, h in enumerate(hands)]


def _play_out(st):
    history = []
    while not st.game_over().all():
        acts = np.array([_policy(st, b) for b in range(st.batch_size)]).T
        st, ev = step(st, acts, report=True)
        history.append([placements(ev, b) for b in range(st.batch_size)])
    return st, history


def test_games_of_a_batch_are_independent():
    """Whole games (Rule-4 choices stop games at different moments, so the batch holds
    games at different turns and phases) come out as when each game is played alone."""
    cfg = RuleConfig(players=3, max_rounds=3)
    games = new_games(cfg, game_seeds(11, 5))
    batch, history = _play_out(games)
    assert (batch.round == 2).all() or (batch.score.max(axis=0) >= 66).any()
    for b in range(games.batch_size):
        alone, alone_history = _play_out(games.take(b))
        assert alone.score[:, 0].tolist() == batch.score[:, b].tolist()
        assert alone.round[0] == batch.round[b]
        assert alone.winners()[:, 0].tolist() == batch.winners()[:, b].tolist()
        mine = [step_events[b] for step_events in history if step_events[b]]
        assert mine == [e[0] for e in alone_history if e[0]]


# =========================================================================== End of the game

# The last turn of a round, P=4: seat 0 plays 15 as a sixth card (11 bullheads); seats 1-3
# place without taking. `score`: completed rounds; `penalty`: taken earlier this round.
LAST_TURN = dict(rows=[[10, 11, 12, 13, 14], [20], [30], [40]], hands=[[15], [21], [31], [41]],
                 gain=[11, 0, 0, 0])

END_CASES = [
    # --- "until at least one player has 66 or more" (default threshold)
    dict(id="66-reached-exactly", cfg={}, score=[55, 10, 20, 30], over=True,
         final=[66, 10, 20, 30], winners=[0, 1, 0, 0]),
    dict(id="65-not-enough", cfg={}, score=[54, 10, 20, 30], over=False, final=[65, 10, 20, 30]),
    dict(id="66-exceeded", cfg={}, score=[60, 10, 20, 30], over=True,
         final=[71, 10, 20, 30], winners=[0, 1, 0, 0]),
    dict(id="66-with-this-rounds-penalty", cfg={}, score=[40, 10, 20, 30], penalty=[15, 5, 0, 0],
         over=True, final=[66, 15, 20, 30], winners=[0, 1, 0, 0]),
    dict(id="66-reached-by-another-seat", cfg={}, score=[0, 50, 20, 8], penalty=[0, 16, 0, 1],
         over=True, final=[11, 66, 20, 9], winners=[0, 0, 0, 1]),
    dict(id="66-default-is-66", cfg=dict(end_score=66), score=[55, 0, 0, 0], over=True,
         final=[66, 0, 0, 0], winners=[0, 1, 1, 1]),
    # --- ties: all tied players win
    dict(id="tie-two-winners", cfg={}, score=[60, 12, 12, 30], over=True,
         final=[71, 12, 12, 30], winners=[0, 1, 1, 0]),
    dict(id="tie-all-win", cfg={}, score=[55, 66, 66, 66], over=True,
         final=[66, 66, 66, 66], winners=[1, 1, 1, 1]),
    # --- another threshold
    dict(id="end20-reached", cfg=dict(end_score=20), score=[9, 0, 3, 19], over=True,
         final=[20, 0, 3, 19], winners=[0, 1, 0, 0]),
    dict(id="end20-not-reached", cfg=dict(end_score=20), score=[8, 0, 3, 19], over=False,
         final=[19, 0, 3, 19]),
    dict(id="end100-66-is-not-the-end", cfg=dict(end_score=100), score=[60, 70, 3, 99], over=False,
         final=[71, 70, 3, 99]),
    dict(id="end100-reached", cfg=dict(end_score=100), score=[89, 70, 3, 99], over=True,
         final=[100, 70, 3, 99], winners=[0, 0, 1, 0]),
    # --- a number of rounds agreed beforehand (round is the 0-based index of this round)
    dict(id="max1-after-first-round", cfg=dict(end_score=None, max_rounds=1), round=0,
         score=[0, 0, 0, 0], over=True, final=[11, 0, 0, 0], winners=[0, 1, 1, 1]),
    dict(id="max3-round2-of-3", cfg=dict(end_score=None, max_rounds=3), round=1,
         score=[100, 0, 0, 0], over=False, final=[111, 0, 0, 0]),
    dict(id="max3-round3-of-3", cfg=dict(end_score=None, max_rounds=3), round=2,
         score=[5, 9, 4, 4], over=True, final=[16, 9, 4, 4], winners=[0, 0, 1, 1]),
    dict(id="max-rounds-all-tied", cfg=dict(end_score=None, max_rounds=2), round=1,
         score=[0, 11, 11, 11], over=True, final=[11, 11, 11, 11], winners=[1, 1, 1, 1]),
    # --- both set: whichever comes first
    dict(id="both-score-first", cfg=dict(end_score=66, max_rounds=10), round=1,
         score=[60, 0, 0, 0], over=True, final=[71, 0, 0, 0], winners=[0, 1, 1, 1]),
    dict(id="both-rounds-first", cfg=dict(end_score=66, max_rounds=2), round=1,
         score=[10, 0, 0, 0], over=True, final=[21, 0, 0, 0], winners=[0, 1, 1, 1]),
    dict(id="both-neither", cfg=dict(end_score=66, max_rounds=3), round=1,
         score=[10, 0, 0, 0], over=False, final=[21, 0, 0, 0]),
]


@pytest.mark.parametrize("case", END_CASES, ids=[c["id"] for c in END_CASES])
def test_end_of_round_and_game(case):
    cfg = RuleConfig(players=4, **case["cfg"])
    rnd, dealer = case.get("round", 0), 3
    st = from_deal(cfg, [LAST_TURN["hands"]], [pad_rows(LAST_TURN["rows"])], dealer=dealer,
                   score=[case["score"]], penalty=[case.get("penalty", [0] * 4)], round=rnd,
                   seeds=[12345])
    assert not st.winners().any() and not st.game_over().any()  # nobody wins while it runs
    st, ev = step(st, column([h[0] for h in LAST_TURN["hands"]]), report=True)
    assert ev.round_over[0]
    round_pen = [p + g for p, g in zip(case.get("penalty", [0] * 4), LAST_TURN["gain"])]
    assert ev.round_penalty[:, 0].tolist() == round_pen
    assert st.score[:, 0].tolist() == case["final"]  # the round's penalty moved into the score
    assert st.penalty[:, 0].tolist() == [0] * 4
    assert st.total()[:, 0].tolist() == case["final"]
    if case["over"]:
        assert st.phase[0] == PHASE_OVER and st.game_over()[0]
        assert st.winners()[:, 0].tolist() == [bool(w) for w in case["winners"]]
        assert st.round[0] == rnd  # the last round played
        # A finished game ignores whatever it is sent.
        after, ev2 = step(st, column([999, -1, 0, 5]), report=True)
        assert after.phase[0] == PHASE_OVER and not ev2.round_over.any()
        assert after.score[:, 0].tolist() == case["final"] and after.round[0] == rnd
    else:
        assert st.phase[0] == PHASE_CARDS and not st.winners().any()
        assert st.round[0] == rnd + 1 and st.turn[0] == 0
        assert st.dealer[0] == (dealer + 1) % 4  # next seat to the left deals
        assert [len(h) for h in st.hand_lists(0)] == [10] * 4
        assert [len(r) for r in st.row_lists(0)] == [1] * 4


def test_game_ends_only_after_the_round():
    """Reaching 66 mid-round does not end the game: the round is played to its tenth turn."""
    cfg = RuleConfig(players=2)
    st = from_deal(cfg, [[[15, 16], [21, 22]]], [pad_rows([[10, 11, 12, 13, 14], [20], [30], [40]])],
                   score=[[60, 0]])
    st, _ = step(st, column([15, 21]))
    assert st.total()[:, 0].tolist() == [71, 0] and st.score[:, 0].tolist() == [60, 0]
    assert st.phase[0] == PHASE_CARDS and not st.game_over()[0] and not st.winners().any()
    st, _ = step(st, column([16, 22]))
    assert st.phase[0] == PHASE_OVER and st.score[:, 0].tolist() == [71, 0]
    assert st.winners()[:, 0].tolist() == [False, True]


DEALER_CASES = [(2, 0, 1), (2, 1, 0), (4, 0, 1), (4, 3, 0), (7, 3, 4), (10, 9, 0), (10, 4, 5)]


@pytest.mark.parametrize("players,dealer,next_dealer", DEALER_CASES,
                         ids=[f"P{p}-d{d}" for p, d, _ in DEALER_CASES])
def test_next_round_dealer_moves_left(players, dealer, next_dealer):
    cfg = RuleConfig(players=players)
    hands = [[[41 + s] for s in range(players)]]  # all follow 40 without a sixth card (P <= 4)
    rows = [10, 20, 30, 40] if players <= 4 else [10, 20, 30, 60]
    st = from_deal(cfg, hands, [rows], dealer=dealer, seeds=[99])
    st, ev = step(st, column([41 + s for s in range(players)]), report=True)
    assert ev.round_over[0] and st.phase[0] == PHASE_CARDS and st.round[0] == 1
    assert st.dealer[0] == next_dealer


# =========================================================================== Common variants

def test_row_choice_default_is_player():
    cfg = RuleConfig()
    assert cfg.row_choice == "player"
    st = from_deal(cfg, [[[1, 90], [2, 91], [3, 92], [4, 93]]], [[10, 20, 30, 40]])
    st, _ = step(st, column([1, 2, 3, 4]))
    assert st.phase[0] == PHASE_ROW and st.chooser[0] == 0  # never chosen automatically


def test_known_deck_variant_uses_1_to_10p_plus_4():
    for players in range(2, 11):
        cfg = RuleConfig(players=players, deck="exact")
        assert cfg.variant_data.deck(players, "exact").tolist() == list(range(1, 10 * players + 5))
        assert RuleConfig(players=players).variant_data.deck(players, "full").tolist() == list(range(1, 105))


def test_rule_config_defaults():
    cfg = RuleConfig()
    assert (cfg.players, cfg.row_choice, cfg.end_score, cfg.max_rounds, cfg.deck, cfg.variant) == (
        4, "player", 66, None, "full", "classic")


# =========================================================================== Beginner mistakes

def test_no_row_choice_outside_rule4():
    """'Believing you may choose the row': only card ids are actions; a card that fits any
    row is placed by Rules 1-3 and nobody is ever asked for a row."""
    for case in TURN_CASES:
        if "choice" in case or case.get("row_choice") == "cheapest":
            continue
        st = turn_setup(case)
        assert not st.legal_rows().any()
        st, ev = step(st, column(case["play"]), report=True)
        assert st.phase[0] == PHASE_CARDS and ev.chooser[0] == NO_SEAT, case["id"]


def test_low_card_kept_too_long_forces_a_take():
    """'Holding very low cards too long': a card that fits nowhere takes a whole row."""
    cfg = RuleConfig(players=2, row_choice="cheapest")
    st = from_deal(cfg, [[[3, 90], [60, 91]]], [pad_rows([[41, 42], [50], [61, 62, 63], [70]])])
    st, ev = step(st, column([3, 60]), report=True)
    assert st.penalty[:, 0].tolist() == [2, 0] and st.row_lists(0)[0] == [3]


# =========================================================================== Illegal actions

def illegal_setup(players=3):
    """Two games at turn 3 (7 cards each): game 1 is the one we break."""
    cfg = RuleConfig(players=players)
    hands = [[[10 * s + t + 11 for t in range(7)] for s in range(players)],
             [[10 * s + t + 12 for t in range(7)] for s in range(players)]]
    rows = [[1, 2, 3, 4], [5, 6, 7, 8]]  # every card fits: no Rule-4 stop
    return from_deal(cfg, hands, rows)


ILLEGAL_CARD_CASES = [
    ("another-seats-card", lambda st: 12),  # seat 0 of game 1 holds 12
    ("card-zero", lambda st: 0),
    ("negative", lambda st: -3),
    ("not-dealt", lambda st: 60),
    ("row-starter", lambda st: 5),
    ("beyond-104", lambda st: 105),
]
# Ids that wrap modulo 2**16 / 2**32 onto a held card must not be taken for that card.
ILLEGAL_CARD_CASES += [
    ("wraps-to-held-card-2**16", lambda st: 65536 + st.hand_lists(1)[2][0]),
    ("wraps-to-held-card-2**32", lambda st: 2**32 + st.hand_lists(1)[2][0]),
]


@pytest.mark.parametrize("name,bad", ILLEGAL_CARD_CASES, ids=[c[0] for c in ILLEGAL_CARD_CASES])
def test_illegal_card(name, bad):
    st = illegal_setup()
    before = st.copy()
    acts = np.array([[h[0] for h in st.hand_lists(b)] for b in range(2)]).T  # (P, B) legal
    acts[2, 1] = bad(st)
    with pytest.raises(IllegalActionError) as err:
        step(st, acts)
    msg = str(err.value)
    for part in ("game 1", "seat 2", "turn 3", f"card {bad(st)}",
                 f"legal cards: {st.hand_lists(1)[2]}"):
        assert part in msg, (part, msg)
    assert (st.hands == before.hands).all() and (st.turn == before.turn).all()  # untouched


def test_card_already_played_is_illegal():
    st = illegal_setup()
    acts = np.array([[h[0] for h in st.hand_lists(b)] for b in range(2)]).T
    st, _ = step(st, acts)
    with pytest.raises(IllegalActionError, match=r"game 0, seat 0, .*turn 4.*card 11 is not"):
        step(st, acts)  # every seat replays the card it played last turn


ILLEGAL_ROW_CASES = [-1, 4, 7, 104]


@pytest.mark.parametrize("row", ILLEGAL_ROW_CASES)
def test_illegal_row(row):
    cfg = RuleConfig(players=3)
    hands = [[[50, 51], [52, 53], [54, 56]], [[30, 31], [1, 32], [33, 34]]]
    rows = [[10, 20, 30, 40], [40, 50, 60, 70]]
    st = from_deal(cfg, hands, rows)
    st, _ = step(st, np.array([[50, 30], [52, 1], [54, 33]]))
    assert st.phase.tolist() == [PHASE_CARDS, PHASE_ROW] and st.chooser[1] == 1
    acts = np.array([[51, 0], [53, row], [56, 0]])
    with pytest.raises(IllegalActionError) as err:
        step(st, acts)
    msg = str(err.value)
    for part in ("game 1", "seat 1", "turn 8", f"row {row}", "legal rows: [0, 1, 2, 3]"):
        assert part in msg, (part, msg)
    acts[1, 1] = 3  # a legal row goes through; the other games are not held up
    st, _ = step(st, acts)
    assert st.phase[1] == PHASE_CARDS and st.turn[1] == 9
    assert st.row_lists(1) == [[40], [50], [60], [1, 30, 33]]
    assert st.penalty[:, 1].tolist() == [0, 3, 0]
    assert st.round[0] == 1  # game 0 finished its round meanwhile


WRONG_SHAPES = [(2, 3), (3,), (2,), (3, 2, 1), (6,), (3, 3), (4, 2), ()]


@pytest.mark.parametrize("shape", WRONG_SHAPES, ids=[str(s) for s in WRONG_SHAPES])
def test_wrong_action_shape(shape):
    st = illegal_setup()  # P=3, B=2
    with pytest.raises(IllegalActionError, match=r"\(players, batch\) = \(3, 2\)"):
        step(st, np.ones(shape, dtype=np.int64))


# =========================================================================== Invalid configurations

BAD_CONFIGS = [
    dict(players=1), dict(players=11), dict(players=0), dict(players=-2), dict(players="4"),
    dict(players=4.0), dict(players=True), dict(players=None),
    dict(row_choice="random"), dict(row_choice="Player"), dict(row_choice=""), dict(row_choice=None),
    dict(deck="partial"), dict(deck="EXACT"), dict(deck=None),
    dict(end_score=None, max_rounds=None), dict(end_score=0), dict(end_score=-1),
    dict(end_score=66.0), dict(end_score=True), dict(end_score="66"),
    dict(max_rounds=0), dict(max_rounds=-3), dict(end_score=None, max_rounds=0),
    dict(variant="board-game"),
]


@pytest.mark.parametrize("kwargs", BAD_CONFIGS, ids=[repr(k) for k in BAD_CONFIGS])
def test_invalid_config(kwargs):
    with pytest.raises(ConfigError, match="invalid rule option"):
        RuleConfig(**kwargs)


GOOD_CONFIGS = [
    dict(players=2), dict(players=10), dict(players=np.int64(5)), dict(row_choice="cheapest"),
    dict(deck="exact"), dict(end_score=None, max_rounds=3), dict(end_score=1),
    dict(end_score=100, max_rounds=5), dict(players=10, deck="exact"),
]


@pytest.mark.parametrize("kwargs", GOOD_CONFIGS, ids=[repr(k) for k in GOOD_CONFIGS])
def test_valid_config(kwargs):
    cfg = RuleConfig(**kwargs)
    for key, value in kwargs.items():
        assert getattr(cfg, key) == value
