"""The bounds `sixnimmt serve` sets in uvicorn, tried on the real server process: a WebSocket
frame over the cap closes the socket before it is buffered, half-sent and trickled HTTP
requests time out, a page of another origin is refused at the handshake."""

from __future__ import annotations

import asyncio
import socket
import time
import urllib.request
from urllib.parse import urlsplit

import pytest

from experiments.serve.bench import served
from experiments.serve.limits import Limits

websockets = pytest.importorskip("websockets")
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402

LIMITS = Limits()


@pytest.fixture(scope="module")
def url():
    with served() as url:  # stopped (SIGTERM, then SIGKILL) when the module's tests are done
        yield url


def _healthy(url: str) -> bool:
    with urllib.request.urlopen(url + "/api/health", timeout=5) as r:
        return r.status == 200


def test_a_frame_over_the_cap_closes_the_socket(url):
    async def send(size: int):
        async with connect(url.replace("http", "ws", 1) + "/ws", max_size=None) as ws:
            await ws.send("x" * size)
            try:
                return await asyncio.wait_for(ws.recv(), 10)
            except ConnectionClosed as e:
                return e.rcvd.code if e.rcvd else None
    assert asyncio.run(send(LIMITS.frame_bytes + 1)) == 1009  # message too big, said by the WebSocket layer
    assert '"error"' in asyncio.run(send(LIMITS.message_chars + 1))  # under the frame cap: the page's error
    assert _healthy(url)


def test_half_sent_http_requests_time_out(url):
    host, port = urlsplit(url).hostname, urlsplit(url).port
    half, trickle = socket.create_connection((host, port)), socket.create_connection((host, port))
    start = time.monotonic()
    half.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1")
    closed = {}
    for s in (half, trickle):
        s.settimeout(0.5)
    while len(closed) < 2 and time.monotonic() - start < LIMITS.request_seconds + 10:
        for name, s in (("half", half), ("trickle", trickle)):
            if name in closed:
                continue
            try:
                if name == "trickle":
                    s.sendall(b"G" if time.monotonic() - start < 1 else b"x")  # a byte at a time, for ever
                if s.recv(1024) == b"":
                    closed[name] = time.monotonic() - start
            except socket.timeout:
                pass
            except OSError:
                closed[name] = time.monotonic() - start
    half.close()
    trickle.close()
    assert set(closed) == {"half", "trickle"}, closed
    # both closed by the server (without the request timeout neither would be, whatever the wait)
    assert _healthy(url)


def test_a_page_of_another_origin_is_refused_at_the_handshake(url):
    async def open_with(origin):
        async with connect(url.replace("http", "ws", 1) + "/ws", origin=origin) as ws:
            await ws.send('{"type": "ping"}')
            return await ws.recv()
    assert "pong" in asyncio.run(open_with(url))
    with pytest.raises(InvalidStatus) as refused:
        asyncio.run(open_with("http://evil.example"))
    assert refused.value.response.status_code == 403 and b"forbidden: Origin" in refused.value.response.body


def test_a_request_head_over_the_cap_is_refused(url):
    """A 100 KB request head sent at once was served (h11 bounds only a head still
    incomplete); past `header_bytes` it is answered 431 and the connection closed, and a
    head under the cap is served."""
    host, port = urlsplit(url).hostname, urlsplit(url).port

    def ask(extra: int) -> bytes:
        with socket.create_connection((host, port), timeout=15) as s:
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Pad: %s\r\n\r\n" % (port, b"a" * extra))
            answer = b""
            while not answer.endswith(b"\n") or b"\r\n\r\n" not in answer:
                chunk = s.recv(65536)
                if not chunk:
                    break
                answer += chunk
            return answer
    assert ask(100_000).startswith(b"HTTP/1.1 431")
    assert ask(LIMITS.header_bytes + 1).startswith(b"HTTP/1.1 431")
    assert ask(1000).startswith(b"HTTP/1.1 200")
    assert _healthy(url)
