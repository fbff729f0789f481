"""`guided:ms=N`: the search spends N milliseconds a decision on one core, as well as it can.

Instead of choosing `worlds` and `depth`, a budgeted `guided` searches the table recipe's
candidate cards (the network's best few, `top`) in as many of the game's worlds as fit in
the time: breadth first — the strongest public bot of this game found its search gains in
more sampled worlds, not in deeper search (github jhurliman/take5bot, docs/ARCHITECTURE.md:
16 worlds beat its raw network, 4 were level) — and only a budget that affords `BREADTH`
worlds at one turn's lookahead buys depth (network play for more turns of the round before
the value head judges, to the round's end at most).

The search is anytime: a first batch of worlds measures what one world costs at this table
(`Budget.cost`, seconds per world, candidate and turn simulated, kept between decisions and
updated after every batch), then batches sized to `SAFETY` of the time left follow until
the next one would not fit or would be too small to pay its fixed cost. A decision's time
is N ms for every seat of the call that must act (the arena's decisions), spent on the
searched ones: rows and last cards cost nearly nothing.
"""

from __future__ import annotations

import time
from typing import Callable

BREADTH = 96
"""Worlds a decision searches at one turn's lookahead before the budget buys depth (the
recipes' 96 worlds)."""
MAX_DEPTH = 10
"""The deepest lookahead: a round has 10 turns."""
SAFETY = 0.8
"""The share of the time left a batch is planned to take (the cost is an estimate)."""
FIRST_WORLDS = 4
"""The first batch's worlds at a table whose cost is not known yet."""
SMALLEST_BATCH = 4
"""Fewer worlds than this (or than a tenth of those searched) are not worth a batch's fixed cost."""
LEARN = 0.5
"""How far a batch's measured cost moves the estimate (an exponential average)."""


class Budget:
    """Milliseconds a decision and what the search has learnt a world to cost (see the module doc).

    Args:
        ms: the budget of one decision, in milliseconds.
        clock: seconds (a test passes a fake one). The process's CPU time: "N ms on one
            core" whatever else the machine runs (on a quiet machine, with the network on
            one thread, the wall time; a shared machine's wall time would leave the search
            only the share of a core it gets).
    """

    def __init__(self, ms: float, clock: Callable[[], float] = time.process_time):
        if not ms > 0:
            raise ValueError("ms must be > 0 (milliseconds a decision)")
        self.ms, self.clock = float(ms), clock
        self.cost: dict[tuple, float] = {}  # (players, depth) -> seconds per world, candidate and turn
        self.spent: list[float] = []  # ms a decision of the latest calls (the figures of a report)
        self.seconds_total, self.decisions_total = 0.0, 0  # over every call

    def seconds(self, decisions: int) -> float:
        """The time of `decisions` decisions."""
        return self.ms * decisions / 1000.0

    def _unit(self, players: int, depth: int) -> float | None:
        """Seconds per world, candidate and turn at this table and depth (that of depth 1
        when this depth was never run), None before any batch at this table."""
        return self.cost.get((players, depth), self.cost.get((players, 1)))

    def depth(self, players: int, seconds: float, entries: int, candidates: int, turns_left: int) -> int:
        """The lookahead `seconds` buy for `entries` decisions of `candidates` cards each:
        1 until `BREADTH` worlds fit at one turn, then as many turns as keep `BREADTH` worlds
        (the round's end at most)."""
        unit = self._unit(players, 1)
        if unit is None:
            return 1
        worlds_at_one = SAFETY * seconds / (unit * entries * candidates)
        return int(max(1, min(worlds_at_one // BREADTH, MAX_DEPTH, turns_left)))

    def worlds(self, players: int, depth: int, seconds_left: float, entries: int, candidates: int,
               turns: int, searched: int) -> int:
        """The worlds of the next batch (0: stop): `SAFETY` of `seconds_left` at the known
        cost, `FIRST_WORLDS` when none is known; after the first batch (`searched` worlds
        so far), 0 when fewer than `SMALLEST_BATCH` or a tenth of `searched` fit. A
        decision searches one world at least."""
        unit = self._unit(players, depth)
        if unit is None:
            return FIRST_WORLDS
        fit = int(SAFETY * max(seconds_left, 0.0) / (unit * entries * candidates * turns))
        if not searched:
            return max(fit, 1)
        return fit if fit >= max(SMALLEST_BATCH, searched // 10) else 0

    def learn(self, players: int, depth: int, seconds: float, entries: int, candidates: int, worlds: int,
              turns: int) -> None:
        """A batch of `worlds` worlds took `seconds`: the cost estimate moves toward it."""
        unit = seconds / max(entries * candidates * worlds * turns, 1)
        key = (players, depth)
        self.cost[key] = unit if key not in self.cost else (1 - LEARN) * self.cost[key] + LEARN * unit

    def record(self, seconds: float, decisions: int) -> None:
        """A call of `decisions` decisions took `seconds` (the latest 10,000 calls are kept)."""
        if decisions:
            self.spent.append(1000.0 * seconds / decisions)
            del self.spent[:-10000]
            self.seconds_total += seconds
            self.decisions_total += decisions
