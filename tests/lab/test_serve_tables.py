"""Tables for several people (experiments/serve/tables.py, tables_app.py), in process.

Two people and a spectator at one table, over three WebSockets: each person's frames hold
only their own hand (the other's cards still in hand appear in none of their frames, nor
the spectator's, whose frames hold no hand at all); a forged token, a token of another
table, an unknown table and an oversized name are refused with one line; a person who
lets the turn clock run out gets their lowest legal card, counted as a forfeit; a table
kept in the database comes back after a restart with its seats and tokens.
"""

from __future__ import annotations

import json
import warnings

import pytest

with warnings.catch_warnings():  # starlette's note on its httpx dependency, not ours to act on
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from experiments.serve.app import create_app
from experiments.serve.db import Database
from sixnimmt_env.core.records import replay
from tests.support.served import cards_shown

ORIGIN = "http://testserver"
TABLE = {"type": "table", "game": "cards", "players": 4, "seats": ["person", "person", "random", "lowest"],
         "seed": 5, "options": {"max_rounds": "1"}, "name": "Ada", "turn_seconds": 60}


def _receive(ws) -> dict:
    """The page's next message: a frame holds one, or several in order (a JSON array: what
    a table pushes at once, a step and the question after it)."""
    queued = ws.__dict__.setdefault("queued", [])
    if not queued:
        data = ws.receive_json()
        queued.extend(data if isinstance(data, list) else [data])
    return queued.pop(0)


def _until(ws, decision: int, late_ok: bool = False) -> list[dict]:
    """Frames up to the first that waits past `decision` (a turn or a wait), or the end;
    `late_ok`: an answer the clock overtook (a stale decision) is no failure."""
    got = []
    while True:
        msg = _receive(ws)
        if late_ok and msg["type"] == "error" and "stale decision" in msg["message"]:
            continue
        assert msg["type"] != "error", msg
        got.append(msg)
        if msg["type"] == "over" or (msg["type"] in ("turn", "watch") and msg.get("decision", -1) > decision):
            return got


def _make_table(ws, **changes) -> tuple[dict, list[dict]]:
    """Make a table (TABLE with `changes`) on page `ws`: its `joined` reply, and the frames
    up to where it first waits."""
    ws.send_text(json.dumps(dict(TABLE, **changes)))
    joined = _receive(ws)
    assert joined["type"] == "joined", joined
    return joined, _until(ws, -1)


def _hand(msg) -> set:
    return {c["card"] for c in msg["table"]["hand"]}


@pytest.fixture()
def client(tmp_path):
    db = Database(tmp_path)
    with TestClient(create_app(idle_seconds=600, origins=[ORIGIN], db=db)) as c:
        yield c
    db.close()


def test_each_seat_sees_only_its_own_hand_and_acts_only_for_itself(client):
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b, \
            client.websocket_connect("/ws") as spectator:
        joined, made = _make_table(a)
        table, token_a = joined["id"], joined["token"]
        frames = {"a": made, "b": [], "spectator": []}
        assert frames["a"][-1]["type"] == "watch" and "waiting for seat 2 to join" in frames["a"][-1]["table"]["prompt"]
        b.send_text(json.dumps({"type": "join", "id": table, "name": "Bob"}))
        joined_b = _receive(b)
        assert joined_b["seat"] == 1 and joined_b["token"] != token_a
        spectator.send_text(json.dumps({"type": "spectate", "id": table}))
        last = {"a": None, "b": None}
        frames["b"] += _until(b, -1)
        frames["a"] += _until(a, -1)
        frames["spectator"] += _until(spectator, -1)
        last = {"a": frames["a"][-1], "b": frames["b"][-1]}
        for name, msg in (("b", b), ("a", a)):  # one cannot act for the other: only a token says the seat
            msg.send_text(json.dumps({"type": "act", "id": table, "token": "forged", "action": 0, "decision": 0}))
            error = _receive(msg)
            assert error["type"] == "error" and "not a seat token of this table" in error["message"]
        for _ in range(3):  # three decisions, each person answering their own
            d = last["a"]["decision"]
            for name, ws, token in (("a", a, token_a), ("b", b, joined_b["token"])):
                if last[name]["type"] == "turn":
                    ws.send_text(json.dumps({"type": "act", "id": table, "token": token,
                                             "action": last[name]["legal"][0], "decision": d}))
            for name, ws in (("a", a), ("b", b), ("spectator", spectator)):
                frames[name] += _until(ws, d)
            last = {"a": frames["a"][-1], "b": frames["b"][-1]}
        hand_a, hand_b = _hand(last["a"]), _hand(last["b"])
        assert hand_a and hand_b and not hand_a & hand_b
        assert not any(cards_shown(f) & hand_b for f in frames["a"]), "Bob's cards reached Ada's page"
        assert not any(cards_shown(f) & hand_a for f in frames["b"]), "Ada's cards reached Bob's page"
        assert not any(cards_shown(f) & (hand_a | hand_b) for f in frames["spectator"])
        assert all(not f.get("table", {}).get("hand") for f in frames["spectator"])
        assert {f.get("seat") for f in frames["a"] if "table" in f} == {0}


