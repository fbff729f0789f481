"""`sixnimmt play`: one person against agents, in the terminal.

The person sits at seat 0 ("you"); the agents fill the other seats. Each turn shows the
rows (bullheads, full rows marked), the hand sorted, everyone's score, then asks for a
card; when the rules ask for a row, it asks for a row. After each reveal it shows who
played what and who took which row. The game is kept as a `sixnimmt-record/1` record.

Input and output are injected — a rich `Console` and an `ask(prompt) -> str` that raises
EOFError on Ctrl-D and KeyboardInterrupt on Ctrl-C — so tests can drive a game without
a terminal. What the person sees comes from their `SeatView`, as for any agent; the
step events shown after a reveal are public (the cards turned face up and taken).

Cards are shown and read by the variant's own names (`Variant.card_name`): the person
types a card as it is printed, so a variant with other names needs no change here. Row
choices are read against the legal rows of the view, never assumed to be "all four
after a too-low card". Rows are numbered 1..4 on screen; records number them 0..3.

The board game has its own terminal game (experiments/play_board.py) on the same
design; `terminal_game` picks the one of a game, and `SeatZeroSession` holds what both
share (the agents at the other seats, reading a line, quit and Ctrl-D).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from itertools import cycle, islice

import numpy as np
from rich.console import Console
from rich.table import Table
from rich.text import Text

from agents.arena import build_agents
from agents.registry import make_agent
from sixnimmt_env.cards.actions import card_action, row_action
from sixnimmt_env.cards.render import placements
from sixnimmt_env.cards.rules import N_ROWS, ROW_CAPACITY
from sixnimmt_env.cards.seat_view import SeatView
from sixnimmt_env.cards.state import PHASE_ROW, State
from sixnimmt_env.cards.table_view import choice_reason
from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.game import as_game
from sixnimmt_env.core.rng import game_seeds

Ask = Callable[[str], str]

HUMAN = 0  # the person's seat; seat 0 makes relative seat order (SeatView) the absolute one
HUMAN_NAME = "human"  # the person's entry under "seats" in the record
HINT_AGENT = "mcs:rollouts=400"  # more rollouts than the opponent default: steadier estimates
MAX_EOF = 3  # this many Ctrl-D in a row (or a closed stdin) ends the game like Ctrl-C
QUIT_WORDS = ("q", "quit", "exit")
# Card colours by bullheads (1 plain); the numbers are also printed, colour only helps.
BULL_STYLES = {2: "yellow", 3: "dark_orange", 5: "red", 7: "bold magenta"}


def _bullheads(n: int, unit: str = "bullheads") -> str:
    """A penalty in the variant's words: "1 bullhead", "3 points"."""
    return f"{n} {unit[:-1] if n == 1 else unit}"


class _Quit(Exception):
    """The person typed quit."""


@dataclass
class PlayResult:
    """How a game at the terminal ended.

    Attributes:
        record: the game record: every completed turn (a game stopped mid-round keeps the
            turns of that round played so far; a turn stopped during its row choice is
            left out), totals as of the last completed turn, winners once over.
        finished: the game reached its end by the rules.
        interrupted: stopped by Ctrl-C or closed input (not by typing quit).
    """

    record: dict
    finished: bool
    interrupted: bool = False

    @property
    def turns(self) -> int:
        """Completed turns in the record."""
        return sum(len(r["turns"]) for r in self.record["rounds"])


DEFAULT_OPPONENT = "mcs"  # where it plays the game; else FALLBACK_OPPONENT
FALLBACK_OPPONENT = "random"


def default_opponents(game: str) -> str:
    """The opponents of `sixnimmt play` when none are given: mcs where it plays game kind
    `game`, random elsewhere."""
    from agents.registry import available
    # available(game): the name's implementation for that game (mcs has one per game kind)
    return DEFAULT_OPPONENT if DEFAULT_OPPONENT in available(game) else FALLBACK_OPPONENT


# The terminal game of each game kind: (module, class).
TERMINAL_GAMES = {"cards": ("experiments.play", "TerminalGame"),
                  "board": ("experiments.play_board", "BoardTerminalGame")}


def terminal_game(game, opponents: list[str], seed: int, console: Console, ask: Ask, *,
                  hints: bool = False):
    """The terminal game of `game`'s kind (TERMINAL_GAMES); each keeps the game's record."""
    import importlib

    game = as_game(game)
    if game.info.game not in TERMINAL_GAMES:
        raise ConfigError(f"no terminal game for {game.info.game!r}; terminal games: {', '.join(TERMINAL_GAMES)}")
    module, name = TERMINAL_GAMES[game.info.game]
    return getattr(importlib.import_module(module), name)(game, opponents, seed, console, ask,
                                                          hints=hints)


