"""`sixnimmt serve` through its HTTP API and WebSocket (in process, Starlette's TestClient).

The information test: every message of whole games (cards, Die Sechste, the board with
luck cards, a watched game) is inspected, in the server, against the hidden cards of the
moment — the other hands and the undealt cards — and none may appear. The browser tests
are in test_serve_browser.py.
"""

from __future__ import annotations

import json
import time
import warnings

import numpy as np
import pytest

with warnings.catch_warnings():  # starlette's note on its httpx dependency, not ours to act on
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from experiments.serve.app import create_app
from sixnimmt_env.core.records import replay
from tests.support.served import cards_shown

ONE_ROUND = {"game": "cards", "players": 4, "opponents": ["random", "lowest", "random"], "seed": 3,
             "options": {"max_rounds": "1"}}


TEST_ORIGIN = "http://testserver"  # TestClient's host: allowed like a page address (sixnimmt serve --allow-origin)


@pytest.fixture()
def app():
    return create_app(idle_seconds=600, origins=[TEST_ORIGIN])


@pytest.fixture()
def client(app):
    with TestClient(app) as c:
        yield c


def _hidden(session, state) -> set:
    """What the page's seat may not know in `state`: seat 0's unseen cards (the others'
    hands and the undealt ones); watching, every hand and every card nobody has seen."""
    game, P = session.game, session.info.players
    views = [game.view(state, [s], [0]) for s in range(P)]
    if not session.watch:
        return set(np.flatnonzero(views[0].unseen[0]).tolist())
    hands = set(int(c) for v in views for c in v.hand[0] if c)
    unseen = set.intersection(*(set(np.flatnonzero(v.unseen[0]).tolist()) for v in views))
    return hands | unseen


def _hands(session, state) -> set:
    return set(int(c) for s in range(session.info.players) for c in session.game.view(state, [s], [0]).hand[0] if c)


class Auditor:
    """Checks every message as the server makes it (WebSession.audit)."""

    def __init__(self):
        self.messages = 0

    def __call__(self, session, message, before):
        self.messages += 1
        text = json.dumps(message)
        assert "hands" not in message and "supply" not in text and "deal" not in message
        if message["type"] != "over" and not session.seed_given:
            assert message.get("seed") is None
        if "legal" in message:  # a decision with one legal action is taken for the person
            assert len(message["legal"]) > 1, message["legal"]
        table = dict(message.get("table") or {})
        events = table.pop("events", [])
        shown = cards_shown(table)
        assert not shown & _hidden(session, session.state), (message["type"], shown & _hidden(session, session.state))
        if before is not None:  # the step's events: hidden before it, unless it turned them up
            hidden = _hidden(session, before)
            if session.game.progress(before)["round"] == session.game.progress(session.state)["round"]:
                turned_up = hidden - _hidden(session, session.state)
            else:  # a new round was dealt: the old one's last cards were all played
                turned_up = _hands(session, before)
            leaked = cards_shown(events) & (hidden - turned_up)
            assert not leaked, (message["type"], leaked)


def _recv_until(ws, *types):
    """Messages up to and including the first of one of `types`."""
    got = []
    while True:
        msg = ws.receive_json()
        got.append(msg)
        if msg["type"] in types:
            return got


def _play_out(ws, new: dict, pick=lambda msg: msg["legal"][0]):
    """A whole game: the person plays pick(turn message); returns (setup, every message)."""
    ws.send_json(dict(new, type="new"))
    msgs = _recv_until(ws, "turn", "over", "watch", "error")
    assert msgs[0]["type"] == "setup", msgs
    setup = msgs[0]
    while msgs[-1]["type"] in ("turn", "watch"):
        last = msgs[-1]
        if last["type"] == "turn":
            ws.send_json({"type": "act", "id": setup["id"], "action": pick(last), "decision": last["decision"]})
        else:
            ws.send_json({"type": "next", "id": setup["id"]})
        msgs += _recv_until(ws, "turn", "over", "watch", "error")
    assert msgs[-1]["type"] == "over", msgs[-1]
    return setup, msgs


def test_cards_shown_finds_every_card_a_message_carries():
    """The hidden-hand checks' reader (tests/support/served.py): a card in cells, a hand and
    events, nested at any depth, and nothing from a "card" that is not a card id."""
    message = {"type": "step", "table": {"rows": [{"cells": [{"card": 7}, {"card": None}]}],
                                         "hand": [{"card": 3, "text": "3"}], "events": [[{"card": 99, "seat": 1}]]},
               "note": {"card": "12"}}
    assert cards_shown(message) == {3, 7, 99}
    assert cards_shown([]) == set() and cards_shown("card") == set()


