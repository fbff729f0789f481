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

The board game has its own terminal game (experiments/play/board.py); both are
`TerminalSession`s (experiments/play/session.py: the agents at the other seats, the game loop,
reading a line, quit and Ctrl-D, hints), and `session.terminal_game` picks the one of a game.
"""

from __future__ import annotations

import numpy as np
from rich.console import Console
from rich.table import Table
from rich.text import Text

from experiments.play.session import HUMAN, Ask, TerminalSession
from sixnimmt_env.cards.actions import card_action, row_action
from sixnimmt_env.cards.render import placements
from sixnimmt_env.cards.rules import N_ROWS, ROW_CAPACITY
from sixnimmt_env.cards.seat_view import SeatView
from sixnimmt_env.cards.state import PHASE_ROW, State
from sixnimmt_env.cards.table_view import choice_reason
from sixnimmt_env.core.game import as_game

# Card colours by bullheads (1 plain); the numbers are also printed, colour only helps.
BULL_STYLES = {2: "yellow", 3: "dark_orange", 5: "red", 7: "bold magenta"}


def _bullheads(n: int, unit: str = "bullheads") -> str:
    """Points taken in the variant's words: "1 bullhead", "3 points"."""
    return f"{n} {unit[:-1] if n == 1 else unit}"


CARD_HELP = ("Play one card of your hand: type it as printed. The cards are revealed together and placed "
             "lowest first, each behind the row whose last card is the highest one below it; a sixth card "
             "takes the row's five (their bullheads are your penalty) and starts it anew.")
ROW_HELP = ("Type the number of the row to take: its cards' bullheads are your penalty and your card starts "
            "the row (a row with few bullheads is usually the one to take).")


class TerminalGame(TerminalSession):
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
        self._setup(opponents, seed, console, ask, hints)
        self.variant = self.config.variant_data
        # Every card name of the variant -> its ids (two decks: twins share a name).
        self.by_name: dict[str, list[int]] = {}
        for card in range(1, self.variant.n_ids + 1):
            self.by_name.setdefault(self.variant.card_name(card).casefold(), []).append(card)

    # ------------------------------------------------------------------ the game loop

    def _turns(self, st: State, recorder):
        """Play turn after turn (the card, then any row choices), yielding after each."""
        announced = -1
        while not self.game.game_over(st)[0]:
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
            yield st

    @staticmethod
    def _completed_turns(record: dict, st: State) -> int:
        return sum(len(r["turns"]) for r in record["rounds"])

    @property
    def score_column(self) -> str:
        return self.variant.penalty_unit

    # ------------------------------------------------------------------ reading input

    def _ask_card(self, st: State) -> int:
        """The card id the person plays, asked until it is one they hold."""
        view = self.game.view(st, [HUMAN], [0])
        legal = set((np.flatnonzero(view.action_mask()[0, :self.variant.n_ids]) + 1).tolist())
        self._show_hint(view, lambda action: self._name(action + 1), "play")  # card action a: card id a + 1
        hand = " ".join(self._name(c) for c in self._sorted(legal))

        def card(text: str):
            if not text:
                return None, f"Type one of your cards: {hand}"
            ids = self.by_name.get(text.casefold())
            if ids is None:
                return None, f"'{text}' is not a card. Your cards: {hand}"
            held = [c for c in ids if c in legal]
            if not held:
                return None, f"You do not hold {self._name(ids[0])}. Your cards: {hand}"
            return held[0], None
        return self._ask_until("Your card: ", CARD_HELP + f" Your cards: {hand}.", card)

    def _ask_row(self, st: State) -> int:
        """The row (0-based) the person picks, asked until the rules allow it."""
        view = self.game.view(st, [HUMAN], [0])
        n_ids = self.variant.n_ids
        legal = np.flatnonzero(view.action_mask()[0, n_ids:n_ids + N_ROWS]).tolist()
        shown = ", ".join(str(r + 1) for r in legal)
        self._show_rows(view)
        self.console.print(self._choice_reason(view, legal))
        self._show_hint(view, lambda action: f"row {action - n_ids + 1}", "take")  # row action: n_ids + row

        def row(text: str):
            if not text:
                return None, f"Type a row number: {shown}"
            if not text.isdigit() or not 1 <= int(text) <= N_ROWS:
                return None, f"There is no row '{text}'. Type a row number: {shown}"
            if int(text) - 1 not in legal:
                return None, f"You may not choose row {int(text)} now. Type one of: {shown}"
            return int(text) - 1, None
        return self._ask_until(f"Row ({shown}): ", ROW_HELP + f" You may choose: {shown}.", row)

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
            self.console.print("Type a card as shown in your hand (? explains); Ctrl-C or 'quit' ends the game.")
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
        self._show_scores(view.scores[0].tolist(), "Scores", view.round_penalty[0].tolist())

    def _show_scores(self, totals, title: str, this_round=None) -> None:
        parts = []
        for seat, total in enumerate(totals):
            extra = f" (+{int(this_round[seat])} this round)" if this_round is not None and this_round[seat] else ""
            parts.append(f"{self.names[seat]} {int(total)}{extra}")
        self.console.print(f"{title}: " + " · ".join(parts))

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
