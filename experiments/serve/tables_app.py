"""The server's side of tables for several people (tables.py): their messages, and
delivering each seat's messages to the pages listening at it.

Messages from a page:
- `table`: a new table: what a `new` message holds (game, variant, players, options,
  seed), plus `seats` (per seat: "person" or an agent spec from the allow-list),
  `name` (the creator's; the creator takes the first person's seat) and `turn_seconds`;
- `join` (id, name, optional seat): take a free person's seat; the reply `joined`
  carries the seat token, which only this page gets;
- `spectate` (id): listen as a spectator (no hand);
- `act` (id, token, action, decision) and `resume` (id, token; no token: a spectator):
  as for a game of one person, the token saying for which seat.

Everything a table does is delivered to every page listening at it, each its own seat's
messages (`deliver`); a reply to the page that asked is only `joined` or `error`. What
one answer (or join, or clock) gives a seat goes in one frame: a JSON array of its
messages in order when there are several (`frames_of`), so a step and the question after
it cost one frame, not two.
What a table did is taken (and each seat's messages encoded, once for all its pages)
under the table's lock; its database write is queued, and the messages are delivered by
the database's writer thread once that write has committed (`GameStore.kept_soon`): no
thread waits for the disk, and no page hears of a step a SIGKILL could lose. A person's
answer at a quick table is worked on the writer thread itself, its rows written in the
same transaction (`_on_writer`: one hand-over, and under load many tables' answers in
one commit); the rest (a slow agent's table, joining, the clocks, a server keeping
nothing) in a worker thread. A snapshot (a page joining, watching or reloading) is sent
once what it shows has committed.
"""

from __future__ import annotations

import asyncio
import functools
import threading
import time
import weakref

from sixnimmt_env.core.errors import ConfigError, IllegalActionError

from .allowed import AllowList
from .messages import json_text, shown, whole_number
from .setup import MAX_SEED, game_from, person_name
from .store import Connection, GameStore
from .tables import DEFAULT_TURN_SECONDS, MAX_TURN_SECONDS, MIN_TURN_SECONDS, SPECTATOR, TableSession

TABLE_TYPES = ("table", "join", "spectate")
QUICK_SECONDS = 0.010  # a table whose last answer took less CPU is answered on the writer thread (_on_writer)


def table_params(msg: dict, allowed: AllowList) -> dict:
    """A `table` message's normalized parameters (as kept in the database)."""
    import secrets

    game = game_from(msg)
    seats = msg.get("seats")
    if not isinstance(seats, list) or len(seats) != game.info.players:
        raise ConfigError(f"seats must list {game.info.players} seats, each \"person\" or an agent spec")
    if not all(isinstance(s, str) and s.strip() for s in seats):
        raise ConfigError(f"a seat is \"person\" or an agent spec, got {shown(seats)}")
    seats = [s.strip() if s.strip() == "person" else allowed.check(s.strip(), game.info.game) for s in seats]
    turn = msg.get("turn_seconds", DEFAULT_TURN_SECONDS)
    turn = whole_number("turn_seconds", turn, MIN_TURN_SECONDS, MAX_TURN_SECONDS)
    seed = msg.get("seed")
    seed_given = seed not in (None, "")
    seed = whole_number("seed", seed if seed_given else secrets.randbits(64), 0, MAX_SEED)
    return {"table": True, "game": game.info.game, "variant": msg.get("variant") or None,
            "players": game.info.players, "options": msg.get("options") or {}, "seats": seats,
            "seed": str(seed), "seed_given": seed_given, "turn_seconds": turn, "name": person_name(msg.get("name"))}


def table_of(params: dict, game=None) -> TableSession:
    """The TableSession of normalized parameters, before anyone joined."""
    from .agents import shared_agents

    game = game or game_from(params)
    specs = [s for s in params["seats"] if s != "person"]
    session = TableSession(game, params["seats"], int(params["seed"]), turn_seconds=params["turn_seconds"],
                           seed_given=params["seed_given"], agents=shared_agents(specs, game.info.game))
    session.params = params
    return session


