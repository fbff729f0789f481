"""The card games (classic 6 nimmt! and Die Sechste) behind the one game interface.

`CardGame(rules)` implements `core.game.Game` over the batched engine (`engine.py`): it
takes encoded actions (`actions.py`) and hands them to the engine as card ids or rows,
and gathers what adapters, agent loops, records and UIs need from the card modules, so
none of them imports those modules.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..core.errors import ConfigError, InvalidRecordError
from ..core.game import GameBase, GameInfo
from ..core.rewards import EPISODES, check_option
from . import engine
from .actions import action_size, describe_action, engine_actions, pass_action
from .encoding import OBSERVATIONS, card_layout
from .records import Recorder, check_deal
from .records import replay as replay_record
from .render import scores_line, step_lines, table_lines
from .rules import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, VARIANTS, RuleConfig
from .seat_view import SeatView
from .single_game import SingleGame
from .state import PHASE_CARDS, PHASE_NAMES, PHASE_ROW, State

NAME = "cards"
# A turn asks at most three decisions: the cards, a too-low card's row, a twin-row choice.
_STEPS_PER_TURN = 3


class CardGame(GameBase):
    """One rule configuration of the card games (see core.game.Game for the contract)."""

    config_class = RuleConfig
    kind_words = "the card games"
    seat_view_class = SeatView
    layout_of = staticmethod(card_layout)
    observations = OBSERVATIONS

    def __init__(self, rules: RuleConfig):
        self.rules = rules
        rounds = rules.max_rounds
        self.info = GameInfo(
            game=NAME, variant=rules.variant, variants=tuple(VARIANTS), players=rules.players,
            min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, n_actions=action_size(rules),
            pass_action=pass_action(rules), utility=-1, score_unit=rules.variant_data.penalty_unit,
            rule_options=tuple(rules.to_dict()), observations=OBSERVATIONS,
            max_decision_steps=None if rounds is None else rounds * HAND_SIZE * _STEPS_PER_TURN,
            phases=PHASE_NAMES)

    # ------------------------------------------------------------------ stepping

    def new_games(self, seeds) -> State:
        return engine.new_games(self.rules, seeds)

    def restart(self, state: State, games, seeds) -> None:
        engine.restart(state, games, seeds)

    def step(self, state: State, actions, *, inplace: bool = False, report: bool = False,
             games=None, validate: bool = True):
        to_engine = engine_actions(self.rules, state.phase[None, :], actions)
        return engine.step(state, to_engine, inplace=inplace, report=report, games=games,
                           validate=validate)

    def to_act(self, state: State) -> np.ndarray:
        """(P, B): every seat in the cards phase, the chooser in the row phase."""
        seats = np.arange(state.players)[:, None]
        return ((state.phase == PHASE_CARDS)[None, :]
                | ((state.phase == PHASE_ROW)[None, :] & (seats == state.chooser[None, :])))

    # ------------------------------------------------------------------ what seats see

    def totals(self, state: State) -> np.ndarray:
        return state.total()

    def game_over(self, state: State) -> np.ndarray:
        return state.game_over()

    def winners(self, state: State) -> np.ndarray:
        return state.winners()

    def progress(self, state: State, game: int = 0) -> dict[str, Any]:
        return {"phase": PHASE_NAMES[int(state.phase[game])], "round": int(state.round[game]),
                "turn": int(state.turn[game])}

    def fraction_done(self, state: State) -> np.ndarray:
        """Rounds played of max_rounds, or the leader's points of end_score (the larger);
        a game with neither end is over after its round anyway (HAND_SIZE turns)."""
        cfg = self.rules
        rounds = state.round + state.turn / HAND_SIZE
        done = np.zeros(state.round.shape, dtype=np.float64)
        if cfg.max_rounds is not None:
            done = np.maximum(done, rounds / cfg.max_rounds)
        if cfg.end_score is not None:
            done = np.maximum(done, state.total().max(axis=0) / cfg.end_score)
        if cfg.max_rounds is None and cfg.end_score is None:
            done = rounds
        over = state.game_over()
        return np.where(over, 1.0, np.clip(done, 0.0, 0.99))

    def describe_action(self, action: int) -> str:
        return describe_action(self.rules, action)

    def episode(self, kind: str) -> "CardGame":
        """A one-round episode is a game of one round."""
        check_option("episode", kind, EPISODES)
        return CardGame(dataclasses.replace(self.rules, max_rounds=1)) if kind == "round" else self

    # ------------------------------------------------------------------ positions, records, text

    def position(self, deal: Any, seed: int) -> State:
        """One game from a deal option {"hands": [...], "rows": [...], "dealer": d} (as in a
        record's round); a bad deal is a ConfigError."""
        try:
            hands, rows = check_deal(self.rules, deal, "deal", self.rules.variant_data.parse_card)
        except InvalidRecordError as e:  # for the caller, a bad option
            raise ConfigError(f"invalid deal option: {e}") from None
        dealer = deal.get("dealer", 0)
        if not isinstance(dealer, int) or not 0 <= dealer < self.rules.players:
            raise ConfigError(f"invalid deal option: dealer must be a seat 0..{self.rules.players - 1}")
        from ..core.rng import game_seeds
        return engine.from_deal(self.rules, [hands], [rows], dealer=dealer, seeds=game_seeds(seed, 1))

    def recorder(self, state: State, seats: list[str] | None = None, seeds=None) -> Recorder:
        """An observer that writes one record per game of `state` while it is stepped."""
        return Recorder(state, seats=seats, seeds=seeds)

    def render(self, state: State, game: int = 0) -> list[str]:
        """Where the game stands: round, turn, dealer, the rows, the scores."""
        head = (f"round {int(state.round[game]) + 1}, turn {int(state.turn[game]) + 1}, "
                f"dealer seat {int(state.dealer[game])}")
        return [head] + table_lines(state, game) + [scores_line(state, game)]

    def render_step(self, before: State, events, after: State, game: int = 0) -> list[str]:
        """What a step did in one game (needs the step's events)."""
        return step_lines(before, events, game, after=after)

    def table_view(self, state: State, seat: int | None, game: int = 0, *, before=None,
                   events=None, actions=None, public=None) -> dict[str, Any]:
        """What a seat may know, as data for a UI (schema: core.game.Game.table_view)."""
        from .table_view import table_view
        return table_view(state, seat, game, before=before, events=events, actions=actions, public=public)

    def single_game(self, observation: str | None = None) -> SingleGame | None:
        """The pure-Python one-game fast path, where it is proven equal to the engine."""
        if (observation or OBSERVATIONS[0]) != "basic" or not SingleGame.supports(self.rules):
            return None
        return SingleGame(self.rules, self.layout("basic"))


def make(rules: RuleConfig | None = None, **rule_options) -> CardGame:
    """The card game of `rules`, or of rule options (RuleConfig's fields)."""
    return CardGame.bind(rules, **rule_options)


def replay(record: dict):
    """Check a card-game record against the rules and recompute its outputs."""
    return replay_record(record)
