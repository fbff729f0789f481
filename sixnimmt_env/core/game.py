"""The one game interface: what every adapter, agent loop, record tool and UI talks to.

In the spirit of pgx's `core.Env` and OpenSpiel's game info: a game *kind* (the card
games, the board game) is a module registered in `GAMES`, with `make(rules,
**rule_options) -> Game` and `replay(record)`; `make_game(name, ...)` binds it to one
rule configuration and returns a `Game`. A `Game` steps batches of B
games held in the kind's own state object (fixed-shape arrays, game index last) and
describes itself statically in a `GameInfo`.

Every decision is one integer of a single Discrete action space (`info.n_actions`); a
turn that asks for several kinds of decisions asks for them in sub-steps (phases), and a
seat with nothing to decide in a step passes. Which seats must decide is `to_act`.

```python
from sixnimmt_env import make_game
game = make_game("cards", variant="classic", players=4)
st = game.new_games(seeds)                    # B games
view = game.view(st, seats, games)            # what those seats may know (the agent API)
actions = view.random_legal_actions(rng)      # (n,) encoded actions
st, events = game.step(st, actions_pb)        # (P, B) encoded actions; others' ignored
```
"""

from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from .errors import ConfigError
from .options import canonical_rule_options

# Game kinds by name -> the module that implements them. Imported on first use, so a
# kind's dependencies load only when it is played.
GAMES = {"cards": "sixnimmt_env.cards.game", "board": "sixnimmt_env.board.game"}
DEFAULT_GAME = "cards"


@dataclass(frozen=True)
class GameInfo:
    """Static facts of one game under one rule configuration.

    Attributes:
        game: the game kind's name (a key of GAMES).
        variant: the variant being played.
        variants: every variant the kind knows.
        players: seats at this table.
        min_players, max_players: the seat counts the kind allows.
        n_actions: size of the Discrete action space (every phase).
        pass_action: the action of a seat with nothing to decide.
        utility: -1 when the fewest points win (totals are penalties), +1 when the most win.
        score_unit: what the points are called on screen ("bullheads", "points").
        rule_options: the names of the rule options (keys of `rules.to_dict()`).
        observations: the observation variants `Game.layout` accepts (the first is the default).
        max_decision_steps: most decision steps one game can take (an episode bound), or
            None when the rules set none.
        phases: the names of the game's phases, indexed by the phase code (`progress`
            names them; the environments' infos give the code, a number).
    """

    game: str
    variant: str
    variants: tuple[str, ...]
    players: int
    min_players: int
    max_players: int
    n_actions: int
    pass_action: int
    utility: int
    score_unit: str
    rule_options: tuple[str, ...]
    observations: tuple[str, ...]
    max_decision_steps: int | None = None
    phases: tuple[str, ...] = ()


@runtime_checkable
class SeatViewLike(Protocol):
    """What an agent is handed: one seat of each of n games, and nothing hidden."""

    n: int
    players: int

    @property
    def must_act(self) -> NDArray[np.bool_]:
        """(n,) whether the entry's seat has a decision in this step."""
        ...

    def action_mask(self) -> NDArray[np.bool_]:
        """(n, A) the legal actions (a seat with nothing to decide: pass only)."""
        ...

    def random_legal_actions(self, rng: np.random.Generator) -> NDArray[np.int64]:
        """(n,) one uniformly random legal action per entry."""
        ...


