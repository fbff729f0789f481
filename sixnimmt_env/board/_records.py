"""Board-game records (`sixnimmt-record/1` with "game": "board", docs/spec/board-record.md):
the writing.

`Recorder` writes one record per game of a batch while it is stepped; `_replay.py` reads
one back and checks it. A record carries its board: the layout's rows and clovers and the
tile bullheads, so it replays with no other file (`_layout_files.layout_to_dict` /
`layout_from_dict`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..core.records import FORMAT
from ._answers import answer_value
from ._layout_files import layout_to_dict
from .actions import (
    N_TILE_ACTIONS,
)
from .rules import (
    ACTION_KINDS,
    HAND_SIZE,
    START_ROWS,
)
from .state import (
    ASK_NAMES,
    PHASE_ASK,
    PHASE_OVER,
    PHASE_PICK,
    PHASE_PICK_SECOND,
    BoardState,
)

GAME = "board"
DEFAULT_VARIANT = "basic"  # a record without "variant"


class Recorder:
    """Builds one record per game of a batch while it is stepped.

    Create it with the batch as `new_games` (or `from_deal`) returned it, then call
    `observe(before, actions, after, events)` after every step with the (P, B) encoded
    actions the step took; `records(state)` returns the records so far. Games a step did not
    advance (its `games` mask) are left alone. `events` is accepted for the observer
    protocol but not needed: the record is written from the states and actions.

    Each pick step adds a tile per seat to the current turn (two steps under play-two);
    each question step adds the asked seat's answer to the turn's decisions, in the order
    the engine asks them (the record's order). `records` leaves out a turn that is not
    finished yet (a game saved mid-turn), with the scores as of the last finished turn.
    """

    def __init__(self, state: BoardState, seats: list[str] | None = None, seeds: list[int] | None = None):
        self.config = state.config
        if (state.turn != 0).any() or (state.phase != PHASE_PICK).any() or (state.hand_size() != HAND_SIZE).any():
            raise ValueError("a Recorder starts with games that have not begun (turn 0, every hand full)")
        B = state.batch_size
        self._games: list[dict[str, Any]] = []
        for b in range(B):
            rec: dict[str, Any] = {"format": FORMAT, "game": GAME, "variant": self.config.variant,
                                   "rules": self.config.to_dict(), **layout_to_dict(self.config.board)}
            if seats is not None:
                rec["seats"] = list(seats)
            if seeds is not None:
                rec["seed"] = int(seeds[b])
            rec["hands"] = state.hand_lists(b)
            rec["start"] = [int(state.tiles[r, 0, b]) for r in range(START_ROWS)]
            rec["draws"] = []  # filled in by records(): the tiles drawn so far
            rec["turns"] = []
            self._games.append(rec)
        self._finished = [0] * B  # turns finished per game
        self._scores = [state.score[:, b].astype(int).tolist() for b in range(B)]  # as of then

    def observe(self, before: BoardState, actions, after: BoardState, events=None) -> None:
        """Add what one step did (`actions`: (P, B) encoded, as the step took them)."""
        if before is after:
            raise ValueError("Recorder needs the state before the step: step without inplace=True")
        actions = np.asarray(actions)
        moved = np.zeros(before.batch_size, dtype=bool)  # the games the step advanced
        for f in dataclasses.fields(before):
            if f.name != "config":
                a, b = getattr(before, f.name), getattr(after, f.name)
                moved |= (a != b).reshape(-1, a.shape[-1]).any(axis=0)
        for b in np.flatnonzero(moved & (before.phase != PHASE_OVER)):
            turns = self._games[b]["turns"]
            phase = before.phase[b]
            if phase == PHASE_PICK:  # (a pro seat whose hand ran out passes)
                turns.append({"tiles": [[int(a) + 1] if a < N_TILE_ACTIONS else [] for a in actions[:, b]],
                              "decisions": []})
            elif phase == PHASE_PICK_SECOND:
                for seat, a in enumerate(actions[:, b]):
                    if a < N_TILE_ACTIONS:
                        turns[-1]["tiles"][seat].append(int(a) + 1)
            elif phase == PHASE_ASK:
                seat, ask = int(before.asker[b]), int(before.ask[b])
                turns[-1]["decisions"].append({"seat": seat, "ask": ASK_NAMES[ask],
                                               "answer": answer_value(ask, int(actions[seat, b]))})
            if after.phase[b] in (PHASE_PICK, PHASE_OVER):  # the turn is over (the next one waits)
                self._finished[b] = len(turns)
                self._scores[b] = after.score[:, b].astype(int).tolist()

    def records(self, state: BoardState) -> list[dict[str, Any]]:
        """The records of every game as of `state` (the batch last observed): the tiles
        drawn from the supply, the finished turns, scores and winners ([] while not over)."""
        out = []
        winners = state.winners()
        for b, rec in enumerate(self._games):
            rec = dict(rec)
            rec["draws"] = state.supply[:int(state.drawn[b]), b].astype(int).tolist()
            if self.config.pro:
                rec["action_draws"] = [ACTION_KINDS[k] for k in state.action_log[:int(state.action_drawn[b]), b]]
            mid_turn = state.phase[b] in (PHASE_PICK_SECOND, PHASE_ASK)
            rec["turns"] = rec["turns"][:self._finished[b]]
            rec["scores"] = list(self._scores[b]) if mid_turn else state.score[:, b].astype(int).tolist()
            rec["winners"] = np.flatnonzero(winners[:, b]).tolist()
            out.append(rec)
        return out
