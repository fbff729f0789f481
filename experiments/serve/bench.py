"""`sixnimmt bench serve`: the web server measured from outside, over its WebSocket.

The server runs as its own process (`python -m experiments.cli serve` on a free port),
as a person would start it, so the client's work is not counted against it. A move's
round trip is the time from sending `act` to receiving the message that asks for the
next decision (or ends the game): the agents' decisions for that step, the engine
steps, the table views, JSON and the socket. The person's side plays its first legal
action. `served` is also how the browser tests start a server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.strict_json import json_text

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0  # seconds for a server process to answer (imports, first agents)
PACED_THINK_MS = 1000.0  # `bench serve --tables`'s paced run: a scripted person's think time (real people take longer)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def served(port: int | None = None, *extra: str):
    """A `sixnimmt serve` process on 127.0.0.1 (a free port unless given); yields its URL
    once it answers, and stops it (SIGTERM, then SIGKILL) afterwards. Its games are kept in
    a temporary folder unless `extra` says where (--data) or --memory."""
    if "--data" in extra or "--memory" in extra:
        with server_process(port, *extra) as (url, _):
            yield url
        return
    with tempfile.TemporaryDirectory(prefix="sixnimmt-serve-") as data, server_process(port, *extra, "--data", data) as (url, _):
        yield url


@contextlib.contextmanager
def server_process(port: int | None = None, *extra: str):
    """`served`'s server: yields (its URL, its Popen) once it answers; stopped afterwards
    (SIGTERM, then SIGKILL) unless it has already ended."""
    port = port or free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", "serve", "--port", str(port), *extra],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if proc.poll() is not None:
                raise ConfigError(f"the server exited: {proc.stdout.read()[-500:]}")
            try:
                with urllib.request.urlopen(url + "/api/health", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise ConfigError(f"the server did not answer within {START_TIMEOUT:.0f} s") from None
                time.sleep(0.2)
        yield url, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def _play(url: str, new: dict, moves: int | None = None) -> dict:
    """Play one game over a WebSocket (first legal action each time); the round trips."""
    from websockets.asyncio.client import connect

    times, errors, finished, sent, game_id = [], 0, False, None, None
    async with connect(url.replace("http", "ws", 1) + "/ws", max_size=None) as ws:
        await ws.send(json_text(dict(new, type="new")))
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "setup":
                game_id = msg["id"]
            elif msg["type"] == "error":
                errors += 1
                break
            elif msg["type"] in ("turn", "over"):  # the step messages come before these
                if sent is not None:
                    times.append((time.perf_counter() - sent) * 1000)
                if msg["type"] == "over":
                    finished = True
                    break
                if moves is not None and len(times) >= moves:
                    break
                sent = time.perf_counter()
                await ws.send(json_text({"type": "act", "id": game_id, "action": msg["legal"][0],
                                         "decision": msg["decision"]}))
    return {"times": times, "errors": errors, "finished": finished}


def _stats(times: list[float]) -> dict:
    ordered = sorted(times)
    return {"median": statistics.median(ordered), "p90": ordered[int(0.9 * (len(ordered) - 1))],
            "max": ordered[-1], "mean": statistics.fmean(ordered), "n": len(ordered)}


def bench_serve(moves: int = 60, games: int = 20, opponents: list[str] | None = None, seed: int = 0) -> dict:
    """Round trips of one game (to 66: enough moves), then `games` one-round games at once."""
    opponents = opponents or ["mcs", "mcs", "mcs"]
    base = {"game": "cards", "variant": "classic", "players": len(opponents) + 1, "opponents": opponents}
    with served() as url:
        asyncio.run(_play(url, dict(base, seed=seed + 10_000), moves=3))  # warm-up: imports, first agents
        one = asyncio.run(_play(url, dict(base, seed=seed), moves=moves))

        async def many():
            return await asyncio.gather(*(_play(url, dict(base, seed=seed + 1 + g, options={"max_rounds": 1}))
                                          for g in range(games)))
        start = time.perf_counter()
        runs = asyncio.run(many())
        seconds = time.perf_counter() - start
    all_times = [t for r in runs for t in r["times"]]
    conc = _stats(all_times)
    return {"round_trip_ms": _stats(one["times"]), "opponents": opponents,
            "concurrent": {"games": games, "finished": sum(r["finished"] for r in runs),
                           "errors": sum(r["errors"] for r in runs), "moves": len(all_times),
                           "seconds": seconds, "median_ms": conc["median"], "p90_ms": conc["p90"],
                           "max_ms": conc["max"]}}


async def _messages(ws):
    """A page's messages as they come, a frame's in order (`join.messages_in`, the rule
    `play --join` reads frames by). Parsed by plain json.loads, not join's `read_messages`:
    these frames come from the bench's own server, and its bounds and cleaning cost ~10x
    the parse (1.0 vs 0.1 ms of CPU a table's frame, 2026-12-07), client CPU taken from
    the server measured on the same cores."""
    from experiments.play.join import messages_in

    while True:
        for msg in messages_in(json.loads(await ws.recv())):
            yield msg


async def _person(ws, times: list, counts: dict, think: float = 0.0, rng=None) -> None:
    """One scripted person at a table: the first legal action at each turn, after `think`
    seconds (times 0.5..1.5 at random: people do not answer in step); the time from each
    answer to the server's first message after it (the answer to the move)."""
    sent, answered = None, -1
    async for msg in _messages(ws):
        if sent is not None:
            times.append((time.perf_counter() - sent) * 1000)
            sent = None
        if msg["type"] == "error":
            counts["errors"] += 1
            continue
        if msg["type"] == "over":
            counts["finished"] += 1
            return
        if msg["type"] == "turn" and msg["decision"] != answered:
            answered = msg["decision"]
            if think:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            sent = time.perf_counter()
            await ws.send(json_text({"type": "act", "id": msg["id"], "action": msg["legal"][0],
                                     "decision": msg["decision"], "token": ws.token}))
            counts["answers"] += 1


async def _table(url: str, new: dict, times: list, counts: dict, think: float = 0.0) -> None:
    """One table of two scripted people and the agents of `new`, played to its end."""
    from websockets.asyncio.client import connect

    ws_url = url.replace("http", "ws", 1) + "/ws"
    async with connect(ws_url, max_size=None) as a, connect(ws_url, max_size=None) as b:
        await a.send(json_text(new))
        joined = json.loads(await a.recv())
        if joined["type"] != "joined":
            counts["errors"] += 1
            return
        await b.send(json_text({"type": "join", "id": joined["id"], "name": "B"}))
        joined_b = json.loads(await b.recv())
        a.token, b.token = joined["token"], joined_b["token"]
        rng = random.Random(new.get("seed"))
        await asyncio.gather(_person(a, times, counts, think, rng), _person(b, times, counts, think, rng))


def bench_tables(tables: int = 50, agents: list[str] | None = None, seed: int = 0, think_ms: float = 0.0) -> dict:
    """`tables` one-round tables at once, each two scripted people and two agents, with the
    database on: person answers a second, and the answer's latency (median, p90, p99).
    `think_ms`: how long a scripted person takes to answer (0: at once, the server's most)."""
    agents = agents or ["random", "random"]
    if not 1 <= tables <= 1000:
        raise ConfigError("--tables must be 1..1000")
    if not 0 <= think_ms <= 60_000:
        raise ConfigError("--think-ms must be 0..60000")
    new = {"type": "table", "game": "cards", "players": 2 + len(agents), "seats": ["person", "person", *agents],
           "options": {"max_rounds": 1}, "name": "A", "turn_seconds": 600}
    counts = {"finished": 0, "errors": 0, "answers": 0}
    times: list[float] = []
    connections = str(2 * tables + 10)  # two pages a table, all from this machine's address
    with tempfile.TemporaryDirectory(prefix="sixnimmt-serve-") as data, \
            server_process(None, "--max-connections", connections, "--connections-per-address", connections,
                           "--tables-per-address", str(tables + 1), "--data", data) as (url, proc):
        asyncio.run(_table(url, dict(new, seed=seed + 10_000), [], dict(counts)))  # warm-up: imports, first agents

        async def many():
            await asyncio.gather(*(_table(url, dict(new, seed=seed + 1 + t), times, counts, think_ms / 1000)
                                   for t in range(tables)))
        cpu, start = process_cpu_seconds(proc.pid), time.perf_counter()
        asyncio.run(many())
        seconds, cpu_after = time.perf_counter() - start, process_cpu_seconds(proc.pid)
    ordered = sorted(times) or [float("nan")]
    cpu_ms = None if cpu is None or cpu_after is None else 1000 * (cpu_after - cpu) / max(counts["answers"], 1)
    return {"tables": tables, "agents": agents, "think_ms": think_ms, "finished": counts["finished"] // 2, "errors": counts["errors"],
            "answers": counts["answers"], "seconds": seconds, "answers_per_s": counts["answers"] / seconds,
            "median_ms": statistics.median(ordered), "p90_ms": ordered[int(0.9 * (len(ordered) - 1))],
            "p99_ms": ordered[int(0.99 * (len(ordered) - 1))], "max_ms": ordered[-1], "server_cpu_ms_per_answer": cpu_ms}


def process_cpu_seconds(pid: int) -> float | None:
    """The CPU time (user and system) process `pid` has used, from /proc (None elsewhere):
    the server's own cost of an answer, which the machine's load changes least."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return None
