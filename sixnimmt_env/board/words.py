"""The board game in words: one home for how a placed tile, a question and an answer read.

Every text view of a board step reads from here: `_render.step_lines` (the demo, logs),
the terminal game (experiments/play/board.py) and the table view the web page and bots
get (`_table_view.py`). So a placed tile is put into words in one place (`placements`,
`placement_text`), each question has one table row (`QUESTIONS`: the short question, the
log's third person, the help that says what every answer does), and an answer everyone
sees (an action card played, a free row chosen, a luck card taken) in `answer_text`.
Rows, fields, turns and seats count from 1 in every sentence here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .actioncards import decode_play
from .actions import FREE_ROW_ACTION, LUCK_ACTION, NO_CARD_ACTION, describe_action
from .layout import (
    DRAW_ACTION,
    DRAW_TILE,
    FIXED,
    GREEN,
    KIND_EFFECTS,
    KIND_NAMES,
    PLAIN,
    PLAY_TWO,
    RED,
    TAKE,
    TAKE_TO_HAND,
)
from .placement import preview
from .rules import PLUS5_POINTS
from .state import ASK_ACTION, ASK_DOUBLE, ASK_FREE_ROW, ASK_LUCK_CARD, ASK_PLUS5, NO_CARD, PHASE_ASK

LUCK_SHOWN = ("+5", "2x")  # by luck kind (rules.PLUS5, rules.DOUBLE), as typed
LUCK_HELP = ("A +5 card makes a tile score +5 instead of its field; a 2x card makes a take count "
             "its two best tiles plus. Cards gained are usable from the next turn.")
# The pro side's action cards, in rules.ACTION_KINDS order: the name printed, what it does.
ACTION_NAMES = ("Stop", "Swap", "Skip", "Front", "Ascending", "One more")
ACTION_HELP = (
    "put a stop sign on an active row: no tile may join that row this turn (two signs in the game)",
    "take your tile back into your hand and put out another tile from your hand at once",
    ("your tile skips a field: it lands on the field after the next free one, which stays empty "
     "(needs two free fields before the take field)"),
    ("for a tile lower than a row's first tile: that row moves one field right and your tile goes "
     "on field 1 (its field acts on it)"),
    "put your tile at the end of any active row it is higher than, whatever the gaps",
    "put out one more tile from your hand at once; both are placed now, lowest first",
)
ACTION_WHEN = ("Action cards are offered before each of your tiles is placed, while you hold one: play them "
               "one at a time (Skip, Front and Ascending place the tile, so they come last), or none. "
               "Each card still held scores +1 at the end; a drawn card is usable at once.")
# Every field code a layout may use, with its kind: the legends of every front end.
FIELD_CODES = ((".", PLAIN), ("+", GREEN), ("-", RED), ("+N/-N", FIXED), ("2", PLAY_TWO), ("T", TAKE),
               ("D", DRAW_TILE), ("A", DRAW_ACTION), ("H", TAKE_TO_HAND))
PRO_FIELD_KINDS = (DRAW_TILE, DRAW_ACTION, TAKE_TO_HAND)
TILE_HELP = ("Put out one tile of your hand: type its number. The tiles are revealed together and placed "
             "lowest first, each behind the row whose last tile is the highest one below it (a tile lower "
             "than every row goes behind the highest); the field it lands on acts on it (see the legend). "
             "A take field takes the row: minus the bullheads of its tiles.")


@dataclass(frozen=True)
class Question:
    """One kind of question the placing stops at, in words.

    Attributes:
        short: the question itself ("play an action card?").
        asked: what the log says of the seat asked ("is offered their action cards").
        help: what the question is about and what each answer does (`help` at a prompt).
    """

    short: str
    asked: str
    help: str


QUESTIONS = {
    ASK_LUCK_CARD: Question("which luck card?", "chooses a luck card",
                            "Your points went down past a clover: take a luck card from an open stack. " + LUCK_HELP),
    ASK_PLUS5: Question("use a +5 card?", "is asked whether to use a +5 card",
                        f"y: the tile scores {PLUS5_POINTS:+d} instead of what its field gives, and the +5 card is "
                        "spent; n: the field acts as usual and you keep the card."),
    ASK_DOUBLE: Question("use a 2x card?", "is asked whether to use a 2x card",
                         "y: the take counts the two tiles with the most bullheads plus (the others still minus), "
                         "and the 2x card is spent; n: every taken tile counts minus and you keep the card."),
    ASK_ACTION: Question("play an action card?", "is offered their action cards",
                         "Play an action card on the tile about to be placed, or none (the tile is then placed as "
                         "the rules say). " + " ".join(f"{name}: {ACTION_HELP[k]}." for k, name in
                                                        enumerate(ACTION_NAMES)) + " " + ACTION_WHEN),
    ASK_FREE_ROW: Question("which free row?", "chooses a free row for the tile",
                           "The tile took a row: it now starts a row that holds no tile, on field 1, and that "
                           "field acts on it (green: plus its bullheads, red: minus, a number: that many points)."),
}


def field_words(kind: int, value: int = 0) -> str:
    """A field's kind as printed beside a placement: "green", "fixed +2", "take"."""
    return f"fixed {value:+d}" if kind == FIXED else KIND_NAMES[kind]


