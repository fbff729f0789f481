"""One person at seat 0 and agents at the others: what every front end of a game shares.

The card terminal (`experiments/play/cards.py`), the board terminal
(`experiments/play/board.py`) and the web page's game (`experiments/serve/session.py`)
stand side by side over this module:
- `SeatZeroSession`: the agents at the other seats deciding from their own views, each
  step recorded and shown, one line of input at a time (quit, Ctrl-D), and hints through
  the hint agent's generic `estimates` (any game).
- `TerminalSession`: the game loop of a terminal game: the record kept at every turn
  boundary, quit and Ctrl-C stopping with the completed turns, the end shown.
- the opponents of `sixnimmt play` (`opponent_specs`, `default_opponents`) and
  `terminal_game`, which picks the terminal game of a game's kind.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import cycle, islice
from typing import Any

import numpy as np

from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.game import as_game
from sixnimmt_env.core.rng import game_seeds

Ask = Callable[[str], str]

HUMAN = 0  # the person's seat; seat 0 makes relative seat order (seat views) the absolute one
HUMAN_NAME = "human"  # the person's entry under "seats" in the record
HINT_AGENT = "mcs:rollouts=400"  # more rollouts than the opponent default: steadier estimates
MAX_EOF = 3  # this many Ctrl-D in a row (or a closed stdin) ends the game like Ctrl-C
QUIT_WORDS = ("q", "quit", "exit")
HELP_WORDS = ("help", "?", "h")  # at any prompt: what the question is and what each answer does
DEFAULT_OPPONENT = "mcs"  # where it plays the game; else FALLBACK_OPPONENT
FALLBACK_OPPONENT = "random"
# The terminal game of each game kind: (module, class).
TERMINAL_GAMES = {"cards": ("experiments.play.cards", "TerminalGame"),
                  "board": ("experiments.play.board", "BoardTerminalGame")}


class _Quit(Exception):
    """The person typed quit."""


def default_opponents(game: str) -> str:
    """The opponents of `sixnimmt play` when none are given: mcs where it plays game kind
    `game`, random elsewhere."""
    from agents.registry import available
    # available(game): the name's implementation for that game (mcs has one per game kind)
    return DEFAULT_OPPONENT if DEFAULT_OPPONENT in available(game) else FALLBACK_OPPONENT


def opponent_specs(opponents: str, players: int) -> list[str]:
    """One agent spec per other seat: the comma-separated list, cycled if too short."""
    specs = [s.strip() for s in opponents.split(",") if s.strip()]
    if not specs:
        raise ConfigError("--opponents needs at least one agent spec (see `sixnimmt agents`)")
    if len(specs) > players - 1:
        raise ConfigError(f"{len(specs)} opponents for {players - 1} other seats: "
                          f"give at most {players - 1} or raise --players")
    return list(islice(cycle(specs), players - 1))


def terminal_game(game, opponents: list[str], seed: int, console, ask: Ask, *, hints: bool = False):
    """The terminal game of `game`'s kind (TERMINAL_GAMES); each keeps the game's record."""
    import importlib

    game = as_game(game)
    if game.info.game not in TERMINAL_GAMES:
        raise ConfigError(f"no terminal game for {game.info.game!r}; terminal games: {', '.join(TERMINAL_GAMES)}")
    module, name = TERMINAL_GAMES[game.info.game]
    return getattr(importlib.import_module(module), name)(game, opponents, seed, console, ask, hints=hints)


def hint_agent(game: str):
    """The agent whose `estimates` give the hints of game kind `game` (ConfigError when it
    has none for that game)."""
    from agents.registry import make_agent

    agent = make_agent(HINT_AGENT, game)
    if not hasattr(agent, "estimates"):
        raise ConfigError(f"no hints for the {game} game")
    return agent


def hint_explanation(info, rollouts) -> str:
    """What a hint's numbers are, in the game's words (`info.score_unit`, `info.utility`)."""
    return (f"mean {info.score_unit} for you of {rollouts} simulations per choice that deal the unseen "
            f"cards at random and play on at random ({'fewer' if info.utility < 0 else 'more'} is better)")


class SeatZeroSession:
    """The person at seat 0, agents (`self.specs`, `self.agents`, `self.rng`) at the
    others, one line of input at a time, hints from `self.hint_agent` (or None)."""

    _eofs = 0  # Ctrl-D in a row
    first_agent_seat = 1  # the seat of specs[0]: 0 when agents fill every seat (watching, on the web page)
    hint_agent = None

    def _agent_actions(self, st) -> np.ndarray:
        """(P, 1) encoded actions: each agent's decision for its seat (the person's: pass)."""
        actions = np.full((st.players, 1), self.game.info.pass_action, dtype=np.int64)
        for seat, spec in enumerate(self.specs, start=self.first_agent_seat):
            view = self.game.view(st, [seat], [0])
            if not view.must_act[0]:
                continue
            actions[seat, 0] = self.agents[spec].act(view, self.rng)[0]
        return actions

    def _step(self, st, actions: np.ndarray, recorder):
        """Apply one decision step, record it, show what it did (the game's `_show_events`)."""
        after, events = self.game.step(st, actions, report=True)
        recorder.observe(st, actions, after, events)
        self._show_events(st, after, events)
        return after

    def _hint(self, view) -> tuple[np.ndarray, np.ndarray, int] | None:
        """The hint for the person's decision in `view` (seat 0, one entry): (candidate
        actions, the hint agent's mean for each, the index of the best by the game's
        utility); None without hints or with one choice. Hints draw from `self.hint_rng`,
        so they never change how the agents play."""
        if self.hint_agent is None or not view.must_act[0]:
            return None
        actions, means = self.hint_agent.estimates(view, self.hint_rng)[0]
        if len(actions) < 2:
            return None
        return actions, means, int(np.argmax(self.game.info.utility * np.asarray(means)))

    def _read(self, prompt: str) -> str:
        """One line of input; Ctrl-D gets a message (and after MAX_EOF in a row, stops)."""
        while True:
            try:
                line = self.ask(prompt)
            except EOFError:
                self._eofs += 1
                if self._eofs >= MAX_EOF:
                    self.console.print(f"\nNo input ({MAX_EOF} times end of input).")
                    raise KeyboardInterrupt from None
                self.console.print("\n(Ctrl-D: nothing read. Type your choice; Ctrl-C or 'quit' ends the game.)")
                continue
            self._eofs = 0
            line = line.strip()
            if line.casefold() in QUIT_WORDS:
                raise _Quit
            return line

    def _ask_until(self, prompt: str, help_text: str, answer: Callable[[str], tuple[Any, str | None]]) -> Any:
        """Ask until `answer(text)` takes the line: it gives (the value, None), or (None,
        what to tell the person). `?`, `h` or `help` at any prompt prints `help_text`."""
        while True:
            text = self._read(prompt)
            if text.casefold() in HELP_WORDS:
                self.console.print(help_text)
                continue
            value, complaint = answer(text)
            if complaint is None:
                return value
            self.console.print(complaint)


@dataclass
class PlayResult:
    """How a game at the terminal ended.

    Attributes:
        record: the game record as of the last completed turn (a game stopped mid-turn
            keeps the turns played before it; the whole game when it finished).
        finished: the game reached its end by the rules.
        interrupted: stopped by Ctrl-C or closed input (not by typing quit).
        turns: completed turns (those in the record).
        totals: everyone's points after the last completed turn.
    """

    record: dict
    finished: bool
    interrupted: bool = False
    turns: int = 0
    totals: list[int] | None = None


class TerminalSession(SeatZeroSession):
    """The game loop of a terminal game. A game writes `_turns(st, recorder)`, which plays
    and yields the state after every completed turn, and what it shows (`_show_events`,
    `_show_scores`, `_completed_turns`); `play` keeps the record at every
    turn boundary and stops on quit or Ctrl-C with the turns completed so far."""

    score_word = "Scores"  # what the totals are called on screen
    score_column = "points"  # their column in the final table

    def _setup(self, opponents: list[str], seed: int, console, ask: Ask, hints: bool) -> None:
        """What every terminal game sets up: the seats, the agents, the hint agent, the
        random streams (separate ones: hints never change how the opponents play)."""
        from agents.arena import build_agents

        info = self.game.info
        if len(opponents) != info.players - 1:
            raise ConfigError(f"{len(opponents)} opponents for {info.players - 1} other seats")
        self.config, self.seed, self.console, self.ask = self.game.rules, seed, console, ask
        self.specs = list(opponents)
        _, self.agents = build_agents(self.specs, info.game)  # one object per distinct spec
        self.hint_agent = hint_agent(info.game) if hints else None
        self.rng = np.random.default_rng([seed, 0])
        self.hint_rng = np.random.default_rng([seed, 1])
        self.names = ["you"] + [f"seat {s} ({spec})" for s, spec in enumerate(self.specs, start=2)]  # you: seat 1
        self._eofs = 0

    saved: PlayResult | None = None  # the record at the last turn boundary, also after an error

    def play(self) -> PlayResult:
        """Play until the game ends, the person quits, or Ctrl-C; return the record. Any
        other error propagates, and `self.saved` still holds the completed turns (the CLI
        writes them: a record on any stop)."""
        game = self.game
        st = game.new_games(game_seeds(self.seed, 1))
        recorder = game.recorder(st, seats=[HUMAN_NAME] + self.specs, seeds=[self.seed])
        saved = self.saved = self._snapshot(recorder, st)
        try:
            for st in self._turns(st, recorder):
                saved = self.saved = self._snapshot(recorder, st)
        except (KeyboardInterrupt, _Quit) as stop:
            saved.interrupted = isinstance(stop, KeyboardInterrupt)
            self.console.print("\n[bold]Game stopped[/bold]" + (" (Ctrl-C)." if saved.interrupted else "."))
            self._show_scores(saved.totals, f"{self.score_word} after the last completed turn")
            return saved
        self._show_end(st)
        saved.finished = True
        return saved

    def _turns(self, st, recorder) -> Iterator:
        raise NotImplementedError

    def _snapshot(self, recorder, st) -> PlayResult:
        """What is kept if play stops: the record (a deep copy) at a turn boundary."""
        record = json.loads(json.dumps(recorder.records(st)[0]))
        return PlayResult(record, finished=False, turns=self._completed_turns(record, st),
                          totals=[int(t) for t in self.game.totals(st)[:, 0]])

    def _show_scores(self, totals, title: str) -> None:
        """Everyone's totals on one line (after a stop: those of the last completed turn)."""
        self.console.print(f"{title}: " + " · ".join(f"{self.names[seat]} {int(total)}"
                                                     for seat, total in enumerate(totals)))

    def _step(self, st, actions: np.ndarray, recorder):
        self._step_actions = actions  # the step's answers, for the table view's log (an action card played)
        return super()._step(st, actions, recorder)

    def _show_hint(self, view, label: Callable[[int], str], verb: str) -> None:
        """What the hint agent would choose for the person's decision in `view`, and its
        estimate of every choice (`label(action)`: how a choice is shown)."""
        hint = self._hint(view)
        if hint is None:
            return
        actions, means, best = hint
        rollouts = getattr(self.hint_agent, "rollouts", "?")
        self.console.print(f"[dim]Hint ({HINT_AGENT}): {verb} {label(int(actions[best]))}. "
                           f"{hint_explanation(self.game.info, rollouts).capitalize()}:[/dim]")
        self.console.print("[dim]  " + "  ".join(f"{label(int(a))}: {m:.1f}" for a, m in zip(actions, means))
                           + "[/dim]")

    def _show_end(self, st) -> None:
        """The final table, the best first by the game's utility, and who won."""
        from rich.table import Table

        totals = self.game.totals(st)[:, 0]
        winners = np.flatnonzero(self.game.winners(st)[:, 0]).tolist()
        self.console.rule("Game over")
        table = Table(show_header=True, header_style="bold")
        table.add_column("seat")
        table.add_column(self.score_column, justify="right")
        for seat in np.argsort(-self.game.info.utility * totals, kind="stable"):
            table.add_row(self.names[seat] + ("  (winner)" if seat in winners else ""), str(int(totals[seat])))
        self.console.print(table)
        if HUMAN in winners:
            self.console.print("[bold green]You win![/bold green]" if len(winners) == 1 else
                               "[bold green]You share the win.[/bold green]")
        else:
            self.console.print("Winner" + "s" * (len(winners) > 1) + ": "
                               + ", ".join(self.names[w] for w in winners))