def test_a_step_and_the_question_after_it_reach_a_page_in_one_frame(client):
    """What one answer gives a seat is one frame (tables_app.frames_of): the step's messages
    and where the table then waits, in order, as one JSON array; a lone message as itself."""
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        joined, _ = _make_table(a)
        b.send_text(json.dumps({"type": "join", "id": joined["id"], "name": "Bob"}))
        token_b = _receive(b)["token"]
        turns = {"a": _until(a, -1)[-1], "b": _until(b, -1)[-1]}
        assert turns["a"]["type"] == turns["b"]["type"] == "turn" and not a.queued and not b.queued
        a.send_text(json.dumps({"type": "act", "id": joined["id"], "token": joined["token"],
                                "action": turns["a"]["legal"][0], "decision": 0}))
        alone = a.receive_json()  # Ada answered first: she waits for Bob, one message
        assert isinstance(alone, dict) and alone["type"] == "watch", alone
        b.send_text(json.dumps({"type": "act", "id": joined["id"], "token": token_b,
                                "action": turns["b"]["legal"][0], "decision": 0}))
        for page in (a, b):
            frame = page.receive_json()
            assert isinstance(frame, list) and len(frame) >= 2, frame
            assert frame[0]["type"] == "step" and frame[-1]["type"] in ("turn", "watch", "over"), frame


def test_bad_tokens_unknown_tables_and_long_names_are_refused_in_one_line(client):
    with client.websocket_connect("/ws") as a:
        table = _make_table(a)[0]["id"]
        other_token = _make_table(a, seats=["person", "random", "random", "random"])[0]["token"]
        cases = [({"type": "act", "id": table, "token": other_token, "action": 0, "decision": 0}, "not a seat token"),
                 ({"type": "resume", "id": table, "token": "x" * 5000}, "not a seat token"),
                 ({"type": "join", "id": "no-such-table", "name": "Eve"}, "no game"),
                 ({"type": "join", "id": table, "name": "E" * 41}, "name too long"),
                 ({"type": "join", "id": table, "name": "Eve", "seat": 3}, "not a free seat"),
                 ({"type": "table", **{k: v for k, v in TABLE.items() if k != "type"}, "seats": ["person", "py:x.py:A",
                                                                                              "random", "random"]}, "")]
        for msg, fragment in cases:
            a.send_text(json.dumps(msg))
            reply = _receive(a)
            assert reply["type"] == "error" and fragment in reply["message"] and "\n" not in reply["message"], reply


def test_the_turn_clock_plays_the_lowest_legal_card_as_a_forfeit_and_a_table_survives_a_restart(tmp_path):
    db = Database(tmp_path)
    with TestClient(create_app(idle_seconds=600, origins=[ORIGIN], db=db)) as c, c.websocket_connect("/ws") as a:
        joined, made = _make_table(a, seats=["person", "random", "random", "random"], turn_seconds=1)
        first = made[-1]
        assert first["type"] == "turn" and first["seconds_left"] <= 1
        later = _until(a, first["decision"])  # nothing sent: the clock answers
        played = [e for f in later if f["type"] == "step" for e in f["table"]["events"] if e.get("seat") == 0]
        assert played, later[0]
    assert db.read("SELECT forfeits FROM seats WHERE table_id = ? AND seat = 0", (joined["id"],)) == [(1,)]
    (step,), = db.read("SELECT actions FROM decisions WHERE table_id = ? AND step = ?", (joined["id"], first["decision"]))
    assert json.loads(step)[0] == min(first["legal"])  # the lowest legal card
    with TestClient(create_app(idle_seconds=600, origins=[ORIGIN], db=db)) as c, c.websocket_connect("/ws") as a:
        a.send_text(json.dumps({"type": "resume", "id": joined["id"], "token": joined["token"]}))
        setup = _receive(a)
        assert setup["type"] == "setup" and setup["seat"] == 0 and setup["names"][0] == "you (Ada)"
        last = _until(a, -1)[-1]
        while last["type"] != "over":
            a.send_text(json.dumps({"type": "act", "id": joined["id"], "token": joined["token"],
                                    "action": last["legal"][0], "decision": last["decision"]}))
            last = _until(a, last["decision"], late_ok=True)[-1]  # the 1 s clock may answer first
        record = c.get(last["record"]).json()
        assert not replay(record).differences and record["seats"][0] == "human"
    db.close()


