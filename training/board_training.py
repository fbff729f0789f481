"""What `train` does differently for the board game: its evaluation's rules and sign,
and its models' meta. Written here, so train.py stays one dispatch per difference.

The board game scores points where more is better (GameInfo.utility +1), the card game
bullheads where fewer is: a run's evaluation figure (eval.csv's `points_per_game` column,
read back as `points_per_round` so every run's rows read alike) is the learner's points
per game for the board, and the best model is the one with the most.
"""

from __future__ import annotations

import dataclasses

from sixnimmt_env.core.errors import ConfigError


def eval_rules(cfg):
    """The rules of `cfg`'s evaluation games: one round of the card game (a round is the
    card game's unit of play), the whole board game (it has no rounds)."""
    if cfg.game == "board":
        return cfg.game_rules(cfg.players)
    return dataclasses.replace(cfg.card_rules(cfg.players), end_score=None, max_rounds=1)


def better(cfg, figure: float, best: float) -> bool:
    """Whether an evaluation `figure` beats the `best` so far: fewer bullheads, more board points."""
    return figure > best if cfg.game == "board" else figure < best


def board_model_meta(cfg, steps: int, points: float | None = None) -> dict:
    """The sidecar .json of a board model (agents.ppo reads game, variant, players, observation)."""
    return {"game": "board", "variant": cfg.variant, "players": cfg.players, "observation": cfg.observation,
            **{name: list(v) if isinstance(v, tuple) else v for name, v in
               ((k, getattr(cfg, k)) for k in ("next_row", "layout", "plus5_cards", "double_cards", "action_cards"))},
            "episode": "game", "reward": cfg.reward, "timesteps": steps, "eval_points_per_game": points,
            "eval_field": f"{cfg.players - 1} x {cfg.eval_opponent}",
            **({"init_model": cfg.init_model} if cfg.init_model else {})}


def check_init_model(cfg, meta: dict, path) -> None:
    """ConfigError when the model a run starts from (`init_model` at `path`, its meta
    `meta`) was made for another game or variant than the run's: a board network and a
    card network of equal shapes would load, and play nonsense."""
    from agents.ppo import model_variant
    game = meta.get("game", "cards")
    if game != cfg.game:
        raise ConfigError(f"init_model {path}: a model of the {game!r} game, this run's game is {cfg.game!r}")
    variant = model_variant(meta)
    if variant is not None and variant != cfg.variant:
        raise ConfigError(f"init_model {path}: a model of the {variant} variant, this run plays {cfg.variant}")
