"""`sixnimmt serve` as an attacker would try it: the server decides what runs, which pages may
talk to it, and how much any one page may take (in process; the uvicorn-level bounds in
test_serve_limits.py)."""

from __future__ import annotations

import json
import sys
import warnings

import pytest

with warnings.catch_warnings():  # starlette's note on its httpx dependency, not ours to act on
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from agents import arena
from experiments.cli import app as cli
from experiments.serve.agents import SHARED_MAX, AgentCache
from experiments.serve.allowed import MAX_ROLLOUTS, AllowList
from experiments.serve.app import create_app
from experiments.serve.limits import Limits
from experiments.serve.setup import session_from
from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.records import replay

HOME = "http://127.0.0.1:8000"  # the server's own address: what a page it serves sends
WS = "ws://127.0.0.1:8000/ws"
TWO = {"game": "cards", "players": 2, "options": {"max_rounds": "1"}}


def _client(**kw) -> TestClient:
    return TestClient(create_app(**kw), base_url=HOME)


def _new(ws, **msg) -> list[dict]:
    ws.send_json(dict(TWO, type="new", **msg))
    got = [ws.receive_json()]
    while got[-1]["type"] not in ("turn", "over", "watch", "error"):
        got.append(ws.receive_json())
    return got


# ---------------------------------------------------------------------- what runs


def test_opponents_from_the_network_only_from_the_allow_list(tmp_path):
    marker = tmp_path / "ran"
    plugin = tmp_path / "evil.py"
    plugin.write_text(f"open({str(marker)!r}, 'w').write('x')\nclass Bot:\n    def act(self, view, rng): pass\n")
    refused = {
        "ppo:path=/etc/passwd": "parameter path is not open",
        f"ppo:path={tmp_path}/missing.zip": "parameter path is not open",  # the same text: no path is probed
        "guided:path=/etc/passwd": "parameter path is not open",
        f"py:{plugin}:Bot": "run code on the server",
        f"cmd:{sys.executable} -c open({str(marker)!r},'w')": "run code on the server",
        f"mcs:rollouts={MAX_ROLLOUTS + 1}": f"outside 1..{MAX_ROLLOUTS}",
        "mcs:rollouts=20000": f"outside 1..{MAX_ROLLOUTS}",
        "mcs:batched=true": "parameter batched is not open",
        "bayes:samples=100000": "parameter samples is not open",
        "nobody": "not offered for the cards game",
        "board-green": "not offered for the cards game",
        "x" * 300: "too long",
    }
    with _client() as c, c.websocket_connect(WS) as ws:
        for spec, why in refused.items():
            reply = _new(ws, opponents=[spec])
            assert len(reply) == 1 and reply[0]["type"] == "error" and why in reply[0]["message"], (spec, reply)
            assert "Traceback" not in reply[0]["message"] and "\n" not in reply[0]["message"]
        assert not marker.exists()
        for spec, seat in (("mcs:rollouts=400", "mcs:rollouts=400"), ("mcs:rollouts=0100", "mcs"), ("lowest", "lowest")):
            setup = _new(ws, opponents=[spec])[0]
            assert setup["type"] == "setup" and setup["names"][1] == f"seat 2 ({seat})"


