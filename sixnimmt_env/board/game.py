"""The 2019 board game behind the one game interface (core.game.Game).

`BoardGame(rules)` gathers the board modules (engine, seat view, encoder, records,
rendering) under the same methods as the card games, so every adapter, the arena, the
records tools and the CLI play it without knowing it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..core.errors import ConfigError
from ..core.game import GameBase, GameInfo
from ..core.rewards import EPISODES, check_option
from . import engine
from ._render import action_cards_line, board_lines, scores_line, step_lines
from .actions import N_ACTIONS, PASS_ACTION, describe_action
from .encoding import MAX_TURNS, OBSERVATIONS, board_layout
from .rules import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, RULE_KEYS, VARIANTS, BoardConfig
from .seat_view import BoardSeatView
from .state import PHASE_ASK, PHASE_NAMES, PHASE_OVER, PHASE_PICK, PHASE_PICK_SECOND, BoardState
from .warm import load_kernels

NAME = "board"
# A turn asks at most: two tiles, and per tile a few questions (2x, luck cards, +5).
_STEPS_PER_TURN = 2 + 2 * MAX_PLAYERS * 4


class BoardGame(GameBase):
    """One rule configuration of the board game (see core.game.Game for the contract)."""

    config_class = BoardConfig
    kind_words = "the board game"
    seat_view_class = BoardSeatView
    layout_of = staticmethod(board_layout)
    observations = OBSERVATIONS

    def __init__(self, rules: BoardConfig):
        self.rules = rules
        self.info = GameInfo(
            game=NAME, variant=rules.variant, variants=VARIANTS, players=rules.players,
            min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, n_actions=N_ACTIONS, pass_action=PASS_ACTION,
            utility=+1, score_unit="points", rule_options=RULE_KEYS + ("layout",), observations=OBSERVATIONS,
            max_decision_steps=MAX_TURNS * _STEPS_PER_TURN, phases=PHASE_NAMES)

    def new_games(self, seeds) -> BoardState:
        state = engine.new_games(self.rules, seeds)
        load_kernels(state)  # once a process: the kernels' cache load before anyone's first decision is timed
        return state

    def restart(self, state: BoardState, games, seeds) -> None:
        games = np.atleast_1d(np.asarray(games, dtype=np.intp))
        if len(games) == 0:
            return
        fresh = engine.new_games(self.rules, seeds)
        for f in dataclasses.fields(state):
            if f.name != "config":
                getattr(state, f.name)[..., games] = getattr(fresh, f.name)

    def step(self, state: BoardState, actions, *, inplace: bool = False, report: bool = False,
             games=None, validate: bool = True):
        return engine.step(state, actions, inplace=inplace, report=report, games=games, validate=validate)

    def to_act(self, state: BoardState) -> np.ndarray:
        """(P, B): every seat with tiles in the pick phases, the asker when a question is open."""
        seats = np.arange(state.players)[:, None]
        # Each seat's own hand: on the pro side hands differ, and a seat without a tile for
        # the second play-two pick passes.
        picking = ((state.phase == PHASE_PICK) | (state.phase == PHASE_PICK_SECOND))[None, :] & (state.hands[:, 0] > 0)
        return picking | ((state.phase == PHASE_ASK)[None, :] & (seats == state.asker[None, :]))

    def totals(self, state: BoardState) -> np.ndarray:
        """(P, B) points so far: a copy, since the engine steps the state in place and
        the adapters compare the totals before and after a step."""
        return state.score.copy()

    def game_over(self, state: BoardState) -> np.ndarray:
        return state.phase == PHASE_OVER

    def winners(self, state: BoardState) -> np.ndarray:
        return state.winners()

    def progress(self, state: BoardState, game: int = 0) -> dict[str, Any]:
        """The board game has no rounds: round is always 0; turn counts the turns played."""
        return {"phase": PHASE_NAMES[int(state.phase[game])], "round": 0, "turn": int(state.turn[game])}

    def fraction_done(self, state: BoardState) -> np.ndarray:
        """Turns played of the tiles each seat gets (HAND_SIZE, twice with 2-3 players);
        play-two turns end a game sooner, so this is an upper estimate of the turns left."""
        turns = HAND_SIZE * (2 if self.rules.players <= 3 else 1)
        done = np.clip(state.turn / turns, 0.0, 0.99)
        return np.where(state.phase == PHASE_OVER, 1.0, done)

    def describe_action(self, action: int) -> str:
        return describe_action(action)

    def episode(self, kind: str) -> "BoardGame":
        """The board game is one long round: both episode kinds are the whole game."""
        check_option("episode", kind, EPISODES)
        return self

    def position(self, deal: Any, seed: int) -> BoardState:
        """One game from a deal option {"hands": [...], "start": [...], "draws": [...]}."""
        from ..core.errors import InvalidRecordError
        from ..core.rng import game_seeds
        from ._replay import check_deal
        try:
            hands, start, supply = check_deal(self.rules, deal, "deal")
        except InvalidRecordError as e:
            raise ConfigError(f"invalid deal option: {e}") from None
        return engine.from_deal(self.rules, [hands], [start], [supply], seeds=game_seeds(seed, 1))

    def recorder(self, state: BoardState, seats=None, seeds=None):
        from ._records import Recorder
        return Recorder(state, seats=seats, seeds=seeds)

    def render(self, state: BoardState, game: int = 0) -> list[str]:
        head = f"turn {int(state.turn[game]) + 1}" + (", two tiles each" if state.picks[game] == 2 else "")
        lines = [head] + board_lines(state, game) + [scores_line(state, game)]
        if self.rules.pro:
            lines.append(action_cards_line(state, game))
        return lines

    def render_step(self, before: BoardState, events, after: BoardState, game: int = 0) -> list[str]:
        return step_lines(before, events, after, game)

    def table_view(self, state: BoardState, seat: int | None, game: int = 0, *, before=None,
                   events=None, actions=None, public=None) -> dict[str, Any]:
        """What a seat may know, as data for a UI (schema: core.game.Game.table_view)."""
        from ._table_view import table_view
        return table_view(state, seat, game, before=before, events=events, actions=actions, public=public)

    def single_game(self, observation: str | None = None):
        return None  # no pure-Python path: the ParallelEnv steps a batch of one


def make(rules: BoardConfig | None = None, **rule_options) -> BoardGame:
    """The board game of `rules`, or of rule options (BoardConfig's fields)."""
    return BoardGame.bind(rules, **rule_options)


def replay(record: dict):
    """Check a board-game record against the rules and recompute its outputs."""
    from ._replay import replay as replay_record
    return replay_record(record)
