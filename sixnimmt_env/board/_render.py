"""Text rendering of board games: the board with its field kinds and tiles, the scores,
and what a step did. Plain strings, like the card game's render.py; the words of a
placement and a question are words.py's. Seats, rows and fields count from 1."""

from __future__ import annotations

import numpy as np

from .engine import BoardEvents
from .rules import ACTION_KINDS, LUCK_KINDS
from .state import PHASE_ASK, BoardState
from .words import QUESTIONS, placement_text, placements

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
            # a field left empty by Skip shows its code, as a field no tile reached
            cells.append(f"[{tile}]" if tile else _field_code(layout, r, f))
        active = "*" if state.length[r, game] else " "
        stop = "  STOP: no tile may join this row this turn" if state.config.pro and state.stops[r, game] else ""
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
        parts.append(f"seat {p + 1}: {names}")
    deck = int(state.deck_end[game] - state.deck_at[game])
    return f"action cards: {'; '.join(parts)} | deck {deck}, discards {int(state.discard[:, game].sum())}"


def scores_line(state: BoardState, game: int = 0) -> str:
    """Everyone's points, with luck cards held when the variant has them."""
    parts = []
    for p in range(state.players):
        text = f"seat {p + 1}: {int(state.score[p, game])}"
        if state.config.luck and state.luck[:, p, game].any():
            text += " (" + ", ".join(f"{int(state.luck[k, p, game])}x {LUCK_KINDS[k]}"
                                     for k in range(2) if state.luck[k, p, game]) + ")"
        parts.append(text)
    return "scores: " + ", ".join(parts)


def step_lines(before: BoardState, events: BoardEvents, after: BoardState, game: int = 0) -> list[str]:
    """What a step did in one game: the reveal, each tile placed (words.placements, in
    words.placement_text), the rest of a tile's placing after a question, and the
    question it stopped at. Seats, rows and fields count from 1.

    A question can stop a tile half way (after its take, before it moves on; before its
    luck cards): the step that answers it goes on with that tile, and says what the rest
    of its placing did ("seat 3: 1 goes on: moves to row 5 field 1: +1 point")."""
    lines = []
    placed = placements(events, game, before)
    if before.phase[game] != PHASE_ASK:  # this step revealed the turn's tiles (or put out a first one)
        if after.phase[game] == PHASE_ASK:  # stopped by a question: every tile is in the queue
            queue = [(int(after.queue_seat[k, game]), int(after.queue[k, game]))
                     for k in np.flatnonzero(after.queue[:, game])]
        else:
            queue = [(p.seat, p.tile) for p in placed]
        if queue:
            lines.append("revealed: " + ", ".join(f"seat {s + 1} {t}" for s, t in sorted(queue)))
    for p in placed:
        lines.append(f"  seat {p.seat + 1}: {p.tile} {placement_text(p)}")
    if after.phase[game] == PHASE_ASK:
        lines.append(f"  seat {int(after.asker[game]) + 1} is asked: {QUESTIONS[int(after.ask[game])].short}")
    return lines
