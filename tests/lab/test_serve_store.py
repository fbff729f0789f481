"""Games kept in `sixnimmt serve`'s SQLite database (experiments/serve/db.py, keep.py).

The schema migrates from an empty file and from the previous version (its rows kept), and
a newer one is refused; a game kept and loaded back continues as if never stopped; and
the real server, SIGKILLed in the middle of a game (of one person, and a table of two
people) and started again on the same folder, resumes it from its last answered decision
and ends it with the record an uninterrupted run of the same seed and actions gives — the database sound afterwards (`PRAGMA
integrity_check`) and its finished record valid (`sixnimmt replay`).
"""

from __future__ import annotations

import json
import signal
import sqlite3

import pytest

from experiments.serve.bench import server_process
from experiments.serve.db import MIGRATIONS, SCHEMA_VERSION, Database, migrate, schema_version
from experiments.serve.keep import Keeper
from experiments.serve.setup import session_from
from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.records import replay

TWO_ROUNDS = {"type": "new", "game": "cards", "players": 4, "opponents": ["random", "lowest", "random"],
              "seed": 11, "options": {"max_rounds": "2"}, "name": "Ada"}


def _first_legal_to_the_end(session, messages, moves=None) -> int:
    """Answer the first legal action until the game ends (or `moves` answers); how many."""
    done = 0
    while messages[-1]["type"] == "turn" and (moves is None or done < moves):
        messages = session.act(messages[-1]["legal"][0], messages[-1]["decision"])
        done += 1
    return done


def _uninterrupted_record(msg: dict) -> dict:
    session = session_from(dict(msg))
    _first_legal_to_the_end(session, session.start())
    return session.record()


def test_migrations_from_empty_from_the_previous_version_and_a_newer_file_refused(tmp_path):
    db = Database(tmp_path / "new")
    assert db.read("SELECT version FROM schema_version") == [(SCHEMA_VERSION,)] and db.integrity() == "ok"
    db.close()
    old = sqlite3.connect(tmp_path / "old.db", isolation_level=None)
    assert migrate(old, SCHEMA_VERSION - 1) == SCHEMA_VERSION - 1  # the file the previous release wrote
    old.execute("INSERT INTO tables (id, created, updated, game, variant, players, params, status) "
                "VALUES ('g1', 1, 1, 'cards', 'classic', 4, '{}', 'over')")
    old.execute("INSERT INTO records (table_id, finished, record) VALUES ('g1', 2, '{}')")
    assert migrate(old) == SCHEMA_VERSION == len(MIGRATIONS) and schema_version(old) == SCHEMA_VERSION
    assert old.execute("SELECT table_id, totals FROM records").fetchall() == [("g1", None)]  # kept, new column
    assert old.execute("SELECT forfeits FROM seats").fetchall() == []
    old.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(ConfigError, match="newer than this sixnimmt reads"):
        migrate(old)
    old.close()


def test_a_kept_game_loads_back_and_ends_as_if_never_stopped(tmp_path):
    db = Database(tmp_path)
    keeper = Keeper(db)
    session = session_from(dict(TWO_ROUNDS))
    messages = session.start()
    keeper.started(session)
    for _ in range(7):  # seven answers, each written as the server writes it
        messages = session.act(messages[-1]["legal"][0], messages[-1]["decision"])
        keeper.progressed(session)
    again = keeper.load(session.id)
    assert again.decision == session.decision >= 7 and len(again.journal) == len(session.journal)
    assert again.snapshot()[-1]["table"] == session.snapshot()[-1]["table"]  # waiting at the same question
    _first_legal_to_the_end(again, again.snapshot())
    keeper.progressed(again)
    assert again.record() == _uninterrupted_record(TWO_ROUNDS)
    (kept_id, kept), = keeper.records()
    assert kept_id == session.id and kept == again.record() and not replay(kept).differences
    assert db.read("SELECT kind, name FROM seats ORDER BY seat")[:2] == [("person", "Ada"), ("agent", "random")]
    assert keeper.load("no-such-game") is None and keeper.load("x" * 5000) is None
    db.close()


