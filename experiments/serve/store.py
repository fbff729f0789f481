"""The games in play and the pages connected: who owns which game, and what is dropped when.

`GameStore` holds every WebSession by its random id. Each game is owned by the connection
that started or last resumed it; the bounds (limits.py) decide what is dropped: a
connection's least recently used game past its share, a game idle longer than the idle
time, and, when the store is full, the game idle longest that no open page owns. A page
that would pass a connection limit closes the connection idle longest that has no game in
progress (limits.py says why that is enough).
"""

from __future__ import annotations

import asyncio
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
    first), its message budget, when it last sent a message, and whether the store closed it
    to make room (`closed`, set for the connection's own loop to see)."""

    def __init__(self, address: str, limits: Limits):
        self.address = address
        self.games: OrderedDict[str, None] = OrderedDict()
        self.budget = MessageBudget(limits.rate, limits.burst)
        self.last_seen = time.monotonic()
        self.closed = asyncio.Event()
        self.loop: asyncio.AbstractEventLoop | None = None  # the loop its socket is served on
        self.outbox: asyncio.Queue | None = None  # messages pushed to it (tables: what other seats did)
        self.tables: dict = {}  # table id -> the TableSession it listens at

    def close_soon(self) -> None:
        """Tell the connection's own loop to close it (it may run in another thread)."""
        if self.loop is not None and self.loop.is_running():
            self.loop.call_soon_threadsafe(self.closed.set)
        else:
            self.closed.set()


class GameStore:
    """The games in play by id, and the connections that own them."""

    def __init__(self, limits: Limits | None = None, keeper=None):
        self.limits = limits or Limits()
        self.keeper = keeper  # keep.Keeper: games written to the database, loaded back on `get` (None: memory only)
        self._loading = threading.Lock()  # one game loaded from the database at a time (no two copies)
        self.table_addresses: dict[str, str] = {}  # table id -> the address that made it (tables_per_address)
        self.idle_seconds = self.limits.idle_seconds
        self.games: dict[str, WebSession] = {}
        self.owners: dict[str, Connection] = {}  # game id -> the open connection that owns it
        self.connections: list[Connection] = []
        self.audit = None  # tests: given to every new session (WebSession.audit)
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ connections

    def connect(self, address: str) -> Connection:
        """A new page's connection; at a connection limit the connection idle longest
        without a game in progress makes room (`closed` is set on it); ConfigError when
        every connection at the limit has a game in progress."""
        with self._lock:
            if len(self.connections) >= self.limits.max_connections and not self._make_room(self.connections):
                raise ConfigError(f"the server has {self.limits.max_connections} pages connected, each with a game "
                                  "in progress; try again later")
            same = [c for c in self.connections if c.address == address]
            if len(same) >= self.limits.connections_per_address and not self._make_room(same):
                raise ConfigError(f"{self.limits.connections_per_address} pages of this address are connected, "
                                  "each with a game in progress; try again later")
            conn = Connection(address, self.limits)
            self.connections.append(conn)
            return conn

    def in_game(self, conn: Connection) -> bool:
        """Whether `conn` owns a game, or listens at a table, that is not over (a person may
        be thinking over a move: such a page is never closed to make room)."""
        sessions = [self.games.get(game_id) for game_id in list(conn.games)] + list(conn.tables.values())
        return any(s is not None and not s.over() for s in sessions)

    def idle(self, conn: Connection) -> float:
        """Seconds until `conn` is idle too long (0 or less: it is), None while it has a game in progress."""
        if self.in_game(conn):
            return None
        return conn.last_seen + self.limits.socket_idle_seconds - time.monotonic()

    def _make_room(self, candidates: list[Connection]) -> bool:
        """Close the connection of `candidates` idle longest without a game in progress (False: none)."""
        free = [c for c in candidates if not self.in_game(c)]
        if not free:
            return False
        victim = min(free, key=lambda c: c.last_seen)
        self._release(victim)
        victim.close_soon()
        return True

    def release(self, conn: Connection) -> None:
        """The page went away: its games stay (a reload resumes them) but nobody owns them."""
        with self._lock:
            self._release(conn)

    def _release(self, conn: Connection) -> None:
        if conn in self.connections:
            self.connections.remove(conn)
        for table in conn.tables.values():
            table.listeners.pop(conn, None)
        conn.tables.clear()
        for game_id in conn.games:
            self.owners.pop(game_id, None)
        conn.games.clear()

    # ------------------------------------------------------------------ games

    def add(self, session: WebSession, conn: Connection | None = None, address: str | None = None) -> None:
        with self._lock:
            if address is not None:
                self.table_addresses[session.id] = address
            self._expire()
            if len(self.games) >= self.limits.max_games and not self._drop_unowned():
                raise ConfigError(f"the server holds {self.limits.max_games} games of open pages; try again later")
            self.games[session.id] = session
            self._own(session.id, conn)

    def get(self, game_id, conn: Connection | None = None) -> WebSession:
        """The game `game_id` (UnknownGameError when there is none); `conn` becomes its owner.
        A game not in memory (dropped when idle, or from before a restart) is loaded from the
        database when the store keeps games: this replays its steps, so call it in a thread."""
        if self.keeper is not None and isinstance(game_id, str) and game_id not in self.games:
            with self._loading:
                if game_id not in self.games:
                    session = self.keeper.load(game_id)
                    if session is not None:
                        session.audit = self.audit
                        self.add(session)
        with self._lock:
            session = self.games.get(game_id) if isinstance(game_id, str) else None
            if session is None:
                raise UnknownGameError(f"no game {str(game_id)[:40]!r} on this server (it may have expired "
                                       f"after {self.idle_seconds / 60:g} idle minutes): start a new one")
            session.last_used = time.monotonic()
            self._own(game_id, conn)
            return session

    async def fetch(self, game_id, conn: Connection | None = None) -> WebSession:
        """`get` from the event loop: at once for a game in memory, in a thread for one the
        database may hold (loading it replays its steps)."""
        if self.keeper is not None and not (isinstance(game_id, str) and game_id in self.games):
            return await asyncio.to_thread(self.get, game_id, conn)
        return self.get(game_id, conn)

    def count_table(self, address: str) -> None:
        """A new table of `address`; ConfigError past `tables_per_address` tables in memory."""
        with self._lock:
            live = [t for t, a in self.table_addresses.items() if a == address and t in self.games]
            self.table_addresses = {t: a for t, a in self.table_addresses.items() if t in self.games}
            if len(live) >= self.limits.tables_per_address:
                raise ConfigError(f"{self.limits.tables_per_address} tables of this address are open; "
                                  "finish one or let it expire")

    def kept_new(self, session: WebSession) -> None:
        """Write a new game to the database (when the store keeps games)."""
        if self.keeper is not None:
            self.keeper.started(session)

    def kept(self, session: WebSession) -> None:
        """Write what a game did since its last write (call with the session's lock held)."""
        # a game of one person changes where it waits only with a step; a table also when
        # someone joins or answers before the others (`dirty`)
        if self.keeper is not None and (len(session.journal) > session.saved_steps or getattr(session, "dirty", False)):
            self.keeper.progressed(session)

    def kept_soon(self, session: WebSession, then=None):
        """Queue what a game did since its last write (call with the session's lock held):
        a future done once it has committed, `then()` run on the writer thread right after
        (None, `then()` run at once: the store keeps nothing). With nothing new to write,
        the future is still done only after the writes queued before it."""
        if self.keeper is None:
            if then is not None:
                then()
            return None
        if len(session.journal) > session.saved_steps or getattr(session, "dirty", False):
            return self.keeper.progressed_soon(session, then)
        return self.keeper.db.submit(lambda conn: None, then=then)

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
