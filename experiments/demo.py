"""A seeded demo game between built-in players, printed turn by turn.

The players are simple and built in on purpose (a uniformly random card; on a too-low
card, the row with the fewest bullheads): the demo shows the engine, records and
renderer working together, not playing strength.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from sixnimmt_env import PHASE_ROW, RuleConfig, game_seeds, new_games, step
from sixnimmt_env.records import Recorder
from sixnimmt_env.render import scores_line, step_lines, table_lines


def demo_actions(st, rng: np.random.Generator) -> np.ndarray:
    """(P, B) actions: a random card from each hand; the chooser takes the cheapest row."""
    P, B = st.players, st.batch_size
    n = np.maximum(10 - st.turn.astype(np.int64), 1)
    slots = (rng.random((P, B)) * n).astype(np.int64)
    actions = np.take_along_axis(st.hands, slots[:, None, :], axis=1)[:, 0, :].astype(np.int64)
    for b in np.flatnonzero(st.phase == PHASE_ROW):
        bulls = st.row_bulls[:, b] * 8 + st.row_count[:, b]
        actions[st.chooser[b], b] = int(np.argmin(bulls))
    return actions


def play_demo(config: RuleConfig, seed: int, echo: Callable[[str], None] = print) -> dict:
    """Play one game, echoing every turn; returns its game record."""
    st = new_games(config, game_seeds(seed, 1))
    rng = np.random.default_rng(seed)
    recorder = Recorder(st, seats=["demo-random"] * config.players, seeds=[seed])
    echo(f"{'6 nimmt!' if config.variant == 'classic' else config.variant} demo: {config.players} players, row choice {config.row_choice}, seed {seed}")
    announced_round = -1
    while not st.game_over()[0]:
        if st.round[0] != announced_round:
            announced_round = int(st.round[0])
            echo(f"\n=== round {announced_round + 1} (dealer: seat {int(st.dealer[0])}) ===")
        if st.phase[0] != PHASE_ROW:
            echo(f"-- turn {int(st.turn[0]) + 1}")
            for line in table_lines(st):
                echo("   " + line)
        actions = demo_actions(st, rng)
        after, events = step(st, actions, report=True)
        recorder.observe(st, actions, after, events)
        for line in step_lines(st, events, after=after):
            echo(line)
        if events.round_over[0]:
            echo(scores_line(after))
        st = after
    winners = np.flatnonzero(st.winners()[:, 0]).tolist()
    echo("\nfinal scores: " + ", ".join(f"seat {p}: {int(t)}" for p, t in enumerate(st.total()[:, 0])))
    echo("winner" + ("s" if len(winners) > 1 else "") + ": " + ", ".join(f"seat {w}" for w in winners))
    return recorder.records(st)[0]