def kind_words(kind: int, value: int = 0) -> str:
    """A field's kind with what it does: "green: plus the tile's bullheads"."""
    return f"fixed {value:+d}" if kind == FIXED else f"{KIND_NAMES[kind]}: {KIND_EFFECTS[kind]}"


def effect_points(kind: int, value: int, bulls: int) -> int:
    """The points a field's effect gives a tile with `bulls` bullheads landing on it."""
    return {GREEN: bulls, RED: -bulls, FIXED: value}.get(kind, 0)


def gained_words(n: int) -> str:
    """Luck cards gained, in words."""
    return f"gains {n} luck card" + ("s" if n > 1 else "")


def points_words(points: int) -> str:
    return f"{points:+d} point" + "s" * (abs(points) != 1)


@dataclass(frozen=True)
class Placement:
    """One tile placed in a step (or the rest of its placing after a question).

    Rows and fields are 0-based here (as in the events); the words count from 1.
    `continued`: the step answered a question about this tile and did not place it anew:
    only its move after a take (`moved_to`), its points and luck cards are new.
    """

    seat: int
    tile: int
    row: int
    field: int
    kind: int
    value: int  # the field's value (fixed fields)
    points: int  # all the tile brought its owner in this step
    taken: int  # tiles it took off the board, 0: no take
    double: bool
    plus5: bool
    moved_to: int  # the row it moved to after a take, -1: none (or not yet: a free-row question)
    luck_gained: int
    continued: bool = False


def placements(events, game: int = 0, before=None) -> list[Placement]:
    """The placements of one step in game `game`, in placing order: with `before` (the
    state the step began in), first the rest of the placing of a tile a question stopped
    (when the step did not place it anew). Every text view of a step reads its events
    through this, as the card game's `cards.render.placements`."""
    layout = None if before is None else before.config.board
    out = []
    if before is not None and int(before.phase[game]) == PHASE_ASK:
        k = int(before.at[game])
        moved = int(events.moved_to[k, game])
        if not events.tile[k, game] and (moved >= 0 or events.points[k, game] or events.plus5[k, game]
                                         or events.luck_gained[k, game]):
            out.append(Placement(int(before.queue_seat[k, game]), int(before.queue[k, game]), int(before.row[game]),
                                 int(before.field[game]), -1, 0, int(events.points[k, game]), 0, False,
                                 bool(events.plus5[k, game]), moved, int(events.luck_gained[k, game]), True))
    for k in np.flatnonzero(events.tile[:, game]):
        row, field = int(events.row[k, game]), int(events.field[k, game])
        value = 0 if layout is None else int(layout.value[row, field])
        out.append(Placement(int(events.seat[k, game]), int(events.tile[k, game]), row, field,
                             int(events.kind[k, game]), value, int(events.points[k, game]),
                             int(events.taken[k, game]), bool(events.double[k, game]), bool(events.plus5[k, game]),
                             int(events.moved_to[k, game]), int(events.luck_gained[k, game])))
    return out


def placement_parts(p: Placement) -> tuple[list[str], str, list[str]]:
    """A placement in words, after its tile: (where it went and what that did, its
    points, luck cards gained)."""
    where = [] if p.continued else [f"row {p.row + 1} field {p.field + 1} ({field_words(p.kind, p.value)})"]
    if p.taken:
        where.append(f"takes {p.taken} tile{'s' * (p.taken != 1)}" + (" with a 2x card" if p.double else ""))
    if p.moved_to >= 0:
        where.append(f"moves to row {p.moved_to + 1} field 1")
    elif p.taken:
        where.append("moves on after the question")
    if p.plus5:
        where.append("with a +5 card")
    return where, points_words(p.points), [gained_words(p.luck_gained)] if p.luck_gained else []


