"""The card-history observation: every seat's revealed card of every turn this round, in
relative seat order, shown only once revealed; it is card-features with one field appended."""

from __future__ import annotations

import numpy as np

from sixnimmt_env import RuleConfig
from sixnimmt_env.cards.encoding import card_layout
from sixnimmt_env.cards.engine import from_deal, step
from sixnimmt_env.cards.seat_view import SeatView
from sixnimmt_env.cards.state import PHASE_CARDS, PHASE_ROW

CFG = RuleConfig(players=4, row_choice="player")
ROWS = [[100, 0, 0, 0, 0], [10, 11, 12, 13, 14], [70, 72, 0, 0, 0], [40, 0, 0, 0, 0]]
HANDS = [[41, 5, 15, 20, 42, 55, 75, 80, 101, 102], [21, 22, 23, 24, 25, 26, 27, 28, 29, 30],
         [1, 2, 3, 4, 6, 7, 8, 9, 16, 17], [31, 32, 33, 34, 35, 36, 37, 38, 39, 43]]


def history(st, seat):
    layout = card_layout(CFG, "card-history")
    return layout.decode(SeatView(st, seat).encode(layout)[0])["history"].reshape(10, 10)


def test_history_shows_who_played_what_once_revealed():
    st = from_deal(CFG, [HANDS], [ROWS])
    assert not history(st, 1).any()  # nothing revealed yet
    # seat 2's 1 is below every row: the turn stops for its row choice, the cards revealed
    st, _ = step(st, np.array([[41], [21], [1], [31]]))
    assert st.phase[0] == PHASE_ROW
    h = history(st, 1)  # seat 1's view: itself, then seats 2, 3, 0
    assert np.allclose(h[:4, 0] * 104, [21, 1, 31, 41]) and not h[4:].any() and not h[:, 1:].any()
    st, _ = step(st, np.array([[0], [0], [3], [0]]))  # seat 2 takes the row ending in 40
    assert st.phase[0] == PHASE_CARDS
    st, _ = step(st, np.array([[102], [30], [17], [43]]))
    h = history(st, 3)  # seat 3's view: itself, then seats 0, 1, 2
    assert np.allclose(h[:4, :2] * 104, [[31, 43], [41, 102], [21, 30], [1, 17]])
    assert not h[:, 2:].any()


def test_history_is_card_features_with_a_field_appended():
    st = from_deal(CFG, [HANDS], [ROWS])
    st, _ = step(st, np.array([[41], [21], [1], [31]]))
    rich, more = card_layout(CFG, "card-features"), card_layout(CFG, "card-history")
    a, b = SeatView(st, 0).encode(rich)[0], SeatView(st, 0).encode(more)[0]
    assert more.size == rich.size + 100 and np.array_equal(a, b[:rich.size])
    assert [f.name for f in more.fields][:-1] == [f.name for f in rich.fields]


def test_from_deal_played_gives_the_new_games_the_history_and_refuses_bad_input():
    """`from_deal(played=..., starters=...)` (what guided's worlds are built with) lays each
    seat's earlier cards where `SeatView.played` reads them and keeps the seen cards; a wrong shape, an id out of range, or `seen`
    given as well are one-line ConfigErrors."""
    import pytest

    from sixnimmt_env import ConfigError
    st = from_deal(CFG, [HANDS], [ROWS])
    st, _ = step(st, np.array([[41], [21], [1], [31]]))
    st, _ = step(st, np.array([[0], [0], [3], [0]]))
    view = SeatView(st, 0)
    hands = [[c for c in hand if c not in (41, 21, 1, 31)] for hand in HANDS]
    played = view.played[:, :, :1]  # (1, P, 1): the one turn before this one
    copy = from_deal(CFG, [hands], [view.rows[0]], played=played, starters=view.starters)
    assert np.array_equal(SeatView(copy, 0).played, view.played)
    assert np.array_equal(SeatView(copy, 0).seen, view.seen)
    assert view.starters[0].tolist() == [100, 10, 70, 40] and 10 not in view.rows  # 10..14 taken by 21
    assert not SeatView(from_deal(CFG, [hands], [view.rows[0]], played=played), 0).seen[0, 10]  # without starters
    for bad, match in ((dict(played=view.played), "played must have shape"),
                       (dict(played=played, starters=view.starters[:, :3]), "starters must have shape"),
                       (dict(played=played + 200), "out of range"),
                       (dict(played=played, seen=view.seen), "not both")):
        with pytest.raises(ConfigError, match=match) as err:
            from_deal(CFG, [hands], [view.rows[0]], **bad)
        assert len(str(err.value).splitlines()) == 1
