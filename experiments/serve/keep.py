"""Games kept in the database (db.py): what a WebSession writes, and how one comes back.

`Keeper.started` writes a new game (its table row with the normalized `new` message, its
seats, its first steps); `Keeper.progressed` (or `progressed_soon`, which does not wait)
writes the steps since the last write, where the game now waits and, once it is over,
its record, totals and winners: the rows taken from the game at once, under its lock,
written by the writer thread, committed before the server replies, so a reply the page
has seen is never lost. `Keeper.load` brings a game back after a restart: the session rebuilt from its
`new` message, its steps replayed through the engine from the seed (`WebSession.restore`),
waiting where it waited. `Keeper.records` yields the finished games' records (the lab's
game-record format: `sixnimmt replay` validates them).
"""

from __future__ import annotations

import json
import sqlite3
import time
from concurrent.futures import Future
from typing import Callable, Iterator

from sixnimmt_env.core.errors import SixNimmtError
from sixnimmt_env.core.strict_json import json_text

from .db import Database
from .session import WebSession

MAX_ID_CHARS = 40  # a game id is 16 characters (token_urlsafe(12)); longer is no id of ours


class Keeper:
    """Writes and loads the games of one Database."""

    def __init__(self, db: Database):
        self.db = db

    def started(self, session: WebSession) -> None:
        """Write a new game: its table, seats, the steps it made before its first question."""
        params = session.params
        if params.get("table"):  # a table: people's names and tokens come as they join (_changes)
            names = [(s, "person" if kind == "person" else "agent", "" if kind == "person" else kind)
                     for s, kind in enumerate(params["seats"])]
        else:
            names = [(s, "agent", spec) for s, spec in enumerate(session.specs, start=session.first_agent_seat)]
            if not session.watch:
                names.insert(0, (0, "person", params["name"]))
        now = time.time()
        first, changes = self._changes(session, now)

        def work(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO tables (id, created, updated, game, variant, players, params, status) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, 'playing')",
                         (session.id, now, now, session.info.game, session.info.variant, session.info.players,
                          json_text(params)))
            conn.executemany("INSERT INTO seats (table_id, seat, kind, name) VALUES (?, ?, ?, ?)",
                             [(session.id, s, kind, name) for s, kind, name in names])
            changes(conn)
        self._wait(session, first, lambda: self.db.write(work, new_game=True))

    def progressed(self, session: WebSession) -> None:
        """Write what the game did since the last write, and wait for the commit."""
        first, changes = self._changes(session, time.time())
        self._wait(session, first, lambda: self.db.write(changes))

    def progressed_soon(self, session: WebSession, then=None) -> Future:
        """Queue what the game did since the last write (call with the session's lock held:
        what is written is taken now); a future done once it has committed, `then()` run on
        the writer thread right after the commit. A failed write is written again with the
        game's next one."""
        first, changes = self._changes(session, time.time())
        future = self.db.submit(changes, then=then)
        future.add_done_callback(lambda f: f.exception() is not None and _unsaved(session, first))
        return future

    @staticmethod
    def write_now(session: WebSession, conn: sqlite3.Connection) -> Callable[[Future], None]:
        """Write what the game did since the last write on `conn`, the writer's connection
        (a job running on the writer thread, with the session's lock held: Database.submit);
        returns what to attach to the job's future (`add_done_callback`): a write that did
        not commit is written again with the game's next one."""
        first, changes = Keeper._changes(session, time.time())
        try:
            changes(conn)
        except BaseException:
            _unsaved(session, first)
            raise
        return lambda f: f.exception() is not None and _unsaved(session, first)

    @staticmethod
    def _wait(session: WebSession, first: int, write) -> None:
        try:
            write()
        except BaseException:
            _unsaved(session, first)
            raise

    @staticmethod
    def _changes(session: WebSession, now: float) -> tuple[int, Callable[[sqlite3.Connection], None]]:
        """(the first step not yet written, a write of everything the game did since then):
        the rows are taken from the game now, so the write may run later on the writer thread."""
        first = session.saved_steps
        decisions = [(session.id, first + i, json_text(a), now) for i, a in enumerate(session.journal[first:])]
        seats = []
        if getattr(session, "people", None) is not None:  # a table: who sits at the people's seats
            seats = [(name or "", session.tokens.get(s), session.forfeits[s], session.id, s)
                     for s, name in session.people.items()]
        over = session.over()
        waits = (now, "over" if over else "playing", json_text(session.pending()), session.id)
        record = None
        if over:
            game, st = session.game, session.state
            totals = [int(t) for t in game.totals(st)[:, 0]]
            winners = [int(w) for w in game.winners(st)[:, 0].nonzero()[0]]
            record = (session.id, now, json_text(session.record()), json_text(totals), json_text(winners))
        session.saved_steps, session.dirty = first + len(decisions), False

        def work(conn: sqlite3.Connection) -> None:
            conn.executemany("INSERT OR REPLACE INTO decisions (table_id, step, actions, at) VALUES (?, ?, ?, ?)",
                             decisions)
            conn.executemany("UPDATE seats SET name = ?, token_hash = ?, forfeits = ? WHERE table_id = ? AND seat = ?",
                             seats)
            conn.execute("UPDATE tables SET updated = ?, status = ?, pending = ? WHERE id = ?", waits)
            if record is not None:
                conn.execute("INSERT OR IGNORE INTO records (table_id, finished, record, totals, winners) "
                             "VALUES (?, ?, ?, ?, ?)", record)
        return first, work

    def load(self, game_id) -> WebSession | None:
        """The kept game `game_id`, replayed to where it waited (None: no such game)."""
        from .setup import session_of

        if not isinstance(game_id, str) or len(game_id) > MAX_ID_CHARS:
            return None
        rows = self.db.read("SELECT params, pending FROM tables WHERE id = ?", (game_id,))
        if not rows:
            return None
        params, pending = json.loads(rows[0][0]), json.loads(rows[0][1] or "null")
        steps = [json.loads(a) for (a,) in
                 self.db.read("SELECT actions FROM decisions WHERE table_id = ? ORDER BY step", (game_id,))]
        if params.get("table"):
            from .tables_app import table_of
            session = table_of(params)
        else:
            session = session_of(params)
        session.id = game_id
        if pending is None:  # written with its table, so only a damaged file lacks it
            raise SixNimmtError(f"game {game_id}: kept without where it waits")
        session.restore(steps, pending)
        return session

    def records(self) -> Iterator[tuple[str, dict]]:
        """(game id, record) of every finished game, oldest first."""
        for game_id, text in self.db.read("SELECT table_id, record FROM records ORDER BY finished, table_id"):
            yield game_id, json.loads(text)


def _unsaved(session: WebSession, first: int) -> None:
    """A write failed: its steps (from `first`) and where the game waits go with the next one."""
    session.saved_steps = min(session.saved_steps, first)
    session.dirty = True
