"""`sixnimmt play --game board`: one person against agents at the 2019 board game.

The person sits at seat 0 ("you"); the agents fill the other seats. Each turn shows the
board — every row's fields by kind (green, red, fixed value, play two, take), the tiles
on it, the field the next tile of each active row lands on — the person's tiles sorted,
everyone's points and luck cards, then asks for a tile (two, one after the other, while
a play-two field is open). While the tiles are placed the rules may ask the person a
question: use a "+5" card on this tile? use a "2x" card on this take? which luck card
for the clover passed? play an action card (pro; the question says where the tile lands
without one)? which free row? Each is asked with what every answer does, and `?` (or
`help`) at any prompt explains it. After each step it tells the whole turn as everyone at
the table saw it: the tiles revealed, each action card played (and the tile it put out),
the free row chosen, each tile's field and points; stop signs show on the board. Every
sentence about a placement or a question comes from sixnimmt_env/board/words.py.

The design is the card game's (experiments/play/cards.py), over the same
`TerminalSession` (experiments/play/session.py): output goes to an injected rich
`Console` and input comes from an injected `ask(prompt) -> str` (EOFError on Ctrl-D,
KeyboardInterrupt on Ctrl-C), so tests drive a game without a terminal; what the person
sees comes from their seat view and the step's public events. Ctrl-C or typing quit stops
the game, keeping the record of the completed turns. With hints, each decision first
shows what the hint agent (mcs) would choose and its mean points per choice. Rows and
fields are numbered from 1 on screen (0-based in records).

The game is kept as a board-game record (docs/spec/board-record.md).
"""

from __future__ import annotations

import numpy as np
from rich.console import Console
from rich.table import Table
from rich.text import Text

from experiments.play.session import HUMAN, Ask, TerminalSession
from sixnimmt_env.board.actions import ANSWER_NO, ANSWER_YES, LUCK_ACTION, N_TILE_ACTIONS, describe_action, tile_action
from sixnimmt_env.board.layout import (
    DRAW_ACTION,
    DRAW_TILE,
    FIXED,
    GREEN,
    KIND_EFFECTS,
    PLAIN,
    PLAY_TWO,
    RED,
    TAKE,
    TAKE_TO_HAND,
)
from sixnimmt_env.board.rules import DOUBLE, N_TILES, PLUS5
from sixnimmt_env.board.state import (
    ASK_ACTION,
    ASK_FREE_ROW,
    ASK_LUCK_CARD,
    ASK_PLUS5,
    PHASE_ASK,
    PHASE_PICK,
    PHASE_PICK_SECOND,
    BoardState,
)
from sixnimmt_env.board.table_view import answer_label, question_text
from sixnimmt_env.board.words import (
    ACTION_HELP,
    ACTION_NAMES,
    FIELD_CODES,
    LUCK_HELP,
    LUCK_SHOWN,
    PRO_FIELD_KINDS,
    QUESTIONS,
    TILE_HELP,
    answer_help,
    answer_text,
    field_words,
    placement_parts,
    placements,
)
from sixnimmt_env.core.game import as_game

# Field kinds on screen: the code (the layout file's) and its colour. Colour only helps:
# the codes are printed too, and a legend says what they do.
FIELD_STYLES = {PLAIN: "dim", GREEN: "bold green", RED: "bold red", PLAY_TWO: "bold cyan",
                TAKE: "bold black on yellow", TAKE_TO_HAND: "bold black on yellow", DRAW_TILE: "bold magenta",
                DRAW_ACTION: "bold magenta"}
