"""`Game.table_view`: the one structured view of a seat's table, the same schema in every game.

On every step of random games of each kind: plain JSON, the hand is the seat's own
(sorted), every action it offers is legal and every legal action is offered (a hand
card, a row or a choice), a spectator holds nothing, scores are by absolute seat. A
step's events say where each card lands, so the page can show it before the step's end
(the card games: its rows replayed from the events are the rows after the step), and
name each action card played. A seat's view built from the spectator's (`public`, as a
server builds a step once for every seat) is the seat's own view.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from sixnimmt_env import game_seeds, make_game
from sixnimmt_env.board.actions import NO_CARD_ACTION, STOP_ACTION, describe_action
from sixnimmt_env.board.state import ASK_ACTION, PHASE_ASK

TABLES = [("cards", {}), ("cards", {"variant": "die-sechste", "players": 7}), ("board", {"players": 3}),
          ("board", {"variant": "luck", "players": 5}), ("board", {"variant": "pro", "players": 4}),
          ("board", {"variant": "pro-luck", "players": 2})]
KEYS = {"title", "status", "unit", "rows", "hand", "hand_label", "scores", "prompt", "choices", "over", "info"}


def _offered(table: dict) -> set[int]:
    items = table["hand"] + table["rows"] + table["choices"]
    return {i["action"] for i in items if i.get("action") is not None}


@pytest.mark.parametrize("kind, options", TABLES, ids=[f"{k}-{o.get('variant', 'default')}" for k, o in TABLES])
def test_table_view_on_every_step(kind, options):
    game = make_game(kind, **options)
    rng = np.random.default_rng(4)
    st = game.new_games(game_seeds(9, 1))
    P, steps = game.info.players, 0
    while not game.game_over(st)[0] and steps < 400:
        spectator = game.table_view(st, None)
        for seat in range(P):
            table = game.table_view(st, seat)
            assert KEYS <= set(table) and json.loads(json.dumps(table)) == table
            assert game.table_view(st, seat, public=spectator) == table  # the public parts built once
            view = game.view(st, [seat], [0])
            held = sorted(int(c) for c in view.hand[0] if c)
            assert sorted(c["card"] for c in table["hand"]) == held
            legal = set(np.flatnonzero(view.action_mask()[0]).tolist()) - {game.info.pass_action}
            assert _offered(table) == legal
            assert [s["total"] for s in table["scores"]] == [int(t) for t in game.totals(st)[:, 0]]
        assert spectator["hand"] == [] and _offered(spectator) == set()
        actions = np.full((P, 1), game.info.pass_action, dtype=np.int64)
        for seat in range(P):
            view = game.view(st, [seat], [0])
            if view.must_act[0]:
                actions[seat, 0] = view.random_legal_actions(rng)[0]
        after, events = game.step(st, actions, report=True)
        stepped = game.table_view(after, 0, before=st, events=events, actions=actions)
        public = game.table_view(after, None, before=st, events=events, actions=actions)
        built = game.table_view(after, 0, public=public)
        assert built == stepped and built["events"] is public["events"]
        assert all(item["kind"] in ("reveal", "place", "note", "round", "action") for item in stepped["events"])
        _check_step(game, st, actions, after, stepped["events"])
        st, steps = after, steps + 1
    assert game.table_view(st, 0)["over"] == bool(game.game_over(st)[0])


def _check_step(game, before, actions, after, items):
    """The card games: the rows replayed from the step's placements (`field`, `take`) are
    the rows after it. The pro board game: an action card played is named in the step."""
    if game.info.game == "cards" and not any(i["kind"] == "round" for i in items):
        rows = [[c["card"] for c in r["cells"] if c.get("card")] for r in game.table_view(before, None)["rows"]]
        for item in (i for i in items if i["kind"] == "place"):
            if item["take"]:
                rows[item["row"]] = []
            assert item["field"] == len(rows[item["row"]])
            rows[item["row"]].append(item["cards"][0]["card"])
        assert rows == [[c["card"] for c in r["cells"] if c.get("card")] for r in game.table_view(after, None)["rows"]]
    if game.info.game == "board" and before.config.pro and int(before.phase[0]) == PHASE_ASK \
            and int(before.ask[0]) == ASK_ACTION:
        answer = int(actions[int(before.asker[0]), 0])
        played = [i for i in items if i["kind"] == "action"]
        if answer == NO_CARD_ACTION:
            assert not played
        else:
            assert [i["text"] for i in played] == ["plays " + describe_action(answer)]
            assert played[0]["help"] and played[0]["seat"] == int(before.asker[0])
            if answer < STOP_ACTION + 16:
                assert played[0]["card"] == "Stop"


def test_die_sechste_cards_show_suit_symbols():
    game = make_game("cards", variant="die-sechste", players=4)
    table = game.table_view(game.new_games(game_seeds(1, 1)), 0)
    faces = [c["text"] for c in table["hand"]]
    assert all(f[-1] in "♣♦♥♠" for f in faces), faces


def test_a_bot_sees_every_card_revealed_this_round_by_turn_and_seat():
    # A card revealed, placed and taken in the same turn never shows on the rows: `played`
    # keeps it, turn by turn, as a person at the table saw it; the turn being chosen stays hidden.
    game = make_game("cards", players=4)
    rng = np.random.default_rng(1)
    st = game.new_games(game_seeds(2, 1))
    shown: dict[int, dict[int, int]] = {}  # turn -> seat -> card, from the public events
    rounds = 0
    while not game.game_over(st)[0] and rounds < 2:
        view = game.view(st, [1], [0])
        table = view.table_view(0)  # what a cmd: bot gets as its `view`
        turn, phase = int(st.turn[0]), int(st.phase[0])
        assert [t["turn"] for t in table["played"]] == list(range(1, turn + 1 + (phase == 1)))
        assert [c["card"] for c in table["starters"]] == st.starters[:, 0].tolist()
        for t in table["played"]:
            assert {c["seat"]: c["card"] for c in t["cards"]} == shown[t["turn"]]
        actions = np.array([[int(game.view(st, [p], [0]).random_legal_actions(rng)[0])] for p in range(4)])
        before = st
        st, events = game.step(st, actions, report=True)
        for item in game.table_view(st, None, before=before, events=events)["events"]:
            if item["kind"] == "reveal":
                shown[int(before.turn[0]) + 1] = {c["seat"]: c["card"] for c in item["cards"]}
        if int(st.round[0]) != int(before.round[0]):
            rounds, shown = rounds + 1, {}
    assert rounds == 2


def test_a_board_bot_sees_the_tiles_taken_off_the_board():
    game = make_game("board", players=3)
    rng = np.random.default_rng(3)
    st = game.new_games(game_seeds(5, 1))
    taken = 0
    while not game.game_over(st)[0]:
        table = game.view(st, [0], [0]).table_view(0)
        gone = {t["card"] for t in table["gone"]}
        on_board = {c["card"] for r in table["rows"] for c in r["cells"] if c.get("card")}
        assert not gone & on_board and not gone & {c["card"] for c in table["hand"]}
        assert len(gone) == taken  # every tile a take removed, none other
        actions = np.array([[int(game.view(st, [p], [0]).random_legal_actions(rng)[0])] for p in range(3)])
        st, events = game.step(st, actions, report=True)
        taken += int(events.taken[:, 0].sum())
    assert taken > 0