def test_the_allow_list_is_the_servers_choice():
    allowed = AllowList(["random", "mcs:rollouts=1..20"])
    assert allowed.names("cards") == ["mcs", "random"] and allowed.names("board") == ["mcs", "random"]
    with _client(allowed=allowed) as c:
        games = {g["name"]: g for g in c.get("/api/options").json()["games"]}
        assert games["cards"]["agents"] == ["mcs", "random"]
        assert c.get("/api/defaults", params={"players": 4}).json()["opponents"] == ["random", "mcs", "mcs"]
        with c.websocket_connect(WS) as ws:
            assert "not offered" in _new(ws, opponents=["ppo"])[0]["message"]
            assert "outside 1..20" in _new(ws, opponents=["mcs:rollouts=21"])[0]["message"]
            assert _new(ws, opponents=["mcs:rollouts=20"])[0]["type"] == "setup"
            assert _new(ws)[0]["names"][1] == "seat 2 (random)"  # the defaults, from the list
    for bad, why in (("py:x.py:A", "runs code of its own"), ("cmd:ls", "runs code of its own"),
                     ("mcs:rollouts=5..1", "empty"), ("mcs:score=1..3", "only a numeric parameter"),
                     ("nobody", "unknown agent"), ("mcs:rollouts=a..b", "not a range")):
        with pytest.raises(ConfigError, match=why):
            AllowList([bad])
    assert "ppo" in AllowList().names("cards") and "board-green" in AllowList(["default"]).names("board")


def test_a_model_file_on_the_list_is_read_when_the_server_starts(tmp_path):
    """The operator's own `ppo:path=` entry is read (weights only) before the server
    listens: a missing or foreign file stops the start with one line, not the first page."""
    (tmp_path / "notes.zip").write_text("not a zip")
    for path, why in ((tmp_path / "missing.zip", "no model at"), (tmp_path / "notes.zip", "not a model")):
        with pytest.raises(ConfigError, match=why):
            AllowList([f"ppo:path={path}"])
    assert AllowList(["ppo:path=agents/models/ppo-4p.zip"]).names("cards") == ["ppo"]


def test_shared_agents_are_a_bounded_cache():
    cache = AgentCache()
    for r in range(1, SHARED_MAX + 10):
        arena.build_agents([f"mcs:rollouts={r}"], "cards", make=cache.get)
    assert len(cache.agents) == SHARED_MAX
    first_kept = next(iter(cache.agents))
    arena.build_agents([first_kept[0]], "cards", make=cache.get)  # used again: the last to go
    arena.build_agents(["random"], "cards", make=cache.get)
    assert first_kept in cache.agents and len(cache.agents) == SHARED_MAX


# ---------------------------------------------------------------------- who may talk to it


def test_host_and_origin_are_this_servers():
    with _client() as c:
        assert c.get("/").status_code == 200 and c.get("/api/health").status_code == 200
        assert c.get("/api/health", headers={"origin": "http://localhost:8000"}).status_code == 200
        for headers in ({"host": "evil.example"}, {"host": "127.0.0.1:9999"}, {"origin": "http://evil.example"},
                        {"origin": "null"}, {"host": "localhost.evil.example:8000"}):
            bad = c.get("/api/options", headers=headers)
            assert bad.status_code == 403 and bad.text.startswith("forbidden: "), headers
        with c.websocket_connect(WS, headers={"origin": "http://[::1]:8000"}) as ws:
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["type"] == "pong"
        for headers in ({"origin": "http://evil.example"}, {"origin": "http://127.0.0.1:8001"}, {"host": "evil.example"}):
            with pytest.raises(WebSocketDenialResponse) as refused, c.websocket_connect(WS, headers=headers):
                pass  # never accepted: a 403 with the reason
            assert refused.value.status_code == 403 and refused.value.text.startswith("forbidden: ")
    with _client(origins=["http://192.168.1.5:8000"]) as c:  # --allow-origin: that page too
        assert c.get("/api/health", headers={"host": "192.168.1.5:8000", "origin": "http://192.168.1.5:8000"}).status_code == 200
        assert c.get("/api/health", headers={"host": "192.168.1.6:8000"}).status_code == 403


# ---------------------------------------------------------------------- how much one page may take


