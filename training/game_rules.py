"""Which game a run learns, and each game's rule options (CardRules for the card game,
GameRules for the board game): the `game` option of training and imitation configs.

A run's config holds the options of both games, flat (a file or `--set` names them
like any other option); `game` says which are in force. The other game's options must
stay at their defaults (a board run with `deck=exact` is a ConfigError naming it), and
the game's own are checked by its rules (`game_rules`: the card RuleConfig or the
BoardConfig). A config.json from before the option is a card run.

A board run's other defaults differ from a card run's (variant basic, board agents in
the pool and the evaluation, the plain MLP network: the card scorer reads card
features): `board_defaults` fills them in for the options a file or `--set` leaves out,
so `--set game=board` alone is a valid board run. An option given explicitly is kept
and checked (policy=card-scorer for the board is refused, not replaced).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.options import canonical_rule_options
from sixnimmt_env.core.rewards import check_option

RUN_GAMES = ("cards", "board")
"""The games a run can learn."""
BOARD_RULE_KEYS = ("next_row", "layout", "plus5_cards", "double_cards", "action_cards")
"""The board game's rule options a run takes, besides variant and the seat count."""
CARD_ONLY_KEYS = ("deck", "row_choice", "end_score", "max_rounds")
"""The card game's rule options besides variant (a board run leaves them at their defaults)."""


RULE_KEYS = ("variant", "deck", "row_choice", "end_score", "max_rounds")
"""The fields of CardRules, in order: the card game's rule options but the seat count."""


@dataclass(frozen=True)
class CardRules:
    """The card game's rule options of a run's games (RuleConfig's, less the seat count,
    which a run gives per table). RuleConfig checks them (`card_rules`): the values they
    allow are written there once. A config.json from before these fields was classic with
    the full deck, which the defaults are."""

    variant: str = "classic"
    """classic or die-sechste (sixnimmt_env.cards.rules.VARIANTS)."""
    deck: str = "full"
    """full (every card of the variant) or exact (10 x players + 4 cards)."""
    row_choice: str = "player"
    """player (the rules) or cheapest (automatic rows, as in published results)."""
    end_score: int = 66
    """A game ends after the round in which someone reaches this (0: no end score)."""
    max_rounds: int = 0
    """A game ends after this many rounds (0: no round limit)."""

    def rule_fields(self) -> dict:
        """The rule options as this config holds them (0 for an unused limit)."""
        return {name: getattr(self, name) for name in RULE_KEYS}

    def rule_options(self) -> dict:
        """The rule options as make_game and RuleConfig take them (None for an unused limit:
        core/options.py is the one home of "0 means none")."""
        return canonical_rule_options(self.rule_fields())

    def card_rules(self, players: int):
        """The RuleConfig of a table of `players` under these options (ConfigError if invalid)."""
        from sixnimmt_env import RuleConfig
        return RuleConfig(players=players, **self.rule_options())


@dataclass(frozen=True)
class GameRules:
    """The game of a run, and the board game's rule options (BoardConfig's, less players
    and variant; `variant` is CardRules' field, shared by both games)."""

    game: str = "cards"
    """cards (the card games, CardRules' options) or board (the 2019 board game)."""
    next_row: str = "scan"
    """board: where a tile goes after taking a row (scan or rotate)."""
    layout: str = ""
    """board: a shipped layout's name or a layout file ("": the variant's side's default)."""
    plus5_cards: int = 6
    """board: "+5" luck cards in their stack (luck variants)."""
    double_cards: int = 6
    """board: "2x" luck cards in their stack (luck variants)."""
    action_cards: tuple[int, ...] = (4, 4, 4, 4, 4, 4)
    """board, pro side: the action deck, cards of each kind (stop, swap, skip, front, ascending, one_more)."""

    def check_game(self) -> None:
        """`game` is known and the other game's options are at their defaults (ConfigError)."""
        check_option("game", self.game, RUN_GAMES)
        unused = BOARD_RULE_KEYS if self.game == "cards" else CARD_ONLY_KEYS
        for name in unused:
            if getattr(self, name) != _default(type(self), name):
                other = "board" if self.game == "cards" else "card"
                raise ConfigError(f"{name} is a {other} game option; this run's game is {self.game!r} "
                                  f"(set game={'board' if self.game == 'cards' else 'cards'}, or drop {name})")

    def board_options(self) -> dict:
        """The board run's make_game keywords, less players."""
        out = {"variant": self.variant, **{name: getattr(self, name) for name in BOARD_RULE_KEYS}}
        out["layout"] = self.layout or None
        return out

    def rule_options(self) -> dict:
        """The rule options as make_game takes them, less players: the card game's
        (CardRules), or the board game's with `game: "board"` (so a label unit knows its game)."""
        if self.game == "board":
            return {"game": "board", **self.board_options()}
        return super().rule_options()

    def card_rules(self, players: int):
        """The card RuleConfig of a table of `players` (ConfigError for a board run)."""
        if self.game != "cards":
            raise ConfigError(f"a {self.game} run has no card rules")
        return super().card_rules(players)

    def game_rules(self, players: int):
        """The rules of a table of `players` seats of this run's game (checked by them)."""
        if self.game == "board":
            from sixnimmt_env.board.rules import BoardConfig
            return BoardConfig(players=players, **self.board_options())
        return self.card_rules(players)

    def game_fields(self) -> dict:
        """The game and the board options, as this config holds them (for another config)."""
        return {"game": self.game, **{name: getattr(self, name) for name in BOARD_RULE_KEYS}}


def board_defaults(values: dict, defaults: dict) -> dict:
    """`values` (a config's options by name) with `defaults` (the board run's defaults of
    that config) under them, when they name the board game; else `values` as they are."""
    if values.get("game") != "board":
        return values
    return {**defaults, **values}


def _default(cls, name: str):
    """The default of field `name` of the dataclass `cls`."""
    f = next(f for f in dataclasses.fields(cls) if f.name == name)
    return f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
