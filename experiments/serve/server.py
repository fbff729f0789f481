"""Running the app under uvicorn with the bounds of limits.py set where they belong.

- the WebSocket frame size at the WebSocket layer (`ws_max_size`): a longer frame closes
  the socket (1009) as its header arrives, before anything is buffered;
- a request head of at most `header_bytes`, counted as it arrives (h11's own bound holds
  only for a head still incomplete: one of 100 KB sent at once was served), answered 431
  and closed past it; idle keep-alive connections closed after `keep_alive_seconds`;
- every HTTP request whole within `request_seconds` of the connection opening (or of
  the previous response): uvicorn's h11 protocol has no such deadline (a half-sent
  request, or one trickled a byte at a time, held its connection for ever), so
  `DeadlineH11Protocol` adds one. A connection upgraded to a WebSocket leaves it behind.

`is_loopback` tells whether --host keeps the server on this machine; `settle_gc` tunes the
garbage collector for a long-running server (issue 62: load).
"""

from __future__ import annotations

import gc
import ipaddress

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .limits import Limits

REQUEST_SECONDS = Limits().request_seconds
GC_YOUNG = 5000  # allocations between collections of the youngest generation (Python's default: 700)


HEAD_TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain; charset=utf-8\r\n"
                  b"content-length: 32\r\nconnection: close\r\n\r\nrequest head over the 16 KiB cap\n")


class DeadlineH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request to arrive whole and a bound
    on each request head's size."""

    request_seconds = REQUEST_SECONDS
    header_bytes = Limits().header_bytes

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._head = 0
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._head = 0
        self._arm()

    def data_received(self, data: bytes) -> None:
        """Bytes of a request head (before its blank line) counted; past `header_bytes`: 431, closed."""
        if self.conn.their_state == h11.IDLE and self._head >= 0:
            end = data.find(b"\r\n\r\n")
            self._head += len(data) if end < 0 else end + 4
            if self._head > self.header_bytes:
                self.transport.write(HEAD_TOO_LARGE)
                self.transport.close()
                return
            if end >= 0:
                self._head = -1  # this request's head is whole; counted again from the next one
        super().data_received(data)

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_seconds, self._expired)

    def _disarm(self) -> None:
        handle = getattr(self, "_deadline", None)
        if handle is not None:
            handle.cancel()
        self._deadline = None

    def _expired(self) -> None:
        """Close the connection if a request is still on its way (head or body unread)."""
        self._deadline = None
        if self.transport.is_closing() or self.transport.get_protocol() is not self:  # closed, or a WebSocket now
            return
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY):  # DONE: it arrived (the answer may take long)
            self.transport.close()


def settle_gc() -> None:
    """Before serving: what the server has loaded so far (its modules, the app) moved out of
    the cyclic garbage collector's sight (`gc.freeze`), and its youngest generation
    collected every GC_YOUNG allocations rather than 700. Loaded modules are never garbage,
    yet each full collection walked them all (~100,000 objects: a pause of 50-100 ms on a
    busy machine); with both, the collector's share of a table's answer fell from ~0.22 to
    ~0.06 ms of CPU (25 tables, bench serve's closed loop, 2026-12-07)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])


def is_loopback(host: str) -> bool:
    """Whether listening on `host` keeps the server on this machine."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name: it may resolve anywhere
        return False


def run(app, host: str, port: int, log_level: str, limits: Limits) -> None:
    """Serve `app` until Ctrl-C, with the bounds set (see the module doc)."""
    import uvicorn

    settle_gc()
    protocol = type("Deadline", (DeadlineH11Protocol,), {"request_seconds": limits.request_seconds,
                                                         "header_bytes": limits.header_bytes})
    uvicorn.run(app, host=host, port=port, log_level=log_level, http=protocol, ws_max_size=limits.frame_bytes,
                ws_per_message_deflate=False,  # a table's messages are small: compressing each cost more CPU than it saved
                timeout_keep_alive=limits.keep_alive_seconds, h11_max_incomplete_event_size=limits.header_bytes)
