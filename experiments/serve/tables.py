"""A table for several people: people at some seats, agents at the others, spectators.

`TableSession` is a WebSession with more than one person. A person takes a free seat
with `join` and gets a seat token (`secrets.token_urlsafe`, kept only as its SHA-256): the
token, not the page, says which seat an answer is for, so nobody acts for another's seat.
Each listening page gets its own seat's messages, built from `Game.table_view(state,
seat)` — its own hand, no other — and a spectator the spectator's view (no hand at all).
A step's view is built for a seat once, when a page listens there or a page joining it
asks for the history (`StepShown`), and shared by every page at that seat; where the
table then waits is that view without the step's events (table_view adds them last).
The step's public table (the spectator's view: rows, scores, cards played, the events)
is built once, and each seat's view from it (`table_view(..., public=)`: only the hand,
the prompt and the seat's actions are the seat's own).

The game starts once every person's seat is taken. At each step the agents choose first
(from their own views, as in WebSession), then the people who must act answer, in any
order; the step is taken when the last has answered. A person who has not answered when
the turn clock (`turn_seconds`) runs out gets their lowest legal action, counted as a
forfeit (`forfeits`, kept in the database). A decision with one legal action is taken
for the person. Messages by seat are returned as {seat or None: [messages]} for the
server to deliver (tables_app.py).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import deque

import numpy as np

from sixnimmt_env.core.errors import ConfigError, IllegalActionError, SixNimmtError
from sixnimmt_env.core.rng import game_seeds

from .session import HISTORY, WebSession

MIN_TURN_SECONDS, MAX_TURN_SECONDS = 1, 600
DEFAULT_TURN_SECONDS = 60
SPECTATOR = None


class StepShown:
    """One step of the table (the states before and after it, its events and actions), its
    public table (the spectator's view, events included: built once) and its `step`
    message for each seat that asked for it (built once, on first request, from the public
    table and the seat's own parts)."""

    __slots__ = ("before", "after", "events", "actions", "public", "messages")

    def __init__(self, before, after, events, actions):
        self.before, self.after, self.events, self.actions = before, after, events, actions
        self.public: dict | None = None
        self.messages: dict = {}


class BadTokenError(SixNimmtError):
    """A seat token that is not one of this table's."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class TableSession(WebSession):
    """One table (see the module doc). `seats`: per seat, "person" or an agent spec;
    `names`: the people's names by seat (None: free); `turn_seconds`: the turn clock."""

    def __init__(self, game, seats: list[str], seed: int, *, turn_seconds: float = DEFAULT_TURN_SECONDS,
                 seed_given: bool = True, agents: dict):
        self.game, self.info = game, game.info
        if len(seats) != self.info.players:
            raise ConfigError(f"{len(seats)} seats for a table of {self.info.players}")
        self.people = {s: None for s, kind in enumerate(seats) if kind == "person"}
        if len(self.people) < 1:
            raise ConfigError("a table needs a seat for a person (else watch the agents)")
        self.agent_seats = {s: spec for s, spec in enumerate(seats) if spec != "person"}
        self.specs = list(self.agent_seats.values())
        self.seats, self.agents, self.turn_seconds = list(seats), agents, float(turn_seconds)
        self.watch, self.human, self.hint_agent, self.first_agent_seat = False, None, None, 0
        self.seed, self.seed_given = seed, seed_given
        self.rng = np.random.default_rng([seed, 0])
        self.hint_rng = np.random.default_rng([seed, 1])
        self.id = secrets.token_urlsafe(12)
        self.state = game.new_games(game_seeds(seed, 1))
        self.recorder = game.recorder(self.state, seats=[("human" if k == "person" else k) for k in seats],
                                      seeds=[seed])
        self.tokens: dict[int, str] = {}  # seat -> SHA-256 of its token
        self.forfeits = {s: 0 for s in self.people}
        self.submitted: dict[int, int] = {}  # this step's answers so far
        self.deadline: float | None = None  # time.monotonic() when the clock runs out
        self.viewers = [*self.people, SPECTATOR]  # the seats a page may listen at
        self.shown: deque[StepShown] = deque(maxlen=HISTORY)  # the steps a page joining is shown
        self.listeners: dict = {}  # connection -> seat (None: spectator); tables_app.py delivers
        self.decision, self.journal, self.saved_steps, self.dirty = 0, [], 0, False
        self._agents_next, self._by_seat, self.audit = None, {}, None
        self._views: dict = {}  # seat -> its table view of the current state (cleared by every step)
        self._asked: dict = {}  # seat -> the decision its pages were last sent a `turn` for
        self._now: dict = {}  # what the current state says (legal actions, who acts): cleared by every step
        self.answer_seconds = float("inf")  # CPU time of the last answer: tables_app answers quick tables on the writer
        import threading
        self.lock = threading.Lock()
        self.last_used = time.monotonic()

    # ------------------------------------------------------------------ seats

    def started(self) -> bool:
        return all(name is not None for name in self.people.values())

    def join(self, name: str, seat=None) -> tuple[int, str, dict]:
        """A person takes a free seat (the first, or `seat`): (seat, token, messages by seat)."""
        free = [s for s, n in self.people.items() if n is None]
        if seat is not None:
            if seat not in free:
                raise ConfigError(f"seat {seat + 1 if isinstance(seat, int) else seat!r} is not a free seat here")
            free = [seat]
        if not free:
            raise ConfigError("every seat for a person at this table is taken: watch it instead")
        seat, token = free[0], secrets.token_urlsafe(24)
        self.people[seat], self.tokens[seat] = name, token_hash(token)
        self.dirty = True
        by_seat = self._run_table() if self.started() else self._everyone_waiting()
        for viewer, messages in by_seat.items():  # every page's names: who sits where now
            if not messages or messages[0]["type"] != "setup":
                messages.insert(0, self.setup_for(viewer))
        return seat, token, by_seat

    def seat_of(self, token) -> int:
        """The seat a token is for (BadTokenError for any other text)."""
        if isinstance(token, str) and len(token) < 100:
            digest = token_hash(token)
            for seat, known in self.tokens.items():
                if hmac.compare_digest(digest, known):
                    return seat
        raise BadTokenError("not a seat token of this table: join a free seat, or watch")

    def names(self, viewer) -> list[str]:
        return [(f"you ({self.people[s]})" if s == viewer else (self.people[s] or f"seat {s + 1} (free)"))
                if s in self.people else f"seat {s + 1} ({spec})" for s, spec in enumerate(self.seats)]

    def setup_for(self, viewer) -> dict:
        """The `setup` message for a seat (None: a spectator)."""
        msg = self.setup()
        msg.update(names=self.names(viewer), watch=False, seat=viewer, at_table=True, turn_seconds=self.turn_seconds,
                   people=sorted(self.people))
        return msg

    def snapshot_for(self, viewer) -> list[dict]:
        """Everything a page joining (or reloading) at `viewer` needs."""
        steps = [self._step_message(shown, viewer) for shown in self.shown]
        return [self.setup_for(viewer), {"type": "history", "steps": steps, "id": self.id}, self._waiting_for(viewer)]

    def listening(self) -> list:
        """The seats some page listens at (None: a spectator): their messages are built."""
        return list(dict.fromkeys(self.listeners.values()))

    # ------------------------------------------------------------------ answers and the clock

    def answer(self, seat: int, action, decision) -> dict:
        """Seat `seat`'s answer for decision `decision`: messages by seat."""
        if self._over():
            raise IllegalActionError("the game is over")
        if not self.started():
            raise IllegalActionError("the game starts once every person's seat is taken")
        if isinstance(decision, bool) or decision != self.decision:
            raise IllegalActionError(f"stale decision {decision!r}: the game is at decision {self.decision}")
        if seat in self.submitted or not self._to_act()[seat]:
            raise IllegalActionError("it is not your turn to answer")
        legal = self._legal(seat)
        if isinstance(action, bool) or not isinstance(action, int) or action not in legal:
            raise IllegalActionError(f"{str(action)[:20]} is not legal now; legal: "
                                     + ", ".join(self.game.describe_action(a) for a in legal))
        self.submitted[seat], self.dirty = action, True
        return self._run_table(repeat=False)

    def clock_ran_out(self) -> dict:
        """The turn clock ran out: each person still to answer gets their lowest legal
        action, counted as a forfeit. Messages by seat ({} when the clock had not run out)."""
        if self.deadline is None or time.monotonic() < self.deadline or self._over():
            return {}
        for seat in self._waiting_seats():
            self.submitted[seat] = min(self._legal(seat))
            self.forfeits[seat] += 1
        self.dirty = True
        return self._run_table()

    def _legal(self, seat: int) -> list[int]:
        """`seat`'s legal actions now (kept until the next step: asked several times an answer).
        Every person's seat's are found at once, from one view of all of them: a seat view
        costs the same for one seat as for several (NumPy's cost is per call)."""
        if "legal" not in self._now:
            seats = list(self.people)
            masks = self.game.view(self.state, seats, [0] * len(seats)).action_mask()
            self._now["legal"] = {s: np.flatnonzero(m).tolist() for s, m in zip(seats, masks)}
        return self._now["legal"][seat]

    def _to_act(self) -> list[bool]:
        """Per seat, whether it acts now (kept until the next step)."""
        if "to_act" not in self._now:
            self._now["to_act"] = self.game.to_act(self.state)[:, 0].tolist()
        return self._now["to_act"]

    def _waiting_seats(self) -> list[int]:
        to_act = self._to_act()
        return [s for s in self.people if to_act[s] and s not in self.submitted]

    # ------------------------------------------------------------------ the loop

    def _agent_actions(self, st) -> np.ndarray:
        actions = np.full((st.players, 1), self.info.pass_action, dtype=np.int64)
        for seat, spec in self.agent_seats.items():
            view = self.game.view(st, [seat], [0])
            if view.must_act[0]:
                actions[seat, 0] = self.agents[spec].act(view, self.rng)[0]
        return actions

    def _run_table(self, repeat: bool = True) -> dict:
        """Step while nobody needs to be asked; messages by seat, ending where each waits.
        `repeat=False` (an answer): a seat still asked the question it was last sent gets
        nothing (its page shows that question; its clock has not changed)."""
        self._by_seat = {s: [] for s in self.listening()}
        while not self._over():
            if self._agents_next is None:
                self._agents_next = self._agent_actions(self.state)
            for seat in self._waiting_seats():  # one legal action: taken for the person
                legal = self._legal(seat)
                if len(legal) == 1:
                    self.submitted[seat] = legal[0]
            if self._waiting_seats():
                break
            actions = self._agents_next
            for seat, action in self.submitted.items():
                actions[seat, 0] = action
            self._agents_next, self.submitted = None, {}
            self.decision += 1
            self._step(self.state, actions, self.recorder)
        self.deadline = None if self._over() else (self.deadline or time.monotonic() + self.turn_seconds)
        waiting = self._waiting_seats() if self.started() else []
        for seat in self._by_seat:
            if not repeat and not self._by_seat[seat] and seat in waiting and self._asked.get(seat) == self.decision:
                continue
            self._by_seat[seat].append(self._waiting_for(seat))
        return self._by_seat

    def _everyone_waiting(self) -> dict:
        return {seat: [self.setup_for(seat), self._waiting_for(seat)] for seat in self.listening()}

    def _show_events(self, before, after, events) -> None:
        """A step: its `step` message for each seat a page listens at (the others' when asked)."""
        self.state = after
        self.deadline = None  # a new step: a new clock
        self._views, self._now = {}, {}
        shown = StepShown(before, after, events, self._actions)
        self.shown.append(shown)
        for seat in self._by_seat:
            self._by_seat[seat].append(self._step_message(shown, seat))

    def _step_message(self, shown: StepShown, seat) -> dict:
        """`shown`'s `step` message for `seat` (its own view; None: the spectator's), built
        once: the step's public table (rows, scores, played cards, events: the same at every
        seat) is built once, and for a seat only its own parts (hand, prompt, its actions)."""
        if seat not in shown.messages:
            if shown.public is None:
                shown.public = self.game.table_view(shown.after, SPECTATOR, before=shown.before,
                                                    events=shown.events, actions=shown.actions)
            table = self.game.table_view(shown.after, seat, public=shown.public)
            shown.messages[seat] = self._made({"type": "step", "seat": seat, "table": table}, shown.before)
        return shown.messages[seat]

    def _table_now(self, seat) -> dict:
        """`seat`'s table view of the state the game waits in (the last step's without its events)."""
        if seat not in self._views:  # a seat's table changes only with a step: each answer re-sends it
            if self.shown and self.shown[-1].after is self.state:
                table = self._step_message(self.shown[-1], seat)["table"]
                self._views[seat] = {k: v for k, v in table.items() if k != "events"}
            else:
                self._views[seat] = self.game.table_view(self.state, seat)
        return self._views[seat]

    def _waiting_for(self, seat) -> dict:
        """Where the game waits, as `seat` sees it: over, its turn, or others to answer."""
        table = self._table_now(seat)
        left = None if self.deadline is None else max(0.0, self.deadline - time.monotonic())
        if self._over():
            winners = np.flatnonzero(self.game.winners(self.state)[:, 0]).tolist()
            return self._made({"type": "over", "seat": seat, "table": table, "winners": winners,
                               "totals": [int(t) for t in self.game.totals(self.state)[:, 0]],
                               "seed": str(self.seed), "record": f"/api/games/{self.id}/record"})
        waiting = self._waiting_seats() if self.started() else []
        if seat in waiting:  # made only for the pages at `seat` (all of them, or one joining with a snapshot)
            self._asked[seat] = self.decision
            return self._made({"type": "turn", "seat": seat, "table": table, "decision": self.decision,
                               "legal": self._legal(seat), "seconds_left": left})
        who = [self.people[s] for s in waiting] or [f"seat {s + 1}" for s, n in self.people.items() if n is None]
        text = ("waiting for " + ", ".join(who) + (" to join" if not self.started() else "")) if who else table["prompt"]
        table = dict(table, prompt=text)
        return self._made({"type": "watch", "seat": seat, "table": table, "decision": self.decision,
                           "seconds_left": left})

    # ------------------------------------------------------------------ kept (keep.py)

    def pending(self) -> dict:
        out = super().pending()
        out.update(submitted={str(s): a for s, a in self.submitted.items()}, people=self.people,
                   tokens=self.tokens, forfeits=self.forfeits)
        return out

    def restore(self, steps: list[list[int]], pending: dict) -> None:
        self._by_seat = {}
        self.people = {int(s): n for s, n in pending["people"].items()}
        self.tokens = {int(s): t for s, t in pending["tokens"].items()}
        self.forfeits = {int(s): n for s, n in pending["forfeits"].items()}
        super().restore(steps, pending)
        self.submitted = {int(s): a for s, a in pending["submitted"].items()}
        self._by_seat = {}
        if self.started() and not self._over():
            self.deadline = time.monotonic() + self.turn_seconds  # a restart gives a fresh clock
