"""The games in play and the pages connected: who owns which game, and what is dropped when.

`GameStore` holds every WebSession by its random id. Each game is owned by the connection
that started or last resumed it; the bounds (limits.py) decide what is dropped: a
connection's least recently used game past its share, a game idle longer than the idle
time, and, when the store is full, the game idle longest that no open page owns.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

from sixnimmt_env.core.errors import ConfigError, SixNimmtError

from .limits import Limits, MessageBudget
from .session import WebSession


class UnknownGameError(SixNimmtError):
    """No game with this id (never started, or expired)."""


class Connection:
    """One page's WebSocket: its client address, the games it owns (least recently used
    first) and its message budget."""

    def __init__(self, address: str, limits: Limits):
        self.address = address
        self.games: OrderedDict[str, None] = OrderedDict()
        self.budget = MessageBudget(limits.rate, limits.burst)


class GameStore:
    """The games in play by id, and the connections that own them."""

    def __init__(self, limits: Limits | None = None):
        self.limits = limits or Limits()
        self.idle_seconds = self.limits.idle_seconds
        self.games: dict[str, WebSession] = {}
        self.owners: dict[str, Connection] = {}  # game id -> the open connection that owns it
        self.connections: list[Connection] = []
        self.audit = None  # tests: given to every new session (WebSession.audit)
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ connections

    def connect(self, address: str) -> Connection:
        """A new page's connection; ConfigError when too many pages are connected."""
        with self._lock:
            if len(self.connections) >= self.limits.max_connections:
                raise ConfigError(f"the server has {self.limits.max_connections} pages connected; try again later")
            if sum(c.address == address for c in self.connections) >= self.limits.connections_per_address:
                raise ConfigError(f"{self.limits.connections_per_address} pages of this address are connected already")
            conn = Connection(address, self.limits)
            self.connections.append(conn)
            return conn

    def release(self, conn: Connection) -> None:
        """The page went away: its games stay (a reload resumes them) but nobody owns them."""
        with self._lock:
            if conn in self.connections:
                self.connections.remove(conn)
            for game_id in conn.games:
                self.owners.pop(game_id, None)
            conn.games.clear()

    # ------------------------------------------------------------------ games

    def add(self, session: WebSession, conn: Connection | None = None) -> None:
        with self._lock:
            self._expire()
            if len(self.games) >= self.limits.max_games and not self._drop_unowned():
                raise ConfigError(f"the server holds {self.limits.max_games} games of open pages; try again later")
            self.games[session.id] = session
            self._own(session.id, conn)

    def get(self, game_id, conn: Connection | None = None) -> WebSession:
        """The game `game_id` (UnknownGameError when there is none); `conn` becomes its owner."""
        with self._lock:
            session = self.games.get(game_id) if isinstance(game_id, str) else None
            if session is None:
                raise UnknownGameError(f"no game {str(game_id)[:40]!r} on this server (it may have expired "
                                       f"after {self.idle_seconds / 60:g} idle minutes): start a new one")
            session.last_used = time.monotonic()
            self._own(game_id, conn)
            return session

    def expire(self) -> int:
        """Drop the games idle too long; how many were dropped."""
        with self._lock:
            return self._expire()

    def _expire(self) -> int:
        cutoff = time.monotonic() - self.idle_seconds
        old = [k for k, s in self.games.items() if s.last_used < cutoff]
        for k in old:
            self._drop(k)
        return len(old)

    def _own(self, game_id: str, conn: Connection | None) -> None:
        """`conn` owns the game now; past its share, its least recently used game is dropped."""
        if conn is None:
            return
        before = self.owners.get(game_id)
        if before is not None and before is not conn:
            before.games.pop(game_id, None)
        self.owners[game_id] = conn
        conn.games[game_id] = None
        conn.games.move_to_end(game_id)
        while len(conn.games) > self.limits.games_per_connection:
            self._drop(next(iter(conn.games)))

    def _drop(self, game_id: str) -> None:
        self.games.pop(game_id, None)
        owner = self.owners.pop(game_id, None)
        if owner is not None:
            owner.games.pop(game_id, None)

    def _drop_unowned(self) -> bool:
        """Make room: drop the game idle longest that no open page owns (False: none)."""
        unowned = [s for k, s in self.games.items() if k not in self.owners]
        if not unowned:
            return False
        self._drop(min(unowned, key=lambda s: s.last_used).id)
        return True
