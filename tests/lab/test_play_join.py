"""`sixnimmt play --join URL`: a person in the terminal at a table a real `sixnimmt serve` holds.

A server is started for the test; a scripted person (a WebSocket client in a thread)
makes a table of two people and two agents, and the real `play --join` program, driven
through a pseudo-terminal, takes the other seat and plays it to the end — a typed
answer that names nothing refused in a line, its list of answers used to answer. Bad
links, an unknown table, a server that is not there and a server that sends garbage
(not JSON, nested past the bound, a frame past the size bound) end in one line, exit 2.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading

import pytest

from experiments.serve.bench import ROOT, free_port, served

pexpect = pytest.importorskip("pexpect")

ENV_EXTRA = {"NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "120"}
TABLE = {"type": "table", "game": "cards", "players": 4, "seats": ["person", "person", "random", "lowest"],
         "seed": 21, "options": {"max_rounds": "1"}, "name": "Ada", "turn_seconds": 120}


def _play_first_legal(url: str, made: dict, done: threading.Event) -> None:
    """The table's maker: answers the first legal action at each turn until the game ends."""
    from websockets.sync.client import connect

    with connect(url.replace("http", "ws", 1) + "/ws", max_size=None) as ws:
        ws.send(json.dumps(TABLE))
        while True:
            data = json.loads(ws.recv(timeout=120))
            for msg in data if isinstance(data, list) else [data]:  # a frame holds one message, or several
                if msg["type"] == "joined":
                    made.update(msg)
                    done.set()
                elif msg["type"] == "turn":
                    ws.send(json.dumps({"type": "act", "id": made["id"], "token": made["token"],
                                        "action": msg["legal"][0], "decision": msg["decision"]}))
                elif msg["type"] in ("over", "error"):
                    made["last"] = msg
                    return


def _join(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", "play", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, **kwargs)


def test_a_person_joins_a_served_table_from_the_terminal_and_plays_it_to_the_end():
    import os

    with served(None, "--memory") as url:
        made, ready = {}, threading.Event()
        maker = threading.Thread(target=_play_first_legal, args=(url, made, ready), daemon=True)
        maker.start()
        assert ready.wait(120), "the table was not made"
        child = pexpect.spawn(sys.executable, ["-m", "experiments.cli", "play", "--join", f"{url}/?table={made['id']}",
                                               "--name", "Bob"], cwd=str(ROOT), env={**os.environ, **ENV_EXTRA},
                              encoding="utf-8", timeout=120, dimensions=(50, 120))
        try:
            child.expect(r"You sit at seat 2 of table")
            answers = 0
            while child.expect([r"Your answer[^:]*: ", r"Game over"]) == 0:
                child.sendline("no such card")  # refused in a line that lists the answers
                child.expect(r"is not an answer now; type one of: ([^\r\n]+)")
                first = child.match.group(1).split(",")[0].strip()
                child.expect(r"Your answer: ")
                child.sendline(first)
                answers += 1
            child.expect(pexpect.EOF)
        finally:
            child.close(force=True)
        maker.join(60)
    assert answers >= 5 and child.exitstatus == 0, child.before
    assert made["last"]["type"] == "over"


@pytest.mark.parametrize("args, fragment", [
    (["--join", "ftp://127.0.0.1/?table=abc"], "not a table's link"),
    (["--join", "http://127.0.0.1:8000/"], "the link names no table"),
    (["--join", "http://127.0.0.1:8000/?table=a%0Ab"], "the link names no table"),
    (["--join", "http://127.0.0.1:8000/?table=abc", "--seed", "3"], "--join plays the served table's game"),
    (["--name", "Bob"], "--name and --seat are for --join"),
    (["--join", "http://127.0.0.1:8000/?table=abc", "--name", "B" * 41], "name too long"),
])
def test_bad_join_options_are_refused_in_one_line(args, fragment):
    out = _join(*args)
    assert out.returncode == 2 and fragment in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_an_unknown_table_and_a_server_not_there_are_refused_in_one_line():
    with served(None, "--memory") as url:
        out = _join("--join", f"{url}/?table=no-such-table", "--name", "Bob", stdin=subprocess.DEVNULL)
    assert out.returncode == 2 and "the server refused: no game" in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    out = _join("--join", f"http://127.0.0.1:{free_port()}/?table=abc", stdin=subprocess.DEVNULL)
    assert out.returncode == 2 and "cannot reach the table" in out.stderr and len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("frame, fragment", [
    ("not json", "the server's message"),
    ("[" * 100 + "]" * 100, "nested"),
    (json.dumps({"type": "joined", "seat": 0, "token": "t", "pad": "x" * (9 * 2**20)}), "closed the connection"),
    (json.dumps({"type": "turn", "table": {"rows": []}, "decision": 0, "legal": ["x"]}), "before saying who sits"),
])
def test_a_server_sending_garbage_ends_the_session_in_one_line(frame, fragment):
    from websockets.sync.server import serve

    def handler(ws):
        ws.recv(timeout=30)  # the join
        try:
            ws.send(frame)
            ws.recv(timeout=30)
        except Exception:  # noqa: BLE001 - the client hangs up: what the test wants
            pass
    port = free_port()
    with serve(handler, "127.0.0.1", port, max_size=2**20) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        out = _join("--join", f"http://127.0.0.1:{port}/?table=abc", stdin=subprocess.DEVNULL)
        server.shutdown()
    assert out.returncode == 2 and fragment in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "Traceback" not in out.stderr + out.stdout


def test_the_bench_and_play_join_read_a_frame_by_one_rule():
    """A frame holds one message or several in order (a JSON array): `messages_in` is the
    rule, and both the serve bench's scripted people and `read_messages` read by it."""
    import asyncio

    from experiments.play.join import messages_in, read_messages
    from experiments.serve.bench import _messages

    one, two, three = {"type": "step", "n": 1}, {"type": "step", "n": 2}, {"type": "turn", "legal": [3]}
    frames = [json.dumps(one), json.dumps([two, three])]
    assert [m for f in frames for m in messages_in(json.loads(f))] == [one, two, three]
    assert [m for f in frames for m in read_messages(f)] == [one, two, three]

    class Socket:  # the frames, then the socket closes
        async def recv(self):
            if not frames:
                raise ConnectionError
            return frames.pop(0)

    async def read_all(ws):
        got = []
        try:
            async for msg in _messages(ws):
                got.append(msg)
        except ConnectionError:
            pass
        return got
    assert asyncio.run(read_all(Socket())) == [one, two, three]