def test_tables_per_address_are_bounded_and_a_page_at_a_table_is_not_closed_for_room(tmp_path):
    from experiments.serve.limits import Limits

    limits = Limits(idle_seconds=600, tables_per_address=1, connections_per_address=2)
    with TestClient(create_app(limits=limits, origins=[ORIGIN])) as c, c.websocket_connect("/ws") as a:
        _make_table(a)
        a.send_text(json.dumps(TABLE))
        refused = _receive(a)
        assert refused["type"] == "error" and "1 tables of this address are open" in refused["message"]
        store = c.app.state.store
        with c.websocket_connect("/ws") as b:
            b.send_text(json.dumps({"type": "ping"}))
            assert _receive(b)["type"] == "pong"
            assert len(store.connections) == 2 and store.in_game(store.connections[0])
            with c.websocket_connect("/ws") as third:  # room is made by closing b (no game), never a
                third.send_text(json.dumps({"type": "ping"}))
                assert _receive(third)["type"] == "pong"
                assert store.connections[0].tables


def test_bench_serve_measures_tables_of_two_people(tmp_path):
    import subprocess
    import sys

    from experiments.serve.bench import ROOT
    out = subprocess.run([sys.executable, "-m", "experiments.cli", "bench", "serve", "--moves", "1", "--games", "1",
                          "--opponents", "random,random,random", "--tables", "2", "--think-ms", "5", "--json"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-500:]
    result = json.loads(out.stdout)
    closed, paced = result["tables"], result["tables_paced"]  # the closed loop, then people who think
    for tables in (closed, paced):
        assert tables["finished"] == 2 and tables["errors"] == 0 and tables["answers"] >= 2 * 2 * 9
        if sys.platform.startswith("linux"):  # the server's CPU an answer, read from /proc
            assert tables["server_cpu_ms_per_answer"] > 0
    assert closed["think_ms"] == 0 and paced["think_ms"] == 5


@pytest.mark.parametrize("game", ["cards", "board"])
def test_where_a_table_waits_is_the_last_step_view_without_its_events(game):
    """tables.py builds a seat's view once per step and shows where the table waits from
    it, less its events, and makes a step's events once for every seat: that must be what
    `table_view` gives each seat. A person's answer sends nothing to a seat still asked
    the question it was sent. A frame's text (`message_text`) reads back as the message."""
    from experiments.serve.allowed import AllowList
    from experiments.serve.tables_app import message_text, table_of, table_params

    params = table_params({"type": "table", "game": game, "players": 4, "seed": 3, "name": "Ada",
                           "seats": ["person", "person", "random", "random"]}, AllowList())
    session = table_of(params)
    session.join("Ada")
    session.listeners = {"page a": 0}  # as the server: each page listens once it has its snapshot
    session.join("Bob")
    session.snapshot_for(1)
    session.snapshot_for(None)
    session.listeners = {"page a": 0, "page b": 1, "watcher": None}
    for _ in range(12):
        if session.over():
            break
        first, *others = session._waiting_seats()
        by_seat = session.answer(first, session._legal(first)[0], session.decision)
        for seat in others:  # still asked the question it was sent: nothing new for it
            assert by_seat[seat] == [] and by_seat[first][-1]["type"] == "watch"
            by_seat = session.answer(seat, session._legal(seat)[0], session.decision)
        assert set(by_seat) == {0, 1, None} and session.shown[-1].after is session.state
        shown = session.shown[-1]
        for seat in (0, 1, None):
            assert session._table_now(seat) == session.game.table_view(session.state, seat)
            assert by_seat[seat][-2]["table"] == session.game.table_view(  # the step, its events made once
                shown.after, seat, before=shown.before, events=shown.events, actions=shown.actions)
            assert by_seat[seat][-1]["table"]["hand"] == session.game.table_view(session.state, seat)["hand"]
            for message in by_seat[seat]:  # the frame's text: the message
                assert json.loads(message_text(message)) == json.loads(json.dumps(message))
        assert by_seat[0][-2]["table"]["events"] is by_seat[None][-2]["table"]["events"]  # the public table: built once


def test_a_mailbox_runs_what_other_threads_hand_over_in_order_with_one_wake_up_of_the_loop():
    """The writer thread hands a loop each answer's messages and completion through its
    Mailbox (tables_app.py): all handed over before the loop runs cost one wake-up."""
    import asyncio
    import functools
    import threading

    from experiments.serve.tables_app import Mailbox

    loop = asyncio.new_event_loop()
    try:
        ran, wake_ups, wake = [], [], loop.call_soon_threadsafe
        loop.call_soon_threadsafe = lambda *args: (wake_ups.append(args), wake(*args))[1]
        box = Mailbox(loop)
        writer = threading.Thread(target=lambda: [box.post(functools.partial(ran.append, i)) for i in range(50)])
        writer.start()
        writer.join()
        loop.run_until_complete(asyncio.sleep(0))
        assert ran == list(range(50)) and len(wake_ups) == 1
        box.post(functools.partial(ran.append, 50))  # after the loop ran them: a new wake-up
        loop.run_until_complete(asyncio.sleep(0))
        assert ran == list(range(51)) and len(wake_ups) == 2
    finally:
        loop.close()
