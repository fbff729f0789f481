"""`sixnimmt play --game board`: one person against agents at the 2019 board game.

The person sits at seat 0 ("you"); the agents fill the other seats. Each turn shows the
person's table view (`Game.table_view`, drawn by experiments/play/table.py as the web page
draws it): every row's fields by kind (green, red, fixed value, play two, take), the tiles
on it, the field the next tile of each active row lands on (underlined), the person's
tiles sorted, everyone's points, luck and action cards; then it asks for a tile (two, one after the other, while
a play-two field is open). While the tiles are placed the rules may ask the person a
question: use a "+5" card on this tile? use a "2x" card on this take? which luck card
for the clover passed? play an action card (pro; the question says where the tile lands
without one)? which free row? Each is asked with what every answer does, and `?` (or
`help`) at any prompt explains it. After each step it tells the whole turn as everyone at
the table saw it: the tiles revealed, each action card played (and the tile it put out),
the free row chosen, each tile's field and points (the view's log); stop signs show on
the board. Every sentence about a placement or a question comes from the table view.

The design is the card game's (experiments/play/cards.py), over the same
`TerminalSession` (experiments/play/session.py): output goes to an injected rich
`Console` and input comes from an injected `ask(prompt) -> str` (EOFError on Ctrl-D,
KeyboardInterrupt on Ctrl-C), so tests drive a game without a terminal; what the person
sees comes from their seat's table view, as on the page. Ctrl-C or typing quit stops
the game, keeping the record of the completed turns. With hints, each decision first
shows what the hint agent (mcs) would choose and its mean points per choice. Rows and
fields are numbered from 1 on screen (0-based in records).

The game is kept as a board-game record (docs/spec/board-record.md).
"""

from __future__ import annotations

from rich.console import Console

from experiments.play.session import HUMAN, Ask, TerminalSession
from experiments.play.table import TableRenderer
from sixnimmt_env.board.actions import ANSWER_NO, ANSWER_YES, LUCK_ACTION, describe_action, tile_action
from sixnimmt_env.board.rules import DOUBLE, N_TILES, PLUS5
from sixnimmt_env.board.state import (
    ASK_ACTION,
    ASK_FREE_ROW,
    ASK_LUCK_CARD,
    ASK_PLUS5,
    PHASE_PICK,
    PHASE_PICK_SECOND,
    BoardState,
)
from sixnimmt_env.board.words import LUCK_HELP, LUCK_SHOWN, QUESTIONS, TILE_HELP
from sixnimmt_env.core.game import as_game

YES, NO = ("y", "yes", "j", "ja"), ("n", "no", "nein")
LUCK_WORDS = {PLUS5: ("+5", "5", "plus5", "plus"), DOUBLE: ("2x", "2", "x2", "double", "2×")}


