"""Bots in any language: `cmd:COMMAND[:timeout=S][:start_timeout=S]` plays through an
external program speaking JSON lines over its stdin and stdout (docs/own-agent.md has the
protocol, every message with an example).

COMMAND is split like a POSIX shell line (`shlex`: quotes group words; no pipes or
variables, it is not run by a shell). It may hold colons; the trailing `:key=value` parts
with the keys below are the agent's parameters. In a comma-separated CLI list a command
cannot hold a comma (wrap it in a script).

- `timeout` (default 2 s): the time per decision. An `act` message with k decisions must
  be answered within k x timeout seconds.
- `start_timeout` (default 10 s): for the program to start and answer `start`.

Forfeits: a decision the bot does not answer legally is played for it as its *lowest legal
action* and counted as a forfeit (`forfeits`, shown under the match table with the reason;
each game row carries the reason too, so a tournament's results.jsonl says why). An
illegal action in a well-formed answer forfeits that decision only; a crash, a timeout or
an answer that breaks the protocol puts the bot out: its process is killed and every later
decision of the match (in a tournament: of its work unit) is a forfeit.
Nothing of it raises: the match finishes.

What breaks the protocol: every byte the bot writes is read through the lab's bounded
reader (`core/untrusted.loads_json`), so an answer of any shape is a reason, never an
exception — not UTF-8, not JSON, nested past `ANSWER_DEPTH`, an integer of more than 40
digits, a line longer than `MAX_LINE`, the wrong type (a string, an object, a list of
the wrong length), a line written before its question was asked (two answers to one
question: the second would answer the next one), half a line and then silence (the
timeout), its stdout closed, or its stdin left unread past the time limit (a message is
written without blocking, against the same deadline as the answer).

One process per agent object (an agent listed at several seats of a match is one agent
in the arena: its decisions say which seat). The process runs under a small supervisor in
a session of its own (agents/bot_process.py): its whole process group is killed when the
agent closes (end of the match, an error, Ctrl-C, or the interpreter's exit) and when the
run dies by any signal, SIGKILL included; its stderr is kept to the last 64 KiB. A bot
should also exit when its stdin closes. A bot runs with the user's rights: run one you do
not trust in a container (docs/robustness.md, "Bots").
"""

from __future__ import annotations

import atexit
import os
import selectors
import shlex
import shutil
import subprocess
import time
import weakref
from collections import Counter

import numpy as np

from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.game import as_game
from sixnimmt_env.core.strict_json import json_text
from sixnimmt_env.core.untrusted import loads_json

from .bot_process import kill_group, start_bot

CMD_PREFIX = "cmd:"
PROTOCOL = 1
PARAMS = {"timeout": 2.0, "start_timeout": 10.0}
MAX_LINE = 1 << 20  # bytes of one answer line: a bot streaming garbage is cut off
ANSWER_DEPTH = 2  # nesting of an answer accepted by the reader: a list of integers nests 1
_LIVE: "weakref.WeakSet[ExternalAgent]" = weakref.WeakSet()


def parse_cmd_spec(spec: str) -> tuple[str, dict[str, str]]:
    """'cmd:node bot.js:timeout=1' -> ('node bot.js', {'timeout': '1'})."""
    parts = spec.strip()[len(CMD_PREFIX):].split(":")
    given: dict[str, str] = {}
    while parts and "=" in parts[-1] and parts[-1].split("=", 1)[0].strip() in PARAMS:
        key, value = parts.pop().split("=", 1)
        if key.strip() in given:
            raise ConfigError(f"agent {spec!r}: parameter {key.strip()!r} given twice")
        given[key.strip()] = value.strip()
    command = ":".join(parts).strip()
    if not command:
        raise ConfigError(f"agent {spec!r}: an external bot is cmd:COMMAND[:timeout=S] (COMMAND: the program "
                          "and its arguments, e.g. cmd:node docs/examples/bot.js)")
    return command, dict(reversed(list(given.items())))


def command_argv(command: str) -> list[str]:
    """The program and its arguments (ConfigError: bad quoting, or no such program)."""
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise ConfigError(f"cmd:{command}: {e}") from None
    if not argv:
        raise ConfigError("cmd: names no program")
    program = argv[0]
    if os.sep in program:
        if not (os.path.isfile(program) and os.access(program, os.X_OK)):
            raise ConfigError(f"cmd:{command}: {program} is not an executable file")
    elif shutil.which(program) is None:
        raise ConfigError(f"cmd:{command}: no program {program!r} on PATH")
    return argv


class BotFault(Exception):
    """The bot broke the protocol (crash, timeout, garbage): it is out."""


