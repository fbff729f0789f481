"""A seeded demo game between built-in players, printed turn by turn (any game).

The players are simple and built in on purpose: the demo shows the engine, records and
renderer working together through the game interface, not playing strength. Any game
is played by uniformly random legal actions (`view.random_legal_actions`) and shown with
`game.render` at each new turn and `game.render_step` after each step. The card games
have a demo of their own (its players take a uniformly random card and, when the rules
ask for a row, the allowed row with the fewest bullheads), pinned line for line by
tests/cards/test_golden_cards.py.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from sixnimmt_env.cards.actions import row_action
from sixnimmt_env.cards.placement import cheapest_row
from sixnimmt_env.cards.render import scores_line, table_lines
from sixnimmt_env.cards.rules import HAND_SIZE
from sixnimmt_env.cards.state import PHASE_ROW
from sixnimmt_env.core.game import as_game
from sixnimmt_env.core.rng import game_seeds

DEMO_SEAT = "demo-random"  # the players' name under "seats" in the record


def demo_actions(st, rng: np.random.Generator) -> np.ndarray:
    """(P, B) encoded actions: a random card from each hand; a chooser takes the
    cheapest of the rows it may take."""
    P, B = st.players, st.batch_size
    n = np.maximum(HAND_SIZE - st.turn.astype(np.int64), 1)
    slots = (rng.random((P, B)) * n).astype(np.int64)
    actions = np.take_along_axis(st.hands, slots[:, None, :], axis=1)[:, 0, :].astype(np.int64) - 1
    for b in np.flatnonzero(st.phase == PHASE_ROW):
        row = cheapest_row(st.row_bulls[:, b], st.row_count[:, b], st.row_options[:, b])
        actions[st.chooser[b], b] = row_action(st.config, row)
    return actions


def play_demo(game, seed: int, echo: Callable[[str], None] = print) -> dict:
    """Play one game (a Game, a game kind's name or its rules), echoing every turn; returns
    its record."""
    game = as_game(game)
    demo = DEMOS.get(game.info.game, interface_demo)
    return demo(game, seed, echo)


def interface_demo(game, seed: int, echo: Callable[[str], None] = print) -> dict:
    """The demo of any game, through the game interface alone: random legal actions for
    every seat, `render` at each new turn, `render_step` after every step."""
    info = game.info
    P = info.players
    st = game.new_games(game_seeds(seed, 1))
    rng = np.random.default_rng(seed)
    recorder = game.recorder(st, seats=[DEMO_SEAT] * P, seeds=[seed])
    rules = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in game.rules.to_dict().items() if k != "players")
    echo(f"{info.game} demo ({info.variant}): {P} players, {rules}, seed {seed}")
    echo(f"random legal play; the {'fewest' if info.utility < 0 else 'most'} {info.score_unit} win")
    seats, games = np.arange(P), np.zeros(P, dtype=np.intp)
    shown = None
    while not game.game_over(st)[0]:
        where = game.progress(st)
        if (where["round"], where["turn"]) != shown:
            shown = (where["round"], where["turn"])
            echo("")
            for line in game.render(st):
                echo("   " + line)
        actions = game.view(st, seats, games).random_legal_actions(rng)[:, None]  # pass where nothing to decide
        st, _ = _step(game, st, actions, recorder, echo)
    _final(game, st, echo, info.score_unit)
    return recorder.records(st)[0]


def _step(game, st, actions, recorder, echo):
    """One step of the demo game: played, recorded and echoed; returns the next state and
    the step's events."""
    after, events = game.step(st, actions, report=True)
    recorder.observe(st, actions, after, events)
    for line in game.render_step(st, events, after):
        echo(line)
    return after, events

def _final(game, st, echo, unit: str | None = None) -> None:
    winners = np.flatnonzero(game.winners(st)[:, 0]).tolist()
    head = "\nfinal scores" + (f" ({unit})" if unit else "") + ": "
    echo(head + ", ".join(f"seat {p + 1}: {int(t)}" for p, t in enumerate(game.totals(st)[:, 0])))  # seats from 1
    echo("winner" + ("s" if len(winners) > 1 else "") + ": " + ", ".join(f"seat {w + 1}" for w in winners))


def card_demo(game, seed: int, echo: Callable[[str], None] = print) -> dict:
    """The card games' demo (the card game records every game: `record` changes nothing)."""
    config = game.rules
    st = game.new_games(game_seeds(seed, 1))
    rng = np.random.default_rng(seed)
    recorder = game.recorder(st, seats=[DEMO_SEAT] * config.players, seeds=[seed])
    echo(f"{'6 nimmt!' if config.variant == 'classic' else config.variant} demo: {config.players} players, "
         f"row choice {config.row_choice}, seed {seed}")
    announced_round = -1
    while not game.game_over(st)[0]:
        if st.round[0] != announced_round:
            announced_round = int(st.round[0])
            echo(f"\n=== round {announced_round + 1} (dealer: seat {int(st.dealer[0]) + 1}) ===")
        if st.phase[0] != PHASE_ROW:
            echo(f"-- turn {int(st.turn[0]) + 1}")
            for line in table_lines(st):
                echo("   " + line)
        st, events = _step(game, st, demo_actions(st, rng), recorder, echo)
        if events.round_over[0]:
            echo(scores_line(st))
    _final(game, st, echo)
    return recorder.records(st)[0]


# A game kind's own demo, where it has one; every other kind plays interface_demo.
DEMOS = {"cards": card_demo}