class BoardTerminalGame(TerminalSession):
    """One board game: the person at seat 0, agents at the others.

    Args:
        game: the board game (a Game, or its BoardConfig).
        opponents: one agent spec per other seat (experiments.play.session.opponent_specs); each
            must play the board game (`sixnimmt agents`).
        seed: the game's seed (the tiles); the agents' randomness is derived from it.
        console: where everything is printed.
        ask: reads one line after printing a prompt (Ctrl-D: EOFError, Ctrl-C:
            KeyboardInterrupt).
        hints: before each decision, show what the board's `mcs` would do and its mean
            points per choice (its `estimates`, as on the web page).
    """

    score_word = "Points"
    score_column = "points"

    def __init__(self, game, opponents: list[str], seed: int, console: Console, ask: Ask,
                 hints: bool = False):
        self.game = as_game(game)
        self._setup(opponents, seed, console, ask, hints)
        self.table = TableRenderer(console, self.names)

    # ------------------------------------------------------------------ the game loop

    def _turns(self, st: BoardState, recorder):
        """Play step after step (tiles, then any questions), yielding after each turn."""
        game = self.game
        shown_turn = -1
        self._show_start(st)
        while not game.game_over(st)[0]:
            # The agents decide first (play is simultaneous; each sees its own view), so an
            # agent that cannot play this table fails before the first prompt.
            actions = self._agent_actions(st)
            if int(st.phase[0]) in (PHASE_PICK, PHASE_PICK_SECOND):
                if int(st.turn[0]) != shown_turn:
                    shown_turn = int(st.turn[0])
                    self.table.show_turn(game.table_view(st, HUMAN), self.score_word)
                if game.view(st, [HUMAN], [0]).must_act[0]:  # pro: one tile left passes the second pick
                    actions[HUMAN, 0] = tile_action(self._ask_tile(st))
            elif int(st.asker[0]) == HUMAN:  # a question during the placing
                actions[HUMAN, 0] = self._ask_question(st)
            turn = int(st.turn[0])
            st = self._step(st, actions, recorder)
            if int(st.turn[0]) != turn or game.game_over(st)[0]:
                yield st

    @staticmethod
    def _completed_turns(record: dict, st: BoardState) -> int:
        return int(st.turn[0])

    # ------------------------------------------------------------------ reading input

    def _ask_tile(self, st: BoardState) -> int:
        """The tile the person puts out, asked until it is one they hold."""
        view = self.game.view(st, [HUMAN], [0])
        held = sorted(int(t) for t in view.hand[0] if t)
        shown = " ".join(str(t) for t in held)
        if int(view.picks[0]) == 2:
            prompt = "Your second tile: " if int(view.phase[0]) == PHASE_PICK_SECOND else "Your first tile: "
        else:
            prompt = "Your tile: "
        self._show_hint(view, lambda action: str(action + 1), "play")  # tile action a: tile a + 1

        def tile(text: str):
            if not text:
                return None, f"Type one of your tiles: {shown}"
            if not text.isdigit() or not 1 <= int(text) <= N_TILES:
                return None, f"'{text}' is not a tile. Your tiles: {shown}"
            if int(text) not in held:
                return None, f"You do not hold {int(text)}. Your tiles: {shown}"
            return int(text), None
        return self._ask_until(prompt, TILE_HELP + f" Your tiles: {shown}. Ctrl-C or 'quit' ends the game.", tile)

    def _ask_question(self, st: BoardState) -> int:
        """The person's answer (an encoded action) to the question the placing stopped at:
        the table view's prompt and answers, picked by number (action cards, free rows) or
        by word (luck cards, yes or no)."""
        view = self.game.view(st, [HUMAN], [0])
        ask = int(view.ask[0])
        t = self.game.table_view(st, HUMAN)
        self.console.print(self.table.rows(t))
        numbered = ask in (ASK_ACTION, ASK_FREE_ROW)
        options = self.table.show_question(t, numbered)
        self._show_hint(view, describe_action, "answer")
        help_text = QUESTIONS[ask].help
        if numbered:
            def choice(text: str):
                if text.isdigit() and 1 <= int(text) <= len(options):
                    return options[int(text) - 1], None
                return None, f"'{text}' is not one of 1-{len(options)}. (? explains the question.)"
            return self._ask_until(f"Your choice (1-{len(options)}): ", help_text, choice)
        if ask == ASK_LUCK_CARD:
            def luck_card(text: str):
                kind = next((k for k, words in LUCK_WORDS.items() if text.casefold() in words), None)
                if kind is None:
                    return None, f"'{text.casefold()}' is not a luck card. Type +5 or 2x. (? explains the question.)"
                return LUCK_ACTION[kind], None
            return self._ask_until("Luck card (+5 or 2x): ", help_text, luck_card)
        name = LUCK_SHOWN[PLUS5 if ask == ASK_PLUS5 else DOUBLE]

        def yes_no(text: str):
            if text.casefold() in YES:
                return ANSWER_YES, None
            if text.casefold() in NO:
                return ANSWER_NO, None
            return None, f"Answer y (use a {name} card now) or n. (? explains the question.)"
        return self._ask_until(f"Use {name}? (y/n): ", help_text, yes_no)

    # ------------------------------------------------------------------ showing the game

    def _show_start(self, st: BoardState) -> None:
        """The title, the rules in force and the legend (the table view's), then how to play here."""
        self.table.show_start(self.game.table_view(st, HUMAN))
        self.console.print(f"seed {self.seed}. Each turn everyone puts out a tile (two while an active row has an "
                           "open play-two field); tiles go lowest first behind the highest row end below them. "
                           "Type a tile as shown in your hand; Ctrl-C or 'quit' ends the game.")
        self.console.print("At any prompt, ? (or help) explains the question and what each answer does.")
        if self.game.rules.luck and LUCK_HELP not in self.table.info_shown:
            self.console.print(LUCK_HELP)

    def _show_events(self, before: BoardState, after: BoardState, events) -> None:
        """What a step did, in the order it happened (the table view's log): the tiles
        revealed, the answer it began with when the table sees it (an action card played, a
        free row chosen, a luck card taken), each tile placed, the next question."""
        t = self.game.table_view(after, HUMAN, before=before, events=events, actions=self._step_actions)
        self.table.show_log(t["events"])
