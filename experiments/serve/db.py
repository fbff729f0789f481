"""The server's SQLite database: one file, WAL, one writer thread, a versioned schema.

Every write goes through one thread and its one connection: the callers (the request
threads of many tables) queue a function of the connection (`Database.submit`, or
`write`, which waits) and get a future that is done once its transaction has committed,
so a reply sent after it is done is in the database file's write-ahead log: a SIGKILL of
the server loses no decision already answered (WAL with synchronous=NORMAL: the log is
synced at checkpoints, not at every commit, so a power cut may lose the last few
seconds; FULL would sync every answer). The writer commits what is queued together (a
group commit: up to GROUP_JOBS writes in one transaction, each in a savepoint of its
own, so one that fails is rolled back alone), and a write's `then` runs on the writer
thread right after its commit, in the order the writes were queued: the server delivers
a table's messages there, so pages hear of steps in order and only of committed ones.
Reads open their own short-lived connections (WAL lets them run beside the writer).

The schema is versioned: `schema_version` holds the version, and `MIGRATIONS[v]` takes a
database from version v to v + 1, each in one transaction with the version bump. A new
file is migrated from empty; an older one from its version; a newer one (a later
release's) is refused rather than misread.

Tables (docs/play.md, "Games kept"):
- `tables`: one row per game: its id, the normalized `new` message that made it
  (`params`, JSON), status (`playing`, `over`), when created and last changed, and where
  it waits (`pending`, JSON: the decision number, the agents' chosen actions, the
  agents' random generator's state), so a restart continues exactly where it stopped.
- `seats`: who sits where: a person (the name they typed) or an agent (its spec).
- `decisions`: every step's actions, all seats, in order: replayed through the engine
  from the seed, they give back the game.
- `records`: each finished game's record (`sixnimmt replay` reads it), with the totals
  and winners as columns for `sixnimmt results`.
"""

from __future__ import annotations

import logging
import os
import queue
import sqlite3
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Callable

from sixnimmt_env.core.errors import ConfigError

DB_NAME = "sixnimmt.db"
log = logging.getLogger("sixnimmt.serve")
BUSY_MS = 10_000  # a reader waits this long for a lock (the writer's transactions are short)
GROUP_JOBS = 256  # writes committed in one transaction at most (each a savepoint): one commit for a burst