class ExternalAgent:
    """An agent whose decisions an external program makes (see the module doc)."""

    def __init__(self, command: str, timeout: float = PARAMS["timeout"],
                 start_timeout: float = PARAMS["start_timeout"]):
        if not (timeout > 0 and start_timeout > 0):
            raise ConfigError("timeout and start_timeout must be > 0 seconds")
        self.argv = command_argv(command)
        self.name = CMD_PREFIX + command
        self.timeout, self.start_timeout = float(timeout), float(start_timeout)
        self.proc = None
        self.game = None  # the Game the process was started for
        self.out: str | None = None  # why the bot is out, if it is
        self.first_fault: str | None = None
        self.forfeits = 0
        self.decisions = 0
        self._by_game: Counter = Counter()  # forfeits by batch game index, until taken
        self._buf = b""
        self._stderr = None

    # ------------------------------------------------------------------ process
    def check(self, game) -> None:
        """Start the program for `game` (the arena calls this before each batch of games:
        a bot put out in an earlier batch starts again)."""
        if self.out:
            self.close()
        self._ensure(as_game(game))

    def _ensure(self, game) -> None:
        if self.game is not None and self.game == game and (self.proc is not None or self.out):
            return
        self.close()
        self.game, self.out, self._buf = game, None, b""
        try:
            self.proc, self._stderr = start_bot(self.argv)
        except OSError as e:
            raise ConfigError(f"{self.name}: cannot start {self.argv[0]}: {e.strerror or e}") from None
        _LIVE.add(self)
        os.set_blocking(self.proc.stdin.fileno(), False)  # a bot not reading its stdin cannot block a write
        info = game.info
        start = {"type": "start", "protocol": PROTOCOL, "game": info.game, "variant": info.variant,
                 "players": info.players, "rules": game.rules.to_dict(), "n_actions": info.n_actions,
                 "pass_action": info.pass_action, "utility": info.utility, "score_unit": info.score_unit,
                 "actions": [game.describe_action(a) for a in range(info.n_actions)],
                 "timeout": self.timeout}
        what = "the start message"
        try:
            deadline = time.monotonic() + self.start_timeout
            self._send(start, deadline, self.start_timeout)
            answer = read_answer(self._read_line(deadline, self.start_timeout, what), what)
            if not isinstance(answer, dict):
                raise BotFault(f"answered {what} with {shown_answer(answer)}, not a JSON object")
        except BotFault as e:
            self._put_out(str(e))

    def _send(self, message: dict, deadline: float, seconds: float) -> None:
        """Write `message` as one line by `deadline` (BotFault: the bot exited, or left its
        stdin unread that long). The pipe is non-blocking: a write takes what fits."""
        data = memoryview((json_text(message, separators=(",", ":"), default=str) + "\n").encode())
        fd = self.proc.stdin.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_WRITE)
            while data:
                try:
                    data = data[os.write(fd, data):]
                except BlockingIOError:
                    pass
                except OSError:  # BrokenPipeError: it exited
                    raise BotFault(self._exit_words("while sent a message")) from None
                left = deadline - time.monotonic()
                if data and (left <= 0 or not sel.select(left)):
                    raise BotFault(f"timed out: did not read its input within {seconds:g} s")

    def _check_quiet(self) -> None:
        """BotFault if the bot wrote anything since its last answer: a line before its
        question is asked (a second answer to the last one) would answer the next."""
        fd = self.proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while not self._buf and sel.select(0):
                chunk = self._read_chunk(fd)
                if not chunk:
                    return  # its stdout closed: the next read says how it ended
                self._buf += chunk
        if self._buf:
            raise BotFault(f"wrote before it was asked (two answers to one question?): {snippet(self._buf)}")

    def _read_chunk(self, fd: int) -> bytes:
        try:
            return os.read(fd, 1 << 16)
        except OSError as e:
            raise BotFault(f"its stdout cannot be read: {e.strerror or e}") from None

    def _read_line(self, deadline: float, seconds: float, what: str) -> bytes:
        """One line of the bot's stdout by `deadline` (BotFault otherwise)."""
        fd = self.proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buf:
                if len(self._buf) > MAX_LINE:
                    raise BotFault(f"answered a line longer than {MAX_LINE} bytes")
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise BotFault(f"timed out: no answer to {what} within {seconds:g} s"
                                   + (f" (half a line came: {snippet(self._buf)})" if self._buf else ""))
                chunk = self._read_chunk(fd)
                if not chunk:
                    raise BotFault(self._exit_words(f"before answering {what}"))
                self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        if len(line) > MAX_LINE:
            raise BotFault(f"answered a line longer than {MAX_LINE} bytes")
        return line

    def _exit_words(self, when: str) -> str:
        try:
            code = self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return f"closed its stdout {when}"
        said = ""
        if self._stderr is not None:
            lines = [ln for ln in self._stderr.tail()[-4000:].decode(errors="replace").splitlines() if ln.strip()]
            said = f"; its last stderr line: {lines[-1].strip()[:200]!r}" if lines else ""
        how = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
        return f"crashed: {how} {when}{said}"

    def _put_out(self, reason: str) -> None:
        self.out = reason
        self.first_fault = self.first_fault or reason
        self._kill()

    def _kill(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None:
            kill_group(proc)  # the supervisor, the bot and any children it started
            for f in (proc.stdin, proc.stdout):
                try:
                    f.close()
                except OSError:
                    pass
            proc.wait()
        self._stderr = None  # its thread ends with the pipe

    def close(self) -> None:
        """Say `end`, give the bot a moment to exit, then kill its process group."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                self.proc.stdin.write(b'{"type":"end"}\n')
                self.proc.stdin.close()
                self.proc.wait(timeout=0.5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._kill()
        self.game = None

    # ------------------------------------------------------------------ decisions
    def act(self, view, rng) -> np.ndarray:
        game = as_game(view.config)
        self._ensure(game)
        actions = np.full(view.n, game.info.pass_action, dtype=np.int64)
        asked = np.flatnonzero(view.must_act)
        if not len(asked):
            return actions
        mask = view.action_mask()
        actions[asked] = mask[asked].argmax(axis=1)  # the forfeit: the lowest legal action
        self.decisions += len(asked)
        legal = [np.flatnonzero(mask[e]).tolist() for e in asked]
        if self.out is None:
            try:
                answers = self._ask(view, asked, legal)
            except BotFault as e:
                self._put_out(str(e))
            else:
                for k, (e, answer) in enumerate(zip(asked, answers)):
                    if answer in legal[k]:
                        actions[e] = answer
                    else:
                        self._forfeit(view, e, f"answered {answer} ({game.describe_action(answer)}), not a "
                                               f"legal action (legal: {legal[k]})")
                return actions
        for e in asked:
            self._forfeit(view, e, None)
        return actions

    def _ask(self, view, asked, legal) -> list[int]:
        decisions = [{"game": int(view.games[e]), "seat": int(view.seats[e]), "view": view.table_view(int(e)),
                      "legal": legal[k]} for k, e in enumerate(asked)]
        what, seconds = f"{len(asked)} decision(s)", self.timeout * len(asked)
        deadline = time.monotonic() + seconds
        self._check_quiet()
        self._send({"type": "act", "decisions": decisions}, deadline, seconds)
        line = self._read_line(deadline, seconds, what)
        answers = read_answer(line, what)
        if not (isinstance(answers, list) and len(answers) == len(asked)
                and all(type(a) is int for a in answers)):
            raise BotFault(f"answered {shown_answer(answers)}, not a list of {len(asked)} integer action(s): "
                           f"{snippet(line)}")
        return answers

    def _forfeit(self, view, e, reason: str | None) -> None:
        self.forfeits += 1
        self._by_game[int(view.games[e])] += 1
        if reason is not None and self.first_fault is None:
            self.first_fault = f"game {int(view.games[e])}, seat {int(view.seats[e])}: {reason}"

    def take_forfeits(self) -> dict[int, int]:
        """Forfeits by the batch's game index since the last call (the arena reads them
        after a batch of games, into each game's row)."""
        out, self._by_game = dict(self._by_game), Counter()
        return out

    def fault_text(self) -> str | None:
        """The reason for the forfeits, in words (None: no forfeit)."""
        if not self.forfeits:
            return None
        return self.out if self.out else self.first_fault

    def __del__(self):
        try:
            self._kill()
        except Exception:
            pass


def read_answer(line: bytes, what: str):
    """A line of the bot parsed by the bounded reader (BotFault saying why it is no answer)."""
    try:
        return loads_json(line, error=BotFault, what=f"answered {what} with garbage", depth=ANSWER_DEPTH)
    except BotFault as e:
        raise BotFault(f"{e}: {snippet(line)}") from None


def shown_answer(value) -> str:
    """What kind of JSON value an answer was, in words."""
    kinds = {dict: "an object", list: f"a list of {len(value)}" if isinstance(value, list) else "",
             str: "a string", bool: "true/false", int: "a number", float: "a number", type(None): "null"}
    return kinds.get(type(value), type(value).__name__)


def snippet(data: bytes, limit: int = 60) -> str:
    """The start of a line the bot wrote, for a one-line reason (escaped, at most `limit` bytes)."""
    more = f"... ({len(data):,} bytes)" if len(data) > limit else ""
    return repr(data[:limit].decode(errors="replace")) + more


@atexit.register
def _close_all() -> None:
    for agent in list(_LIVE):
        agent.close()