FIXED_STYLES = ("bold red", "bold green")  # minus, plus
TILE_STYLES = {2: "yellow", 3: "dark_orange", 4: "red", 5: "bold magenta"}  # by bullheads (1 plain)
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
        self.layout = self.config.board

    # ------------------------------------------------------------------ the game loop

    def _turns(self, st: BoardState, recorder):
        """Play step after step (tiles, then any questions), yielding after each turn."""
        game = self.game
        put_out: list[tuple[int, int]] = []  # this turn's tiles (seat, tile), shown when revealed
        shown_turn = -1
        self._show_start()
        while not game.game_over(st)[0]:
            # The agents decide first (play is simultaneous; each sees its own view), so an
            # agent that cannot play this table fails before the first prompt.
            actions = self._agent_actions(st)
            phase = int(st.phase[0])
            if phase in (PHASE_PICK, PHASE_PICK_SECOND):
                if int(st.turn[0]) != shown_turn:
                    shown_turn = int(st.turn[0])
                    self._show_table(st)
                if self.game.view(st, [HUMAN], [0]).must_act[0]:  # pro: one tile left passes the second pick
                    actions[HUMAN, 0] = tile_action(self._ask_tile(st))
                # a seat with no tile to put out passes (PASS_ACTION): only tile actions are tiles
                put_out += [(seat, int(a) + 1) for seat, a in enumerate(actions[:, 0]) if 0 <= a < N_TILE_ACTIONS]
                if phase == PHASE_PICK_SECOND or int(st.picks[0]) == 1:
                    self._show_reveal(put_out)
                    put_out = []
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
        """The person's answer (an encoded action) to the question the placing stopped at."""
        view = self.game.view(st, [HUMAN], [0])
        ask = int(view.ask[0])
        self._show_board(view)
        self.console.print(self._question_text(view, ask))
        self._show_hint(view, describe_action, "answer")
        help_text = QUESTIONS[ask].help
        if ask in (ASK_ACTION, ASK_FREE_ROW):  # pro: a numbered list of the legal answers, each with what it does
            options = [int(a) for a in np.flatnonzero(view.action_mask()[0])]
            explained = set()  # each card's effect once, beside its first answer
            for i, a in enumerate(options, 1):
                label, effect = answer_label(view, a), answer_help(a)
                name = label.split(":")[0].split(" ")[0]
                effect = effect.removeprefix(name + ": ") if effect.startswith(tuple(ACTION_NAMES)) else effect
                if ask != ASK_ACTION or name in explained:
                    effect = ""
                explained.add(name)
                self.console.print(f"  {i}: {label}" + (f" [dim]— {effect}[/dim]" if effect else ""))

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

    def _question_text(self, view, ask: int) -> str:
        """What the question is about and what each answer gives (the web page's words too)."""
        return question_text(view)

    # ------------------------------------------------------------------ showing the game

    def _luck_help(self) -> str:
        return LUCK_HELP

    def _tile_text(self, tile: int) -> Text:
        return Text(str(tile), style=TILE_STYLES.get(int(self.layout.tile_bulls[tile]), ""))

    def _field_text(self, r: int, f: int) -> Text:
        kind, code = int(self.layout.kind[r, f]), self.layout.rows[r][f]
        if kind == FIXED:
            return Text(code, style=FIXED_STYLES[int(self.layout.value[r, f]) > 0])
        return Text(code, style=FIELD_STYLES.get(kind, ""))

    def _show_start(self) -> None:
        c, layout = self.config, self.layout
        variant = "with luck cards" if c.luck else f"{c.variant} game"
        self.console.print(f"[bold]6 nimmt! Das Brettspiel ({variant})[/bold] — you against "
                           + ", ".join(self.names[1:]))
        board = f"board {layout.name}" + (" (an APPROXIMATION of the printed board)" if layout.approximation else "")
        refill = "; hands are refilled once" if c.refill else ""
        end = ("as soon as a hand is empty at the end of a turn" if c.pro else "when every tile is placed")
        self.console.print(f"seed {self.seed}; {board}; the most points win; the game ends {end}{refill}.")
        self.console.print("Each turn everyone puts out a tile (two while an active row has an open play-two "
                           "field); tiles go lowest first behind the highest row end below them. "
                           "Type a tile as shown in your hand; Ctrl-C or 'quit' ends the game.")
        legend = Text("Fields: ")
        codes = [(code, kind) for code, kind in FIELD_CODES if c.pro or kind not in PRO_FIELD_KINDS]
        for i, (code, kind) in enumerate(codes):
            style = FIXED_STYLES[1] if kind == FIXED else FIELD_STYLES[kind]
            legend.append(code, style=style).append(f" {KIND_EFFECTS[kind]}" + (" · " if i < len(codes) - 1 else ""))
        self.console.print(legend)
        if c.pro:
            self.console.print("Action cards: " + " · ".join(f"{name}: {ACTION_HELP[k]}" for k, name in enumerate(ACTION_NAMES)))
        self.console.print("At any prompt, ? (or help) explains the question and what each answer does.")
        if c.luck:
            self.console.print(self._luck_help())

    def _show_board(self, view) -> None:
        """Every row: its fields by kind, the tiles on them, and where the next tile lands."""
        layout = self.layout
        n_fields = int(layout.row_len.max())
        table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
        table.add_column("row", justify="right")
        for f in range(n_fields):
            table.add_column(str(f + 1), justify="right")
        table.add_column("next field")
        for r in range(len(layout.rows)):
            length = int(view.length[0, r])
            cells = []
            for f in range(n_fields):
                if f >= int(layout.row_len[r]):
                    cells.append(Text(""))
                elif f < length and view.tiles[0, r, f]:
                    cells.append(self._tile_text(int(view.tiles[0, r, f])))
                else:  # no tile reached it, or Skip left it empty
                    cells.append(self._field_text(r, f))
            if self.config.pro and view.stops[0, r]:
                nxt = Text("STOP: no tile may join this row this turn", style="bold red")
            elif length:
                kind, value = int(layout.kind[r, length]), int(layout.value[r, length])
                nxt = Text(f"{self._short_kind(kind, value)}", style="bold" if kind == TAKE else "")
            else:
                nxt = Text("(not active)", style="dim")
            table.add_row(Text(str(r + 1), style="" if length else "dim"), *cells, nxt)
        self.console.print(table)

    @staticmethod
    def _short_kind(kind: int, value: int) -> str:
        return "TAKE: the next tile takes the row" if kind == TAKE else field_words(kind, value)

    def _show_table(self, st: BoardState) -> None:
        """The board, the person's tiles (sorted, with bullheads), points and luck cards."""
        view = self.game.view(st, [HUMAN], [0])
        two = ", two tiles each (play two)" if int(view.picks[0]) == 2 else ""
        self.console.print(f"\n[bold]Turn {int(view.turn[0]) + 1}{two}[/bold]")
        self._show_board(view)
        hand = sorted(int(t) for t in view.hand[0] if t)
        table = Table(box=None, pad_edge=False, show_header=False)
        table.add_column(style="bold")
        for _ in hand:
            table.add_column(justify="right")
        table.add_row("your tiles", *(self._tile_text(t) for t in hand))
        table.add_row("bullheads", *(str(int(self.layout.tile_bulls[t])) for t in hand))
        self.console.print(table)
        self._show_scores(view.scores[0].tolist(), "Points", view.luck[0] if self.config.luck else None)
        if self.config.luck:
            stack = view.stack[0]
            self.console.print(f"Luck cards left: +5 {int(stack[PLUS5])} · 2x {int(stack[DOUBLE])}")
        if self.config.pro:
            self._show_action_cards(view)

    def _show_scores(self, totals, title: str, luck=None) -> None:
        parts = []
        for seat, total in enumerate(totals):
            held = ""
            if luck is not None and luck[seat].any():
                held = " [" + ", ".join(f"{int(luck[seat, k])}x {LUCK_SHOWN[k]}" for k in range(2) if luck[seat, k]) + "]"
            parts.append(f"{self.names[seat]} {int(total)}{held}")
        self.console.print(f"{title}: " + " · ".join(parts))

    def _show_reveal(self, put_out: list[tuple[int, int]]) -> None:
        line = Text("Revealed: ")
        by_seat: dict[int, list[int]] = {}
        for seat, tile in put_out:
            by_seat.setdefault(seat, []).append(tile)
        for i, seat in enumerate(sorted(by_seat)):
            if i:
                line.append(" · ")
            line.append(f"{self.names[seat]} ").append_text(
                Text(" ").join(self._tile_text(t) for t in sorted(by_seat[seat])))
        self.console.print(line)

    def _show_action_cards(self, view) -> None:
        """Pro: your action cards by kind, the others' by count, the deck, discards, stop signs."""
        mine = ", ".join(f"{int(n)}x {ACTION_NAMES[k]}" for k, n in enumerate(view.action_cards[0]) if n) or "none"
        others = " · ".join(f"{self.names[p]} {int(view.action_counts[0, p])}" for p in range(1, len(self.names)))
        self.console.print(f"Action cards: yours {mine} · {others} · deck {int(view.deck_size[0])}, discarded "
                           f"{int(view.discard[0].sum())} · stop signs left {int(view.stops_left[0])}")

    def _show_events(self, before: BoardState, after: BoardState, events) -> None:
        """What a step did, in the order it happened: the answer it began with when the table
        sees it (an action card played, a free row chosen, a luck card taken), each tile placed
        (words.placements: field, take, move, luck cards, points), the rest of a tile's placing
        after a question, the next question, a stop sign put out."""
        game = 0
        answer = answer_text(before, self._step_actions, game)
        if answer is not None:
            line = Text(f"  {self.names[answer['seat']]} ").append(self._second(answer["seat"], answer["text"]),
                                                                 style="bold")
            self.console.print(line)
        for p in placements(events, game, before):
            line = Text(f"  {self.names[p.seat]}: ").append_text(self._tile_text(p.tile))
            where, points, luck = placement_parts(p)
            if p.continued:
                line.append(" goes on")
            else:
                style = FIXED_STYLES[p.value > 0] if p.kind == FIXED else FIELD_STYLES.get(p.kind, "")
                line.append(" -> ").append(where[0], style=style)
                where = where[1:]
            if where:
                line.append((", " if not p.continued else ": ") + ", ".join(where), style="bold" if p.taken else "")
            line.append(f": {points}", style="bold")
            if luck:
                line.append(", " + ", ".join(luck))
            self.console.print(line)
        if int(after.phase[game]) == PHASE_ASK and int(after.asker[game]) != HUMAN:
            self.console.print(f"  {self.names[int(after.asker[game])]} is asked: {QUESTIONS[int(after.ask[game])].short}")

    @staticmethod
    def _second(seat: int, text: str) -> str:
        """The table's words for a seat, in the second person for the person ("you play Stop")."""
        if seat != HUMAN:
            return text
        for verb in ("plays", "takes", "chooses"):
            if text.startswith(verb + " "):
                return verb[:-1] + text[len(verb):]
        return text

    def _step(self, st, actions, recorder):
        self._step_actions = actions  # the answer the step begins with, for _show_events
        return super()._step(st, actions, recorder)
