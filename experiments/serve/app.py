"""`sixnimmt serve`: the web server (FastAPI, uvicorn) of the page in static/.

One WebSocket per page (`/ws`), JSON messages both ways; many games at once, each a
`WebSession` kept in `GameStore` under a random id. The page names its game in every
message, so a reload (or a second tab) picks it up with `resume`. Game work is plain
Python and NumPy, so it runs in worker threads (one request at a time per game, the
session's lock) and the event loop keeps serving the other games.

Nothing a browser sends can stop the server: a message that is not JSON, of an unknown
type, for an unknown, expired or stale game, or with an illegal action gets an `error`
message (the game goes on), and an unexpected failure is logged and answered the same
way. Games idle longer than `idle_seconds` are dropped by a sweeper task.

Messages from the page: `new` (game, variant, players, options, opponents, seed, hints,
watch), `act` (id, action, decision), `next` (id: a watched game's next turn), `resume`
(id), `ping`. Replies are the session's messages (session.py) plus `error`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from importlib import resources

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from sixnimmt_env.core.errors import ConfigError, IllegalActionError, SixNimmtError

from .session import NotOverError, WebSession
from .setup import catalog, default_specs, game_from, session_from

log = logging.getLogger("sixnimmt.serve")
MAX_MESSAGE = 20_000  # characters: far more than any real message of the page
IDLE_SECONDS = 30 * 60
MAX_GAMES = 500  # at once: beyond this a new game is refused (memory stays bounded)


class UnknownGameError(SixNimmtError):
    """No game with this id (never started, or expired)."""


class GameStore:
    """The games in play by id; idle ones expire."""

    def __init__(self, idle_seconds: float = IDLE_SECONDS, max_games: int = MAX_GAMES):
        self.idle_seconds, self.max_games = idle_seconds, max_games
        self.games: dict[str, WebSession] = {}
        self.audit = None  # tests: given to every new session (WebSession.audit)
        self._lock = threading.Lock()

    def add(self, session: WebSession) -> None:
        with self._lock:
            self.expire()
            if len(self.games) >= self.max_games:
                raise ConfigError(f"the server holds {self.max_games} games already; try again later")
            self.games[session.id] = session

    def get(self, game_id) -> WebSession:
        session = self.games.get(game_id) if isinstance(game_id, str) else None
        if session is None:
            raise UnknownGameError(f"no game {str(game_id)[:40]!r} on this server (it may have expired "
                                   f"after {self.idle_seconds / 60:g} idle minutes): start a new one")
        session.last_used = time.monotonic()
        return session

    def expire(self) -> int:
        """Drop the games idle too long; how many were dropped."""
        cutoff = time.monotonic() - self.idle_seconds
        old = [k for k, s in list(self.games.items()) if s.last_used < cutoff]
        for k in old:
            self.games.pop(k, None)
        return len(old)


def _locked(session: WebSession, work):
    with session.lock:
        session.last_used = time.monotonic()
        return work()


async def handle(store: GameStore, text: str) -> tuple[list[dict], WebSession | None]:
    """The replies to one message from a page (an `error` message for anything wrong), and
    the game whose next decision may get a hint."""
    game_id = None
    try:
        if len(text) > MAX_MESSAGE:
            raise ConfigError(f"message too long ({len(text)} characters)")
        try:
            msg = json.loads(text)
        except json.JSONDecodeError as e:
            raise ConfigError(f"not JSON: {e.msg}") from None
        if not isinstance(msg, dict):
            raise ConfigError("a message is a JSON object with a 'type'")
        kind, game_id = msg.get("type"), msg.get("id")
        if kind == "ping":
            return [{"type": "pong"}], None
        if kind == "new":
            session = await asyncio.to_thread(session_from, msg, store.audit)
            # started before it is stored: a table an agent cannot play leaves nothing behind
            replies = [session.setup()] + await asyncio.to_thread(_locked, session, session.start)
            store.add(session)
            return replies, session
        if kind in ("act", "next", "resume"):
            session = store.get(game_id)
            if kind == "act":
                work = lambda: session.act(msg.get("action"), msg.get("decision"))  # noqa: E731
            else:
                work = session.next_turn if kind == "next" else session.snapshot
            return await asyncio.to_thread(_locked, session, work), session
        raise ConfigError(f"unknown message type {str(kind)[:40]!r}; types: new, act, next, resume, ping")
    except SixNimmtError as e:  # the code tells the page what to do: unknown-game goes back to the form
        code = {UnknownGameError: "unknown-game", IllegalActionError: "illegal"}.get(type(e), "invalid")
        return [{"type": "error", "code": code, "id": game_id if isinstance(game_id, str) else None,
                 "message": str(e)}], None
    except Exception:  # a bug must not take the server down: log it, tell the page
        log.exception("unexpected failure handling a message")
        return [{"type": "error", "code": "internal", "id": None,
                 "message": "internal error (logged by the server); the game goes on"}], None


def create_app(idle_seconds: float = IDLE_SECONDS, sweep_seconds: float = 30.0,
               max_games: int = MAX_GAMES) -> FastAPI:
    """The web app: the page, its static files, the options API, records, the WebSocket."""
    store = GameStore(idle_seconds, max_games)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        async def sweep():
            while True:
                await asyncio.sleep(sweep_seconds)
                store.expire()
        task = asyncio.create_task(sweep())
        yield
        task.cancel()

    app = FastAPI(title="sixnimmt lab", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.store = store
    static = resources.files("experiments.serve") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    @app.get("/", response_class=HTMLResponse)
    def index():
        return (static / "index.html").read_text()

    @app.get("/api/options")
    def options():
        return catalog()

    @app.get("/api/defaults")
    def defaults(game: str = "cards", variant: str = "", players: int = 4, watch: bool = False):
        try:
            table = game_from({"game": game, "variant": variant or None, "players": players})
            return {"opponents": default_specs(table, watch)}
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

    @app.websocket("/ws")
    async def socket(ws: WebSocket):
        await ws.accept()
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    return
                text = frame.get("text")
                if text is None:
                    data = frame.get("bytes") or b""
                    text = data.decode("utf-8", errors="replace")
                replies, session = await handle(store, text)
                for reply in replies:
                    await ws.send_text(json.dumps(reply))
                if session is not None and session.hint_agent is not None:
                    await _send_hint(session, ws)
        except (WebSocketDisconnect, RuntimeError):  # the page went away mid-reply
            return

    return app


async def _send_hint(session: WebSession, ws: WebSocket) -> None:
    """After the replies, the hint for the person's next decision: sent apart, as the
    search takes longer than the move, and the move should not wait for it."""
    try:
        hint = await asyncio.to_thread(_locked, session, session.hint)
    except SixNimmtError:
        return
    if hint is not None:
        await ws.send_text(json.dumps(hint))
