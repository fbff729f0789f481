"""`sixnimmt play --join URL`: a person in the terminal at a table that `sixnimmt serve` holds.

The table's link (`http://HOST:PORT/?table=ID`, as the page shares it) names the server
and the table; the terminal joins a free person's seat over the server's WebSocket, as a
browser does (a `join` message, then `act` with the seat token only this connection
got), and shows each message through the terminal's table renderer (table.py), so the
terminal and the page say the same words. The server decides everything: which seat,
what is legal, the turn clock (a seat that does not answer in time gets its lowest legal
action, as on the page).

Everything the server sends is untrusted: each frame is read within `MAX_FRAME_BYTES`
(the WebSocket refuses a longer one before buffering it), parsed by the lab's bounded
JSON reader (core/untrusted.py: depth, integer size, strict UTF-8), its fields checked
before use, and every string shown is cut to `MAX_TEXT` characters with control
characters and console markup made inert (the names come from other people's keyboards).
Anything malformed ends the session with one line (ConfigError), never a traceback.
"""

from __future__ import annotations

import queue
import re
import threading
from typing import Callable
from urllib.parse import parse_qs, urlsplit

from rich.console import Console
from rich.markup import escape

from sixnimmt_env.core.errors import ConfigError, SixNimmtError
from sixnimmt_env.core.strict_json import json_text
from sixnimmt_env.core.untrusted import loads_json

from .table import TableRenderer

MAX_FRAME_BYTES = 8 * 2**20  # a reload's history of 400 steps of the board game stays well below
MAX_DEPTH = 12  # the deepest message (a step's events: message, table, events, item, cards, card) nests 6; 7 in a frame of several
MAX_TEXT = 500  # characters of one string shown (names are at most 40; a line of rules a few hundred)
MAX_ID = 40  # a table id is 16 characters (experiments/serve/tables.py)
POLL_SECONDS = 0.1  # how often the terminal looks for a typed line between server messages
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
QUIT_WORDS = ("quit", "exit", "q")


class LostConnectionError(SixNimmtError):
    """The server closed the connection (or went away) before the game ended."""


def table_address(url: str) -> tuple[str, str, str]:
    """(the WebSocket URL, the page origin, the table id) of a table's link; ConfigError
    naming what is wrong for anything else."""
    if not isinstance(url, str) or len(url) > 2000:
        raise ConfigError("--join: give the table's link, e.g. http://127.0.0.1:8000/?table=ID")
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"--join {url[:80]!r}: not a table's link (http://HOST:PORT/?table=ID)")
    ids = parse_qs(parts.query).get("table", [])
    if len(ids) != 1 or not TABLE_ID.fullmatch(ids[0]):
        raise ConfigError(f"--join {url[:80]!r}: the link names no table (…/?table=ID, an id of letters, digits, - and _)")
    try:
        parts.port  # noqa: B018 - urlsplit checks the port only when asked
    except ValueError:
        raise ConfigError(f"--join {url[:80]!r}: not a port number") from None
    socket_scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{socket_scheme}://{parts.netloc}/ws", f"{parts.scheme}://{parts.netloc}", ids[0]


def clean(value):
    """A server's value made safe to show: strings cut to MAX_TEXT characters, without
    control characters, console markup escaped; lists and dicts cleaned throughout."""
    if isinstance(value, str):
        return escape(CONTROL.sub("", value[:MAX_TEXT]))
    if isinstance(value, list):
        return [clean(v) for v in value]
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    return value


def messages_in(data) -> list:
    """A parsed frame's messages in order: a frame holds one message, or several as a JSON
    array (what a table pushes at once: a step and the question after it; the server's
    `tables_app.frames_of`). The reading side's one home of that rule: `read_messages` and
    the serve bench's scripted people (experiments/serve/bench.py) both go through it."""
    return data if isinstance(data, list) else [data]