def encoded(session: TableSession, by_seat: dict) -> list[tuple[Connection, list[str]]]:
    """(page, its seat's messages as the frames to send) for each page listening now: each
    seat's messages encoded once, however many pages listen there, all in one frame (a
    step and the question after it: one WebSocket frame to send and to read, not two)."""
    texts: dict = {}
    out = []
    for conn, seat in list(session.listeners.items()):
        if seat not in texts:
            texts[seat] = frames_of(by_seat.get(seat, []))
        out.append((conn, texts[seat]))
    return out


def frames_of(messages: list[dict]) -> list[str]:
    """`messages` as WebSocket frames: none, one message's JSON, or several messages in
    order as one JSON array (the page, `play --join` and the bench read both)."""
    if len(messages) < 2:
        return [message_text(m) for m in messages]
    return ["[" + ",".join(message_text(m) for m in messages) + "]"]


def message_text(message: dict) -> str:
    """`message` as compact JSON text (json.loads gives `message` back)."""
    return json_text(message)


class Mailbox:
    """Calls handed to one event loop from other threads, run there in order: one wake-up
    of the loop (`call_soon_threadsafe`, a byte down its self-pipe) for all that is handed
    over before the loop runs them, not one a call. The writer thread hands over each
    committed answer's messages and the answer's own completion: one wake-up a group."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop, self._lock, self._calls, self._woken = loop, threading.Lock(), [], False

    def post(self, *calls) -> None:
        with self._lock:
            self._calls.extend(calls)
            if self._woken:
                return
            self._woken = True
        try:
            self.loop.call_soon_threadsafe(self._run)
        except RuntimeError:  # the loop has closed: nobody is left to hear
            with self._lock:
                self._calls, self._woken = [], False

    def _run(self) -> None:
        with self._lock:
            calls, self._calls, self._woken = self._calls, [], False
        for call in calls:
            call()


_MAILBOXES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_MAILBOXES_LOCK = threading.Lock()


def mailbox(loop: asyncio.AbstractEventLoop) -> Mailbox:
    """The Mailbox of `loop` (one per loop, made on first use)."""
    with _MAILBOXES_LOCK:
        box = _MAILBOXES.get(loop)
        if box is None:
            box = _MAILBOXES[loop] = Mailbox(loop)
        return box


def deliver(pages: list[tuple[Connection, list[str]]]) -> None:
    """Push each page its messages (`encoded`) through its loop's Mailbox."""
    by_loop: dict = {}
    for conn, texts in pages:
        if texts and conn.outbox is not None and conn.loop is not None and conn.loop.is_running():
            by_loop.setdefault(conn.loop, []).append((conn.outbox, texts))
    for loop, queued in by_loop.items():
        mailbox(loop).post(functools.partial(_put_all, queued))


def _put_all(queued: list) -> None:
    for outbox, texts in queued:
        for text in texts:
            outbox.put_nowait(text)


def listen(session: TableSession, conn: Connection | None, seat) -> None:
    if conn is not None:
        session.listeners[conn] = seat
        conn.tables[session.id] = session


def _with_lock(session: TableSession, store: GameStore, work, snapshot=False):
    """`work()` under the table's lock, its write queued and its messages delivered once
    that write has committed; the write's future (None: nothing kept) and, with
    `snapshot` (a seat, or SPECTATOR), that seat's snapshot after the work."""
    with session.lock:
        pages = encoded(session, work())
        shown = None if snapshot is False else session.snapshot_for(snapshot)
        return store.kept_soon(session, then=lambda: deliver(pages)), shown


async def committed(future) -> None:
    """Wait (without a thread) until a queued database write has committed."""
    if future is not None:
        await asyncio.wrap_future(future)


