"""Text rendering of board games: the board with its field kinds and tiles, the scores,
and what a step did. Plain strings, like the card game's render.py."""

from __future__ import annotations

import numpy as np

from .engine import BoardEvents
from .layout import KIND_NAMES
from .rules import ACTION_KINDS, LUCK_KINDS
from .state import ASK_NAMES, PHASE_ASK, BoardState

_CELL = 5


def _field_code(layout, r: int, f: int) -> str:
    return layout.rows[r][f]


def board_lines(state: BoardState, game: int = 0) -> list[str]:
    """Each row: its fields, a tile where one lies (e.g. `[57]`), else the field's code."""
    layout = state.config.board
    head = f"board {layout.name}" + ("  (APPROXIMATION of the printed board)" if layout.approximation else "")
    lines = [head]
    for r in range(len(layout.rows)):
        cells = []
        for f in range(int(layout.row_len[r])):
            tile = int(state.tiles[r, f, game]) if f < state.length[r, game] else 0
            cells.append(f"[{tile}]" if tile else _field_code(layout, r, f))
        active = "*" if state.length[r, game] else " "
        stop = "  STOP" if state.config.pro and state.stops[r, game] else ""
        lines.append(f"{active}row {r + 1:>2}: " + " ".join(f"{c:>{_CELL}}" for c in cells) + stop)
    return lines


def action_cards_line(state: BoardState, game: int = 0, seat: int | None = None) -> str:
    """Pro: the action cards each seat holds (by kind for `seat`, or for all when None;
    the others' as a count), and the deck and discard pile."""
    parts = []
    for p in range(state.players):
        held = state.action[:, p, game]
        if seat is None or p == seat:
            names = ", ".join(f"{int(n)}x {ACTION_KINDS[k]}" for k, n in enumerate(held) if n) or "none"
        else:
            names = f"{int(held.sum())} card(s)"
        parts.append(f"seat {p}: {names}")
    deck = int(state.deck_end[game] - state.deck_at[game])
    return f"action cards: {'; '.join(parts)} | deck {deck}, discards {int(state.discard[:, game].sum())}"


def scores_line(state: BoardState, game: int = 0) -> str:
    """Everyone's points, with luck cards held when the variant has them."""
    parts = []
    for p in range(state.players):
        text = f"seat {p}: {int(state.score[p, game])}"
        if state.config.luck and state.luck[:, p, game].any():
            text += " (" + ", ".join(f"{int(state.luck[k, p, game])}x {LUCK_KINDS[k]}"
                                     for k in range(2) if state.luck[k, p, game]) + ")"
        parts.append(text)
    return "scores: " + ", ".join(parts)


def gained_words(n: int) -> str:
    """Luck cards gained, in words."""
    return f"gains {n} luck card" + ("s" if n > 1 else "")


def continued_parts(events: BoardEvents, k: int, game: int = 0) -> list[str]:
    """What tile k did in a step that answered a question about it and did not place it
    anew: its move after a take, a "+5" played, its points, luck cards gained. Every text
    view of a step (step_lines, the terminal game) words it through this."""
    parts = []
    if events.moved_to[k, game] >= 0:
        parts.append(f"moves to row {int(events.moved_to[k, game]) + 1}")
    if events.plus5[k, game]:
        parts.append("with a +5 card")
    if events.points[k, game]:
        parts.append(f"{int(events.points[k, game]):+d} points")
    if events.luck_gained[k, game]:
        parts.append(gained_words(int(events.luck_gained[k, game])))
    return parts


def step_lines(before: BoardState, events: BoardEvents, after: BoardState, game: int = 0) -> list[str]:
    """What a step did in one game: each tile placed, its field and points, takes, moves,
    luck cards, and the question it stopped at.

    A question can stop a tile half way (after its take, before it moves on; before its
    luck cards): the step that answers it goes on with that tile, and says what the rest
    of its placing did ("seat 2: 1 goes on: moves to row 5, 1 luck card(s)")."""
    lines = []
    placed = np.flatnonzero(events.tile[:, game])
    if before.phase[game] != PHASE_ASK:  # this step revealed the turn's tiles (or put out a first one)
        if after.phase[game] == PHASE_ASK:  # stopped by a question: every tile is in the queue
            queue = [(int(after.queue_seat[k, game]), int(after.queue[k, game]))
                     for k in np.flatnonzero(after.queue[:, game])]
        else:
            queue = [(int(events.seat[k, game]), int(events.tile[k, game])) for k in placed]
        if queue:
            lines.append("revealed: " + ", ".join(f"seat {s} {t}" for s, t in sorted(queue)))
    else:  # the answer's tile goes on: what it did after the question, unless placed again below
        k = int(before.at[game])
        parts = [] if events.tile[k, game] else continued_parts(events, k, game)
        if parts:
            lines.append(f"  seat {int(before.asker[game])}: {int(before.queue[k, game])} goes on: " + ", ".join(parts))
    for k in placed:
        tile, seat = int(events.tile[k, game]), int(events.seat[k, game])
        row, field = int(events.row[k, game]), int(events.field[k, game])
        kind = KIND_NAMES[int(events.kind[k, game])]
        text = f"  seat {seat}: {tile} -> row {row + 1} field {field + 1} ({kind})"
        if events.taken[k, game]:
            text += f", takes {int(events.taken[k, game])} tiles" + (" with 2x" if events.double[k, game] else "")
            moved = int(events.moved_to[k, game])
            text += f", moves to row {moved + 1}" if moved >= 0 else ", moves on after the question"
        if events.plus5[k, game]:
            text += ", with a +5 card"
        points = int(events.points[k, game])
        text += f": {points:+d} points"
        if events.luck_gained[k, game]:
            text += ", " + gained_words(int(events.luck_gained[k, game]))
        lines.append(text)
    if after.phase[game] == PHASE_ASK:
        lines.append(f"  seat {int(after.asker[game])} is asked: {ASK_NAMES[int(after.ask[game])]}")
    return lines
