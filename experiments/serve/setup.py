"""What the page may choose (games, variants, seats, agents, rule options) and turning a
`new` message into a WebSession. Everything is read from the game interface and the agent
registry — `GAMES`, `GameInfo`, the rules' `to_dict()`, `available(game)` — so a game kind
added there shows up on the page with no change here.
"""

from __future__ import annotations

import secrets
from functools import lru_cache

import numpy as np

from agents.registry import available
from experiments.play.session import DEFAULT_OPPONENT, default_opponents
from sixnimmt_env.core.errors import ConfigError, SixNimmtError
from sixnimmt_env.core.game import GAMES, make_game
from sixnimmt_env.core.rng import game_seeds

from .agents import shared_agents
from .allowed import AllowList
from .messages import shown, whole_number
from .session import WebSession

SHIPPED = "ppo"  # plain `ppo` is the shipped model: the first default opponent where it plays the table
SEED_BITS = 64
MAX_SEED = 2**SEED_BITS - 1  # game_seeds takes any uint64; the record keeps it (replay reads it back)
MAX_OPPONENTS_TEXT = 2_000  # characters of a comma-separated opponents text
MAX_PLAYERS = 99  # a bound on the number before the game's rules check it
MAX_NAME = 40  # characters of a person's name
DEFAULT_NAME = "guest"
PAGE_BOUNDS = {"end_score": 200, "max_rounds": 100}
"""The longest game a page may start: an end score of at most 200 points (the default is
66) or a round limit of at most 100, and at least one of the two (`end_score 0,
max_rounds 10**9` was a game that never ended, its record growing with every `next`).
A 200-point game ends within 199 rounds at 2 players (every round of the card game puts
a sixth card on a row, at least 1 point); a game with a round limit within that limit."""


@lru_cache(maxsize=None)
def catalog() -> dict:
    """Every game the page offers: variants, seat counts, rule options with defaults, agents."""
    games = []
    for kind in GAMES:
        game = make_game(kind)
        info = game.info
        options = {k: v for k, v in game.rules.to_dict().items() if k != "players"}
        games.append({"name": kind, "variants": list(info.variants), "min_players": info.min_players,
                      "max_players": info.max_players, "players": info.players, "unit": info.score_unit,
                      "options": options, "agents": sorted(available(kind))})
    return {"games": games}


@lru_cache(maxsize=64)
def _shipped_plays(game) -> bool:
    """Whether a shipped model plays this table (its seat count, game and observation)."""
    from agents.ppo import shipped_model_for
    try:  # the models' notes first: loading one takes seconds, and most tables are not theirs
        shipped_model_for(game.info.players, game.info.game)
    except SixNimmtError:
        return False
    try:
        agent = shared_agents([SHIPPED], game.info.game)[SHIPPED]
        st = game.new_games(game_seeds(0, 1))
        agent.act(game.view(st, [1], [0]), np.random.default_rng(0))
        return True
    except SixNimmtError:
        return False


def default_specs(game, watch: bool = False, allowed: AllowList | None = None) -> list[str]:
    """The default agents: the shipped model at the first agent seat where it plays the
    table, then mcs (where mcs plays the game; else the terminal game's fallback); one the
    allow-list does not offer is replaced by its first entry for the game."""
    n = game.info.players - (0 if watch else 1)
    other = default_opponents(game.info.game)
    specs = [SHIPPED] + [other] * (n - 1) if other == DEFAULT_OPPONENT and _shipped_plays(game) else [other] * n
    if allowed is None:
        return specs
    kind = game.info.game
    return [spec if spec in allowed.names(kind) else allowed.first(kind) for spec in specs]


def _option_value(name: str, value, default):
    """A rule option from the page: "" or None is the game's default (dropped), numbers
    from text where the default is a number or unset."""
    if isinstance(value, str):
        value = value.strip()
        if value == "":
            return None
        if value.lstrip("-").isdigit() and not isinstance(default, str):
            return whole_number(f"rule option {name}", value.lstrip("-"), 0, 10**9) * (-1 if value[0] == "-" else 1)
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise ConfigError(f"rule option {name}: {shown(value)} is not a value")
    return value