def test_one_page_cannot_lock_the_others_out():
    """One client opened 500 games in 0.6 s and everyone else was refused for 30 minutes."""
    limits = Limits(max_games=8, games_per_connection=2, max_connections=4, connections_per_address=4,
                    rate=10_000, burst=10_000)
    with _client(limits=limits) as c:
        store = c.app.state.store
        with c.websocket_connect(WS) as greedy:
            ids = [_new(greedy)[0]["id"] for _ in range(10)]
            assert len(store.games) == 2 and set(store.games) == set(ids[-2:])
            greedy.send_json({"type": "resume", "id": ids[0]})
            assert greedy.receive_json()["code"] == "unknown-game"
        for _ in range(3):  # pages that went away: their games stay for a reload, unowned
            with c.websocket_connect(WS) as ws:
                _new(ws), _new(ws)
        assert len(store.games) == limits.max_games
        with c.websocket_connect(WS) as late:
            assert _new(late)[0]["type"] == "setup"  # the unowned game idle longest made room
            assert len(store.games) == limits.max_games
        open_pages = [c.websocket_connect(WS) for _ in range(limits.max_connections)]
        try:
            for ws in open_pages:  # each with a game in progress: none of them is closed for another page
                ws.__enter__()
                assert _new(ws, options={"max_rounds": "3"})[-1]["type"] == "turn"
            with c.websocket_connect(WS) as refused:  # accepted to say why, then closed
                error = refused.receive_json()
                assert error["code"] == "full" and "each with a game in progress" in error["message"]
                with pytest.raises(WebSocketDisconnect) as full:
                    refused.receive_json()
                assert full.value.code == 1013 and "try again later" in full.value.reason
        finally:
            for ws in open_pages:
                ws.__exit__(None, None, None)


def test_idle_sockets_do_not_keep_a_new_page_out():
    """Twenty idle sockets from 127.0.0.1 kept the user's own new page out (403), for ever:
    at the per-address limit the socket idle longest without a game makes room, a page
    with a game in progress is never the one closed, and a socket idle past
    socket_idle_seconds without a game is closed."""
    limits = Limits(connections_per_address=4, max_connections=8, games_per_connection=2, max_games=16)
    with _client(limits=limits) as c:
        playing = c.websocket_connect(WS)
        playing.__enter__()
        assert _new(playing, options={"max_rounds": "3"})[-1]["type"] == "turn"  # a person thinking
        idle = [c.websocket_connect(WS) for _ in range(limits.connections_per_address - 1)]
        pages = []
        try:
            for ws in idle:
                ws.__enter__()
            for ws in idle:  # the limit is reached: each new page closes the one idle longest without a game
                pages.append(c.websocket_connect(WS))
                page = pages[-1].__enter__()
                page.send_json({"type": "ping"})
                assert page.receive_json()["type"] == "pong"
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == 1013 and "needed the room" in closed.value.reason
            playing.send_json({"type": "ping"})
            assert playing.receive_json()["type"] == "pong"  # never the one closed
        finally:
            for ws in [playing, *idle, *pages]:
                ws.__exit__(None, None, None)
    with _client(limits=Limits(socket_idle_seconds=0.2)) as c, c.websocket_connect(WS) as ws:
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()  # nothing sent: closed when idle too long
        assert closed.value.code == 1001 and "idle" in closed.value.reason


def test_messages_past_the_rate_wait(monkeypatch):
    """The budget's waits are counted on a stopped clock (no wall-clock bound): the burst
    goes at once, each message past it waits 1/rate more; on the server nothing is dropped."""
    from experiments.serve import limits
    monkeypatch.setattr(limits.time, "monotonic", lambda: 1000.0)
    budget = limits.MessageBudget(rate=100, burst=10)
    waits = [budget.take() for _ in range(110)]
    assert waits[:10] == [0.0] * 10
    assert waits[10:] == pytest.approx([k / 100 for k in range(1, 101)])
    monkeypatch.undo()
    with _client(limits=Limits(rate=100, burst=10)) as c, c.websocket_connect(WS) as ws:
        for _ in range(110):
            ws.send_json({"type": "ping"})
        assert [ws.receive_json()["type"] for _ in range(110)] == ["pong"] * 110