def opponent_specs(opponents: str, players: int) -> list[str]:
    """One agent spec per other seat: the comma-separated list, cycled if too short."""
    specs = [s.strip() for s in opponents.split(",") if s.strip()]
    if not specs:
        raise ConfigError("--opponents needs at least one agent spec (see `sixnimmt agents`)")
    if len(specs) > players - 1:
        raise ConfigError(f"{len(specs)} opponents for {players - 1} other seats: "
                          f"give at most {players - 1} or raise --players")
    return list(islice(cycle(specs), players - 1))


class SeatZeroSession:
    """What the terminal games share: the person at seat 0, agents (`self.specs`,
    `self.agents`, `self.rng`) at the others, and one line of input at a time."""

    _eofs = 0  # Ctrl-D in a row
    first_agent_seat = 1  # the seat of specs[0]: 0 when agents fill every seat (watching, on the web page)

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


class TerminalGame(SeatZeroSession):
    """One game: the person at seat 0, agents at the others.

    Args:
        game: the card game (a Game, or its RuleConfig).
        opponents: one agent spec per other seat (see opponent_specs).
        seed: the game's seed (the deals); the agents' randomness is derived from it.
        console: where everything is printed.
        ask: reads one line after printing a prompt (Ctrl-D: EOFError, Ctrl-C:
            KeyboardInterrupt).
        hints: before each decision, show what `mcs` would do and its estimate per choice.
    """

    def __init__(self, game, opponents: list[str], seed: int, console: Console,
                 ask: Ask, hints: bool = False):
        self.game = as_game(game)
        config = self.game.rules
        if len(opponents) != config.players - 1:
            raise ConfigError(f"{len(opponents)} opponents for {config.players - 1} other seats")
        self.config, self.seed, self.console, self.ask = config, seed, console, ask
        self.variant = config.variant_data
        self.specs = opponents
        _, self.agents = build_agents(opponents)  # one object per distinct spec
        self.hint_agent = make_agent(HINT_AGENT, "cards") if hints else None
        # Separate streams: hints never change how the opponents play.
        self.rng = np.random.default_rng([seed, 0])
        self.hint_rng = np.random.default_rng([seed, 1])
        self.names = ["you"] + [f"seat {s} ({spec})" for s, spec in enumerate(opponents, start=1)]
        # Every card name of the variant -> its ids (two decks: twins share a name).
        self.by_name: dict[str, list[int]] = {}
        for card in range(1, self.variant.n_ids + 1):
            self.by_name.setdefault(self.variant.card_name(card).casefold(), []).append(card)
        self._eofs = 0

    # ------------------------------------------------------------------ the game loop

    def play(self) -> PlayResult:
        """Play until the game ends, the person quits, or Ctrl-C; return the record."""
        game = self.game
        st = game.new_games(game_seeds(self.seed, 1))
        recorder = game.recorder(st, seats=[HUMAN_NAME] + self.specs, seeds=[self.seed])
        saved = self._snapshot(recorder, st)
        announced = -1
        try:
            while not game.game_over(st)[0]:
                # The agents pick their cards first: play is simultaneous and they see only
                # their own SeatView. It also makes an agent that cannot play this table
                # (a PPO model for another seat count) fail before the first prompt.
                actions = self._agent_actions(st)
                if int(st.round[0]) != announced:
                    announced = int(st.round[0])
                    self._show_round_start(st, announced)
                self._show_table(st)
                actions[HUMAN, 0] = card_action(self._ask_card(st))
                self._show_reveal(st, actions[:, 0] + 1)  # card action a plays card id a + 1
                st = self._step(st, actions, recorder)
                while st.phase[0] == PHASE_ROW:
                    chooser = int(st.chooser[0])
                    actions = self._agent_actions(st)
                    if chooser == HUMAN:
                        actions[HUMAN, 0] = row_action(self.config, self._ask_row(st))
                    st = self._step(st, actions, recorder)
                saved = self._snapshot(recorder, st)
        except (KeyboardInterrupt, _Quit) as stop:
            interrupted = isinstance(stop, KeyboardInterrupt)
            self.console.print("\n[bold]Game stopped[/bold]" + (" (Ctrl-C)." if interrupted else "."))
            self._show_scores_of(saved["totals"], "Scores after the last completed turn")
            return PlayResult(saved, finished=False, interrupted=interrupted)
        self._show_end(st)
        return PlayResult(saved, finished=True)

    def _snapshot(self, recorder, st: State) -> dict:
        """A deep copy of the record at a turn boundary: what is saved if play stops."""
        return json.loads(json.dumps(recorder.records(st)[0]))

    # ------------------------------------------------------------------ reading input

    def _ask_card(self, st: State) -> int:
        """The card id the person plays, asked until it is one they hold."""
        view = self.game.view(st, [HUMAN], [0])
        legal = set((np.flatnonzero(view.action_mask()[0, :self.variant.n_ids]) + 1).tolist())
        if self.hint_agent is not None and len(legal) > 1:
            cards, means = self.hint_agent.card_estimates(view, 0, self.hint_rng)
            self._show_hint([self._name(c) for c in cards], means, "play")
        hand = " ".join(self._name(c) for c in self._sorted(legal))
        while True:
            text = self._read("Your card: ")
            if not text:
                self.console.print(f"Type one of your cards: {hand}")
                continue
            ids = self.by_name.get(text.casefold())
            if ids is None:
                self.console.print(f"'{text}' is not a card. Your cards: {hand}")
                continue
            held = [c for c in ids if c in legal]
            if not held:
                self.console.print(f"You do not hold {self._name(ids[0])}. Your cards: {hand}")
                continue
            return held[0]

    def _ask_row(self, st: State) -> int:
        """The row (0-based) the person picks, asked until the rules allow it."""
        view = self.game.view(st, [HUMAN], [0])
        n_ids = self.variant.n_ids
        legal = np.flatnonzero(view.action_mask()[0, n_ids:n_ids + N_ROWS]).tolist()
        shown = ", ".join(str(r + 1) for r in legal)
        self._show_rows(view)
        self.console.print(self._choice_reason(view, legal))
        if self.hint_agent is not None and len(legal) > 1:
            rows, means = self.hint_agent.row_estimates(view, 0, self.hint_rng)
            self._show_hint([f"row {r + 1}" for r in rows], means, "take")
        while True:
            text = self._read(f"Row ({shown}): ")
            if not text:
                self.console.print(f"Type a row number: {shown}")
                continue
            if not text.isdigit() or not 1 <= int(text) <= N_ROWS:
                self.console.print(f"There is no row '{text}'. Type a row number: {shown}")
                continue
            row = int(text) - 1
            if row not in legal:
                self.console.print(f"You may not choose row {row + 1} now. Type one of: {shown}")
                continue
            return row

    def _choice_reason(self, view: SeatView, legal: list[int]) -> str:
        """Why the rules ask the person for a row (too low, or another reason of the variant)."""
        return choice_reason(view, legal)

    # ------------------------------------------------------------------ showing the game

    def _name(self, card: int) -> str:
        return self.variant.card_name(int(card))

    def _sorted(self, cards) -> list[int]:
        """Cards in ladder order (ids break ties between twins)."""
        return sorted((int(c) for c in cards), key=lambda c: (int(self.variant.order[c]), c))

    def _card_text(self, card: int) -> Text:
        return Text(self._name(card), style=BULL_STYLES.get(int(self.variant.bullheads[card]), ""))

    def _show_round_start(self, st: State, rnd: int) -> None:
        if rnd == 0:
            c = self.config
            ends = [f"{c.max_rounds} round{'s' * (c.max_rounds != 1)}" if c.max_rounds else "",
                    f"the round in which someone reaches {c.end_score}" if c.end_score else ""]
            rows = ("you choose the row to take after a too-low card" if c.row_choice == "player"
                    else "after a too-low card the cheapest row is taken for you")
            deck = self.variant.deck(c.players, c.deck)
            if len(np.unique(self.variant.order[deck])) < len(deck):  # twins in this game
                rows += (" (and, behind two equally long rows ending in twins, where your card goes)"
                         if c.row_choice == "player" else " (and the cheaper of two twin rows)")
            self.console.print(f"[bold]6 nimmt! ({self.variant.name})[/bold] — you against "
                               + ", ".join(self.names[1:]))
            self.console.print(f"seed {self.seed}; the game ends after "
                               + ", or after ".join(e for e in ends if e) + f"; {rows}.")
            self.console.print("Type a card as shown in your hand; Ctrl-C or 'quit' ends the game.")
        dealer = self.names[int(st.dealer[0])]
        self.console.rule(f"Round {rnd + 1} (dealer: {dealer})")

    def _show_rows(self, view: SeatView) -> None:
        table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
        table.add_column("row", justify="right")
        table.add_column("cards")
        table.add_column(self.variant.penalty_unit, justify="right")
        table.add_column("")
        for r in range(N_ROWS):
            cards = Text(" ").join(self._card_text(c) for c in view.rows[0, r] if c)
            full = int(view.row_count[0, r]) == ROW_CAPACITY
            table.add_row(str(r + 1), cards, str(int(view.row_bulls[0, r])),
                          Text("FULL: the next card here takes it", style="bold red") if full else "")
        self.console.print(table)

    def _show_table(self, st: State) -> None:
        """Rows, the person's hand (sorted, with bullheads) and the scores."""
        view = self.game.view(st, [HUMAN], [0])
        self.console.print(f"\n[bold]Turn {int(view.turn[0]) + 1}[/bold]")
        self._show_rows(view)
        hand = self._sorted(view.hand[0][view.hand[0] > 0])
        table = Table(box=None, pad_edge=False, show_header=False)
        table.add_column(style="bold")
        for _ in hand:
            table.add_column(justify="right")
        table.add_row("your hand", *(self._card_text(c) for c in hand))
        table.add_row(self.variant.penalty_unit, *(str(int(self.variant.bullheads[c])) for c in hand))
        self.console.print(table)
        self._show_scores_of(view.scores[0].tolist(), "Scores", view.round_penalty[0].tolist())

    def _show_scores_of(self, totals, title: str, this_round=None) -> None:
        parts = []
        for seat, total in enumerate(totals):
            extra = f" (+{int(this_round[seat])} this round)" if this_round is not None and this_round[seat] else ""
            parts.append(f"{self.names[seat]} {int(total)}{extra}")
        self.console.print(f"{title}: " + " · ".join(parts))

    def _show_hint(self, choices: list[str], means: np.ndarray, verb: str) -> None:
        """What the hint agent would choose, and its estimate for every choice."""
        best = int(np.argmin(means))
        self.console.print(f"[dim]Hint ({HINT_AGENT}): {verb} {choices[best]}. Bullheads you would take "
                           "from now to the round's end, mean of simulations that deal the unseen "
                           "cards at random and then play at random:[/dim]")
        self.console.print("[dim]  " + "  ".join(f"{c}: {m:.1f}" for c, m in zip(choices, means)) + "[/dim]")

    def _show_reveal(self, st: State, cards: np.ndarray) -> None:
        parts = Text("Revealed: ")
        for seat, card in enumerate(cards):
            if seat:
                parts.append(" · ")
            parts.append(f"{self.names[seat]} ").append_text(self._card_text(card))
        self.console.print(parts)

    def _show_events(self, before: State, after: State, events) -> None:
        """Each placement of a step (who, which card, which row, what was taken)."""
        for p in placements(events):
            line = Text(f"  {self.names[p.seat]}: ").append_text(self._card_text(p.card)).append(f" -> row {p.row + 1}")
            if p.taken:
                line.append(", takes ", style="bold").append_text(
                    Text(" ").join(self._card_text(c) for c in p.taken))
                line.append(f" ({_bullheads(p.taken_points, self.variant.penalty_unit)})", style="bold")
            self.console.print(line)
        chooser = int(events.chooser[0])
        if chooser >= 0 and chooser != HUMAN:
            self.console.print(f"  {self.names[chooser]} must choose a row.")
        if events.round_over[0]:
            pens = events.round_penalty[:, 0]
            self.console.print("[bold]Round over:[/bold] " + " · ".join(
                f"{self.names[p]} +{int(x)}" for p, x in enumerate(pens)))

    def _show_end(self, st: State) -> None:
        totals = self.game.totals(st)[:, 0]
        winners = np.flatnonzero(self.game.winners(st)[:, 0]).tolist()
        self.console.rule("Game over")
        table = Table(show_header=True, header_style="bold")
        table.add_column("seat")
        table.add_column(self.variant.penalty_unit, justify="right")
        for seat in np.argsort(totals, kind="stable"):
            table.add_row(self.names[seat] + ("  (winner)" if seat in winners else ""), str(int(totals[seat])))
        self.console.print(table)
        if HUMAN in winners:
            self.console.print("[bold green]You win![/bold green]" if len(winners) == 1 else
                               "[bold green]You share the win.[/bold green]")
        else:
            self.console.print("Winner" + "s" * (len(winners) > 1) + ": "
                               + ", ".join(self.names[w] for w in winners))
