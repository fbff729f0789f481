"""The card games' table view: what one seat may know, as plain JSON-able data for a UI.

`Game.table_view` (core/game.py documents the schema) is read by the web page
(`sixnimmt serve`), which draws any game from it without knowing the game. Everything
here is read through the seat's `SeatView` (the information filter agents see), or from
the step's events, whose contents are public (cards turned face up, rows taken); another
seat's hand and the undealt cards never appear. `seat=None` is a spectator: the table
without any hand.
"""

from __future__ import annotations

import numpy as np

from .actions import card_action, row_action
from .placement import target_rows
from .render import placements
from .rules import HAND_SIZE, N_ROWS, ROW_CAPACITY
from .seat_view import SeatView
from .state import PHASE_CARDS, PHASE_OVER, PHASE_ROW, State


def _card(variant, c: int) -> dict:
    c = int(c)
    text, bulls = _faces(variant)[c]
    return {"card": c, "text": text, "bulls": bulls}


def _faces(variant) -> list:
    """Per card id, (how the page draws it, its bullheads): made once per variant and kept
    on it, as a table view shows some 60 cards and a server builds several views a step."""
    faces = variant.__dict__.get("_faces")
    if faces is None:
        faces = [None] + [(variant.card_face(c), int(variant.bullheads[c])) for c in range(1, variant.n_ids + 1)]
        object.__setattr__(variant, "_faces", faces)  # frozen: set through object, as its row_code
    return faces


def plural(n: int, word: str) -> str:
    """"1 bullhead", "2 bullheads", "1 point" (word is the plural)."""
    return f"{n} {word[:-1] if abs(n) == 1 and word.endswith('s') else word}"


def choice_reason(view: SeatView, legal: list[int], e: int = 0, *, face: bool = False) -> str:
    """Why the rules ask entry e's seat for a row: its card is too low, or (Die Sechste)
    it belongs behind two equally long rows ending in twins. Rows numbered from 1.
    `face`: cards as the web page draws them (suit symbols), else as typed."""
    variant = view.config.variant_data
    mine = view.revealed[e][(view.revealed_seat[e] == 0) & (view.revealed[e] > 0)]
    card = int(mine[0]) if len(mine) else 0
    name = (variant.card_face(card) if face else variant.card_name(card)) if card else "your card"
    if card and target_rows(view.row_last[e], view.row_count[e], variant.order[[card]])[1][0]:
        return (f"Your {name} is lower than the last card of every row: choose a row to take "
                f"(its cards are your penalty; {name} starts it).")
    rows = " or ".join(str(r + 1) for r in legal)
    return f"The rules let you choose where your {name} goes: row {rows}."


def _prompt(view: SeatView, seat: int | None, chooser: int) -> str:
    if int(view.phase[0]) == PHASE_OVER:
        return "The game is over."
    if seat is not None and view.is_chooser[0]:
        return choice_reason(view, np.flatnonzero(view.row_options[0]).tolist(), face=True)
    if int(view.phase[0]) == PHASE_ROW:
        return f"Seat {chooser + 1} chooses a row."
    return "Choose a card to play." if seat is not None else "The players choose their cards."


def _ends(config) -> str:
    ends = [f"{config.max_rounds} round{'s' * (config.max_rounds != 1)}" if config.max_rounds else "",
            f"the round in which someone reaches {config.end_score}" if config.end_score else ""]
    return "The game ends after " + ", or after ".join(e for e in ends if e) + "."


def table_view(state: State, seat: int | None, game: int = 0, *, before: State | None = None,
               events=None, actions=None, public: dict | None = None) -> dict:
    """What seat `seat` (None: a spectator) of game `game` may know, as JSON-able data;
    with `before` and `events` (the step that led to `state`), what that step showed.
    `actions` is not read: every answer of a card game shows in its events. `public`: the
    spectator's view of the same state (and step), whose public parts are kept (the same
    objects: a server builds them once for every seat); only the seat's own are built."""
    config, variant = state.config, state.config.variant_data
    observer = 0 if seat is None else int(seat)
    view = SeatView(state, [observer], [game])
    chooser = int(state.chooser[game])
    choosing = seat is not None and bool(view.is_chooser[0])
    if public is not None:
        return _from_public(public, view, seat, chooser, choosing)
    P = state.players
    absolute = [(p - observer) % P for p in range(P)]  # view order -> absolute seats
    rows = _rows(view, choosing)
    hand = _hand(view) if seat is not None else []
    scores = [{"seat": p, "total": int(view.scores[0, absolute[p]]),
               "note": _this_round(int(view.round_penalty[0, absolute[p]]))} for p in range(P)]
    over = int(view.phase[0]) == PHASE_OVER
    status = ("Game over" if over else f"Round {int(state.round[game]) + 1} · turn "
              f"{int(view.turn[0]) + 1} of {HAND_SIZE} · dealer: seat {int(state.dealer[game]) + 1}")
    out = {"title": f"6 nimmt! ({variant.name})", "status": status, "unit": variant.penalty_unit,
           "rows": rows, "hand": hand, "hand_label": "your hand", "scores": scores,
           "prompt": _prompt(view, seat, chooser), "choices": [], "over": over,
           "info": [_ends(config), "You choose the row to take after a too-low card."
                    if config.row_choice == "player" else "A too-low card takes the cheapest row."]}
    if int(view.phase[0]) == PHASE_ROW:  # the turn's cards still to be placed (face up)
        out["pending"] = [dict(_card(variant, c), seat=(int(s) + observer) % P)
                          for c, s in zip(view.revealed[0], view.revealed_seat[0]) if c]
    out["played"] = played_this_round(state, game)
    out["starters"] = [_card(variant, c) for c in state.starters[:, game] if c]  # face up at the deal
    if out["played"] and not over:
        out["info"].append("Played this round (every card revealed, by turn): "
                           + "; ".join(f"turn {t['turn']}: " + " ".join(c["text"] for c in t["cards"])
                                       for t in out["played"]))
    if events is not None and before is not None:
        out["events"] = _step_items(before, events, state, game)
    return out