def read_messages(text) -> list[dict]:
    """One frame from the server as its messages (`messages_in`), parsed within the bounds,
    each checked to be a JSON object with a text `type` and cleaned to show."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="strict") if len(text) <= MAX_FRAME_BYTES else ""
    data = loads_json(text, error=ConfigError, what="the server's message", depth=MAX_DEPTH)
    messages = messages_in(data)
    if not messages or not all(isinstance(m, dict) and isinstance(m.get("type"), str) for m in messages):
        raise ConfigError("the server sent a message that is not one of a table's (no type)")
    return [clean(m) for m in messages]


def choices_of(msg: dict) -> dict[str, int]:
    """A `turn` message's answers by what the person types: a card or tile of the hand by
    its text, a row by its label, another answer by its number; only legal actions."""
    legal, table = msg.get("legal"), msg.get("table")
    if not isinstance(legal, list) or not all(isinstance(a, int) and not isinstance(a, bool) for a in legal) \
            or not isinstance(table, dict):
        raise ConfigError("the server sent a turn without its legal actions")
    out: dict[str, int] = {}
    named = [(c.get("text"), c.get("action")) for c in table.get("hand") or [] if isinstance(c, dict)]
    named += [(r.get("label"), r.get("action")) for r in table.get("rows") or [] if isinstance(r, dict)]
    named += [(str(i), c.get("action")) for i, c in enumerate(table.get("choices") or [], 1) if isinstance(c, dict)]
    for text, action in named:
        if isinstance(text, str) and action in legal:
            out.setdefault(text.strip().casefold(), action)
    if not out:
        raise ConfigError("the server sent a turn with no answer the table shows")
    return out


class LineReader:
    """Lines typed at the terminal, read on a thread of their own when asked for, so the
    server's messages (the others' steps, the clock) are shown while the person thinks."""

    def __init__(self, ask: Callable[[str], str]):
        self.ask, self.lines = ask, queue.Queue()
        self.waiting = False

    def request(self, prompt: str, decision: int) -> None:
        """Ask for a line for `decision` (once: a line already asked for is not asked again)."""
        if not self.waiting:
            self.waiting = True
            threading.Thread(target=self._read, args=(prompt, decision), daemon=True).start()

    def _read(self, prompt: str, decision: int) -> None:
        try:
            line = self.ask(prompt)
        except EOFError:  # the input is closed: nothing more will come
            line = None
        self.lines.put((decision, line))

    def typed(self):
        """(the decision it was asked for, the line typed; None: the input closed), or
        None when no line is there yet."""
        try:
            typed = self.lines.get_nowait()
        except queue.Empty:
            return None
        self.waiting = False
        return typed


class JoinedTable:
    """One person's seat at a served table, in the terminal (see the module doc).

    Args:
        url: the table's link.
        name: the name the others see (the server checks it).
        seat: the seat to take (from 1), else the first free one.
        console: where the table is shown.
        ask: reads one line after showing a prompt (console.input).
    """

    def __init__(self, url: str, name: str, seat: int | None, console: Console, ask: Callable[[str], str]):
        self.socket_url, self.origin, self.table_id = table_address(url)
        self.name, self.seat, self.console = name, seat, console
        self.reader = LineReader(ask)
        self.token, self.turn, self.renderer, self.unit = None, None, None, "points"
        self.result: dict | None = None

    def play(self) -> dict | None:
        """Join, play until the game ends (its `over` message) or the person leaves (None)."""
        from websockets.exceptions import ConnectionClosed, InvalidHandshake
        from websockets.sync.client import connect

        try:
            with connect(self.socket_url, origin=self.origin, max_size=MAX_FRAME_BYTES, open_timeout=15,
                         compression=None) as ws:
                join = {"type": "join", "id": self.table_id, "name": self.name}
                if self.seat is not None:
                    join["seat"] = self.seat
                ws.send(json_text(join))
                return self._loop(ws)
        except ConnectionClosed as e:
            raise LostConnectionError(f"the server closed the connection ({e.rcvd.code if e.rcvd else 'no close frame'}"
                                      f"{': ' + clean(e.rcvd.reason) if e.rcvd and e.rcvd.reason else ''})") from None
        except (InvalidHandshake, OSError, TimeoutError) as e:
            raise ConfigError(f"cannot reach the table at {self.origin}: {clean(str(e)) or type(e).__name__}") from None

    def _loop(self, ws) -> dict | None:
        while True:
            try:
                frame = ws.recv(timeout=POLL_SECONDS)
            except TimeoutError:
                frame = None
            if frame is not None:
                for msg in read_messages(frame):
                    if self._show(msg):
                        return self.result
            typed = self.reader.typed()
            if typed is not None and self._typed(ws, *typed):
                return None

    def _typed(self, ws, decision: int, line: str | None) -> bool:
        """A line typed for `decision`: answered, or dropped when the game has moved on
        (the clock answered); True when the person leaves."""
        if line is None:
            self.console.print("No more input: you leave the table (the turn clock answers for your seat).")
            return True
        if self.turn is None or self.turn["decision"] != decision:
            self.console.print("[dim](not sent: the table has moved on since you were asked)[/dim]")
            if self.turn is not None:
                self.reader.request("Your answer: ", self.turn["decision"])
            return False
        return self._answer(ws, line)

    def _show(self, msg: dict) -> bool:
        """Show one message; True once the game is over."""
        kind = msg["type"]
        try:
            if kind == "error":
                return self._error(msg)
            if kind == "joined":
                self.token = msg.get("token")
                if not isinstance(self.token, str):
                    raise ConfigError("the server's `joined` message holds no seat token")
                self.console.print(f"You sit at seat {int(msg['seat']) + 1} of table {self.table_id}.")
            elif kind == "setup":
                self._setup(msg)
            elif kind == "history":
                for step in msg.get("steps") or []:
                    self._step(step)
            elif kind == "step":
                self._step(msg)
            elif kind in ("turn", "watch", "over"):
                return self._waiting(msg)
        except SixNimmtError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            raise ConfigError(f"the server sent a malformed {kind[:20]!r} message ({type(e).__name__})") from None
        return False

    def _error(self, msg: dict) -> bool:
        text = " ".join(str(msg.get("message", "")).split())
        if msg.get("code") == "illegal" and self.token is not None:  # e.g. the clock answered first: go on
            self.console.print(f"[bold red]{text}[/bold red]")
            return False
        raise ConfigError(f"the server refused: {text}")

    def _setup(self, msg: dict) -> None:
        names = [str(n) for n in msg["names"]]
        if self.renderer is None:
            self.renderer = TableRenderer(self.console, names, str(msg.get("unit") or "points"),
                                          person=int(msg["seat"]) if isinstance(msg.get("seat"), int) else -1)
            self.unit = str(msg.get("unit") or "points")
            self.console.print(f"At the table: {', '.join(names)}. Turn clock: {msg.get('turn_seconds')} s "
                               "(then your lowest legal card is played for you). Type quit to leave.")
        self.renderer.names = names

    def _step(self, msg: dict) -> None:
        if self.renderer is not None:
            self.renderer.show_log(msg["table"].get("events") or [])

    def _waiting(self, msg: dict) -> bool:
        table, kind = msg["table"], msg["type"]
        if self.renderer is None:
            raise ConfigError("the server sent a table before saying who sits there")
        if kind == "over":
            self.renderer.show_turn(table, self.unit)
            winners = ", ".join(self.renderer.names[int(w)] for w in msg.get("winners") or [])
            self.console.print(f"[bold]Game over.[/bold] Winner: {winners or 'nobody'}.")
            self.result, self.turn = msg, None
            return True
        if kind == "watch":
            self.turn = None
            self.console.print(f"[dim]{table['prompt']}[/dim]")
            return False
        if not isinstance(msg.get("decision"), int) or isinstance(msg["decision"], bool):
            raise ConfigError("the server sent a turn without its decision number")
        choices_of(msg)  # checked now, not when the person answers
        self.turn = msg
        self.renderer.show_turn(table, self.unit)
        self.renderer.show_question(table, numbered=True)
        left = msg.get("seconds_left")
        clock = f" ({left:.0f} s left)" if isinstance(left, (int, float)) and not isinstance(left, bool) else ""
        self.reader.request(f"Your answer{clock}: ", msg["decision"])
        return False

    def _answer(self, ws, line: str) -> bool:
        """A typed line for the current turn: sent when it names a legal answer, else asked
        again; True when the person leaves."""
        text = " ".join(line.split()).casefold()
        if text in QUIT_WORDS:
            self.console.print("You leave the table (the turn clock answers for your seat).")
            return True
        choices = choices_of(self.turn)
        if text not in choices:
            self.console.print(f"'{escape(text[:40])}' is not an answer now; type one of: "
                               + ", ".join(sorted(choices, key=lambda c: (len(c), c))))
            self.reader.request("Your answer: ", self.turn["decision"])
            return False
        ws.send(json_text({"type": "act", "id": self.table_id, "token": self.token,
                           "action": choices[text], "decision": self.turn["decision"]}))
        self.turn = None
        return False
