"""The board game's table view: what one seat may know, as plain JSON-able data for a UI.

The schema is the card games' (core/game.py, `Game.table_view`): rows of cells, the hand,
scores, the question asked, answer choices. A board row is drawn field by field: a tile
where one lies, else the field's code and kind (`field`: plain, green, red, fixed-plus,
fixed-minus, play-two, take); `next` marks where the row's next tile lands. Everything
is read through the seat's `BoardSeatView` or from the step's public events; `seat=None`
is a spectator (no hand). `question_text` is also the terminal game's wording.
"""

from __future__ import annotations

import numpy as np

from .actions import ANSWER_NO, ANSWER_YES, FREE_ROW_ACTION, LUCK_ACTION, NO_CARD_ACTION, describe_action, tile_action
from .layout import FIXED, KIND_EFFECTS, KIND_NAMES, TAKE
from .rules import DOUBLE, PLUS5, PLUS5_POINTS
from .seat_view import BoardSeatView
from .state import (
    ASK_ACTION,
    ASK_DOUBLE,
    ASK_FREE_ROW,
    ASK_LUCK_CARD,
    ASK_PLUS5,
    PHASE_ASK,
    PHASE_OVER,
    PHASE_PICK_SECOND,
    BoardState,
)
from .words import (  # noqa: F401 - ACTION_HELP, LUCK_HELP, LUCK_SHOWN: read from here by the front ends
    ACTION_HELP,
    ACTION_NAMES,
    ACTION_WHEN,
    FIELD_CODES,
    LUCK_HELP,
    LUCK_SHOWN,
    PRO_FIELD_KINDS,
    QUESTIONS,
    answer_help,
    answer_text,
    effect_points,
    free_row_label,
    kind_words,
    landing_text,
    placement_text,
    placements,
)


def _usable(n: int, kind: str) -> str:
    return f"you may use {n} {kind} card" + ("s" if n != 1 else "") + " this turn"


def question_text(view: BoardSeatView, e: int = 0) -> str:
    """What the question entry e's seat is asked is about, and what each answer gives
    (where the tile lands without an action card; free rows by the field the tile meets)."""
    layout = view.config.board
    ask = int(view.ask[e])
    waiting = view.revealed[e][view.revealed[e] > 0]  # the first is the tile asked about
    tile = int(waiting[0]) if len(waiting) else 0
    row, field = (int(x[e]) for x in view.current)
    usable = view.luck_usable[e]
    if ask == ASK_ACTION:
        held = ", ".join(f"{int(n)}× {ACTION_NAMES[k]}" for k, n in enumerate(view.action_cards[e]) if n)
        return (f"Your {tile} is next to be placed: play an action card on it first? {landing_text(view, e)}. "
                f"You hold {held}; each card kept scores 1 point at the end.")
    if ask == ASK_FREE_ROW:
        return (f"Your {tile} took a row: it starts a free row of your choice on field 1, and that field acts "
                "on it (each answer says what it gives).")
    if ask == ASK_LUCK_CARD:
        stack = view.stack[e]
        return (f"Your {tile} took your points down past a clover: take a luck card "
                f"(+5 cards left: {int(stack[PLUS5])}, 2x cards left: {int(stack[DOUBLE])}). {LUCK_HELP}")
    if ask == ASK_DOUBLE:
        tiles = [int(t) for t in view.tiles[e, row, :int(view.length[e, row])]]
        bulls = sorted((int(layout.tile_bulls[t]) for t in tiles), reverse=True)
        plain, doubled = -sum(bulls), 2 * sum(bulls[:2]) - sum(bulls)
        return (f"Your {tile} takes row {row + 1}: {' '.join(map(str, tiles))} ({sum(bulls)} bullheads): "
                f"{plain:+d} points. With a 2x card the two best tiles count plus: {doubled:+d} points. "
                f"({_usable(int(usable[DOUBLE]), '2x')})")
    kind, value = int(layout.kind[row, field]), int(layout.value[row, field])
    effect = effect_points(kind, value, int(layout.tile_bulls[tile]))
    return (f"Your {tile} goes to row {row + 1} field {field + 1} ({kind_words(kind, value)}): "
            f"{effect:+d} points. With a +5 card it scores {PLUS5_POINTS:+d} instead. "
            f"({_usable(int(usable[PLUS5]), '+5')})")


def _legal(view: BoardSeatView, e: int = 0) -> list[int]:
    return [int(a) for a in np.flatnonzero(view.action_mask()[e])]


def answer_label(view: BoardSeatView, action: int, e: int = 0) -> str:
    """A pro answer as offered: a free row by the field the tile would land on, else
    describe_action's words."""
    if FREE_ROW_ACTION <= action < NO_CARD_ACTION:
        return "free " + free_row_label(view.config.board, action - FREE_ROW_ACTION, int(view.revealed[e][0]))
    return describe_action(action)


def _field_class(layout, r: int, f: int) -> str:
    kind = int(layout.kind[r, f])
    if kind == FIXED:
        return "fixed-plus" if int(layout.value[r, f]) > 0 else "fixed-minus"
    return KIND_NAMES[kind].replace(" ", "-")


