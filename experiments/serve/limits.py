"""How much of the server one page may use: the figures, and the per-connection message budget.

The bounds work together so that no client can lock the others out: a connection owns at
most `games_per_connection` games (a new or resumed one beyond drops its own least
recently used game), at most `max_connections` pages are connected (and
`connections_per_address` from one address), and `max_connections *
games_per_connection` stays under `max_games`, so a connected page can always start a
game: when the store is full, the game idle longest among those no open page owns (its
page closed; `resume` would adopt it) makes room. Messages past the rate wait (the
connection is read no further meanwhile), so a flood slows only its own page.

Connections cannot lock pages out either: a page with no game in progress that sends
nothing for `socket_idle_seconds` is closed, and when a connection limit is reached the
connection idle longest among those without a game in progress (of the same address, for
the per-address limit) is closed to make room. A page holding a game that is not over is
never closed for idleness: a person thinking over a move keeps their table until the game
expires (`idle_seconds`). A closed page reconnects by itself (static/app.js).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sixnimmt_env.core.errors import ConfigError


@dataclass(frozen=True)
class Limits:
    """The server's bounds (docs/robustness.md, Security, lists them with their figures)."""

    max_games: int = 500  # at once, over all connections
    games_per_connection: int = 4
    max_connections: int = 100
    connections_per_address: int = 20
    idle_seconds: float = 30 * 60  # a game nobody touched for this long is dropped
    socket_idle_seconds: float = 5 * 60  # a page without a game in progress, silent this long, is closed
    message_chars: int = 20_000  # far more than any real message of the page
    frame_bytes: int = 80_000  # the WebSocket layer's cap (uvicorn ws_max_size): a longer frame closes the socket
    rate: float = 40.0  # messages per second per connection, sustained (a watched game asks every 30 ms at most)
    burst: float = 80.0
    new_cost: float = 10.0  # a `new` counts as this many messages: at most 4 new games a second
    request_seconds: float = 10.0  # an HTTP request must arrive whole within this (server.py)
    keep_alive_seconds: int = 5  # an idle keep-alive HTTP connection is closed after this
    header_bytes: int = 16_384  # the largest request head (h11)
    tables_per_address: int = 10  # tables for several people made from one address and still in memory
    db_bytes: int = 2 * 2**30  # the database (with its log) past this keeps no more games (2 GiB: ~100,000 games)

    def __post_init__(self):
        if self.max_connections * self.games_per_connection > self.max_games:
            raise ConfigError("limits: max_connections * games_per_connection must not exceed max_games "
                              "(else connected pages could be refused a game)")
        if not 0 < self.idle_seconds < float("inf") or not 0 < self.socket_idle_seconds < float("inf"):
            raise ConfigError("limits: the idle time must be > 0")


class MessageBudget:
    """A token bucket: `rate` messages a second, up to `burst` at once."""

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = burst, time.monotonic()

    def take(self, cost: float = 1.0) -> float:
        """Take `cost` tokens; the seconds to wait before the message may be handled."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate) - cost
        self.stamp = now
        return max(0.0, -self.tokens / self.rate)