def test_drawn_seeds_are_64_bits_and_the_record_replays():
    seeds = [session_from(dict(TWO, opponents=["random"])).seed for _ in range(20)]
    assert all(0 <= s < 2**64 for s in seeds) and max(seeds) >= 2**40 and len(set(seeds)) == 20
    assert session_from(dict(TWO, opponents=["random"], seed=str(2**64 - 1))).seed == 2**64 - 1
    with pytest.raises(ConfigError, match="seed must be"):
        session_from(dict(TWO, opponents=["random"], seed=2**64))
    with _client() as c, c.websocket_connect(WS) as ws:
        msgs = _new(ws, watch=True, opponents=["random", "random"])
        while msgs[-1]["type"] != "over":
            ws.send_json({"type": "next", "id": msgs[0]["id"]})
            msgs.append(ws.receive_json())
        over = msgs[-1]
        assert isinstance(over["seed"], str) and int(over["seed"]) >= 0  # text: JavaScript keeps every digit
        rec = c.get(over["record"]).json()
        assert rec["seed"] == int(over["seed"]) and not replay(json.loads(json.dumps(rec))).differences


# ---------------------------------------------------------------------- the command


def test_serve_options_and_a_public_host(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # the default data folder: not this user's
    ran = []
    monkeypatch.setattr("experiments.serve.server.run", lambda app, host, port, level, limits: ran.append((app, host)))
    runner = CliRunner()
    run = runner.invoke(cli, ["serve", "--host", "0.0.0.0"])
    assert run.exit_code == 2 and run.stderr.count("\n") == 1 and "--public" in run.stderr and not ran
    run = runner.invoke(cli, ["serve", "--host", "0.0.0.0", "--public", "--allow-origin", "http://10.0.0.2:8000"])
    assert run.exit_code == 0 and "warning: sixnimmt serve listens on 0.0.0.0" in run.stderr
    assert ran[-1][1] == "0.0.0.0" and "http://10.0.0.2:8000" in run.stderr
    run = runner.invoke(cli, ["serve", "--allow", "random", "--allow", "mcs:rollouts=1..50"])
    assert run.exit_code == 0 and ran[-1][0].state.allowed.texts == ["random", "mcs:rollouts=1..50"]
    run = runner.invoke(cli, ["serve", "--host", "localhost", "--allow", "default"])
    assert run.exit_code == 0 and "warning" not in run.stderr and len(ran[-1][0].state.allowed.texts) > 10
    for args, why in ((["--allow", "py:x.py:A"], "runs code of its own"), (["--allow-origin", "evil"], "give an origin")):
        run = runner.invoke(cli, ["serve", *args])
        assert run.exit_code == 2 and why in run.stderr and run.stderr.count("\n") == 1, run.stderr


# ---------------------------------------------------------------------- odd messages (issue 48)


def test_every_odd_field_gets_a_typed_error_naming_it(caplog):
    """`game` as a list or an object, `players` as a 5000-digit string, a 5000-digit seed
    or end_score, JSON nested 10,000 deep: each was an `internal` error and a traceback in
    the server's log; each is one line naming the field, and the log stays clean."""
    long = "9" * 5000
    odd = {
        '{"type": "new", "game": ["cards"]}': "game",
        '{"type": "new", "game": {"a": 1}}': "game",
        f'{{"type": "new", "players": "{long}"}}': "players",
        f'{{"type": "new", "players": {long}}}': "players",
        f'{{"type": "new", "seed": {long}}}': "seed",
        f'{{"type": "new", "seed": "{long}"}}': "seed",
        f'{{"type": "new", "options": {{"end_score": {long}}}}}': "end_score",
        f'{{"type": "new", "options": {{"end_score": "{long}"}}}}': "end_score",
        '{"type": "new", "variant": ["pro"]}': "variant",
        '{"type": "new", "watch": "yes"}': "watch",
        '{"type": "new", "options": {"max_rounds": 1000000000}}': "max_rounds",
        '{"type": "new", "options": {"end_score": 0, "max_rounds": 0}}': "needs an end",
        '{"type": ["new"]}': "type",
        '{"type": "act", "id": ["x"]}': "id",
        "[" * 10_000 + "]" * 10_000: "nested",
        '{"type": "new", "opponents": [[[[[[["x"]]]]]]]}': "nested",
    }
    caplog.set_level("INFO", logger="sixnimmt.serve")
    with _client(limits=Limits(message_chars=30_000, rate=10_000, burst=10_000)) as c, c.websocket_connect(WS) as ws:
        for text, field in odd.items():
            ws.send_text(text)
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["code"] == "invalid", (text[:60], reply)
            assert field in reply["message"] and "\n" not in reply["message"] and len(reply["message"]) < 300, reply
        assert _new(ws)[0]["type"] == "setup"  # the connection goes on
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")], caplog.text[:2000]


def test_an_action_of_5000_digits_is_refused_naming_its_length():
    """The message reader keeps such an integer as a LongNumber; the action's error quoted it
    with json.dumps, which cannot encode one (a TypeError: an `internal` error)."""
    from experiments.serve.messages import LongNumber, parse_message
    from sixnimmt_env.core.errors import IllegalActionError

    session = session_from(dict(TWO, opponents=["random"]))
    session.start()
    action = parse_message('{"type": "act", "action": %s}' % ("9" * 5000), 10_000)["action"]
    assert isinstance(action, LongNumber)
    with pytest.raises(IllegalActionError, match="an action is an integer, got a number of 5000 digits"):
        session.act(action, session.decision)


def test_a_page_cannot_start_a_game_that_never_ends():
    """`new` with end_score 0 and max_rounds 10**9 was accepted, each `next` growing its
    record: a page's game ends within PAGE_BOUNDS, or is refused naming the bound."""
    from experiments.serve.setup import PAGE_BOUNDS

    with _client() as c, c.websocket_connect(WS) as ws:
        for options, why in (({"end_score": 0, "max_rounds": 10**9}, "max_rounds 1000000000 is longer"),
                             ({"end_score": "0", "max_rounds": "0"}, "a game needs an end"),
                             ({"end_score": PAGE_BOUNDS["end_score"] + 1}, "at most")):
            reply = _new(ws, options=options)
            assert reply[0]["type"] == "error" and why in reply[0]["message"], reply
        for options in ({"end_score": 0, "max_rounds": PAGE_BOUNDS["max_rounds"]}, {"end_score": PAGE_BOUNDS["end_score"]},
                        {}):
            assert _new(ws, options=options)[0]["type"] == "setup", options


def test_a_shared_agent_decides_the_same_from_many_threads():
    """Six to eight pages stepping board games with the server's one `guided` got
    `internal` errors (shape mismatch: the agent kept the table's network on itself). The
    same decisions, for tables of two variants (two networks), made serially and then
    from six threads at once (four of them let go together), are identical."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    import numpy as np

    from experiments.serve.setup import shared_agents
    from sixnimmt_env.core.game import make_game
    from sixnimmt_env.core.rng import game_seeds

    agent = shared_agents(["guided:worlds=2:top=2"], "board")["guided:worlds=2:top=2"]
    tasks = []
    for k in range(8):
        game = make_game("board", variant=("basic", "pro")[k % 2], players=4)
        st = game.new_games(game_seeds(k, 1))
        seats, games = np.nonzero(game.to_act(st))
        tasks.append((game.view(st, seats, games), k))

    def decide(task, start=None):
        if start is not None:
            start.wait()
        view, seed = task
        return agent.act(view, np.random.default_rng(seed)).tolist()

    serial = [decide(t) for t in tasks]
    start = threading.Barrier(4)
    with ThreadPoolExecutor(6) as pool:
        together = list(pool.map(lambda t: decide(t, start if tasks.index(t) % 2 == 0 else None), tasks))
    assert together == serial
