"""Training configuration: one frozen dataclass, every field documented.

Read from a JSON or TOML file (`--config FILE`) and/or `key=value` overrides; every run
saves the full config next to its outputs (runs/<name>/config.json).
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from sixnimmt_env.core.checks import is_int
from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.rewards import EPISODES, REWARDS, check_option
from sixnimmt_env.core.untrusted import decode, loads_json, loads_toml, read_bytes

from .game_rules import CardRules, GameRules, board_defaults
from .pool import GROUPS

POLICIES = ("mlp", "card-scorer", "tile-scorer", "tile-set")
LEARNERS = ("sb3", "lab")
"""The PPO implementations a run can learn with (TrainConfig.learner)."""
DEVICES = ("cpu", "cuda", "auto")
MAX_CONFIG_BYTES = 2**20  # a config file is under 2 kB
MAX_SIZES = {"num_games": 1 << 16, "n_steps": 1 << 16, "batch_size": 1 << 20, "n_epochs": 1000,
             "eval_deals": 1 << 20, "torch_threads": 256, "max_snapshots": 10_000}
"""The largest value of each size in a training config (docs/robustness.md): a config file is
untrusted input, and a size past these asks for more memory or processes than a machine has."""
MAX_ROLLOUT_STEPS = 1 << 24  # num_games * n_steps: the rollout buffer's rows (the defaults: 16 Ki)
MAX_LAYER_WIDTH, MAX_NETWORK_LAYERS = 8192, 16  # as a model file may describe (agents/model_file.py)
"""Policy networks `train` can build (see the `policy` field)."""


@dataclass(frozen=True)
class NetworkConfig:
    """The network's shape, shared by training and imitation runs (both configs are one:
    their files and `--set` keep these options flat, next to the others)."""

    policy: str = "mlp"
    """mlp (SB3's MlpPolicy), card-scorer (agents/cards/policy.py; needs card-features) or, for
    the board game, tile-scorer (agents/board/policy.py; needs tile-features or tile-answers)
    or tile-set (agents/board/tile_set.py: the same observations, a cost per sample that
    follows the tiles held; scorer_context and scorer_hidden are its context and per-tile
    layers, net_arch its value head's)."""
    observation: str = "basic"
    """Observation variant: basic or card-features (sixnimmt_env.cards.encoding)."""
    net_arch: tuple[int, ...] = (256, 256)
    """Hidden layers of the policy and value networks (card-scorer: of the value network)."""
    scorer_context: tuple[int, ...] = (256, 128)
    """card-scorer, tile-scorer: layers of the context MLP over the whole observation."""
    scorer_hidden: tuple[int, ...] = (128, 64)
    """card-scorer, tile-scorer: layers of the scorer shared by all hand cards or tiles (and by the rows)."""
    scorer_attention: tuple[int, ...] = ()
    """card-scorer: [layers, heads] of a transformer encoder over the hand's cards and the rows
    before they are scored (agents/cards/policy.py); [] (the default) for none."""

    def __post_init__(self) -> None:
        check_types(self)
        self.check_network()

    def check_network(self) -> None:
        """Check the network options (a ConfigError names the option)."""
        for name in ("net_arch", "scorer_context", "scorer_hidden"):
            layers = getattr(self, name)
            if not layers or any(not is_int(n) or n < 1 for n in layers):
                raise ConfigError(f"{name} must list layer sizes >= 1, like [256, 256], got {list(layers)}")
            if len(layers) > MAX_NETWORK_LAYERS or max(layers) > MAX_LAYER_WIDTH:
                raise ConfigError(f"{name} must list at most {MAX_NETWORK_LAYERS} layers of at most "
                                  f"{MAX_LAYER_WIDTH}, got {list(layers)[:20]}")
        check_option("policy", self.policy, POLICIES)
        if self.scorer_attention:
            from agents.cards.policy import attention_ok
            if self.policy != "card-scorer":
                raise ConfigError("scorer_attention is an option of policy card-scorer")
            if not attention_ok(tuple(self.scorer_attention), tuple(self.scorer_hidden)):
                raise ConfigError(f"scorer_attention must be [layers 1..8, heads 1..16 dividing scorer_hidden's "
                                  f"first size {self.scorer_hidden[0]}] or [], got {list(self.scorer_attention)[:8]}")
        from sixnimmt_env.board.encoding import OBSERVATIONS as BOARD_OBSERVATIONS
        from sixnimmt_env.cards.encoding import CARD_SCORER_OBSERVATIONS
        from sixnimmt_env.cards.encoding import OBSERVATIONS as CARD_OBSERVATIONS
        game = getattr(self, "game", None)  # a run's config has one (game_rules.GameRules); the network alone not
        if game == "board" and self.policy == "card-scorer":
            raise ConfigError("policy card-scorer scores cards from the card game's features; "
                              "the board game's networks are policy=mlp and tile-scorer")
        if game == "cards" and self.policy in ("tile-scorer", "tile-set"):
            raise ConfigError(f"policy {self.policy} scores the board game's tiles; the card game's is card-scorer")
        known = {"board": BOARD_OBSERVATIONS, "cards": CARD_OBSERVATIONS}.get(
            game, tuple(dict.fromkeys(CARD_OBSERVATIONS + BOARD_OBSERVATIONS)))
        check_option("observation", self.observation, known)
        for policy, observations in (("card-scorer", CARD_SCORER_OBSERVATIONS),
                                     ("tile-scorer", ("tile-features", "tile-answers")),
                                     ("tile-set", ("tile-features", "tile-answers"))):
            if self.policy == policy and self.observation not in observations:
                raise ConfigError(f"policy {policy} needs observation {' or '.join(observations)}")

    @property
    def network(self) -> "NetworkConfig":
        """The network options alone (of a training or imitation config)."""
        return NetworkConfig(**{name: getattr(self, name) for name in NETWORK_KEYS})


NETWORK_KEYS = ("policy", "observation", "net_arch", "scorer_context", "scorer_hidden", "scorer_attention")
"""The fields of NetworkConfig, in order."""


@dataclass(frozen=True)
class FitOptions:
    """The optimizer's settings, written once for every run that fits a network (training,
    imitation, distillation); a kind of run may give them other defaults, never other
    meanings or bounds."""

    learning_rate: float = 3e-4
    """Adam step size (training: constant; imitation: halved for the last third of the fit)."""
    batch_size: int = 4096
    """Minibatch size."""
    seed: int = 0
    """Seed of the games, the opponents or teacher's draws, and the network."""
    torch_threads: int = 2
    """CPU threads for torch."""

    def check_fit(self) -> None:
        """Check the optimizer's settings and the run's name (a ConfigError names the option)."""
        name = getattr(self, "name", "")
        if not name or name in (".", "..") or any(c in name for c in "/\\\0"):
            raise ConfigError(f"name must be a directory name (no slashes), got {name!r}")
        if not (math.isfinite(self.learning_rate) and self.learning_rate > 0):
            raise ConfigError(f"learning_rate must be a positive number, got {self.learning_rate}")
        for option, most in (("batch_size", MAX_SIZES["batch_size"]), ("torch_threads", MAX_SIZES["torch_threads"])):
            if not 1 <= getattr(self, option) <= most:
                raise ConfigError(f"{option} must be at least 1 and at most {most}, got {getattr(self, option)}")


@dataclass(frozen=True)
class RunConfig(FitOptions, GameRules, CardRules, NetworkConfig):
    """A run's config (training, imitation): the network, the game (cards or board, see
    game_rules.py) and its rules, and the run's own options, read from a file and
    overrides, saved as a flat table in the run's config.json."""

    KIND: ClassVar[str] = "run"  # what messages call the options ("training")
    BOARD_DEFAULTS: ClassVar[dict] = {}  # a board run's defaults where they differ (game_rules.board_defaults)

    def to_dict(self) -> dict:
        """Every field by name (tuples stay tuples; json.dumps writes them as lists)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, values: dict):
        """A config from saved or parsed values (unknown names are a ConfigError)."""
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(values) - names
        if unknown:
            raise ConfigError(f"unknown {cls.KIND} option(s): {', '.join(sorted(unknown))}; "
                              f"valid: {', '.join(sorted(names))}")
        # JSON and TOML give lists where the dataclass holds tuples
        values = board_defaults(values, cls.BOARD_DEFAULTS)
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in values.items()})

    @classmethod
    def load(cls, path: str | Path | None, overrides: list[str] = ()):
        """Defaults, then the file (JSON or TOML), then key=value overrides."""
        return cls.from_dict(read_options(path, overrides, cls().to_dict(), cls.KIND))


@dataclass(frozen=True)
class TrainConfig(RunConfig):
    """Everything a training run is made of; validated on construction (ConfigError).
    The network options are NetworkConfig's (policy, observation, net_arch, scorer_*)."""

    KIND: ClassVar[str] = "training"
    BOARD_DEFAULTS: ClassVar[dict] = {
        "variant": "basic", "episode": "game", "reward": "points", "eval_opponent": "board-safe",
        "pool_heuristics": ["board-greedy", "board-safe", "board-green"], "pool_search": ["mcs:rollouts=4:horizon=1"]}

    name: str = "ppo-4p"
    """Run name: outputs go to runs/<name>/."""
    players: int = 4
    """Seats at the table."""
    row_choice: str = "cheapest"
    """player (the rules) or cheapest (automatic rows, as in published results; the
    default of training runs from before the rules were options)."""
    episode: str = "round"
    """round (one round per episode) or game."""
    game_share: float = 0.0
    """With episode = round, the card game only: this share of the `num_games` games (and of
    the `self_play_games`) play whole games instead, so that one run learns a round's play
    and a whole game's (training/mixed_env.py); 0: none."""
    game_pool_weights: dict = field(default_factory=dict)
    """With `game_share`: the group weights the whole games' opponents are drawn by (same
    groups and members as `pool_weights`, e.g. more heuristics for the tournament's fields);
    empty: `pool_weights`."""
    reward: str = "penalty"
    """penalty (the card game's name of points), points, relative or rank (see
    sixnimmt_env.core.rewards; rewards are signed so that higher is better in every game)."""
    num_games: int = 512
    """Games stepped at once by the VecEnv against the league (one learning seat each)."""
    self_play_games: int = 0
    """Further games of pure self-play stepped at once, in which every seat is the learner
    (each a learning seat: a game gives `players` samples a step); 0: none."""
    learner: str = "sb3"
    """sb3 (sb3-contrib's MaskablePPO.learn) or lab (training/lab_ppo.py: the same network
    and files, a leaner update that drops forced decisions; issue 59)."""
    device: str = "auto"
    """Where the network trains: auto (a GPU when torch sees one, else the CPU), cpu or cuda
    (the CPU when torch sees no GPU)."""
    n_steps: int = 32
    """Steps per game between updates (rollout length)."""
    n_epochs: int = 4
    """Passes over each rollout."""
    gamma: float = 1.0
    """Discount: rounds are 10 decisions long, so no discounting is needed."""
    gae_lambda: float = 0.95
    """GAE lambda."""
    clip_range: float = 0.2
    """PPO clip range."""
    ent_coef: float = 0.01
    """Entropy bonus."""
    total_timesteps: int = 50_000_000
    """Stop after this many learner steps."""
    minutes: float = 60.0
    """Stop after this much wall time (whichever comes first)."""
    checkpoint_every: int = 500_000
    """Learner steps between checkpoints (also written at the end)."""
    eval_every: int = 1_000_000
    """Learner steps between evaluations."""
    eval_deals: int = 100
    """Deals per evaluation (each played in every seat rotation, one round per game)."""
    eval_opponent: str = "random"
    """Fixed evaluation field: this agent in every other seat."""
    snapshot_every: int = 2_000_000
    """Learner steps between frozen snapshots added to the opponent pool."""
    max_snapshots: int = 5
    """Most recent snapshots the pool samples from."""
    pool_weights: dict = field(default_factory=lambda: {"random": 0.4, "heuristics": 0.3, "search": 0.02, "self": 0.28})
    """Sampling weights of the opponent groups (training.pool.GROUPS; renormalised over non-empty groups)."""
    pool_heuristics: tuple[str, ...] = ("lowest", "highest", "min-gap", "safe-high", "greedy")
    """Agents of the heuristics group."""
    pool_search: tuple[str, ...] = ("mcs:rollouts=4",)
    """Agents of the search group (small budgets: they act inside every env step)."""
    freeze_policy_steps: int = 0
    """Learner steps at the start in which only the value network learns (the policy's
    weights held): a network started from `init_model` keeps its play while the value
    learns this run's returns."""
    init_model: str = ""
    """A saved model whose network weights the run starts from (e.g. runs/<name>/model.zip of
    `sixnimmt imitate`); empty: a fresh network."""

    def __post_init__(self) -> None:
        """Check every option: a ConfigError names the option and the values it allows."""
        check_types(self)
        self.check_game()
        self.game_rules(self.players)  # the rule options and the seat count, checked by the game's rules
        check_option("episode", self.episode, EPISODES)
        check_option("reward", self.reward, REWARDS)
        check_option("learner", self.learner, LEARNERS)
        check_option("device", self.device, DEVICES)
        if self.self_play_games < 0 or self.self_play_games > MAX_SIZES["num_games"]:
            raise ConfigError(f"self_play_games must be in 0..{MAX_SIZES['num_games']}, got {self.self_play_games}")
        if self.self_play_games == 1 and self.game_share:
            raise ConfigError("game_share needs self_play_games = 0 or >= 2 (that share of them play whole games)")
        if not 0 <= self.game_share < 1:
            raise ConfigError(f"game_share must be in [0, 1), got {self.game_share}")
        if self.game_share and (self.episode != "round" or self.game != "cards" or self.num_games < 2):
            raise ConfigError("game_share needs episode = \"round\", the card game and num_games >= 2 "
                              "(it turns that share of the rounds into whole games)")
        if isinstance(self.freeze_policy_steps, int) and self.freeze_policy_steps < 0:
            raise ConfigError(f"freeze_policy_steps must be >= 0, got {self.freeze_policy_steps}")
        self.check_fit()
        for name in ("num_games", "n_steps", "n_epochs", "total_timesteps",
                     "checkpoint_every", "eval_every", "eval_deals", "snapshot_every", "max_snapshots"):
            if getattr(self, name) < 1:
                raise ConfigError(f"{name} must be at least 1, got {getattr(self, name)}")
            if getattr(self, name) > MAX_SIZES.get(name, 10**12):
                raise ConfigError(f"{name} must be at most {MAX_SIZES.get(name, 10**12)}, got {getattr(self, name)}")
        if self.num_games * self.n_steps > MAX_ROLLOUT_STEPS:
            raise ConfigError(f"num_games * n_steps must be at most {MAX_ROLLOUT_STEPS} (the rollout buffer), "
                              f"got {self.num_games * self.n_steps}")
        for name, lo, hi in (("clip_range", 0, None), ("minutes", 0, None),
                             ("gamma", 0, 1), ("gae_lambda", 0, 1)):
            value = getattr(self, name)
            if not (math.isfinite(value) and value > lo and (hi is None or value <= hi)):
                bound = f"in (0, {hi}]" if hi is not None else "a positive number"
                raise ConfigError(f"{name} must be {bound}, got {value}")
        if not (math.isfinite(self.ent_coef) and self.ent_coef >= 0):
            raise ConfigError(f"ent_coef must be a number >= 0, got {self.ent_coef}")
        self.check_network()
        _check_weights("pool_weights", self.pool_weights)
        if self.game_pool_weights:
            if not self.game_share:
                raise ConfigError("game_pool_weights needs game_share > 0 (they are the whole games' opponents)")
            _check_weights("game_pool_weights", self.game_pool_weights)
        if any(not isinstance(s, str) for s in (*self.pool_heuristics, *self.pool_search)):
            raise ConfigError("pool_heuristics and pool_search must list agent specs (strings)")
        from agents.registry import check_spec
        for spec in (self.eval_opponent, *self.pool_heuristics, *self.pool_search):
            check_spec(spec, self.game)


def read_options(path: str | Path | None, overrides, defaults: dict, kind: str) -> dict:
    """The options of a config file (JSON or TOML) with key=value overrides on top, typed
    like `defaults` (the config's fields by name); ConfigErrors name the file or the
    option. `kind` names the config in messages ("training", "imitation")."""
    values: dict = {}
    if path is not None:
        raw = read_bytes(path, limit=MAX_CONFIG_BYTES, what=f"the config file {path}")
        where = f"cannot parse {path}"
        text = decode(raw, what=where)
        values = loads_toml(text, what=where) if str(path).endswith(".toml") else loads_json(text, what=where)
        if not isinstance(values, dict):
            raise ConfigError(f"{path}: a {kind} config is a table of options, got {type(values).__name__}")
    for item in overrides:
        if "=" not in item:
            raise ConfigError(f"override {item!r} must look like key=value")
        key, raw = item.split("=", 1)
        key = key.strip()
        if key not in defaults:
            raise ConfigError(f"unknown {kind} option {key!r}; valid: {', '.join(sorted(defaults))}")
        values[key] = _parse_value(raw.strip(), defaults[key], key)
    return values


def option_text(value) -> str:
    """A config value as `--set` reads it back (TOML: lists in brackets, strings bare)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(option_text(v) for v in value) + "]"
    return str(value)

def _parse_value(raw: str, default, key: str):
    """A command-line value with the type of the option's default."""
    try:
        if isinstance(default, bool):
            if raw.lower() not in ("1", "true", "yes", "0", "false", "no"):
                raise ValueError(raw)
            return raw.lower() in ("1", "true", "yes")
        if isinstance(default, int):
            return int(raw.replace("_", ""))
        if isinstance(default, float):
            return float(raw)
        if isinstance(default, (tuple, dict)):
            return loads_json(raw, what=key)
        return raw
    except (ValueError, json.JSONDecodeError):
        raise ConfigError(f"{key}={raw!r}: expected a {type(default).__name__}") from None


def check_types(cfg) -> None:
    """Each option has its default's type (an int where a float is due is fine): a file or
    an override giving "4" for players, or 2.5 for n_steps, is a ConfigError naming it."""
    for f in dataclasses.fields(cfg):
        value, default = getattr(cfg, f.name), getattr(type(cfg), f.name, None)
        if f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        kind = type(default)
        ok = is_int(value) if kind is int else _is_number(value) if kind is float else isinstance(value, kind)
        if not ok:
            raise ConfigError(f"{f.name} must be a {_TYPE_WORDS.get(kind, kind.__name__)}, got {value!r}")


def _check_weights(name: str, weights: dict) -> None:
    """ConfigError unless `weights` gives known pool groups numbers >= 0, not all 0."""
    unknown = set(weights) - set(GROUPS)
    if unknown:
        raise ConfigError(f"unknown pool group(s) in {name}: {', '.join(sorted(map(str, unknown)))}; "
                          f"valid: {', '.join(GROUPS)}")
    values = weights.values()
    if any(not _is_number(w) or not math.isfinite(w) or w < 0 for w in values) or not sum(values) > 0:
        raise ConfigError(f"{name} must give each group a number >= 0, not all 0, got {weights}")


def _is_number(value) -> bool:
    """An int or a float, not a bool."""
    return is_int(value) or isinstance(value, float)


_TYPE_WORDS = {int: "whole number", float: "number", str: "string", tuple: "list", dict: "table", bool: "boolean"}
