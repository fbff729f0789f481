"""The worlds check: a seat's worlds are games it cannot tell from the real one.

As OpenSpiel's `ResampleInfostateTest` asks every state's `ResampleFromInfostate`: a
search plays in worlds the game deals (`SeatViewBase.worlds`), and a world that differs
from the real game in anything the seat knows biases every search and every label built
on it, silently (two such bugs: 6c9cf7e, 9d3005a). In every world of every position
reached by random play, for every seat:

- `public`: every property the view lists in `public` (rows and their points, the cards
  played this round, the board's tiles, scores, ...) equals the real view's;
- `hand`: the seat's own hand is its real hand (in any order);
- `observations`: every observation variant of the game encodes the same vector;
- `actions`: the legal actions are the same;
- `dealt`: no id is in two hands of a world, and every id another seat holds in a world
  is one the seat has not seen.

```python
from sixnimmt_env import make_game
from sixnimmt_env.testing.worlds import check_worlds
check_worlds(make_game("board", players=3, variant="pro"))   # raises WorldsCheckError
```

`dealer` checks another world builder (a search's own, a mutant in the tests): a function
(view, entries, count, rng) -> state, as `view.worlds` is called.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ._shared import Found


class WorldsCheckError(AssertionError):
    """The worlds of a game's seats differ from the real game (the problems, one a line)."""


def _same(a, b, count: int) -> bool:
    """Whether world values `b` (n * count, ...) are the real `a` (n, ...) repeated."""
    if isinstance(a, tuple):
        return all(_same(x, y, count) for x, y in zip(a, b))
    a, b = np.asarray(a), np.asarray(b)
    return b.shape == (a.shape[0] * count,) + a.shape[1:] and np.array_equal(np.repeat(a, count, axis=0), b)


def _dealt_problems(game, worlds, view, count: int, found: Found) -> None:
    """`dealt`: each world's hands hold no id twice, and the other seats only unseen ids."""
    P, W = view.players, worlds.batch_size
    every = game.view(worlds, np.repeat(np.arange(P), W), np.tile(np.arange(W), P))
    hands = every.hand.reshape(P, W, -1).astype(np.int64)
    unseen = np.repeat(view.unseen, count, axis=0)
    owner = np.repeat(view.seats, count)
    for w in range(W):
        held = hands[:, w][hands[:, w] > 0]
        if len(set(held.tolist())) != held.size:
            found.add("dealt", f"world {w}: an id is in two hands")
        for seat in range(P):
            cards = hands[seat, w][hands[seat, w] > 0]
            if seat != owner[w] and not unseen[w, cards].all():
                found.add("dealt", f"world {w}: seat {seat} holds {sorted(cards[~unseen[w, cards]].tolist())}, "
                                   f"seen by seat {owner[w]}")


def world_problems(game, state, seats, games=None, *, count: int = 3, rng: np.random.Generator | None = None,
                   dealer: Callable | None = None) -> list[str]:
    """The problems of `count` worlds of each seat seats[i] of game games[i] of `state`
    (each kind once in full, then how many more), [] when there are none."""
    rng = np.random.default_rng(0) if rng is None else rng
    view = game.view(state, seats, games)
    entries = np.arange(view.n)
    worlds = view.worlds(entries, count, rng) if dealer is None else dealer(view, entries, count, rng)
    found = Found()
    if worlds.batch_size != view.n * count:
        return [f"worlds: {worlds.batch_size} games for {view.n} entries x {count}"]
    seen = game.view(worlds, np.repeat(view.seats, count))
    for name in view.public:
        if not _same(getattr(view, name), getattr(seen, name), count):
            found.add(f"public {name}", f"{name} differs from the real game's")
    if not _same(np.sort(view.hand, axis=1), np.sort(seen.hand, axis=1), count):
        found.add("hand", "the seat's own hand differs from its real hand")
    for observation in game.info.observations:
        layout = game.layout(observation)
        if not _same(layout.encode(view), layout.encode(seen), count):
            found.add(f"observation {observation}", f"the {observation!r} observation differs from the real game's")
    if not _same(view.action_mask(), seen.action_mask(), count):
        found.add("actions", "the legal actions differ from the real game's")
    _dealt_problems(game, worlds, view, count, found)
    return [f"{kind.split()[0]}: {line}" for kind, line in zip(found.first, found.lines())]


def check_worlds(game, *, batch: int = 3, steps: int = 40, count: int = 3, seed: int = 0,
                 dealer: Callable | None = None) -> None:
    """Play `batch` games of `game` at random for up to `steps` steps and check the worlds
    of every seat after each (`world_problems`); WorldsCheckError listing the problems."""
    rng = np.random.default_rng(seed)
    state = game.new_games(np.arange(batch) + seed * batch)
    P = game.info.players
    problems: list[str] = []
    for step in range(steps):
        live = np.flatnonzero(~game.game_over(state))
        if len(live) == 0:
            break
        seats, games = np.repeat(np.arange(P), len(live)), np.tile(live, P)
        problems = world_problems(game, state, seats, games, count=count, rng=rng, dealer=dealer)
        if problems:
            raise WorldsCheckError(f"{game} after {step} steps:\n" + "\n".join(problems))
        B = state.batch_size
        view = game.view(state, np.repeat(np.arange(P), B), np.tile(np.arange(B), P))
        state, _ = game.step(state, view.random_legal_actions(rng).reshape(P, B))
