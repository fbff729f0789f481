"""One game on the web page: a seat-zero session (experiments/play/session.py) behind messages.

`WebSession` is a `SeatZeroSession`, as the terminal games are: the person at seat 0 and
agents at the other seats (or, watching, agents at every seat: `first_agent_seat = 0`),
the agents' decisions made first from their own views, each step recorded and shown.
A decision with one legal action is taken for the person (a last card, a one-answer
question): the page asks only real choices.
What it shows is not printed but queued as JSON-able messages for the browser, built
from `Game.table_view` — the one structured view every game gives — so nothing here
knows which game is played. The person's view is seat 0's; a watcher gets the
spectator's view (no hand at all), so no message ever holds a hidden card. The record
(which holds every hand) is handed out only once the game is over.

Message types sent: `step` (what one step did, with the table after it), `turn` (the
person must decide: the table, the decision number, the legal actions), `watch` (a
watched game waits for "next"), `over` (final scores, winners, the seed), `hint`.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections import deque

import numpy as np

from agents.arena import build_agents
from experiments.play.session import HINT_AGENT, HUMAN, HUMAN_NAME, SeatZeroSession, hint_agent, hint_explanation
from sixnimmt_env.core.errors import ConfigError, IllegalActionError, SixNimmtError
from sixnimmt_env.core.rng import game_seeds
from sixnimmt_env.core.strict_json import json_text

from .messages import shown

HISTORY = 400  # step messages kept for a reload (a 66-point card game has a few hundred)


class NotOverError(SixNimmtError):
    """The record asked for before the game ended (it would show the hidden hands)."""


class WebSession(SeatZeroSession):
    """One game for the web page (see the module doc).

    Args:
        game: a Game (any kind).
        specs: agent specs, one per seat the agents take (players - 1; players when watching).
        seed: the game's seed (deals); the agents' and hints' randomness derive from it.
        watch: agents at every seat, nobody asked anything.
        hints: before each of the person's decisions, what `mcs` would choose (`hint`).
        seed_given: the person chose the seed (else it is shown only when the game ends:
            from the seed, the engine would tell every hand).
        agents: prebuilt agents by spec (shared between games), else built here.
    """

    def __init__(self, game, specs: list[str], seed: int, *, watch: bool = False, hints: bool = False,
                 seed_given: bool = True, agents: dict | None = None):
        self.game, self.info = game, game.info
        P = self.info.players
        need = P if watch else P - 1
        if len(specs) != need:
            raise ConfigError(f"{len(specs)} agents for {need} seats" + (" (watching: one per seat)" if watch else ""))
        if watch and hints:
            raise ConfigError("hints are for the person's decisions; a watched game has none")
        self.watch, self.human = watch, None if watch else HUMAN
        self.first_agent_seat = 0 if watch else 1
        self.specs = list(specs)
        self.agents = agents if agents is not None else build_agents(self.specs, self.info.game)[1]
        self.hint_agent = hint_agent(self.info.game) if hints else None
        self.seed, self.seed_given = seed, seed_given
        self.rng = np.random.default_rng([seed, 0])  # as the terminal: hints never change the agents
        self.hint_rng = np.random.default_rng([seed, 1])
        first = self.first_agent_seat  # the index of specs[0]; seats are shown from 1
        self.names = ([] if watch else ["you"]) + [f"seat {s} ({spec})" for s, spec in enumerate(self.specs, start=first + 1)]
        self.id = secrets.token_urlsafe(12)
        self.state = game.new_games(game_seeds(seed, 1))
        self.recorder = game.recorder(self.state, seats=([] if watch else [HUMAN_NAME]) + self.specs, seeds=[seed])
        self.decision = 0  # the person's decisions so far: an action for an older one is stale
        self.history: deque[dict] = deque(maxlen=HISTORY)
        self.lock = threading.Lock()  # one request at a time per game (the server runs them in threads)
        self.last_used = time.monotonic()
        self._out: list[dict] = []
        self._agents_next = None  # the agents' decisions for the step the person is asked about
        self.audit = None  # tests: called for every message made (see _made)
        self.journal: list[list[int]] = []  # every step's actions (all seats), for the database
        self.saved_steps = 0  # how many of them the database holds (keep.py)

    # ------------------------------------------------------------------ what the server calls

    def setup(self) -> dict:
        """The `setup` message: who sits where, the game's facts."""
        return {"type": "setup", "id": self.id, "names": self.names, "watch": self.watch,
                "game": self.info.game, "variant": self.info.variant, "players": self.info.players,
                "unit": self.info.score_unit, "utility": self.info.utility, "hints": self.hint_agent is not None,
                "seed": str(self.seed) if self.seed_given else None}  # text: 64 bits do not fit a JavaScript number

    def start(self) -> list[dict]:
        """The messages of a new game up to the person's first decision (or, watching, the table).
        The agents decide first, so one that cannot play this table fails here."""
        return self._run(None)

    def act(self, action, decision) -> list[dict]:
        """The person's decision `action` for decision number `decision`; the messages
        up to their next decision. IllegalActionError (the game goes on) when it is stale,
        not an action, or not legal now."""
        if self.watch:
            raise IllegalActionError("this game is watched: nobody at it takes actions from the page")
        if self._over():
            raise IllegalActionError("the game is over")
        if isinstance(decision, bool) or not isinstance(decision, int) or decision != self.decision:
            raise IllegalActionError(f"stale decision {decision!r}: the game is at decision {self.decision}")
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"an action is an integer, got {shown(action)}")
        mask = self.game.view(self.state, [HUMAN], [0]).action_mask()[0]
        if not 0 <= action < len(mask) or not mask[action]:
            what = self.game.describe_action(action) if 0 <= action < len(mask) else "out of range"
            legal = ", ".join(self.game.describe_action(int(a)) for a in np.flatnonzero(mask))
            raise IllegalActionError(f"{what} is not legal now; legal: {legal}")
        return self._run(action)

    def next_turn(self) -> list[dict]:
        """Watching: play on to the next turn (or the end)."""
        if not self.watch:
            raise IllegalActionError("'next' is for watched games; play a card or a row")
        return [] if self._over() else self._run(None)

    def snapshot(self) -> list[dict]:
        """Everything a reloaded page needs: the setup, the steps so far, where the game waits."""
        return [self.setup(), {"type": "history", "steps": list(self.history)}, self._waiting()]

    def hint(self) -> dict | None:
        """The `hint` message for the person's current decision (None: no hints, or one choice)."""
        if self.hint_agent is None or self._over():
            return None
        hint = self._hint(self.game.view(self.state, [HUMAN], [0]))
        if hint is None:
            return None
        actions, means, best = hint
        labels = self._labels()
        rollouts = getattr(self.hint_agent, "rollouts", None)
        return self._made({"type": "hint", "decision": self.decision, "agent": HINT_AGENT, "best": int(actions[best]),
                           "choices": [{"action": int(a), "label": labels.get(int(a), self.game.describe_action(int(a))),
                                        "mean": round(float(m), 2)} for a, m in zip(actions, means)],
                           "explain": hint_explanation(self.info, rollouts)})

    def record(self) -> dict:
        """The game record (`sixnimmt replay` reads it); NotOverError before the end."""
        if not self._over():
            raise NotOverError("the record holds every hand: it is available once the game is over")
        return json.loads(json_text(self.recorder.records(self.state)[0]))

    # ------------------------------------------------------------------ the loop

    def _over(self) -> bool:
        return bool(self.game.game_over(self.state)[0])

    def over(self) -> bool:
        """Whether the game has ended (the store closes an idle page only when its games have)."""
        return self._over()

    def _run(self, action) -> list[dict]:
        """Step until the person must decide (watching: until the next turn) or the game ends."""
        self._out = []
        game, st = self.game, self.state
        turn = game.progress(st)["turn"], game.progress(st)["round"]
        while not game.game_over(st)[0]:
            person = self.human is not None and bool(game.to_act(st)[HUMAN, 0])
            actions = self._agents_next if self._agents_next is not None else self._agent_actions(st)
            self._agents_next = None
            if person:
                if action is None:
                    action = self._only_action()
                if action is None:  # the agents have chosen; now the person is asked
                    self._agents_next = actions
                    break
                actions[HUMAN, 0], action = action, None
                self.decision += 1
            st = self.state = self._step(st, actions, self.recorder)
            now = game.progress(st)
            if self.watch and (now["turn"], now["round"]) != turn:
                break
        self._out.append(self._waiting())
        return self._out

    def _only_action(self):
        """The person's one legal action when there is no choice (a last card, a
        one-answer question): taken for them, as a table would. None when they choose."""
        legal = np.flatnonzero(self.game.view(self.state, [HUMAN], [0]).action_mask()[0])
        return int(legal[0]) if len(legal) == 1 else None

    def _step(self, st, actions, recorder):
        self._actions = actions  # for _show_events: the table view names the answers everyone sees
        self.journal.append([int(a) for a in actions[:, 0]])
        return super()._step(st, actions, recorder)

    # ------------------------------------------------------------------ kept and restored (keep.py)

    def pending(self) -> dict:
        """Where the game waits, as JSON: the person's decision number, the agents' actions
        already chosen for the step the person is asked about, the agents' generator's state.
        With the steps so far, `restore` continues the game exactly as it would have gone."""
        agents_next = None if self._agents_next is None else [int(a) for a in self._agents_next[:, 0]]
        return {"decision": self.decision, "agents_next": agents_next, "rng": self.rng.bit_generator.state}

    def restore(self, steps: list[list[int]], pending: dict) -> None:
        """Replay `steps` (each step's actions, every seat) through the engine from the seed,
        then wait where `pending` says: the game as it was when it was kept."""
        players = self.info.players
        for acts in steps:
            if len(acts) != players:
                raise ConfigError(f"a kept step has {len(acts)} actions for {players} seats")
            self._out = []
            self._step(self.state, np.asarray(acts, dtype=np.int64).reshape(players, 1), self.recorder)
        self._out = []
        self.saved_steps = len(self.journal)
        self.decision = int(pending["decision"])
        chosen = pending.get("agents_next")
        self._agents_next = None if chosen is None else np.asarray(chosen, dtype=np.int64).reshape(players, 1)
        self.rng.bit_generator.state = pending["rng"]
        self.hint_rng = np.random.default_rng([self.seed, 1, self.decision])

    def _show_events(self, before, after, events) -> None:
        """SeatZeroSession._step shows each step through this: one `step` message."""
        self.state = after  # what the message shows is the state after the step
        message = self._made({"type": "step", "table": self.game.table_view(after, self.human, before=before,
                                                                            events=events, actions=self._actions)},
                             before)
        self.history.append(message)
        self._out.append(message)

    def _waiting(self) -> dict:
        """Where the game waits: over, the person's decision, or (watching) the next turn."""
        table = self.game.table_view(self.state, self.human)
        if self._over():
            winners = np.flatnonzero(self.game.winners(self.state)[:, 0]).tolist()
            return self._made({"type": "over", "table": table, "totals": [int(t) for t in self.game.totals(self.state)[:, 0]],
                               "winners": winners, "seed": str(self.seed), "record": f"/api/games/{self.id}/record"})
        if self.watch:
            return self._made({"type": "watch", "table": table})
        legal = np.flatnonzero(self.game.view(self.state, [HUMAN], [0]).action_mask()[0]).tolist()
        return self._made({"type": "turn", "table": table, "decision": self.decision, "legal": legal})

    def _labels(self) -> dict[int, str]:
        """Action -> how the page shows it (a card's text, "row 2", an answer)."""
        table = self.game.table_view(self.state, self.human)
        labels = {c["action"]: c["text"] for c in table["hand"] if c.get("action") is not None}
        labels.update({r["action"]: f"row {r['label']}" for r in table["rows"] if r.get("action") is not None})
        labels.update({c["action"]: c["label"] for c in table["choices"]})
        return labels

    def _made(self, message: dict, before=None) -> dict:
        message["id"] = self.id
        if self.audit is not None:  # tests: (session, message, the state before the step or None)
            self.audit(self, message, before)
        return message