@runtime_checkable
class Game(Protocol):
    """One game kind bound to one rule configuration. States are batches of B games."""

    rules: Any  # the kind's frozen, validated rule configuration (with to_dict())
    info: GameInfo

    def new_games(self, seeds) -> Any:
        """Start one game per seed; game b depends only on seeds[b]."""
        ...

    def restart(self, state, games, seeds) -> None:
        """In place: start new games at indices `games` from `seeds` (auto-reset)."""
        ...

    def step(self, state, actions, *, inplace: bool = False, report: bool = False,
             games=None, validate: bool = True) -> tuple[Any, Any]:
        """Advance games by one decision step. `actions` (P, B) encoded actions; entries of
        seats that do not act are ignored; `games` (B,) bool limits the step to those games.
        Returns (state, events or None); events only with report=True."""
        ...

    def to_act(self, state) -> NDArray[np.bool_]:
        """(P, B) the seats that must decide in each game's next step."""
        ...

    def view(self, state, seats, games=None) -> SeatViewLike:
        """What seat seats[i] of game games[i] may know (default games: 0..B-1)."""
        ...

    def layout(self, observation: str | None = None):
        """The flat observation layout (core.layout.ObsLayout) of an observation variant."""
        ...

    def totals(self, state) -> NDArray:
        """(P, B) points so far, the current round included."""
        ...

    def game_over(self, state) -> NDArray[np.bool_]:
        """(B,) whether each game has ended."""
        ...

    def winners(self, state) -> NDArray[np.bool_]:
        """(P, B) the winning seats of ended games (ties: all), False while a game runs."""
        ...

    def progress(self, state, game: int = 0) -> dict[str, Any]:
        """Where game `game` stands, for infos and messages: phase name, round, turn."""
        ...

    def fraction_done(self, state) -> NDArray[np.float64]:
        """(B,) an estimate of how much of each game is played, in [0, 1] (1: over); for
        progress bars and their time left, never for rules."""
        ...

    def describe_action(self, action: int) -> str:
        """An action in words, for error messages."""
        ...

    def episode(self, kind: str) -> "Game":
        """The game an episode of `kind` ("game" or "round") plays."""
        ...

    def position(self, deal: Any, seed: int) -> Any:
        """A one-game state from a deal option (the ParallelEnv's reset(options={"deal": ...}));
        ConfigError on a bad deal."""
        ...

    def recorder(self, state, seats: list[str] | None = None, seeds=None) -> Any:
        """An observer (observe(before, actions, after, events); records(state)) that writes
        one game record per game of `state` while it is stepped with report=True."""
        ...

    def render(self, state, game: int = 0) -> list[str]:
        """Where game `game` stands, as text lines."""
        ...

    def render_step(self, before, events, after, game: int = 0) -> list[str]:
        """What one step did in game `game`, as text lines (from the step's events)."""
        ...

    def table_view(self, state, seat: int | None, game: int = 0, *, before=None,
                   events=None, actions=None, public=None) -> dict[str, Any]:
        """What seat `seat` (None: a spectator, who holds no hand) of game `game` may know,
        as JSON-able data a UI draws without knowing the game (the web page of `sixnimmt
        serve`). Read through the seat's view: never another hand or an undealt card.

        Keys: title, status (round/turn in words), unit (score_unit), over (bool), prompt
        (what the seat is asked now, or what the table waits for), info (lines: rules
        in force, stacks left), hand_label; rows: [{label, cells, points, note, alert,
        dim?, action}] where a cell is {text, card?, bulls?, field?, next?, empty?} and
        action is the encoded action that picks the row now, else None; hand: [{card,
        text, bulls, action}] sorted, action None when it cannot be played now; scores:
        [{seat, total, note}] by absolute seat; choices: [{action, label}] the seat's
        other legal decisions (answers); optional pending (face-up cards waiting to be
        placed, each with its seat) and legend ([{field, text, meaning}]). With `before`
        and `events` (the step that led to `state`, stepped with report=True), also
        events: [{kind: reveal|place|note|round|action, seat?, cards?, text, points?, alert?,
        heading? (the turn a reveal begins), row?, field?, take?, moved_to?, score? (where a
        placement lands and the seat's score after it: shown before the step's end), card?,
        help? (an action card played and what it does)}]; `actions` ((P, B) the step's
        actions) lets it name the answers others see (an action card played), never a
        hidden choice. A cell may carry `code` (its field's code, also under a tile), a
        choice `help`, the legend `card` entries (action cards: name, meaning). The
        public history a person at the table has: the card games' `played` (every card
        revealed this round: [{turn (from 1), cards: [{card, text, bulls, seat}]}], and
        `starters`, the cards the round's rows began with), the
        board's `gone` (every tile taken off the board with a row: [{card, text, bulls}]);
        a `cmd:` bot's `view` is this table view, so it counts cards as a person can.
        `public`: the spectator's view of the same state (`seat=None`, with the same
        `before` and `events`): its public parts are kept, the same objects, and only the
        seat's own (hand, prompt, the actions it is offered, its own notes) are built, so a
        server showing a step at several seats builds the public table once.
        """
        ...

    def single_game(self, observation: str | None = None) -> Any | None:
        """A pure-Python one-game fast path proven equal to `step`, or None (the ParallelEnv
        then steps a batch of one)."""
        ...


