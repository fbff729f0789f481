"""The game and its rule options, declared once for every command that plays a game.

A command asks for them with one parameter, `options: GameOptions = GAME_OPTIONS`, under
the `@game_options` decorator: the decorator puts the options below in that parameter's
place (so `--help` lists them where the command put them) and hands the command the
`GameOptions` they name, the way CleanRL's `tyro.cli(Args)` derives a command line from
one dataclass. A ninth rule option is one entry in OPTIONS. (`option_group` is the
mechanism; the training commands and the studies share their own options through it too.)

Every option defaults to None, "the game's default": only the options given reach the
game, which refuses in one line an option it does not know (e.g. --row-choice with
--game board). Values mean what they mean in the Python API (`sixnimmt_env.core.options`:
`--end-score 0` is no end score). The web server reads its `new` message through the same
`GameOptions.given` (experiments/serve/setup.py).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Optional

import typer

PLAYERS_HELP = "2..10 for cards, 2..6 for board"

# name -> (type, option) of every game option, in the order `--help` lists them.
OPTIONS: dict[str, tuple[Any, Any]] = {
    "game": (str, typer.Option(
        "cards", "--game", help="The game: cards (classic 6 nimmt! and Die Sechste) or board "
                                "(6 nimmt! Das Brettspiel, 2019).")),
    "variant": (Optional[str], typer.Option(
        None, help="cards: classic (104 cards, default) or die-sechste (52 playing cards; two decks for 5+ "
                   "players). board: basic (default), luck (luck cards), pro (action cards, the pro side) or "
                   "pro-luck.")),
    "row_choice": (Optional[str], typer.Option(
        None, help="cards only: player (default: the owner of a too-low card chooses the row) or cheapest "
                   "(automatic).")),
    "end_score": (Optional[int], typer.Option(
        None, help="cards only: the game ends after the round in which someone reaches this (default 66; "
                   "0: unused).")),
    "max_rounds": (Optional[int], typer.Option(
        None, help="cards only: the game ends after this many rounds (default: unused; 0: unused).")),
    "deck": (Optional[str], typer.Option(
        None, help="cards only: full (default), or exact (known deck: cards 1..10*players+4).")),
    "layout": (Optional[str], typer.Option(
        None, "--layout", metavar="FILE|NAME",
        help="board only: the board, a shipped layout's name or a TOML/JSON layout file (docs/board-layout.md); "
             "default: the variant's side, basic-default (basic, luck) or pro-default (pro, pro-luck).")),
    "next_row": (Optional[str], typer.Option(
        None, help="board only: where a tile goes after taking a row: scan (default: the first empty row "
                   "below) or rotate (the first empty row after the last one opened).")),
}


@dataclass(frozen=True)
class GameOptions:
    """A game by name and the rule options given for it.

    Attributes:
        game: a key of sixnimmt_env.core.game.GAMES (checked when a game is built).
        rule_options: make_game keywords besides players, in their stored form; an option
            left out is the game's default.
    """

    game: str = "cards"
    rule_options: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def given(cls, game: str = "cards", **options) -> GameOptions:
        """From a front end's values: None is "not given" (left out, the game's default),
        the rest in their stored form (an end score of 0 is None: no end score)."""
        from sixnimmt_env.core.options import canonical_rule_options

        return cls(game, canonical_rule_options({k: v for k, v in options.items() if v is not None}))

    def build(self, players: int):
        """The Game at a table of `players` seats (ConfigError naming a bad option, also
        one the game does not know)."""
        from sixnimmt_env.core.game import make_game

        return make_game(self.game, players=players, **self.rule_options)

    def check(self, players: Iterable[int]) -> None:
        """ConfigError unless the game can be built at every seat count of `players`: for
        a command whose games are built later in worker processes, so that a bad option
        fails before they start, in one line."""
        for p in players:
            self.build(p)


class Marker:
    """The default of a command parameter that an option group fills (see option_group)."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


GAME_OPTIONS: Any = Marker("GAME_OPTIONS")


def option_group(marker: Marker, options: Mapping[str, tuple[Any, Any]], make: Callable[..., Any]) -> Callable:
    """A decorator for typer commands: it puts `options` (name -> (type, typer option))
    in place of the command's parameter that defaults to `marker`, and calls the command
    with `make(**their values)` there. The command's other parameters keep their order."""

    def decorate(command: Callable) -> Callable:
        signature = inspect.signature(command, eval_str=True)
        params = list(signature.parameters.values())
        slot = next((p for p in params if p.default is marker), None)
        if slot is None or set(options) & set(signature.parameters):
            raise TypeError(f"{command.__name__}: needs one parameter defaulting to {marker!r} and none named "
                            f"{', '.join(options)}")
        added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=kind)
                 for name, (kind, option) in options.items()]
        at = params.index(slot)
        params = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in params[:at] + added + params[at + 1:]]

        @functools.wraps(command)
        def run(**kwargs):
            made = make(**{name: kwargs.pop(name) for name in options})
            return command(**kwargs, **{slot.name: made})

        run.__signature__ = signature.replace(parameters=params)
        run.__annotations__ = {p.name: p.annotation for p in params}
        return run

    return decorate


def game_options(command: Callable) -> Callable:
    """Give a typer command the game options of OPTIONS in place of its parameter that
    defaults to GAME_OPTIONS, and call it with the GameOptions they name there."""
    return option_group(GAME_OPTIONS, OPTIONS, GameOptions.given)(command)


def variant_rule_options(kind: str, settable) -> dict[str, list[dict]]:
    """Per variant of game kind `kind`, the rule options among `settable` that the variant
    has (no luck-card stacks without luck cards), each as {name, default, choices (its
    fixed set of values, or None), help (as --help says it)}: the web page's setup form."""
    from sixnimmt_env.board.rules import NEXT_ROWS
    from sixnimmt_env.cards.rules import DECKS, ROW_CHOICES
    from sixnimmt_env.core.game import make_game

    choices = {"row_choice": ROW_CHOICES, "deck": DECKS, "next_row": NEXT_ROWS}
    luck_only = ("plus5_cards", "double_cards")
    out = {}
    for variant in make_game(kind).info.variants:
        config = make_game(kind, variant=variant).rules
        out[variant] = [{"name": k, "default": v, "choices": choices.get(k), "help": OPTIONS[k][1].help if k in OPTIONS
                         else ""} for k, v in config.to_dict().items()
                        if k in settable and (getattr(config, "luck", True) or k not in luck_only)]
    return out