def _tile(layout, t: int) -> dict:
    return {"card": int(t), "text": str(int(t)), "bulls": int(layout.tile_bulls[int(t)])}


def _choices(view: BoardSeatView) -> list[dict]:
    """The answers to the seat's open question, each with what it does."""
    ask = int(view.ask[0])
    if ask == ASK_LUCK_CARD:
        return [{"action": LUCK_ACTION[PLUS5], "label": "take a +5 card",
                 "help": f"later: a tile scores {PLUS5_POINTS:+d} instead of its field"},
                {"action": LUCK_ACTION[DOUBLE], "label": "take a 2x card",
                 "help": "later: a take counts its two best tiles plus"}]
    name = LUCK_SHOWN[PLUS5 if ask == ASK_PLUS5 else DOUBLE]
    if ask in (ASK_ACTION, ASK_FREE_ROW):  # pro: every legal answer, in words
        return [{"action": a, "label": answer_label(view, a), "help": answer_help(a)} for a in _legal(view)]
    return [{"action": ANSWER_YES, "label": f"yes: use a {name} card", "help": LUCK_HELP},
            {"action": ANSWER_NO, "label": "no", "help": f"keep the {name} card"}]


def table_view(state: BoardState, seat: int | None, game: int = 0, *, before: BoardState | None = None,
               events=None, actions=None, public: dict | None = None) -> dict:
    """What seat `seat` (None: a spectator) of game `game` may know, as JSON-able data;
    with `before` and `events` (the step that led to `state`), what that step showed;
    with the step's `actions` too, the answer it began with (an action card played).
    `public`: the spectator's view of the same state (and step), whose public parts are
    kept (the same objects); only the seat's own (hand, scores, prompt, choices) are built."""
    config, layout = state.config, state.config.board
    observer = 0 if seat is None else int(seat)
    view = BoardSeatView(state, [observer], [game])
    picking = seat is not None and bool(view.picking[0])
    asked = seat is not None and bool(view.is_asker[0])
    hand = [] if seat is None else [dict(_tile(layout, t), action=int(tile_action(t)) if picking else None)
                                    for t in sorted(int(t) for t in view.hand[0] if t)]
    if public is not None:
        return dict(public, hand=hand, scores=_scores(view, seat, observer), prompt=_prompt(view, state, seat, game),
                    choices=_choices(view) if asked else [])
    over = int(view.phase[0]) == PHASE_OVER
    two = int(view.picks[0]) == 2
    info, legend = _info_and_legend(view)
    out = {"title": "6 nimmt! Das Brettspiel (" + {"basic": "basic game", "luck": "with luck cards",
                                                    "pro": "professional game",
                                                    "pro-luck": "professional game with luck cards"}[config.variant] + ")",
           "status": "Game over" if over else f"Turn {int(view.turn[0]) + 1}" + (", two tiles each" if two else ""),
           "unit": "points", "rows": _rows(view), "hand": hand, "hand_label": "your tiles",
           "scores": _scores(view, seat, observer), "prompt": _prompt(view, state, seat, game),
           "choices": _choices(view) if asked else [], "over": over, "info": info, "legend": legend}
    # The public history a person at the table has: every tile taken off the board with a
    # row (revealed, placed and maybe taken in one turn: a bot never saw it on the rows).
    out["gone"] = [_tile(layout, t) for t in np.flatnonzero(view.gone[0]) if t]
    if events is not None and before is not None:
        out["events"] = _step_items(before, events, state, game, actions)
    return out


def _rows(view: BoardSeatView) -> list[dict]:
    """Every row's fields, the tiles on them and where the next tile lands (stop signs noted)."""
    config, layout = view.config, view.config.board
    rows = []
    for r in range(len(layout.rows)):
        length = int(view.length[0, r])
        cells = []
        for f in range(int(layout.row_len[r])):
            tile = int(view.tiles[0, r, f]) if f < length else 0
            cell = _tile(layout, tile) if tile else {"text": layout.rows[r][f]}
            cell.update(field=_field_class(layout, r, f), code=layout.rows[r][f], next=bool(length) and f == length)
            cells.append(cell)
        nxt = int(layout.kind[r, length]) if length and length < int(layout.row_len[r]) else None
        rows.append({"label": str(r + 1), "cells": cells, "dim": not length, "action": None,
                     "points": sum(int(layout.tile_bulls[int(t)]) for t in view.tiles[0, r, :length]),
                     "note": "" if nxt is None else ("TAKE: the next tile takes the row" if nxt == TAKE
                                                     else kind_words(nxt, int(layout.value[r, length]))),
                     "alert": nxt == TAKE})
        if config.pro and view.stops[0, r]:
            rows[-1]["note"] = "STOP: no tile may join this row this turn"
            rows[-1]["alert"] = True
    return rows


