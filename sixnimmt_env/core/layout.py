"""Flat observations as named slices: one table drives the size, decoder, bounds and docs.

A game's encoder writes a float32 vector laid out by an `ObsLayout`: a list of `Field`s,
each a named block with a shape, a meaning and the largest value it can take under the
game's rules. The same table gives the offsets the encoder writes to, `decode` (named
views of a vector), `space()` (the Gymnasium Box with per-element bounds) and
`markdown()` (the spec sheet's observation table), so they cannot drift apart.

Checklist for a new field: add it to the game's layout, write it in the game's encoder,
and (cards) in `cards/single_game.py`'s incremental encoder, whose tests compare the two.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True)
class Field:
    """One named block of the flat observation.

    Attributes:
        name: the field's name (keys of `ObsLayout.decode`).
        shape: the block's shape; it is stored flat, C order.
        description: what element i means, for the spec sheet.
        high: the largest value an element can take under the rules: one number for the
            whole block, or a tuple broadcast along its last axis.
        low: the smallest (0 unless the value can go negative, e.g. signed scores).
    """

    name: str
    shape: tuple[int, ...]
    description: str
    high: float | tuple[float, ...] = 1.0
    low: float | tuple[float, ...] = 0.0

    @property
    def size(self) -> int:
        """Number of elements."""
        return prod(self.shape)


class ObsLayout:
    """The layout of one game's flat observation: fields in order, with offsets.

    Attributes:
        name: the observation variant (e.g. "basic").
        version: bumped whenever the layout of this variant changes.
        fields: the fields in vector order.
        offsets: field name -> index of its first element.
        size: the vector's length D.
        encoder: (view, layout) -> (n, D) float32, the game's encoder for this layout.
    """

    def __init__(self, name: str, fields: list[Field], encoder=None, version: int = 0):
        self.name, self.version = name, version
        self._encoder = encoder
        self.fields = list(fields)
        self.offsets: dict[str, int] = {}
        self._by_name = {f.name: f for f in self.fields}
        offset = 0
        for f in self.fields:
            self.offsets[f.name] = offset
            offset += f.size
        self.size = offset

    def field(self, name: str) -> Field:
        """The field called `name`."""
        return self._by_name[name]

    def slice(self, name: str) -> slice:
        """Where field `name` lies in the vector."""
        start = self.offsets[name]
        return slice(start, start + self._by_name[name].size)

    def decode(self, vector: NDArray) -> dict[str, NDArray]:
        """Named blocks of one vector (D,) or a batch (B, D), each in its field's shape."""
        vector = np.asarray(vector)
        lead = vector.shape[:-1]
        return {f.name: vector[..., self.slice(f.name)].reshape(lead + f.shape) for f in self.fields}

    def encode(self, view) -> NDArray[np.float32]:
        """(n, D) the observations of a game's seat view (the game's encoder)."""
        return self._encoder(view, self)

    def high(self) -> NDArray[np.float32]:
        """(D,) the largest value of each element."""
        return self._bound("high")

    def low(self) -> NDArray[np.float32]:
        """(D,) the smallest value of each element."""
        return self._bound("low")

    def _bound(self, which: str) -> NDArray[np.float32]:
        return np.concatenate([np.broadcast_to(np.asarray(getattr(f, which), np.float32), f.shape).ravel()
                               for f in self.fields])

    def space(self):
        """The Gymnasium Box of this observation: each element within its rule bounds."""
        import gymnasium  # only the adapters need spaces

        return gymnasium.spaces.Box(self.low(), self.high(), dtype=np.float32)

    def markdown(self) -> str:
        """The layout as a markdown table (index range, name, meaning)."""
        lines = ["| indices | field | meaning |", "| --- | --- | --- |"]
        for f in self.fields:
            s = self.slice(f.name)
            lines.append(f"| {s.start}..{s.stop - 1} | `{f.name}` | {f.description} |")
        return "\n".join(lines)
