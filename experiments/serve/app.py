"""`sixnimmt serve`: the web server (FastAPI, uvicorn) of the page in static/.

One WebSocket per page (`/ws`), JSON messages both ways; many games at once, each a
`WebSession` kept in `GameStore` under a random id. The page names its game in every
message, so a reload (or a second tab) picks it up with `resume`. Game work is plain
Python and NumPy, so it runs in worker threads (one request at a time per game, the
session's lock) and the event loop keeps serving the other games.

Nothing a browser sends can stop the server: a message that is not JSON, of an unknown
type, for an unknown, expired or stale game, or with an illegal action gets an `error`
message (the game goes on), and an unexpected failure is logged and answered the same
way. Games idle longer than the idle time are dropped by a sweeper task.

What the server trusts: nothing a page sends decides what runs. Opponents come only from
the allow-list (allowed.py), requests only from this server's own address (guard.py),
and every page is held to the bounds of limits.py (games, connections, message size
and rate); store.py holds the games and drops them within those bounds.

Messages from the page: `new` (game, variant, players, options, opponents, seed, hints,
watch), `act` (id, action, decision), `next` (id: a watched game's next turn), `resume`
(id), `ping`. Replies are the session's messages (session.py) plus `error`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from importlib import resources

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from sixnimmt_env.core.errors import ConfigError, IllegalActionError, SixNimmtError

from .allowed import AllowList
from .db import Database
from .guard import HostGuard
from .keep import Keeper
from .limits import Limits
from .messages import json_text, parse_message
from .session import NotOverError, WebSession
from .setup import catalog, default_specs, game_from, session_from
from .store import Connection, GameStore, UnknownGameError
from .tables import TableSession
from .tables_app import TABLE_TYPES, committed, handle_table, run_clocks, table_act

log = logging.getLogger("sixnimmt.serve")
TRY_AGAIN_LATER = 1013  # the WebSocket close code for a page refused while the server is full
GOING_AWAY = 1001  # the close code for a page closed after being idle without a game
CLOCK_SECONDS = 0.25  # how often the tables' turn clocks are looked at


def _locked(session: WebSession, work):
    """`work()` with the game's lock held."""
    with session.lock:
        session.last_used = time.monotonic()
        return work()


def _locked_kept(session: WebSession, work, store: GameStore):
    """`work()` with the game's lock held, and what it did queued for the database before
    the lock is let go: (its replies, the write's future: the page hears of it once done)."""
    with session.lock:
        session.last_used = time.monotonic()
        replies = work()
        return replies, store.kept_soon(session)


async def handle(store: GameStore, text: str, conn: Connection | None = None,
                 allowed: AllowList | None = None) -> tuple[list[dict], WebSession | None]:
    """The replies to one message from a page (an `error` message for anything wrong), and
    the game whose next decision may get a hint. A message past the connection's rate
    waits first; a new game's opponents must be on `allowed`."""
    game_id = None
    try:
        wait = conn.budget.take() if conn is not None else 0
        if wait:  # past the rate, a message waits (the page is read no further meanwhile)
            await asyncio.sleep(wait)
        msg = parse_message(text, store.limits.message_chars)
        kind, game_id = msg["type"], msg.get("id")
        if conn is not None and kind == "new":  # a new game counts as new_cost messages
            await asyncio.sleep(conn.budget.take(store.limits.new_cost - 1))
        if kind == "ping":
            return [{"type": "pong"}], None
        if kind in TABLE_TYPES:
            return await handle_table(store, msg, conn, allowed or AllowList()), None
        if kind == "new":
            session = await asyncio.to_thread(session_from, msg, store.audit, allowed or AllowList())
            # started before it is stored: a table an agent cannot play leaves nothing behind
            replies = [session.setup()] + await asyncio.to_thread(_locked, session, session.start)
            await asyncio.to_thread(store.kept_new, session)  # kept before the page hears of it
            store.add(session, conn)
            return replies, session
        if kind in ("act", "next", "resume"):
            session = await store.fetch(game_id, conn)
            if isinstance(session, TableSession):
                return await table_act(store, session, msg, conn), None
            if kind == "act":
                work = lambda: session.act(msg.get("action"), msg.get("decision"))  # noqa: E731
            else:
                work = session.next_turn if kind == "next" else session.snapshot
            replies, future = await asyncio.to_thread(_locked_kept, session, work, store)
            await committed(future)
            return replies, session
        raise ConfigError(f"unknown message type {str(kind)[:40]!r}; types: new, act, next, resume, ping")
    except SixNimmtError as e:  # the code tells the page what to do: unknown-game goes back to the form
        code = {UnknownGameError: "unknown-game", IllegalActionError: "illegal"}.get(type(e), "invalid")
        return [{"type": "error", "code": code, "id": game_id if isinstance(game_id, str) else None,
                 "message": str(e)}], None
    except Exception:  # a bug must not take the server down: log it, tell the page
        log.exception("unexpected failure handling a message")
        return [{"type": "error", "code": "internal", "id": None,
                 "message": "internal error (logged by the server); the game goes on"}], None


