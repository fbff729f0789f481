"""What the arena checks of an agent's answers: its shape, and who played an illegal action.

The engine checks every action when it steps (and says which game and seat broke the
rules, not which agent). Legality is not checked again at every step: only when the
engine refuses a step does `blame_illegal` look for the agent whose action it was, and
name it with its seat, the game and the turn (one line in the CLI).
"""

from __future__ import annotations

import numpy as np

from sixnimmt_env.adapters.checks import action_array
from sixnimmt_env.core.errors import IllegalActionError


def checked_actions(name: str, chosen, n: int) -> np.ndarray:
    """(n,) int64 actions from an agent's act(); IllegalActionError naming the agent for
    anything else (floats, a wrong count)."""
    try:
        return action_array(chosen, n, who=f"agent {name!r}: act() returned")
    except IllegalActionError:
        raise
    except Exception as e:  # not array-like at all
        raise IllegalActionError(f"agent {name!r}: act() returned {type(chosen).__name__}, "
                                 f"not {n} integer actions ({e})") from None


def blame_illegal(game, state, asked: dict, cause: IllegalActionError) -> IllegalActionError:
    """The error naming the agent whose action the engine refused in `state`.

    `asked`: agent name -> (seats, games, actions) of the step. Game g of the arena's
    batch is deal g // P in seat rotation g % P. Falls back to the engine's own error."""
    P = game.info.players
    for name, (seats, games, actions) in asked.items():
        if not len(games):
            continue
        view = game.view(state, seats, games)
        mask = view.action_mask()
        A = mask.shape[1]
        in_range = (actions >= 0) & (actions < A)
        legal = np.zeros(len(actions), dtype=bool)
        legal[in_range] = mask[np.flatnonzero(in_range), actions[in_range]]
        bad = np.flatnonzero(view.must_act & ~legal)
        if len(bad):
            e = int(bad[0])
            s, g, a = int(seats[e]), int(games[e]), int(actions[e])
            where = game.progress(state, g)
            when = ", ".join(f"{k} {v + 1}" for k, v in where.items() if k != "phase")  # counted from 1, as people read
            what = game.describe_action(a) if 0 <= a < A else "out of range"
            allowed = ", ".join(f"{x} ({game.describe_action(int(x))})" for x in np.flatnonzero(mask[e])[:12])
            return IllegalActionError(
                f"agent {name!r} played an illegal action: seat {s + 1}, game {g + 1} (deal {g // P + 1}, rotation {g % P}), "
                f"{when} ({where.get('phase')} phase): action {a} ({what}); legal: {allowed}")
    return cause