async def handle_table(store: GameStore, msg: dict, conn: Connection | None, allowed: AllowList) -> list[dict]:
    """The replies to a table's message (its other messages are delivered to listeners)."""
    kind = msg["type"]
    if kind == "table":
        if conn is not None:
            store.count_table(conn.address)
        params = table_params(msg, allowed)
        session = await asyncio.to_thread(table_of, params)
        session.audit = store.audit
        seat, token, _ = session.join(params["name"])
        store.add(session, address=conn.address if conn is not None else None)  # no page owns a table (limits.py)
        await asyncio.to_thread(store.kept_new, session)
        listen(session, conn, seat)
        return [{"type": "joined", "id": session.id, "seat": seat, "token": token}] + session.snapshot_for(seat)
    session = await store.fetch(msg.get("id"))
    if not isinstance(session, TableSession):
        raise ConfigError("not a table: join or watch a table by its link")
    if kind == "spectate":
        return await _snapshot(store, session, conn, SPECTATOR)
    name = person_name(msg.get("name"))
    seat = msg.get("seat")
    if seat is not None:
        seat = whole_number("seat", seat, 1, session.info.players) - 1
    holder: dict = {}

    def work():
        holder["seat"], holder["token"], by_seat = session.join(name, seat)
        listen(session, conn, holder["seat"])
        holder["snapshot"] = session.snapshot_for(holder["seat"])
        return {s: m for s, m in by_seat.items() if s != holder["seat"]}  # the joiner gets its snapshot
    future, _ = await asyncio.to_thread(_with_lock, session, store, work)
    await committed(future)
    return [{"type": "joined", "id": session.id, "seat": holder["seat"], "token": holder["token"]}] + holder["snapshot"]


async def _snapshot(store: GameStore, session: TableSession, conn: Connection | None, seat) -> list[dict]:
    """A page listens at `seat` from now on: what it needs, once all it shows has committed."""
    def work():
        listen(session, conn, seat)
        return {}
    future, shown = await asyncio.to_thread(_with_lock, session, store, work, seat)
    await committed(future)
    return shown


async def table_act(store: GameStore, session: TableSession, msg: dict, conn: Connection | None) -> list[dict]:
    """`act` or `resume` at a table: the token says the seat (resume without one: a spectator)."""
    token = msg.get("token")
    if msg["type"] == "resume":
        return await _snapshot(store, session, conn, SPECTATOR if token is None else session.seat_of(token))
    if token is None:
        raise IllegalActionError("a spectator takes no actions: join a free seat to play")
    seat = session.seat_of(token)
    listen(session, conn, seat)
    work = lambda: session.answer(seat, msg.get("action"), msg.get("decision"))  # noqa: E731
    if store.keeper is not None and session.answer_seconds < QUICK_SECONDS:
        await _on_writer(store, session, work)
    else:  # not waited for: the answer's reply is what the table does, delivered once its write has committed
        await asyncio.to_thread(_with_lock, session, store, lambda: _timed(session, work))
    return []


def _timed(session: TableSession, work):
    """`work()`, its thread's CPU time kept as the table's `answer_seconds`."""
    start = time.thread_time()
    try:
        return work()
    finally:
        session.answer_seconds = time.thread_time() - start


async def _on_writer(store: GameStore, session: TableSession, work) -> None:
    """A quick table's answer worked on the database's writer thread, as a write: the
    table's work under its lock, its rows written in the same transaction, its messages
    delivered right after the commit (no page hears of a step a SIGKILL could lose). One
    hand-over to one thread, where the worker-thread path takes two (to a worker, then to
    the writer), and the writer takes together what is queued: under load, many tables'
    answers in one transaction and one delivery."""
    holder: dict = {}
    box = mailbox(asyncio.get_running_loop())
    answered = box.loop.create_future()  # done through the same Mailbox as the pages' messages

    def job(conn):
        with session.lock:  # (last_used: set by GameStore.get, which found the table)
            holder["pages"] = encoded(session, _timed(session, work))
            holder["written"] = store.keeper.write_now(session, conn)

    def settle(future) -> None:  # on the writer thread, right after `then` (or when the job failed)
        if "written" in holder:
            holder["written"](future)
        box.post(functools.partial(_settle, answered, future))

    store.keeper.db.submit(job, then=lambda: deliver(holder["pages"])).add_done_callback(settle)
    await answered


def _settle(answered: asyncio.Future, future) -> None:
    """The loop's future `answered` as the writer's `future` ended (unless given up)."""
    if not answered.done():
        error = future.exception()
        if error is None:
            answered.set_result(None)
        else:
            answered.set_exception(error)


async def run_clocks(store: GameStore) -> None:
    """Play the lowest legal action for each person whose turn clock ran out (a forfeit)."""
    for session in [s for s in list(store.games.values()) if isinstance(s, TableSession)]:
        if session.deadline is not None and session.deadline <= time.monotonic():
            await asyncio.to_thread(_with_lock, session, store, session.clock_ran_out)
