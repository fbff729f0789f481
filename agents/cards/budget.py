"""`guided:ms=N`: the search spends N milliseconds a decision on one core, as well as it can.

Instead of choosing `worlds` and `depth`, a budgeted `guided` searches the table recipe's
candidate cards (the network's best few, `top`) in as many of the game's worlds as fit in
the time: breadth first — the strongest public bot of this game found its search gains in
more sampled worlds, not in deeper search (github jhurliman/take5bot, docs/ARCHITECTURE.md:
16 worlds beat its raw network, 4 were level) — and only a budget that affords `BREADTH`
worlds at a deeper lookahead buys depth (network play for more turns of the round before
the value head judges, to the round's end at most).

The search is anytime: a first batch of worlds measures what one world costs at this table
(`Budget.cost`), then batches sized to `SAFETY` of the time left follow until the next one
would not fit or would be too small to pay its fixed cost. A world's cost has two parts,
learnt apart: its first turn (the others' cards, the engine's step, the value head) and each
further turn, which costs more (every seat of every candidate's game meets the network; about
2.5 times the first, measured at 4 players) — a single cost a turn, as until 2026-12-07,
planned the first batch at a new depth at half its time or less, and those calls took up to
2.5 N. A decision's time is N ms for every seat of the call that must act (the arena's
decisions), spent on the searched ones: rows and last cards cost nearly nothing. What the
call spends outside the planned batches (the trust check's logits, the mixture's scoring, a
batch's fixed cost, a machine whose speed changes) is met by the call's `pace`: the share
of its allotted time the latest calls actually spent, by which the next call's plan shrinks.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Callable, Iterator

BREADTH = 96
"""Worlds a decision searches at one turn's lookahead before the budget buys depth (the
recipes' 96 worlds)."""
MAX_DEPTH = 10
"""The deepest lookahead: a round has 10 turns."""
SAFETY = 0.8
"""The share of the time left a batch is planned to take (the cost is an estimate)."""
BATCH_GAMES = 4096
"""The most simulated games (worlds x candidates x decisions) in one batch of a budgeted
search: speed, not memory. A world and candidate cost 0.038-0.040 ms of CPU in batches of
3,000-9,600 games and 0.059 ms in the 32,700 a batch of 100 decisions held before (4
players, one turn; two turns: 0.17-0.18 against 0.27 ms; experiments/search-2026-12-07.md,
fourth session), so a match's budgeted calls searched about a third fewer worlds than
their time bought."""
FIRST_WORLDS = 4
"""The first batch's worlds at a table whose cost is not known yet."""
SMALLEST_BATCH = 4
"""Fewer worlds than this (or than a tenth of those searched) are not worth a batch's fixed cost."""
LEARN = 0.5
"""How far a batch's measured cost moves the estimate down (an exponential average)..."""
LEARN_UP = 0.9
"""...and up: a cost found higher is believed at once, so one slow batch does not make the
next overrun too (the worst call is what a budget's user waits for)."""
FURTHER_TURN = 3.0
"""A further turn's cost against the first turn's before a deeper batch has measured it
(measured 2.2-2.5 at 4 players: pessimistic, so the first deeper batch falls short, not over)."""
PACE_LEARN = 0.3
"""How far one call's spent share of its allotted time moves `pace`."""
PACE_LIMITS = (1.0, 3.0)
"""`pace` stays within these: a call is never allotted more than its N ms a decision, nor
less than a third of it."""


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
        # players -> seconds per world and candidate: [its first turn, each further turn (None: not measured)]
        self.cost: dict[int, list] = {}
        self.pace = PACE_LIMITS[0]  # spent over allotted of the latest searching calls (an exponential average)
        self.spent: list[float] = []  # ms a decision of the latest calls (the figures of a report)
        self.seconds_total, self.decisions_total = 0.0, 0  # over every call

    def seconds(self, decisions: int) -> float:
        """The time of `decisions` decisions."""
        return self.ms * decisions / 1000.0

    def allot(self, decisions: int) -> float:
        """The seconds a call of `decisions` decisions plans to search in: their time over
        `pace`, so what the latest calls spent outside their plan is left for."""
        return self.seconds(decisions) / self.pace

    def per_world(self, players: int, turns: int) -> float | None:
        """Seconds a world and candidate of a `turns`-turn lookahead cost at this table (None
        before any batch at this table)."""
        if players not in self.cost:
            return None
        first, further = self.cost[players]
        return first + (turns - 1) * (FURTHER_TURN * first if further is None else further)

    def depth(self, players: int, seconds: float, entries: int, candidates: int, turns_left: int) -> int:
        """The lookahead `seconds` buy for `entries` decisions of `candidates` cards each: the
        most turns (1 at least, the round's end at most) at which `BREADTH` worlds fit."""
        if players not in self.cost:
            return 1
        fits = lambda d: BREADTH * self.per_world(players, d) * entries * candidates <= SAFETY * seconds  # noqa: E731
        depth = 1
        while depth < min(MAX_DEPTH, turns_left) and fits(depth + 1):
            depth += 1
        return depth

    def worlds(self, players: int, seconds_left: float, entries: int, candidates: int, turns: int,
               searched: int) -> int:
        """The worlds of the next batch (0: stop): `SAFETY` of `seconds_left` at the known
        cost, `FIRST_WORLDS` when none is known; after the first batch (`searched` worlds
        so far), 0 when fewer than `SMALLEST_BATCH` or a tenth of `searched` fit. A
        decision searches one world at least."""
        unit = self.per_world(players, turns)
        if unit is None:
            return FIRST_WORLDS
        fit = int(SAFETY * max(seconds_left, 0.0) / (unit * entries * candidates))
        if not searched:
            return max(fit, 1)
        return fit if fit >= max(SMALLEST_BATCH, searched // 10) else 0

    def learn(self, players: int, seconds: float, entries: int, candidates: int, worlds: int, turns: int) -> None:
        """A batch of `worlds` worlds of a `turns`-turn lookahead took `seconds`: the cost
        estimate of its first turn (`turns` 1) or of a further turn moves toward it."""
        unit = seconds / max(entries * candidates * worlds, 1)
        if players not in self.cost:
            self.cost[players] = [unit, None] if turns == 1 else [unit / (1 + (turns - 1) * FURTHER_TURN), None]
            return
        first, further = self.cost[players]
        if turns == 1:
            self.cost[players][0] = _moved(first, unit)
            return
        measured = max(unit - first, 0.0) / (turns - 1)
        self.cost[players][1] = measured if further is None else _moved(further, measured)

    def record(self, seconds: float, decisions: int, allotted: float = 0.0) -> None:
        """A call of `decisions` decisions took `seconds` (the latest 10,000 calls are kept);
        one that searched in `allotted` seconds moves `pace` toward what it spent over them."""
        if decisions:
            self.spent.append(1000.0 * seconds / decisions)
            del self.spent[:-10000]
            self.seconds_total += seconds
            self.decisions_total += decisions
        if allotted > 0:  # a call that overran its plan by x: the next plans to spend 1/x of the time
            lo, hi = PACE_LIMITS
            self.pace = min(max((1 - PACE_LEARN) * self.pace + PACE_LEARN * seconds / allotted, lo), hi)


def _moved(estimate: float, measured: float) -> float:
    """The estimate moved toward a measurement: at once when the measured cost is higher."""
    rate = LEARN_UP if measured > estimate else LEARN
    return (1 - rate) * estimate + rate * measured


@contextmanager
def one_thread() -> Iterator[None]:
    """The network on one thread while a budgeted decision runs, its former threads after.
    Why: the budget is one core's time, counted as the process's CPU time, and torch's
    second thread busy-waits between the search's many small network calls; on a loaded
    2-core machine a decision then spent 60-260 ms of CPU on 1-4 worlds a card where one
    thread searched 100 or more in the same time."""
    import torch

    before = torch.get_num_threads()
    if before != 1:
        torch.set_num_threads(1)
    try:
        yield
    finally:
        if before != 1:
            torch.set_num_threads(before)