def _play_over_socket(url: str, first: dict, moves: int | None) -> tuple[str, dict]:
    """Play first-legal answers over the server's WebSocket; (game id, the last message)."""
    from websockets.sync.client import connect

    game_id, last, answered = None, None, 0
    with connect(url.replace("http", "ws", 1) + "/ws", max_size=None) as ws:
        ws.send(json.dumps(first))
        while True:
            msg = json.loads(ws.recv(timeout=60))
            assert msg["type"] != "error", msg
            if msg["type"] == "setup":
                game_id = msg["id"]
            if msg["type"] in ("turn", "over"):
                last = msg
                if msg["type"] == "over" or (moves is not None and answered >= moves):
                    return game_id, last
                ws.send(json.dumps({"type": "act", "id": game_id, "action": msg["legal"][0],
                                    "decision": msg["decision"]}))
                answered += 1


def test_a_game_survives_a_sigkill_of_the_server_and_ends_with_the_uninterrupted_record(tmp_path):
    data = str(tmp_path / "data")
    with server_process(None, "--data", data) as (url, proc):
        game_id, waiting = _play_over_socket(url, TWO_ROUNDS, moves=8)  # the 8th answer's reply seen
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert waiting["decision"] >= 8
    with server_process(None, "--data", data) as (url, proc):
        resumed, over = _play_over_socket(url, {"type": "resume", "id": game_id}, moves=None)
        import urllib.request
        with urllib.request.urlopen(url + over["record"], timeout=30) as answer:
            record = json.loads(answer.read())
    assert resumed == game_id and over["type"] == "over"
    assert record == _uninterrupted_record(TWO_ROUNDS) and not replay(record).differences
    db = Database(data)
    assert db.integrity() == "ok"
    assert db.read("SELECT status FROM tables WHERE id = ?", (game_id,)) == [("over",)]
    assert json.loads(db.read("SELECT record FROM records")[0][0]) == record
    db.close()


def test_queued_writes_commit_together_each_failing_alone_and_then_runs_in_order_after_its_commit(tmp_path):
    """The writer's group commit (db.py): what is queued meanwhile goes in one transaction,
    a write that fails is rolled back alone, and each `then` runs after its own commit, in
    the order the writes were queued (the server delivers a table's messages there)."""
    import threading

    db = Database(tmp_path)
    gate, seen = threading.Event(), []
    db.submit(lambda conn: gate.wait(10))  # holds the writer while the writes below queue up

    def insert(k):
        def work(conn):
            conn.execute("INSERT INTO tables (id, created, updated, game, variant, players, params, status) "
                         "VALUES (?, 0, 0, 'cards', 'classic', 4, '{}', 'playing')", (f"g{k}",))
            if k == 2:
                raise ValueError("this write fails")
        return work

    def then(k):  # a reader sees the write committed before `then` runs
        return lambda: seen.append((k, db.read("SELECT count(*) FROM tables WHERE id = ?", (f"g{k}",))[0][0]))
    futures = [db.submit(insert(k), then=then(k)) for k in range(5)]
    gate.set()
    with pytest.raises(ValueError, match="this write fails"):
        futures[2].result(timeout=30)
    assert [f.result(timeout=30) for k, f in enumerate(futures) if k != 2] == [None] * 4
    assert seen == [(0, 1), (1, 1), (3, 1), (4, 1)]  # in order, each committed; none for the failed write
    assert db.read("SELECT id FROM tables ORDER BY id") == [("g0",), ("g1",), ("g3",), ("g4",)]
    db.close()


TABLE_OF_TWO = {"type": "table", "game": "cards", "players": 4, "seats": ["person", "person", "random", "lowest"],
                "seed": 23, "options": {"max_rounds": "1"}, "name": "Ada", "turn_seconds": 600}


