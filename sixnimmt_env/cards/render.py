"""Text rendering of games: the table, the hands, and what a step did.

Plain strings (rich markup optional) so the same code serves the demo, the `ansi`
render mode of the environments and log files. Seats and rows count from 1, as everywhere
a person reads them (records keep their 0-based encoding).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .engine import StepEvents
from .rules import ROW_CAPACITY
from .state import PHASE_ROW, State


def _card(state: State, card: int) -> str:
    return state.config.variant_data.card_name(int(card))


def table_lines(state: State, game: int = 0) -> list[str]:
    """The four rows of one game, each with its bullheads; a full row is marked."""
    lines = []
    for r, row in enumerate(state.row_lists(game)):
        bulls = int(state.row_bulls[r, game])
        full = "  FULL: the next card here takes it" if len(row) == ROW_CAPACITY else ""
        cards = " ".join(f"{_card(state, c):>4}" for c in row)
        lines.append(f"row {r + 1}: {cards:<25} ({bulls:>2} {state.config.variant_data.penalty_unit}){full}")
    return lines


def scores_line(state: State, game: int = 0) -> str:
    """Everyone's total so far."""
    totals = state.total()[:, game]
    return "scores: " + ", ".join(f"seat {p + 1}: {int(t)}" for p, t in enumerate(totals))


@dataclass(frozen=True)
class Placement:
    """One card placed in a step: who, which card, which row, what it took."""

    seat: int
    card: int
    row: int
    taken: tuple[int, ...]  # the ids the seat took with it, empty when none
    taken_points: int  # their bullheads (points in Die Sechste)


def placements(events: StepEvents, game: int = 0) -> list[Placement]:
    """The placements of one step in game `game`, in placing order (lowest card first).

    Every text view of a step (step_lines, the terminal game) reads its events through this."""
    out = []
    for k in np.flatnonzero(events.card[:, game]):
        out.append(Placement(int(events.seat[k, game]), int(events.card[k, game]), int(events.row[k, game]),
                             tuple(int(c) for c in events.taken[k, :, game] if c),
                             int(events.taken_bulls[k, game])))
    return out


def step_lines(before: State, events: StepEvents, game: int = 0, after: State | None = None) -> list[str]:
    """What a step did in one game: the reveal, each placement, each take, a round's end
    (`after`, the state after the step, tells which question a chooser is asked)."""
    lines = []
    placed = placements(events, game)
    if placed and before.phase[game] != PHASE_ROW:
        shown = {p.seat: p.card for p in placed}
        lines.append("revealed: " + ", ".join(
            f"seat {s + 1} {_card(before, shown[s])}" for s in range(before.players) if s in shown))
    for p in placed:
        text = f"  seat {p.seat + 1}: {_card(before, p.card)} -> row {p.row + 1}"
        if p.taken:
            names = " ".join(_card(before, c) for c in p.taken)
            text += f", takes {names} ({p.taken_points} {before.config.variant_data.penalty_unit})"
        lines.append(text)
    chooser = int(events.chooser[game])
    if chooser >= 0:
        options = None if after is None else np.flatnonzero(after.row_options[:, game]).tolist()
        if options is None or len(options) == len(after.row_options):
            lines.append(f"  seat {chooser + 1}'s card is lower than every row: seat {chooser + 1} picks a row to take")
        else:  # Die Sechste: two equally long rows ending in twins
            lines.append(f"  seat {chooser + 1}'s card belongs behind rows {options[0] + 1} and {options[1] + 1}, "
                         f"equally long and ending in twins: seat {chooser + 1} picks one")
    if events.round_over[game]:
        pens = events.round_penalty[:, game]
        lines.append("round over: " + ", ".join(f"seat {p + 1} +{int(x)}" for p, x in enumerate(pens)))
    return lines