def test_page_and_static_files(client):
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text and "<script src=\"http" not in page.text
    for name in ("app.js", "table.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert "//cdn" not in client.get("/static/app.js").text


def test_options_and_defaults(client):
    games = {g["name"]: g for g in client.get("/api/options").json()["games"]}
    assert set(games) == {"cards", "board"} and "die-sechste" in games["cards"]["variants"]
    assert "max_rounds" in games["cards"]["options"] and "mcs" in games["board"]["agents"]
    assert client.get("/api/defaults", params={"game": "cards", "players": 4}).json()["opponents"] == ["ppo", "mcs", "mcs"]
    assert client.get("/api/defaults", params={"game": "cards", "players": 3}).json()["opponents"] == ["ppo", "mcs"]
    assert client.get("/api/defaults", params={"game": "board", "players": 3, "watch": True}).json()["opponents"] == ["mcs"] * 3
    bad = client.get("/api/defaults", params={"game": "chess"})
    assert bad.status_code == 400 and "unknown game" in bad.json()["error"]


@pytest.mark.parametrize("new", [
    ONE_ROUND,
    {"game": "cards", "variant": "die-sechste", "players": 6, "opponents": ["random"] * 5, "options": {"max_rounds": 1}},
    {"game": "board", "variant": "luck", "players": 3, "opponents": ["random", "board-green"], "seed": 11},
    {"game": "cards", "players": 3, "watch": True, "opponents": ["random", "mcs:rollouts=8", "lowest"],
     "options": {"max_rounds": 2}},
    {"game": "board", "players": 4, "watch": True, "opponents": ["random"] * 4, "seed": 2},
    {"game": "board", "variant": "pro", "players": 3, "opponents": ["random", "random"], "seed": 4},
], ids=["classic", "die-sechste", "board-luck", "watch-cards", "watch-board", "board-pro"])
def test_whole_games_hide_every_hidden_card_and_the_record_replays(app, client, new):
    auditor = app.state.store.audit = Auditor()
    with client.websocket_connect("/ws") as ws:
        setup, msgs = _play_out(ws, new)
    assert auditor.messages == len(msgs) - 1  # all but the setup were made (and checked) by the session
    over = msgs[-1]
    assert not any(m["type"] == "error" for m in msgs)
    assert (setup["seed"] is None) == ("seed" not in new) and over["seed"] is not None
    rec = client.get(over["record"])
    assert rec.status_code == 200 and "attachment" in rec.headers["content-disposition"]
    result = replay(rec.json())
    assert not result.differences and list(result.totals) == over["totals"]
    assert [s["total"] for s in over["table"]["scores"]] == over["totals"]
    if new.get("variant") == "pro":  # the action cards played are named in the log
        played = [i for m in msgs if m["type"] == "step" for i in m["table"]["events"] if i["kind"] == "action"]
        assert played and all(i["text"].startswith("plays ") and i["help"] for i in played)


def test_the_auditor_catches_a_hidden_card(app, client):
    with client.websocket_connect("/ws") as ws:
        ws.send_json(dict(ONE_ROUND, type="new"))
        gid = _recv_until(ws, "turn")[0]["id"]
    session = app.state.store.games[gid]
    theirs = int(session.game.view(session.state, [1], [0]).hand[0][0])
    with pytest.raises(AssertionError):
        Auditor()(session, {"type": "turn", "table": {"rows": [{"cells": [{"card": theirs}]}]}}, None)


def test_record_only_once_the_game_is_over(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_json(dict(ONE_ROUND, type="new"))
        setup = _recv_until(ws, "turn")[0]
        assert client.get(f"/api/games/{setup['id']}/record").status_code == 409
    assert client.get("/api/games/nope/record").status_code == 404


def test_a_row_choice_is_asked_and_answered(client):
    with client.websocket_connect("/ws") as ws:  # the highest card first: low ones are left to be too low
        setup, msgs = _play_out(ws, ONE_ROUND, pick=lambda m: max(m["legal"]))
    rows = [m for m in msgs if m["type"] == "turn" and any(r["action"] is not None for r in m["table"]["rows"])]
    assert rows, "no row choice in this game: pick another seed"
    table = rows[0]["table"]
    assert "choose a row" in table["prompt"] and table["pending"]
    assert {r["action"] for r in table["rows"]} <= set(rows[0]["legal"])


GARBAGE = ["not json", "[1, 2]", "{}", '{"type": "fly"}', '{"type": "act", "id": "nope", "action": 1, "decision": 0}',
           '{"type": "resume", "id": 12}', '{"type": "next"}', '{"type": "new", "game": "chess"}',
           '{"type": "new", "players": 11}', '{"type": "new", "players": "many"}',
           '{"type": "new", "opponents": ["nobody", "random", "random"]}', '{"type": "new", "seed": -4}',
           '{"type": "new", "options": {"colour": "red"}}', '{"type": "new", "options": {"max_rounds": "x"}}',
           '{"type": "new", "game": "board", "players": 3, "opponents": ["ppo", "random"]}', "x" * 30_000, '"just a string"']


def test_garbage_gets_errors_and_the_game_goes_on(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_json(dict(ONE_ROUND, type="new"))
        msgs = _recv_until(ws, "turn")
        gid, turn = msgs[0]["id"], msgs[-1]
        for text in GARBAGE:
            ws.send_text(text)
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["message"], text
        ws.send_bytes(b"\xff\xfe")
        assert ws.receive_json()["type"] == "error"
        held = {c["action"] for c in turn["table"]["hand"]}
        not_held = next(a for a in range(104) if a not in held)
        for bad in ({"action": not_held, "decision": turn["decision"]}, {"action": "1", "decision": turn["decision"]},
                    {"action": turn["legal"][0], "decision": turn["decision"] + 1}, {"action": 10**9, "decision": 0},
                    {"action": True, "decision": 0}, {"action": turn["legal"][0]}):
            ws.send_json(dict(bad, type="act", id=gid))
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["id"] == gid, bad
        assert "not legal now" in _error(ws, gid, not_held, turn["decision"])
        ws.send_json({"type": "act", "id": gid, "action": turn["legal"][0], "decision": turn["decision"]})
        after = _recv_until(ws, "turn", "over")
        assert after[-1]["type"] == "turn" and after[-1]["decision"] == turn["decision"] + 1
        ws.send_json({"type": "act", "id": gid, "action": turn["legal"][0], "decision": turn["decision"]})
        assert "stale decision" in ws.receive_json()["message"]  # a double click


def _error(ws, gid, action, decision) -> str:
    ws.send_json({"type": "act", "id": gid, "action": action, "decision": decision})
    return ws.receive_json()["message"]


def test_resume_after_a_reload_and_games_stay_apart(client):
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        a.send_json(dict(ONE_ROUND, type="new"))
        b.send_json(dict(ONE_ROUND, type="new", seed=4))
        ta, tb = _recv_until(a, "turn"), _recv_until(b, "turn")
        assert ta[0]["id"] != tb[0]["id"] and ta[-1]["table"]["hand"] != tb[-1]["table"]["hand"]
        a.send_json({"type": "act", "id": ta[0]["id"], "action": ta[-1]["legal"][0], "decision": 0})
        moved = _recv_until(a, "turn")
    with client.websocket_connect("/ws") as again:  # the page reloaded: a new socket
        again.send_json({"type": "resume", "id": ta[0]["id"]})
        setup, history, waiting = (again.receive_json() for _ in range(3))
        assert setup["type"] == "setup" and setup["names"][0] == "you"
        assert history["type"] == "history" and len(history["steps"]) == sum(m["type"] == "step" for m in moved)
        assert waiting == moved[-1]
        again.send_json({"type": "resume", "id": tb[0]["id"]})
        assert [again.receive_json()["type"] for _ in range(3)][-1] == "turn"


def test_idle_games_expire():
    app = create_app(idle_seconds=0.2, sweep_seconds=0.1, origins=[TEST_ORIGIN])
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        ws.send_json(dict(ONE_ROUND, type="new"))
        gid = _recv_until(ws, "turn")[0]["id"]
        time.sleep(0.5)
        assert app.state.store.games == {}
        ws.send_json({"type": "resume", "id": gid})
        reply = ws.receive_json()
        assert reply["type"] == "error" and "expired" in reply["message"]


def test_hints_follow_each_decision(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_json(dict(ONE_ROUND, type="new", hints=True, opponents=["random"] * 3))
        turn = _recv_until(ws, "turn")[-1]
        hint = ws.receive_json()
        assert hint["type"] == "hint" and hint["decision"] == turn["decision"]
        assert {c["action"] for c in hint["choices"]} == set(turn["legal"]) and hint["best"] in turn["legal"]
        best = min(hint["choices"], key=lambda c: c["mean"])
        assert best["action"] == hint["best"] and "bullheads" in hint["explain"]
        ws.send_json({"type": "new", "game": "board", "players": 3, "hints": True, "opponents": ["random"] * 2})
        turn = _recv_until(ws, "turn")[-1]
        hint = ws.receive_json()
        means = {c["action"]: c["mean"] for c in hint["choices"]}
        assert hint["type"] == "hint" and means[hint["best"]] == max(means.values())  # of tied means, any is best


def test_ping_and_watch_refuses_actions(client):
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"
        ws.send_json({"type": "new", "watch": True, "players": 2, "opponents": ["random", "random"]})
        msgs = _recv_until(ws, "watch")
        assert msgs[-1]["table"]["hand"] == [] and msgs[0]["names"][0].startswith("seat 1")
        ws.send_json({"type": "act", "id": msgs[0]["id"], "action": 0, "decision": 0})
        assert "watched" in ws.receive_json()["message"]