def _scores(view: BoardSeatView, seat: int | None, observer: int) -> list[dict]:
    """Every seat's points by absolute seat; the note: luck cards held, and on the pro side
    action cards (the seat's own by kind, the others' by count) and tiles in hand."""
    config, P = view.config, view.players
    absolute = [(p - observer) % P for p in range(P)]  # view order -> absolute seats
    scores = []
    for p in range(P):
        held = view.luck[0, absolute[p]]
        note = ", ".join(f"{int(held[k])}× {LUCK_SHOWN[k]}" for k in range(2) if held[k]) if config.luck else ""
        if config.pro:  # own action cards by kind; the others' by count only
            if seat is not None and absolute[p] == 0:
                cards = ", ".join(f"{int(n)}× {ACTION_NAMES[k]}" for k, n in enumerate(view.action_cards[0]) if n)
            else:
                n = int(view.action_counts[0, absolute[p]])
                cards = f"{n} action card" + "s" * (n != 1)
            note = ", ".join(x for x in (note, cards or "no action card",
                                         f"{int(view.hand_sizes[0, absolute[p]])} tiles") if x)
        scores.append({"seat": p, "total": int(view.scores[0, absolute[p]]), "note": note})
    return scores


def _prompt(view: BoardSeatView, state: BoardState, seat: int | None, game: int) -> str:
    """What the seat is asked now, or what the table waits for."""
    if int(view.phase[0]) == PHASE_OVER:
        return "The game is over."
    if seat is not None and view.is_asker[0]:
        return question_text(view)
    if int(view.phase[0]) == PHASE_ASK:
        return f"Seat {int(state.asker[game]) + 1} {QUESTIONS[int(state.ask[game])].asked}."
    if seat is not None and view.picking[0]:
        if int(view.picks[0]) != 2:
            return "Put out a tile."
        return ("Put out your second tile." if int(view.phase[0]) == PHASE_PICK_SECOND
                else "Put out your first tile (two this turn).")
    return "The players put out their tiles." if seat is None else "Waiting for the others."


def _info_and_legend(view: BoardSeatView) -> tuple[list[str], list[dict]]:
    """The rules in force and the stacks left (info lines), and what each field code and
    (pro) each action card does (the legend)."""
    config, layout = view.config, view.config.board
    end = ("as soon as a hand is empty at the end of a turn" if config.pro else "when every tile is placed")
    info = [f"Board {layout.name}" + (" (an approximation of the printed board)" if layout.approximation else "")
            + f"; the most points win; the game ends {end}."]
    if config.pro:
        info.append(f"Action cards: deck {int(view.deck_size[0])}, discarded {int(view.discard[0].sum())}; "
                    f"stop signs left {int(view.stops_left[0])}. At the end each action card held scores +1 "
                    "and each tile in hand costs its bullheads.")
    if config.luck:
        info += [f"Luck cards left: +5 {int(view.stack[0, PLUS5])} · 2x {int(view.stack[0, DOUBLE])}", LUCK_HELP]
    legend = [{"field": "fixed-plus" if kind == FIXED else KIND_NAMES[kind].replace(" ", "-"),
               "text": "+N" if kind == FIXED else code, "meaning": KIND_EFFECTS[kind]}
              for code, kind in FIELD_CODES if config.pro or kind not in PRO_FIELD_KINDS]
    if config.pro:
        legend += [{"card": name, "text": name, "meaning": ACTION_HELP[k]} for k, name in enumerate(ACTION_NAMES)]
        info.append(ACTION_WHEN)
    return info, legend


def _step_items(before: BoardState, events, after: BoardState, game: int, actions=None) -> list[dict]:
    """What one step showed: the action or luck card it began with, the reveal, each tile
    placed (field, take, move, luck cards, points), the rest of a tile's placing after a
    question, the next question. A placement says where its tile lands (`row`, `field`,
    `take`, `moved_to`) and the seat's points after it, so the page can show it at once."""
    layout = before.config.board
    answer = answer_text(before, actions, game)
    items: list[dict] = [] if answer is None else [answer]
    placed = placements(events, game, before)
    if int(before.phase[game]) != PHASE_ASK:
        if int(after.phase[game]) == PHASE_ASK:  # stopped by a question: every tile is in the queue
            queue = [(int(after.queue_seat[k, game]), int(after.queue[k, game]))
                     for k in np.flatnonzero(after.queue[:, game])]
        else:
            queue = [(p.seat, p.tile) for p in placed]
        if queue:
            items.append({"kind": "reveal", "text": "revealed", "heading": f"Turn {int(before.turn[game]) + 1}",
                          "cards": [dict(_tile(layout, t), seat=s) for s, t in sorted(queue)]})
    totals = BoardSeatView(before, [0], [game]).scores[0].astype(int).copy()  # scores are public
    for p in placed:
        totals[p.seat] += p.points
        moved = p.moved_to if p.moved_to >= 0 else None
        item = {"kind": "place", "seat": p.seat, "cards": [_tile(layout, p.tile)], "text": placement_text(p, "→"),
                "moved_to": moved, "points": p.points, "score": {"seat": p.seat, "total": int(totals[p.seat])}}
        if not p.continued:
            item.update(row=p.row, field=p.field, take=bool(p.taken), alert=bool(p.taken))
        items.append(item)
    if int(after.phase[game]) == PHASE_ASK:
        items.append({"kind": "note", "seat": int(after.asker[game]), "text": QUESTIONS[int(after.ask[game])].asked})
    return items