def _rows(view: SeatView, choosing: bool) -> list[dict]:
    """The rows as the seat sees them (public, but for the actions of a row it must choose)."""
    config, variant = view.config, view.config.variant_data
    rows = []
    for r in range(N_ROWS):
        count = int(view.row_count[0, r])
        cells = [_card(variant, c) for c in view.rows[0, r, :count]]
        cells += [{"text": "", "empty": True}] * (ROW_CAPACITY - count)
        full = count == ROW_CAPACITY
        rows.append({"label": str(r + 1), "cells": cells, "points": int(view.row_bulls[0, r]),
                     "note": "FULL: the next card here takes it" if full else "", "alert": full,
                     "action": int(row_action(config, r)) if choosing and view.row_options[0, r] else None})
    return rows


def _hand(view: SeatView) -> list[dict]:
    """The seat's own hand, sorted as played, each card's action while cards are chosen."""
    variant = view.config.variant_data
    playing = int(view.phase[0]) == PHASE_CARDS
    held = sorted((int(c) for c in view.hand[0] if c), key=lambda c: (int(variant.order[c]), c))
    return [dict(_card(variant, c), action=int(card_action(c)) if playing else None) for c in held]


def _from_public(public: dict, view: SeatView, seat: int | None, chooser: int, choosing: bool) -> dict:
    """A seat's view from the spectator's (`public`): its hand, its prompt and, when it
    must choose a row, the rows with their actions; every other part is public."""
    if seat is None:
        return dict(public)
    out = dict(public, hand=_hand(view), prompt=_prompt(view, seat, chooser))
    if choosing:
        out["rows"] = _rows(view, True)
    return out


def played_this_round(state: State, game: int = 0) -> list[dict]:
    """Every card revealed this round, turn by turn (face up on the table, so public: what
    a person at the table saw, also the cards a row took in the same turn): [{turn (from
    1), cards: [{card, text, bulls, seat}]}], seats absolute (0-based, as in `scores`)."""
    variant = state.config.variant_data
    out = []
    for t, cards in enumerate(state.played[:, :, game].tolist()):  # Python ints: no NumPy scalar a card
        shown = [dict(_card(variant, c), seat=p) for p, c in enumerate(cards) if c]
        if shown:
            out.append({"turn": t + 1, "cards": shown})
    return out


def _this_round(penalty: int) -> str:
    return f"+{penalty} this round" if penalty else ""


def _step_items(before: State, events, after: State, game: int) -> list[dict]:
    """What one step showed, in order: the reveal, each placement, a row choice asked for,
    a round's end. A placement says where its card lands (`row`, `field`: its place in the
    row, 0 after a take) and the seat's score after it, so the page can show it at once."""
    variant = before.config.variant_data
    items: list[dict] = []
    placed = placements(events, game)
    if int(before.phase[game]) == PHASE_CARDS:
        shown = {p.seat: p.card for p in placed}
        if int(after.phase[game]) == PHASE_ROW and int(after.round[game]) == int(before.round[game]):
            for k in np.flatnonzero(after.revealed[:, game]):  # revealed, not yet placed
                shown[int(after.revealed_seat[k, game])] = int(after.revealed[k, game])
        if shown:
            items.append({"kind": "reveal", "text": "revealed", "heading": f"Round {int(before.round[game]) + 1}, "
                          f"turn {int(before.turn[game]) + 1}",
                          "cards": [dict(_card(variant, shown[s]), seat=s) for s in sorted(shown)]})
    seen = SeatView(before, [0], [game])  # rows and scores are public: any seat's view shows them
    counts = seen.row_count[0].astype(int).copy()
    penalty = {p: int(seen.round_penalty[0, p]) for p in range(before.players)}
    for p in placed:
        text = f"→ row {p.row + 1}"
        if p.taken:
            text += (f", takes {plural(len(p.taken), 'cards')} "
                     f"({plural(p.taken_points, variant.penalty_unit)})")
            counts[p.row] = 0
            penalty[p.seat] += p.taken_points
        items.append({"kind": "place", "seat": p.seat, "cards": [_card(variant, p.card)], "text": text,
                      "row": p.row, "field": int(counts[p.row]), "take": bool(p.taken),
                      "taken": [_card(variant, c) for c in p.taken], "points": p.taken_points,
                      "score": {"seat": p.seat, "total": int(seen.scores[0, p.seat]),
                                "note": _this_round(penalty[p.seat])}, "alert": bool(p.taken)})
        counts[p.row] += 1
    chooser = int(events.chooser[game])
    if chooser >= 0:
        items.append({"kind": "note", "seat": chooser, "text": "must choose a row"})
    if events.round_over[game]:
        items.append({"kind": "round", "text": f"Round {int(before.round[game]) + 1} over",
                      "points": [int(x) for x in events.round_penalty[:, game]]})
    return items