def create_app(idle_seconds: float | None = None, sweep_seconds: float = 30.0, *, limits: Limits | None = None,
               allowed: AllowList | None = None, origins=(), db: Database | None = None) -> FastAPI:
    """The web app: the page, its static files, the options API, records, the WebSocket,
    behind the Host/Origin guard. `allowed`: the agents a page may seat (default: the
    default allow-list); `origins`: pages allowed besides this server's own address; `db`:
    where every game is kept (None: in memory only, lost when the server stops)."""
    limits = limits or Limits()
    if idle_seconds is not None:
        limits = dataclasses.replace(limits, idle_seconds=idle_seconds)
    store, allowed = GameStore(limits, Keeper(db) if db is not None else None), allowed or AllowList()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        async def sweep():
            while True:
                await asyncio.sleep(sweep_seconds)
                store.expire()
        async def clocks():  # the turn clocks of tables for several people
            while True:
                await asyncio.sleep(CLOCK_SECONDS)
                try:
                    await run_clocks(store)
                except Exception:  # noqa: BLE001 - a bug must not stop every table's clock
                    log.exception("unexpected failure running the turn clocks")
        tasks = [asyncio.create_task(sweep()), asyncio.create_task(clocks())]
        yield
        for task in tasks:
            task.cancel()

    app = FastAPI(title="sixnimmt lab", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.store, app.state.allowed = store, allowed
    _http_routes(app, store, allowed)
    _socket_route(app, store, allowed)
    app.add_middleware(HostGuard, origins=origins)
    return app


def _offered(game: dict, allowed: AllowList) -> dict:
    """A catalog game as the page's setup form offers it (issue 50: choices, not strings):
    the allowed agents with the registry's one-line summary of each, and per variant the
    rule options a page may set that the variant has (experiments.options)."""
    from agents.registry import available
    from experiments.options import variant_rule_options

    plays = available(game["name"])
    names = allowed.names(game["name"])
    return dict(game, agents=names, about={n: plays[n].summary for n in names},
                rules=variant_rule_options(game["name"], game["options"]))


def _http_routes(app: FastAPI, store: GameStore, allowed: AllowList) -> None:
    """The page, its static files, the options and defaults, a finished game's record."""
    static = resources.files("experiments.serve") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    @app.get("/", response_class=HTMLResponse)
    def index():
        return (static / "index.html").read_text()

    @app.get("/api/options")
    def options():  # each game: the agents the allow-list offers there, what each is, each variant's rules
        games = [_offered(g, allowed) for g in catalog()["games"]]
        return {"games": games, "allowed": allowed.texts}

    @app.get("/api/defaults")
    def defaults(game: str = "cards", variant: str = "", players: int = 4, watch: bool = False):
        try:
            table = game_from({"game": game, "variant": variant or None, "players": players})
            return {"opponents": default_specs(table, watch, allowed)}
        except SixNimmtError as e:
            return JSONResponse({"error": str(e)}, status_code=400)

    @app.get("/api/games/{game_id}/record")
    def record(game_id: str):
        try:
            session = store.get(game_id)
            with session.lock:
                rec = session.record()
        except UnknownGameError as e:
            return JSONResponse({"error": str(e)}, status_code=404)
        except NotOverError as e:
            return JSONResponse({"error": str(e)}, status_code=409)
        return JSONResponse(rec, headers={"Content-Disposition": f'attachment; filename="sixnimmt-{game_id}.json"'})

    @app.get("/api/health")
    def health():
        return {"games": len(store.games)}

    @app.get("/results", response_class=HTMLResponse)
    def results_page():
        return (static / "results.html").read_text()

    @app.get("/api/results")
    def results_json():  # how the agents fare against people (results.py); no database: nothing kept
        if store.keeper is None:
            return JSONResponse({"error": "this server keeps no games (--memory)"}, status_code=404)
        from .results import results
        return results(store.keeper.db)


def _socket_route(app: FastAPI, store: GameStore, allowed: AllowList) -> None:
    """`/ws`: one connection per page, its messages handled in turn (within its budget)."""

    @app.websocket("/ws")
    async def socket(ws: WebSocket):
        try:
            conn = store.connect(ws.client.host if ws.client else "?")
        except ConfigError as e:  # accepted to say why: a refused handshake reaches a page as a bare failure
            await ws.accept()
            await ws.send_text(json_text({"type": "error", "code": "full", "id": None, "message": str(e)}))
            await ws.close(code=TRY_AGAIN_LATER, reason=str(e)[:120])
            return
        conn.loop, conn.outbox = asyncio.get_running_loop(), asyncio.Queue()
        await ws.accept()
        sender = asyncio.create_task(_send_pushed(ws, conn.outbox))
        closed = asyncio.ensure_future(conn.closed.wait())  # one for the connection, not one a frame
        try:
            while True:
                frame = await _next_frame(ws, conn, store, closed)
                if frame is None or frame["type"] == "websocket.disconnect":
                    return
                text = frame.get("text")
                if text is None:
                    data = frame.get("bytes") or b""
                    text = data.decode("utf-8", errors="replace")
                replies, session = await handle(store, text, conn, allowed)
                for reply in replies:
                    await ws.send_text(json_text(reply))
                if session is not None and session.hint_agent is not None:
                    await _send_hint(session, ws)
        except (WebSocketDisconnect, RuntimeError):  # the page went away mid-reply
            return
        finally:
            sender.cancel()
            closed.cancel()
            store.release(conn)


async def _send_pushed(ws: WebSocket, outbox: asyncio.Queue) -> None:
    """Send what tables push to this page (what the other seats did), in order."""
    try:
        while True:
            message = await outbox.get()
            await ws.send_text(message if isinstance(message, str) else json_text(message))
    except (WebSocketDisconnect, RuntimeError, OSError):  # the page went away
        return


async def _next_frame(ws: WebSocket, conn: Connection, store: GameStore, closed: asyncio.Future) -> dict | None:
    """The page's next frame; None once the connection is closed here, because it was idle
    too long without a game in progress or because the store closed it to make room for
    another page (`GameStore.connect`: `closed`, done once `conn.closed` is set). The page
    is told why in the close reason."""
    receive = asyncio.ensure_future(ws.receive())
    try:
        while True:
            left = store.idle(conn)
            done, _ = await asyncio.wait({receive, closed}, return_when=asyncio.FIRST_COMPLETED,
                                         timeout=store.limits.socket_idle_seconds if left is None else max(left, 0.05))
            if receive in done:
                conn.last_seen = time.monotonic()
                return receive.result()
            left = store.idle(conn)
            if conn.closed.is_set() or (left is not None and left <= 0):
                receive.cancel()
                why = "another page needed the room" if conn.closed.is_set() else "idle without a game"
                await ws.close(code=TRY_AGAIN_LATER if conn.closed.is_set() else GOING_AWAY, reason=why)
                return None
    except BaseException:
        receive.cancel()
        raise


async def _send_hint(session: WebSession, ws: WebSocket) -> None:
    """After the replies, the hint for the person's next decision: sent apart, as the
    search takes longer than the move, and the move should not wait for it."""
    try:
        hint = await asyncio.to_thread(_locked, session, session.hint)
    except SixNimmtError:
        return
    if hint is not None:
        await ws.send_text(json_text(hint))