MIGRATIONS: list[str] = [
    # 0 -> 1: games, seats, decisions, finished records
    """
    CREATE TABLE tables (id TEXT PRIMARY KEY, created REAL NOT NULL, updated REAL NOT NULL,
                         game TEXT NOT NULL, variant TEXT NOT NULL, players INTEGER NOT NULL,
                         params TEXT NOT NULL, status TEXT NOT NULL, pending TEXT);
    CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('person', 'agent')), name TEXT NOT NULL,
                        PRIMARY KEY (table_id, seat));
    CREATE TABLE decisions (table_id TEXT NOT NULL REFERENCES tables(id), step INTEGER NOT NULL,
                            actions TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (table_id, step));
    CREATE TABLE records (table_id TEXT PRIMARY KEY REFERENCES tables(id), finished REAL NOT NULL,
                          record TEXT NOT NULL);
    """,
    # 1 -> 2: the results' columns (totals, winners), seat tokens and forfeits (tables.py)
    """
    ALTER TABLE records ADD COLUMN totals TEXT;
    ALTER TABLE records ADD COLUMN winners TEXT;
    ALTER TABLE seats ADD COLUMN token_hash TEXT;
    ALTER TABLE seats ADD COLUMN forfeits INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX tables_status ON tables(status);
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)


def default_data_dir() -> Path:
    """The per-user data folder: $XDG_DATA_HOME/sixnimmt, else ~/.local/share/sixnimmt."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sixnimmt"


def schema_version(conn: sqlite3.Connection) -> int:
    """The database's schema version (0: a new, empty file)."""
    has = conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_version'").fetchone()
    if not has:
        return 0
    row = conn.execute("SELECT version FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Bring the database to `target`, one migration per transaction; the version reached.
    ConfigError for a database newer than this code knows."""
    version = schema_version(conn)
    if version > SCHEMA_VERSION:
        raise ConfigError(f"the database's schema is version {version}, newer than this sixnimmt "
                          f"reads ({SCHEMA_VERSION}): use the sixnimmt that wrote it")
    while version < target:
        script = "BEGIN;\n" + MIGRATIONS[version] + (
            "\nCREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);"
            "\nDELETE FROM schema_version;"
            f"\nINSERT INTO schema_version VALUES ({version + 1});\nCOMMIT;")
        try:
            conn.executescript(script)
        except sqlite3.Error:
            if conn.in_transaction:
                conn.rollback()
            raise
        version += 1
    return version


def _open(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=BUSY_MS / 1000, isolation_level=None, check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


class Database:
    """The database in folder `folder` (made if missing): migrated on opening, one writer
    thread for every write, read connections on demand. `close()` stops the writer."""

    def __init__(self, folder: str | Path, max_bytes: int | None = None):
        self.folder = Path(folder).expanduser()
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ConfigError(f"--data {self.folder}: cannot make the folder ({e.strerror})") from None
        self.path = self.folder / DB_NAME
        self.max_bytes = max_bytes
        try:
            conn = _open(self.path)
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            migrate(conn)
        except sqlite3.Error as e:
            raise ConfigError(f"--data {self.folder}: not a sixnimmt database ({e})") from None
        self._conn = conn
        self._jobs: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._writer, name="sixnimmt-db-writer", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ writing

    def write(self, work: Callable[[sqlite3.Connection], object], new_game: bool = False) -> object:
        """Run `work(conn)` on the writer thread; its result once committed (see `submit`)."""
        return self.submit(work, new_game=new_game).result()

    def submit(self, work: Callable[[sqlite3.Connection], object], new_game: bool = False,
               then: Callable[[], None] | None = None) -> Future:
        """Queue `work(conn)` for the writer thread: a future of its result, done once its
        transaction has committed; `then()` runs on the writer thread right after that
        commit (not when `work` failed). ConfigError for a new game once the database has
        reached its size limit (the games already kept go on being written)."""
        if new_game and self.max_bytes is not None and self.size() > self.max_bytes:
            raise ConfigError(f"the server's database is full ({self.max_bytes // 2**20} MiB): "
                              "no new games are kept; ask its owner")
        done: Future = Future()
        self._jobs.put((work, done, then))
        return done

    def _writer(self) -> None:
        while True:
            jobs = [self._jobs.get()]
            while jobs[-1] is not None and len(jobs) < GROUP_JOBS:  # what else is queued: one commit for all
                try:
                    jobs.append(self._jobs.get_nowait())
                except queue.Empty:
                    break
            stop = jobs[-1] is None
            self._commit([job for job in jobs if job is not None])
            if stop:
                return

    def _commit(self, jobs: list) -> None:
        """One transaction for `jobs`, each in its own savepoint; results set after the commit."""
        if not jobs:
            return
        results = []
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            for work, _, _ in jobs:
                self._conn.execute("SAVEPOINT job")
                try:
                    results.append((True, work(self._conn)))
                    self._conn.execute("RELEASE job")
                except Exception as e:  # noqa: BLE001 - handed to its caller, the other writes go on
                    self._conn.execute("ROLLBACK TO job")
                    self._conn.execute("RELEASE job")
                    results.append((False, e))
            self._conn.execute("COMMIT")
        except BaseException as e:  # noqa: BLE001 - the transaction failed: every write of it fails
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            for _, done, _ in jobs:
                done.set_exception(e)
            return
        for (_, done, then), (ok, result) in zip(jobs, results):
            if not ok:
                done.set_exception(result)
                continue
            if then is not None:
                try:
                    then()
                except Exception:  # noqa: BLE001 - a delivery's failure is not the write's
                    log.exception("unexpected failure after a database write")
            done.set_result(result)

    def close(self) -> None:
        """Stop the writer (after the queued writes) and close its connection."""
        if self._thread.is_alive():
            self._jobs.put(None)
            self._thread.join()
        self._conn.close()

    # ------------------------------------------------------------------ reading

    def read(self, sql: str, args: tuple = ()) -> list[tuple]:
        """Rows of one query on a fresh read connection."""
        conn = _open(self.path)
        try:
            return conn.execute(sql, args).fetchall()
        finally:
            conn.close()

    def size(self) -> int:
        """Bytes on disk: the database file and its write-ahead log."""
        total = 0
        for suffix in ("", "-wal"):
            try:
                total += os.path.getsize(str(self.path) + suffix)
            except OSError:
                pass
        return total

    def integrity(self) -> str:
        """`PRAGMA integrity_check`'s answer ("ok" when the file is sound)."""
        return self.read("PRAGMA integrity_check")[0][0]
