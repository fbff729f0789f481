"""`sixnimmt play`: one person against agents, in the terminal.

The person sits at seat 0 ("you"); the agents fill the other seats. Each turn shows the
person's table view (`Game.table_view`, drawn by experiments/play/table.py as the web page
draws it): the rows (bullheads, full rows marked), the hand sorted, everyone's score; then
it asks for a card, and when the rules ask for a row, for a row. After each step it shows
the step's log from the same view: who played what, where each card went, who took which
row. The game is kept as a `sixnimmt-record/1` record.

Input and output are injected — a rich `Console` and an `ask(prompt) -> str` that raises
EOFError on Ctrl-D and KeyboardInterrupt on Ctrl-C — so tests can drive a game without
a terminal. What the person sees comes from their seat's table view, as on the page.

Cards are shown by the variant's faces (as the page draws them) and read by its names or
faces (`Variant.card_name`, `card_face`: "AC" or "A♣"), so a variant with other names
needs no change here. Row choices are read against the legal rows of the view, never
assumed to be "all four after a too-low card". Rows are numbered 1..4 on screen; records
number them 0..3.

The board game has its own terminal game (experiments/play/board.py); both are
`TerminalSession`s (experiments/play/session.py: the agents at the other seats, the game loop,
reading a line, quit and Ctrl-D, hints), and `session.terminal_game` picks the one of a game.
"""

from __future__ import annotations

import numpy as np
from rich.console import Console

from experiments.play.session import HUMAN, Ask, TerminalSession
from experiments.play.table import TableRenderer
from sixnimmt_env.cards.actions import card_action, row_action
from sixnimmt_env.cards.rules import N_ROWS
from sixnimmt_env.cards.state import PHASE_ROW, State
from sixnimmt_env.core.game import as_game

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
        self.table = TableRenderer(console, self.names, self.variant.penalty_unit)
        # Every card name of the variant, and its face as drawn (suit symbols) -> its ids
        # (two decks: twins share a name).
        self.by_name: dict[str, list[int]] = {}
        for card in range(1, self.variant.n_ids + 1):
            for text in {self.variant.card_name(card).casefold(), self.variant.card_face(card).casefold()}:
                self.by_name.setdefault(text, []).append(card)

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
        t = self.game.table_view(st, HUMAN)
        self.console.print(self.table.rows(t))
        self.table.show_pending(t)
        self.console.print(t["prompt"])  # why the rules ask for a row
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

    # ------------------------------------------------------------------ showing the game

    def _name(self, card: int) -> str:
        return self.variant.card_name(int(card))

    def _sorted(self, cards) -> list[int]:
        """Cards in ladder order (ids break ties between twins)."""
        return sorted((int(c) for c in cards), key=lambda c: (int(self.variant.order[c]), c))

    def _show_round_start(self, st: State, rnd: int) -> None:
        if rnd == 0:
            c = self.config
            self.table.show_start(self.game.table_view(st, HUMAN))
            deck = self.variant.deck(c.players, c.deck)
            if len(np.unique(self.variant.order[deck])) < len(deck):  # twins in this game
                self.console.print("[dim]Behind two equally long rows ending in twins, "
                                   + ("you choose where your card goes." if c.row_choice == "player"
                                      else "the card goes to the cheaper row.") + "[/dim]")
            self.console.print(f"seed {self.seed}. Type a card as shown in your hand (? explains); "
                               "Ctrl-C or 'quit' ends the game.")
        self.console.rule(f"Round {rnd + 1}")

    def _show_table(self, st: State) -> None:
        """The person's table view: rows, hand (sorted, with bullheads), scores, what is new."""
        self.table.show_turn(self.game.table_view(st, HUMAN), self.score_word)

    def _show_events(self, before: State, after: State, events) -> None:
        """The step's log from the table view: the reveal, each placement, a row to choose,
        a round's end."""
        self.table.show_log(self.game.table_view(after, HUMAN, before=before, events=events)["events"])