class GameBase:
    """What every game kind's Game class shares (the Protocol above can hold no code):
    equality and hashing by rules, binding rules or rule options (`bind`), and a seat's
    view and an observation's layout from the kind's own classes.

    A subclass sets `config_class` (its frozen rules dataclass), `kind_words` (the kind
    as error messages name it: "the card games"), `seat_view_class`, `layout_of` (a
    staticmethod: (rules, observation) -> ObsLayout) and `observations` (the default
    first), and takes the rules in `__init__`.
    """

    config_class: ClassVar[type]
    kind_words: ClassVar[str]
    seat_view_class: ClassVar[type]
    layout_of: ClassVar[Any]
    observations: ClassVar[tuple[str, ...]]
    rules: Any

    def view(self, state, seats, games=None):
        view = self.seat_view_class(state, seats, games)
        view._tabler = self.table_view  # the view's own table_view goes through the game
        return view

    def layout(self, observation: str | None = None):
        return self.layout_of(self.rules, observation or self.observations[0])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rules})"

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other.rules == self.rules

    def __hash__(self) -> int:
        return hash(self.rules)

    @classmethod
    def bind(cls, rules=None, **rule_options):
        """The game of `rules` (a `config_class`), or of rule options (its fields).

        Raises:
            ConfigError: an unknown option, both rules and options, rules of another type,
                or an invalid value (from the rules' own checks).
        """
        if rules is None:
            known = [f.name for f in dataclasses.fields(cls.config_class) if f.init]
            unknown = set(rule_options) - set(known)
            if unknown:
                raise ConfigError(f"unknown rule option(s) for {cls.kind_words}: {', '.join(sorted(unknown))}; "
                                  f"valid: {', '.join(known)}")
            rules = cls.config_class(**rule_options)
        elif rule_options:
            raise ConfigError("give rules or rule options, not both")
        if not isinstance(rules, cls.config_class):
            raise ConfigError(f"the rules of {cls.kind_words} are a {cls.config_class.__name__}, "
                              f"got {type(rules).__name__}")
        return cls(rules)


def game_module(name: str):
    """The module implementing game kind `name` (ConfigError naming the known kinds)."""
    if name not in GAMES:
        raise ConfigError(f"unknown game {name!r}; known games: {', '.join(GAMES)}")
    return importlib.import_module(GAMES[name])


def as_game(game) -> Game:
    """A Game from a Game, a game kind's name, or a kind's rules object (which names its
    kind in its `game` class attribute, e.g. the card games' RuleConfig)."""
    if isinstance(game, str):
        return make_game(game)
    kind = getattr(type(game), "game", None)
    if isinstance(kind, str) and kind in GAMES and hasattr(game, "to_dict"):
        return make_game(kind, game)
    if isinstance(game, Game):
        return game
    raise ConfigError(f"not a game or a game's rules: {game!r}")


def make_game(game: str | Game = DEFAULT_GAME, rules=None, **rule_options) -> Game:
    """A Game: `game` by name, bound to `rules` (the kind's config) or to rule options.

    A Game object passes through unchanged (then no rules may be given). Rule options
    mean what they mean on every front end (core.options): `end_score=0` is no end score,
    as `end_score=None` is.
    """
    if not isinstance(game, str):
        if not (hasattr(game, "info") and hasattr(game, "new_games")):
            raise ConfigError(f"game must be a game's name ({', '.join(GAMES)}) or a Game, got {game!r}")
        if rules is not None or rule_options:
            raise ConfigError("a Game object already has its rules: give no rule options with it")
        return game
    return game_module(game).make(rules, **canonical_rule_options(rule_options))