def game_from(msg: dict):
    """The Game a `new` message names (ConfigError naming what is wrong). Its rule
    options mean what they mean on the command line (experiments/options.py): one left
    empty is the game's default, an end score of 0 is none. The game must end within
    PAGE_BOUNDS."""
    from experiments.options import GameOptions

    kind = msg.get("game", "cards")
    if not isinstance(kind, str) or kind not in GAMES:
        raise ConfigError(f"unknown game {shown(kind)}; games: {', '.join(GAMES)}")
    defaults = make_game(kind).rules.to_dict()
    game_info = make_game(kind).info
    players = whole_number("players", msg.get("players", defaults["players"]), 1, MAX_PLAYERS)  # the rules say more
    options = msg.get("options") or {}
    if not isinstance(options, dict):
        raise ConfigError(f"options must be an object of rule options, got {shown(options)}")
    given = {}
    for name, value in options.items():
        if name not in defaults or name == "players":
            raise ConfigError(f"unknown rule option {shown(name)} for the {kind} game; valid: "
                              + ", ".join(k for k in defaults if k != "players"))
        given[name] = _option_value(name, value, defaults[name])
    variant = msg.get("variant")
    if variant:
        if not isinstance(variant, str):
            raise ConfigError(f"variant must be one of {', '.join(game_info.variants)}, got {shown(variant)}")
        given["variant"] = variant
    _check_length(given, defaults)
    try:
        return GameOptions.given(kind, **given).build(players)
    except (TypeError, ValueError) as e:  # a value of the wrong type for a rule option
        if isinstance(e, SixNimmtError):
            raise
        raise ConfigError(f"invalid rule options: {e}") from None


def _check_length(given: dict, defaults: dict) -> None:
    """ConfigError unless the game ends within PAGE_BOUNDS (0 or empty: no limit)."""
    # an option the page left empty (None) is the game's default, as everywhere else
    limits = {name: defaults[name] if given.get(name) is None else given[name] for name in PAGE_BOUNDS if name in defaults}
    for name, value in limits.items():
        if isinstance(value, int) and not isinstance(value, bool) and value > PAGE_BOUNDS[name]:
            raise ConfigError(f"{name} {value} is longer than a game this server plays "
                              f"(at most {PAGE_BOUNDS[name]})")
    if limits and all(value in (None, 0) for value in limits.values()):
        raise ConfigError("a game needs an end: an end_score (at most "
                          f"{PAGE_BOUNDS['end_score']}) or max_rounds (at most {PAGE_BOUNDS['max_rounds']})")


def _flag(msg: dict, name: str) -> bool:
    value = msg.get(name)
    if value is None or isinstance(value, bool):
        return bool(value)
    raise ConfigError(f"{name} must be true or false, got {shown(value)}")


def session_from(msg: dict, audit=None, allowed: AllowList | None = None) -> WebSession:
    """A new WebSession from a `new` message: game, variant, players, options, opponents
    (agent specs, one per seat they take; missing: the defaults), seed, hints, watch.
    Every opponent must be on `allowed` (the default allow-list when None): the page
    names agents, the server decides which run (allowed.py)."""
    allowed = allowed or AllowList()
    game = game_from(msg)
    watch, hints = _flag(msg, "watch"), _flag(msg, "hints")
    specs = msg.get("opponents")
    if specs is None or (isinstance(specs, (list, str)) and len(specs) == 0):
        specs = default_specs(game, watch, allowed)
    if isinstance(specs, str):
        specs = [s.strip() for s in specs[:MAX_OPPONENTS_TEXT].split(",")]
    if not isinstance(specs, list) or not all(isinstance(s, str) and s.strip() for s in specs):
        raise ConfigError("opponents must be a list of agent specs (see `sixnimmt agents`)")
    if len(specs) > game.info.players:
        raise ConfigError(f"{len(specs)} opponents for a table of {game.info.players}")
    specs = [allowed.check(s.strip(), game.info.game) for s in specs]
    seed = msg.get("seed")
    seed_given = not (seed is None or seed == "")
    if not seed_given:  # 64 bits from the OS: a drawn seed (it gives every hand) cannot be searched for
        seed = secrets.randbits(SEED_BITS)
    seed = whole_number("seed", seed, 0, MAX_SEED)
    name = person_name(msg.get("name"))
    params = {"game": game.info.game, "variant": msg.get("variant") or None, "players": game.info.players,
              "options": msg.get("options") or {}, "opponents": specs, "seed": str(seed),
              "seed_given": seed_given, "watch": watch, "hints": hints, "name": name}
    session = session_of(params, game)
    session.audit = audit
    return session


def session_of(params: dict, game=None) -> WebSession:
    """The WebSession a normalized `new` message (`session.params`, as kept in the
    database) stands for, before any step."""
    game = game or game_from(params)
    specs = params["opponents"]
    session = WebSession(game, specs, int(params["seed"]), watch=params["watch"], hints=params["hints"],
                         seed_given=params["seed_given"], agents=shared_agents(specs, game.info.game))
    session.params = params
    return session


def person_name(value) -> str:
    """The name a person typed (at most MAX_NAME characters of printable text; none: "guest")."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return DEFAULT_NAME
    if not isinstance(value, str):
        raise ConfigError(f"name must be text, got {shown(value)}")
    name = " ".join(value.split())
    if len(name) > MAX_NAME:
        raise ConfigError(f"name too long ({len(name)} characters; at most {MAX_NAME})")
    if not name.isprintable():
        raise ConfigError("name must be printable text")
    return name
