"""Rewards, episode kinds and illegal-action policies shared by every adapter.

Rewards are computed from each seat's totals before and after a step, turned by the
game's utility sign (`GameInfo.utility`: -1 when the fewest points win, as in the card
games; +1 when the most points win) so that a higher reward is always better.
"""

from __future__ import annotations

import numpy as np

from .errors import ConfigError

REWARDS = ("points", "relative", "rank", "penalty")
"""The reward kinds; "penalty" is the card games' name of "points", kept as an alias."""
REWARD_ALIASES = {"penalty": "points"}
EPISODES = ("game", "round")
ILLEGAL_POLICIES = ("raise", "penalize")


def check_option(name: str, value, allowed: tuple[str, ...]) -> None:
    """ConfigError unless `value` is one of `allowed` (the message lists them)."""
    try:
        known = value in allowed
    except TypeError:  # e.g. a list: unhashable where `allowed` is a dict
        known = False
    if not known or not isinstance(value, str):
        raise ConfigError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")


def rank_rewards(totals: np.ndarray, utility: int = -1) -> np.ndarray:
    """(P, ...) totals -> (P, ...) rank rewards in [-1, 1]: (#worse - #better) / (P - 1)."""
    P = totals.shape[0]
    points = totals if utility < 0 else -totals  # "worse" = more points when fewest win
    worse = (points[None, :] > points[:, None]).sum(axis=1)
    better = (points[None, :] < points[:, None]).sum(axis=1)
    return (worse - better) / (P - 1)


def step_rewards(kind: str, before: np.ndarray, after: np.ndarray, over: np.ndarray,
                 utility: int = -1) -> np.ndarray:
    """(P, B) rewards of one step from the (P, B) totals before and after it.

    "points" (alias "penalty"): the points the step gave, signed by the utility (the card
    games: minus the bullheads taken; the board game: the points won); "relative": that
    minus the other seats' mean; "rank": 0 until the episode ends, then `rank_rewards`.
    """
    kind = REWARD_ALIASES.get(kind, kind)
    taken = (after - before).astype(np.float64)
    if kind == "points":
        return utility * taken
    if kind == "relative":
        P = taken.shape[0]
        others = (taken.sum(axis=0, keepdims=True) - taken) / (P - 1)
        return utility * (taken - others)
    return rank_rewards(after, utility) * over[None, :]


def step_rewards_one(kind: str, before: list[int], after: list[int], over: bool,
                     utility: int = -1) -> list[float]:
    """`step_rewards` of one game on Python numbers, with the same float64 arithmetic."""
    kind = REWARD_ALIASES.get(kind, kind)
    taken = [float(a - b) for a, b in zip(after, before)]
    if kind == "points":
        return [utility * t for t in taken]
    P = len(taken)
    if kind == "relative":
        total = sum(taken)
        return [utility * (t - (total - t) / (P - 1)) for t in taken]
    won = 1.0 if over else 0.0
    points = after if utility < 0 else [-a for a in after]
    return [(sum(o > a for o in points) - sum(o < a for o in points)) / (P - 1) * won for a in points]