def placement_text(p: Placement, arrow: str = "->") -> str:
    """"-> row 4 field 2 (green), takes 3 tiles, moves to row 8 field 1: -4 points"; a
    continued one: "goes on: moves to row 8 field 1: +1 point"."""
    where, points, luck = placement_parts(p)
    head = "goes on" if p.continued else arrow
    text = f"{head} {', '.join(where)}" if where else head
    text = text.replace("goes on ", "goes on: ", 1) if p.continued and where else text
    return f"{text}: " + ", ".join([points] + luck)


def landing(view, e: int = 0, tile: int | None = None):
    """Where entry e's tile asked about (or `tile`) goes without an action card: the
    placement preview on the rows its seat sees, rows with a stop sign left out (no tile
    may join them this turn). Returns placement.Preview with shape (1,)."""
    if tile is None:
        tile = int(view.revealed[e][0])
    length = view.length[e].astype(np.int64)
    if view.config.pro:
        length = np.where(view.stops[e], 0, length)
    p = preview(view.config.board, view.tiles[e], length, np.array([tile]))
    return type(p)(**{k: v[..., 0] if np.ndim(v) else v for k, v in p.__dict__.items()})


def landing_text(view, e: int = 0) -> str:
    """"Without a card your 86 goes to row 4 field 4 (fixed +2): +2 points"."""
    layout = view.config.board
    tile = int(view.revealed[e][0])
    p = landing(view, e, tile)
    row, field = int(p.row), int(p.field)
    kind = int(layout.kind[row, field])
    words = f"row {row + 1} field {field + 1} ({kind_words(kind, int(layout.value[row, field]))})"
    if bool(p.take):
        return f"Without a card your {tile} goes to {words}: {points_words(int(p.points))} (it takes the row)"
    return f"Without a card your {tile} goes to {words}: {points_words(int(p.points))}"


def free_row_label(layout, row: int, tile: int) -> str:
    """A free-row answer named by the field the tile would land on: "row 8, field 1 green: +1 point"."""
    kind, value = int(layout.kind[row, 0]), int(layout.value[row, 0])
    points = effect_points(kind, value, int(layout.tile_bulls[tile]))
    return f"row {row + 1}, field 1 {field_words(kind, value)}: {points_words(points)}"


def answer_help(action: int) -> str:
    """What a pro answer does, in a sentence (the page's tooltip, the terminal's list)."""
    if action == NO_CARD_ACTION:
        return "place the tile now, keeping your action cards (+1 point each at the end)"
    if FREE_ROW_ACTION <= action < NO_CARD_ACTION:
        return "the tile starts that row on field 1, and field 1 acts on it"
    kind = int(decode_play(np.array([action]))[0][0])
    return "" if kind == NO_CARD else f"{ACTION_NAMES[kind]}: {ACTION_HELP[kind]}"


def answer_text(before, actions, game: int = 0) -> dict | None:
    """The answer a step began with, as everyone at the table sees it: an action card
    played (face up), a free row chosen, a luck card taken. None for any other step (a
    +5/2x card used shows in its placement). {"kind": "action" (a card) or "note" (a
    free row), "seat", "text", "card"?, "help"?}: a table view's log item."""
    if actions is None or int(before.phase[game]) != PHASE_ASK:
        return None
    ask, seat = int(before.ask[game]), int(before.asker[game])
    action = int(actions[seat, game])
    if ask == ASK_LUCK_CARD and action in LUCK_ACTION:
        return {"kind": "action", "seat": seat, "text": f"takes a {LUCK_SHOWN[LUCK_ACTION.index(action)]} luck card"}
    if ask == ASK_FREE_ROW and FREE_ROW_ACTION <= action < NO_CARD_ACTION:
        k = int(before.at[game])
        label = free_row_label(before.config.board, action - FREE_ROW_ACTION, int(before.queue[k, game]))
        return {"kind": "note", "seat": seat, "text": f"chooses free {label.split(':')[0]}", "help": answer_help(action)}
    kind = int(decode_play(np.array([action]))[0][0]) if ask == ASK_ACTION else NO_CARD
    if kind == NO_CARD:
        return None
    return {"kind": "action", "seat": seat, "card": ACTION_NAMES[kind], "text": "plays " + describe_action(action),
            "help": ACTION_HELP[kind]}
