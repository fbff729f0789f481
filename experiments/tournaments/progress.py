"""Progress bars for the arena's progress callback (`agents.arena.run_match`,
`play_duplicate`): `progress(decisions, share)` after every step or work unit."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class TurnBar:
    """A progress bar over the decisions of a match, with the time left.

    It counts decisions as they are made; its total is re-estimated after every call
    from how far the games are (decisions so far / share played), so the bar moves and
    the estimate of the time left holds while every game of a batch is still running
    (they end together, so counting finished games would show nothing until the end).
    The share of a game played is itself an estimate (a card game to 66 does not know
    its rounds), so early estimates swing: the total is shown only once SETTLE of the
    match is played, and then moves a STEP fraction of the way to each new estimate,
    never below the decisions made, so it never jumps.
    """

    SETTLE = 0.05  # share of the match played before a total is shown
    STEP = 0.1  # how far the total moves towards each new estimate

    def __init__(self, desc: str, enabled: bool = True, file=None):
        self.desc, self.enabled, self.file = desc, enabled, file
        self.bar = None  # drawn at the first update: a match refused before its first step shows none
        self.n = 0
        self.share = 0.0

    def update(self, decisions: int, share: float) -> None:
        """`decisions` more were made; `share` of the match is played (0..1)."""
        if self.bar is None:
            from tqdm import tqdm
            self.bar = tqdm(total=None, unit="decision", unit_scale=True, desc=self.desc, disable=not self.enabled,
                            leave=False, smoothing=0.3, file=self.file,
                            bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} decisions "
                                       "[{elapsed}<{remaining}, {rate_fmt}]")
        self.n += decisions
        self.share = share
        if share >= 1:
            self.bar.total = self.n
        elif share >= self.SETTLE:
            estimate = self.n / share
            total = estimate if self.bar.total is None else self.bar.total + self.STEP * (estimate - self.bar.total)
            self.bar.total = max(round(total), self.n)
        self.bar.update(decisions)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


@contextmanager
def turn_bar(desc: str, enabled: bool = True, file=None) -> Iterator:
    """A TurnBar's `update` to hand to the arena as its progress callback (None when not
    `enabled`); the bar is closed however the match ends."""
    bar = TurnBar(desc, enabled, file)
    try:
        yield bar.update if enabled else None
    finally:
        bar.close()