def _table_uninterrupted_record(msg: dict) -> dict:
    """The record of TABLE_OF_TWO's game played in process, each person answering first legal."""
    from experiments.serve.allowed import AllowList
    from experiments.serve.tables_app import table_of, table_params

    session = table_of(table_params(dict(msg), AllowList()))
    session.join("Ada")
    session.join("Bo")
    while not session.over():
        for seat in session._waiting_seats():
            session.answer(seat, session._legal(seat)[0], session.decision)
    return session.record()


def _table_wait(ws, after: int, kinds=("turn", "watch")) -> dict:
    """The page's next frame that says where the table waits past decision `after` (of
    `kinds`: a table waiting for its second person says so in a `watch`), or the end."""
    while True:
        data = json.loads(ws.recv(timeout=60))
        for msg in data if isinstance(data, list) else [data]:  # a frame holds one message, or several
            assert msg["type"] != "error", msg
            if msg["type"] == "over" or (msg["type"] in kinds and msg["decision"] > after):
                return msg  # (a table's frame ends with where it waits: nothing after it is lost)


def _answer_at_table(pages: dict, steps: int | None) -> dict:
    """Both people answer first legal at each decision (`pages`: token -> (socket, where it
    waits)) for `steps` decisions, or to the end; where each page waits then."""
    done = 0
    while all(m["type"] != "over" for _, m in pages.values()) and (steps is None or done < steps):
        decision = max(m["decision"] for _, m in pages.values())
        for token, (ws, m) in pages.items():
            if m["type"] == "turn" and m["decision"] == decision:
                ws.send(json.dumps({"type": "act", "id": m["id"], "token": token, "action": m["legal"][0],
                                    "decision": decision}))
        pages = {token: (ws, _table_wait(ws, decision)) for token, (ws, _) in pages.items()}
        done += 1
    return pages


def test_a_table_survives_a_sigkill_after_answers_were_seen_and_ends_with_the_uninterrupted_record(tmp_path):
    """Tables answer on the database's writer thread (tables_app._on_writer): each answer
    seen by a page (the step and the next question) is in the database before it is sent."""
    from websockets.sync.client import connect

    data = str(tmp_path / "data")
    with server_process(None, "--data", data) as (url, proc):
        ws_url = url.replace("http", "ws", 1) + "/ws"
        with connect(ws_url) as a, connect(ws_url) as b:
            a.send(json.dumps(TABLE_OF_TWO))
            joined_a = json.loads(a.recv(timeout=60))
            b.send(json.dumps({"type": "join", "id": joined_a["id"], "name": "Bo"}))
            joined_b = json.loads(b.recv(timeout=60))
            # the first decision of a card game: both people choose a card
            pages = {joined_a["token"]: (a, _table_wait(a, -1, ("turn",))),
                     joined_b["token"]: (b, _table_wait(b, -1, ("turn",)))}
            pages = _answer_at_table(pages, steps=4)
            seen = max(m["decision"] for _, m in pages.values())
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
    assert seen >= 4
    with server_process(None, "--data", data) as (url, proc):
        ws_url = url.replace("http", "ws", 1) + "/ws"
        with connect(ws_url) as a, connect(ws_url) as b:
            pages = {}
            for ws, joined in ((a, joined_a), (b, joined_b)):
                ws.send(json.dumps({"type": "resume", "id": joined["id"], "token": joined["token"]}))
                pages[joined["token"]] = (ws, _table_wait(ws, -1))
            assert min(m["decision"] for _, m in pages.values()) == seen  # where it waited: nothing answered lost
            pages = _answer_at_table(pages, steps=None)
            over = next(iter(pages.values()))[1]
        import urllib.request
        with urllib.request.urlopen(url + over["record"], timeout=30) as answer:
            record = json.loads(answer.read())
    assert record == _table_uninterrupted_record(TABLE_OF_TWO) and not replay(record).differences
    db = Database(data)
    assert db.integrity() == "ok"
    assert db.read("SELECT status FROM tables WHERE id = ?", (joined_a["id"],)) == [("over",)]
    db.close()
