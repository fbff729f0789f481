"""What the page may choose (games, variants, seats, agents, rule options) and turning a
`new` message into a WebSession. Everything is read from the game interface and the agent
registry — `GAMES`, `GameInfo`, the rules' `to_dict()`, `available(game)` — so a game kind
added there shows up on the page with no change here.
"""

from __future__ import annotations

import secrets
from functools import lru_cache

import numpy as np

from agents.arena import build_agents
from agents.registry import available
from experiments.session import DEFAULT_OPPONENT, default_opponents
from sixnimmt_env.core.errors import ConfigError, SixNimmtError
from sixnimmt_env.core.game import GAMES, make_game
from sixnimmt_env.core.rng import game_seeds

from .allowed import AllowList
from .session import WebSession

SHIPPED = "ppo"  # plain `ppo` is the shipped model: the first default opponent where it plays the table
SEED_BITS = 64
MAX_SEED = 2**SEED_BITS - 1  # game_seeds takes any uint64; the record keeps it (replay reads it back)
MAX_OPPONENTS_TEXT = 2_000  # characters of a comma-separated opponents text


def shared_agents(specs: list[str], game: str) -> dict:
    """One agent object per distinct spec, built once per server (a PPO model loads once)
    and shared by every game (`build_agents(shared=True)`)."""
    return build_agents(specs, game, shared=True)[1]


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
            return int(value)
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise ConfigError(f"rule option {name}: {value!r} is not a value")
    return value


def game_from(msg: dict):
    """The Game a `new` message names (ConfigError naming what is wrong). Its rule
    options mean what they mean on the command line (experiments/options.py): one left
    empty is the game's default, an end score of 0 is none."""
    from experiments.options import GameOptions

    kind = msg.get("game", "cards")
    if kind not in GAMES:
        raise ConfigError(f"unknown game {kind!r}; games: {', '.join(GAMES)}")
    defaults = make_game(kind).rules.to_dict()
    players = msg.get("players", defaults["players"])
    if isinstance(players, str) and players.strip().isdigit():
        players = int(players)
    if isinstance(players, bool) or not isinstance(players, int):
        raise ConfigError(f"players must be a whole number, got {players!r}")
    options = msg.get("options") or {}
    if not isinstance(options, dict):
        raise ConfigError("options must be an object of rule options")
    given = {}
    for name, value in options.items():
        if name not in defaults or name == "players":
            raise ConfigError(f"unknown rule option {name!r} for the {kind} game; valid: "
                              + ", ".join(k for k in defaults if k != "players"))
        given[name] = _option_value(name, value, defaults[name])
    if msg.get("variant"):
        given["variant"] = msg["variant"]
    try:
        return GameOptions.given(kind, **given).build(players)
    except (TypeError, ValueError) as e:  # a value of the wrong type for a rule option
        if isinstance(e, SixNimmtError):
            raise
        raise ConfigError(f"invalid rule options: {e}") from None


def session_from(msg: dict, audit=None, allowed: AllowList | None = None) -> WebSession:
    """A new WebSession from a `new` message: game, variant, players, options, opponents
    (agent specs, one per seat they take; missing: the defaults), seed, hints, watch.
    Every opponent must be on `allowed` (the default allow-list when None): the page
    names agents, the server decides which run (allowed.py)."""
    allowed = allowed or AllowList()
    game = game_from(msg)
    watch, hints = bool(msg.get("watch", False)), bool(msg.get("hints", False))
    specs = msg.get("opponents")
    if specs in (None, [], ""):
        specs = default_specs(game, watch, allowed)
    if isinstance(specs, str):
        specs = [s.strip() for s in specs[:MAX_OPPONENTS_TEXT].split(",")]
    if not isinstance(specs, list) or not all(isinstance(s, str) and s.strip() for s in specs):
        raise ConfigError("opponents must be a list of agent specs (see `sixnimmt agents`)")
    if len(specs) > game.info.players:
        raise ConfigError(f"{len(specs)} opponents for a table of {game.info.players}")
    specs = [allowed.check(s.strip(), game.info.game) for s in specs]
    seed = msg.get("seed")
    seed_given = seed not in (None, "")
    if isinstance(seed, str) and seed.strip().isdigit() and len(seed.strip()) <= 20:
        seed = int(seed)
    if not seed_given:  # 64 bits from the OS: a drawn seed (it gives every hand) cannot be searched for
        seed = secrets.randbits(SEED_BITS)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ConfigError(f"seed must be a whole number 0..{MAX_SEED}, got {seed!r}")
    session = WebSession(game, specs, seed, watch=watch, hints=hints, seed_given=seed_given,
                         agents=shared_agents(specs, game.info.game))
    session.audit = audit
    return session
