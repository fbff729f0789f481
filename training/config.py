"""Training configuration: one frozen dataclass, every field documented.

Read from a JSON or TOML file (`--config FILE`) and/or `key=value` overrides; every run
saves the full config next to its outputs (runs/<name>/config.json).
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.rewards import EPISODES, REWARDS, check_option

from .pool import GROUPS

POLICIES = ("mlp", "card-scorer")
"""Policy networks `train` can build (see the `policy` field)."""


@dataclass(frozen=True)
class TrainConfig:
    """Everything a training run is made of; validated on construction (ConfigError)."""

    name: str = "ppo-4p"
    """Run name: outputs go to runs/<name>/."""
    players: int = 4
    """Seats at the table."""
    row_choice: str = "cheapest"
    """player (the rules) or cheapest (automatic rows, as in published results)."""
    episode: str = "round"
    """round (one round per episode) or game."""
    reward: str = "penalty"
    """penalty, relative or rank (see sixnimmt_env.core.rewards)."""
    num_games: int = 512
    """Games stepped at once by the VecEnv (one learning seat each)."""
    n_steps: int = 32
    """Steps per game between updates (rollout length)."""
    batch_size: int = 4096
    """Minibatch size."""
    n_epochs: int = 4
    """Passes over each rollout."""
    learning_rate: float = 3e-4
    """Adam step size (constant)."""
    gamma: float = 1.0
    """Discount: rounds are 10 decisions long, so no discounting is needed."""
    gae_lambda: float = 0.95
    """GAE lambda."""
    clip_range: float = 0.2
    """PPO clip range."""
    ent_coef: float = 0.01
    """Entropy bonus."""
    net_arch: tuple[int, ...] = (256, 256)
    """Hidden layers of the policy and value networks (card-scorer: of the value network)."""
    observation: str = "basic"
    """Observation variant: basic or card-features (sixnimmt_env.cards.encoding)."""
    policy: str = "mlp"
    """mlp (SB3's MlpPolicy) or card-scorer (training/policy.py; needs card-features)."""
    scorer_context: tuple[int, ...] = (256, 128)
    """card-scorer: layers of the context MLP over the whole observation."""
    scorer_hidden: tuple[int, ...] = (128, 64)
    """card-scorer: layers of the scorer shared by all hand cards (and by the rows)."""
    total_timesteps: int = 50_000_000
    """Stop after this many learner steps."""
    minutes: float = 60.0
    """Stop after this much wall time (whichever comes first)."""
    seed: int = 0
    """Seed of the games, the opponents and the network."""
    torch_threads: int = 2
    """CPU threads for torch."""
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

    def __post_init__(self) -> None:
        """Check every option: a ConfigError names the option and the values it allows."""
        from sixnimmt_env import RuleConfig
        RuleConfig(players=self.players, row_choice=self.row_choice)  # validates both
        check_option("episode", self.episode, EPISODES)
        check_option("reward", self.reward, REWARDS)
        for name in ("num_games", "n_steps", "batch_size", "n_epochs", "total_timesteps",
                     "checkpoint_every", "eval_every", "eval_deals", "snapshot_every"):
            if getattr(self, name) < 1:
                raise ConfigError(f"{name} must be at least 1")
        if self.minutes <= 0:
            raise ConfigError("minutes must be positive")
        from sixnimmt_env.cards.encoding import OBSERVATIONS
        check_option("observation", self.observation, OBSERVATIONS)
        check_option("policy", self.policy, POLICIES)
        if self.policy == "card-scorer" and self.observation != "card-features":
            raise ConfigError("policy card-scorer needs observation card-features")
        unknown = set(self.pool_weights) - set(GROUPS)
        if unknown:
            raise ConfigError(f"unknown pool group(s) in pool_weights: {', '.join(sorted(unknown))}; "
                              f"valid: {', '.join(GROUPS)}")

    def to_dict(self) -> dict:
        """Every field by name (tuples stay tuples; json.dumps writes them as lists)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, values: dict) -> "TrainConfig":
        """A config from saved or parsed values (unknown names are a ConfigError)."""
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(values) - names
        if unknown:
            raise ConfigError(f"unknown training option(s): {', '.join(sorted(unknown))}; "
                              f"valid: {', '.join(sorted(names))}")
        # JSON and TOML give lists where the dataclass holds tuples
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in values.items()})

    @classmethod
    def load(cls, path: str | Path | None, overrides: list[str] = ()) -> "TrainConfig":
        """Defaults, then the file (JSON or TOML), then key=value overrides."""
        values: dict = {}
        if path is not None:
            text = Path(path).read_text()
            try:
                values = tomllib.loads(text) if str(path).endswith(".toml") else json.loads(text)
            except (json.JSONDecodeError, tomllib.TOMLDecodeError) as e:
                raise ConfigError(f"cannot parse {path}: {e}") from None
        defaults = cls().to_dict()
        for item in overrides:
            if "=" not in item:
                raise ConfigError(f"override {item!r} must look like key=value")
            key, raw = item.split("=", 1)
            key = key.strip()
            if key not in defaults:
                raise ConfigError(f"unknown training option {key!r}; valid: {', '.join(sorted(defaults))}")
            values[key] = _parse_value(raw.strip(), defaults[key], key)
        return cls.from_dict(values)


def _parse_value(raw: str, default, key: str):
    """A command-line value with the type of the option's default."""
    try:
        if isinstance(default, bool):
            return raw.lower() in ("1", "true", "yes")
        if isinstance(default, int):
            return int(raw.replace("_", ""))
        if isinstance(default, float):
            return float(raw)
        if isinstance(default, (tuple, dict)):
            return json.loads(raw)
        return raw
    except (ValueError, json.JSONDecodeError):
        raise ConfigError(f"{key}={raw!r}: expected a {type(default).__name__}") from None
