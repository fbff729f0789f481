"""Batch handling shared by every game's state: a dataclass of arrays, game index last.

A game's state class subclasses `GameBatch` and declares its fields (`config` first, then
arrays whose last axis is the game); copying, taking games out, branching a game into
rollouts and joining batches are then the same for every game.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .errors import IllegalActionError


class GameBatch:
    """Mixin for dataclass states: B games, every array field's last axis is the game;
    `seed` (B,) is each game's seed and `config.players` the seats."""

    @property
    def batch_size(self) -> int:
        """Number of games B."""
        return int(self.seed.shape[0])

    @property
    def players(self) -> int:
        """Number of seats P."""
        return int(self.config.players)

    def _map(self, fn):
        """A new state with `fn` applied to every array field (`config` is shared)."""
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return type(self)(**{k: (v if k == "config" else fn(v)) for k, v in values.items()})

    def copy(self):
        """A deep copy (no array is shared)."""
        return self._map(np.copy)

    def take(self, games):
        """The games at index, indices or boolean mask `games`, as a new batch."""
        idx = np.atleast_1d(np.arange(self.batch_size)[games])
        return self._map(lambda a: np.ascontiguousarray(a[..., idx]))

    def repeat(self, n: int):
        """Each game repeated n times in a row: game b becomes games b*n .. b*n+n-1.

        This is how a search agent branches one position into many rollouts.
        """
        return self._map(lambda a: np.repeat(a, n, axis=-1))


def concat(states: list):
    """One batch holding the games of `states` in order (all of one rule configuration)."""
    first = states[0]
    if any(s.config != first.config for s in states):
        raise ValueError("cannot concatenate states of different rule configurations")
    values = {}
    for f in dataclasses.fields(first):
        parts = [getattr(s, f.name) for s in states]
        values[f.name] = first.config if f.name == "config" else np.concatenate(parts, axis=-1)
    return type(first)(**values)


def step_actions(state: GameBatch, actions, what: str = "") -> np.ndarray:
    """`actions` as the (P, B) integer array a game's `step` takes for `state`, else an
    IllegalActionError naming the dtype or the shape (`what`: the actions in words, e.g.
    " (card ids or rows)")."""
    actions = np.asarray(actions)
    if not np.issubdtype(actions.dtype, np.integer):
        raise IllegalActionError(f"actions must be integers{what}, got dtype {actions.dtype}")
    if actions.shape != (state.players, state.batch_size):
        raise IllegalActionError(f"actions must have shape (players, batch) = "
                                 f"{(state.players, state.batch_size)}, got {actions.shape}")
    return actions
