"""`ppo:path=...`: a trained MaskablePPO model as a batched agent.

A model is saved as `<name>.zip` with `<name>.json` beside it: the rules it was trained
for, the game kind (`game`; `cards` when absent), the game's variant (`variant`; the
game's default, classic, when absent, as in models from before Die Sechste) and the
observation variant it reads (`observation`; `basic` when absent, as in models from
before the observation variants). It plays any table of that game and variant whose seat
count it was trained for (`players`: a count or a list); other games, variants and counts
are refused with a clear error, as the policy never saw them (a Die Sechste table gives
a classic network observations of the same size, so only the meta can tell). Plain
`ppo` plays the shipped model that fits the table (`shipped_model_for`). Board models
(`game` board, from `imitate`/`train` with game=board) play board tables the same way:
the game is checked first, then the seat count, the variant and the observation size.
"""

from __future__ import annotations

import functools
import zipfile
from pathlib import Path

import numpy as np

from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.game import make_game
from sixnimmt_env.core.strict_json import json_text
from sixnimmt_env.core.untrusted import read_json

from .model_file import read_model

# The models shipped with the package (package data, so a wheel carries them): what plain
# `ppo` plays, the one that fits the table. Resolved from this file, not the working
# directory, so `sixnimmt play --opponents ppo` works anywhere.
SHIPPED_DIR = Path(__file__).parent / "models"
SHIPPED_MODEL = SHIPPED_DIR / "ppo-4p.zip"  # the 4-player model
MAX_META_BYTES = 2**20


def model_meta_path(model_path: str | Path) -> Path:
    return Path(model_path).with_suffix(".json")


def write_model_meta(model_path: str | Path, meta: dict) -> None:
    model_meta_path(model_path).write_text(json_text(meta, indent=1) + "\n")


def _sizes(meta: dict) -> list[int] | None:
    players = meta.get("players")
    return None if players is None else [int(p) for p in np.atleast_1d(players)]


def _sizes_text(sizes: list[int] | None) -> str:
    if sizes is None:
        return "any"
    if len(sizes) > 2 and sizes == list(range(sizes[0], sizes[-1] + 1)):
        return f"{sizes[0]}-{sizes[-1]}"
    return ", ".join(map(str, sizes))


def shipped_models() -> list[tuple[Path, dict]]:
    """Every shipped model and its meta (the .json beside it), by file name."""
    out = []
    for path in sorted(SHIPPED_DIR.glob("*.zip")):
        try:
            meta = read_json(model_meta_path(path), limit=MAX_META_BYTES)
        except ConfigError:
            meta = {}
        out.append((path, meta if isinstance(meta, dict) else {}))
    return out


@functools.cache
def default_variant(game: str) -> str | None:
    """The variant of a model of `game` whose meta names none: classic for the card game
    (models from before Die Sechste), else None (any: the observation size still checks)."""
    return make_game("cards").info.variant if game == "cards" else None  # (agents reach games through core)


def model_variant(meta: dict) -> str | None:
    """The variant a model was trained for (None: any)."""
    return meta.get("variant") or default_variant(meta.get("game", "cards"))


def plays_variant(meta: dict, variant: str | None) -> bool:
    """Whether a model of `meta` plays tables of `variant` (None: the game has no variants to tell apart)."""
    trained = model_variant(meta)
    return trained is None or variant is None or trained == variant


def shipped_model_for(players: int, game: str = "cards", variant: str | None = None,
                      trained: str | None = None) -> Path:
    """The shipped model for a table of `players` seats of `game` in `variant` (default:
    classic for the card game, `default_variant`): of those trained for that game, variant and seat count
    (and, with `trained`, made that way: "imitation"), the one trained for the fewest
    other sizes (a 4-player model before one for every size). A ConfigError that lists
    what is shipped when none fits."""
    variant = variant or default_variant(game)
    fitting = []
    for path, meta in shipped_models():
        sizes = _sizes(meta)
        if (meta.get("game", "cards") == game and plays_variant(meta, variant)
                and (sizes is None or players in sizes) and (trained is None or meta.get("trained") == trained)):
            fitting.append((len(sizes) if sizes else 99, path.name, path))
    if not fitting:
        listed = "; ".join(f"{p.name} ({m.get('game', 'cards')} {model_variant(m)}, {_sizes_text(_sizes(m))} players"
                           f"{', ' + m['trained'] if trained and m.get('trained') else ''})"
                           for p, m in shipped_models()) or "none"
        where = (f" in {variant}" if variant else "") + (f" (trained by {trained})" if trained else "")
        raise ConfigError(f"agent ppo: no shipped model plays {game!r} at {players} players{where} "
                          f"(shipped: {listed}); train one and give it as ppo:path=FILE")
    return min(fitting)[2]


class PPOAgent:
    """Masked policy of a MaskablePPO model; deterministic (argmax) by default.

    With a path (or a model object) it plays that model; without, the shipped model that
    fits each table (`shipped_model_for`; `trained` narrows the choice, as guided's to the
    imitation networks), loaded when a table of its kind first asks.
    """

    name = "ppo"

    def __init__(self, path: str = "", deterministic: bool = True, model=None, meta: dict | None = None,
                 trained: str | None = None):
        self.deterministic, self.trained = deterministic, trained
        self._fixed = None
        if model is not None:
            self._fixed = (model, meta or {})
        elif path:
            self._fixed = load_model(path)
        self._shipped: dict[Path, tuple] = {}  # loaded models by file
        self._chosen: dict[tuple, tuple] = {}  # (players, game, variant) -> its model
        self._layouts: dict = {}

    @property
    def model(self):
        """The model this agent plays (a path or model given; else the 4-player shipped one)."""
        return self.model_for(4)[0] if self._fixed is None else self._fixed[0]

    @property
    def meta(self) -> dict:
        return self.model_for(4)[1] if self._fixed is None else self._fixed[1]

    @property
    def players(self):
        return self.meta.get("players")

    def model_for(self, players: int, game: str = "cards", variant: str | None = None) -> tuple:
        """(model, meta) that plays a table of `players` seats of `game` in `variant`."""
        if self._fixed is not None:
            return self._fixed
        key = (players, game, variant)
        if key not in self._chosen:  # once per table kind: act() asks on every step
            path = shipped_model_for(players, game, variant, self.trained)
            if path not in self._shipped:
                self._shipped[path] = load_model(path)
            self._chosen[key] = self._shipped[path]
        return self._chosen[key]

    def check(self, game) -> None:
        """Refuse, before the first turn, a table the model was not trained for: another
        game kind, variant, seat count or observation size (ConfigError)."""
        self.network_for(game.rules, game.info.players)

    def network_for(self, config, players: int):
        """(model, observation layout) for a table of `players` seats under `config`; a
        ConfigError for a table the model was not trained for."""
        playing = getattr(config, "game", "cards")
        variant = getattr(config, "variant", None)
        model, meta = self.model_for(players, playing, variant)
        trained_for = meta.get("game", "cards")  # the game first: a size or variant of another game says little
        if trained_for != playing:
            raise ConfigError(f"agent {self.name}: the model was trained for the {trained_for!r} game, "
                              f"the table plays {playing!r}")
        sizes = _sizes(meta)
        if sizes is not None and players not in sizes:
            raise ConfigError(f"agent {self.name}: trained for {_sizes_text(sizes)} players, "
                              f"the table has {players}")
        if not plays_variant(meta, variant):
            raise ConfigError(f"agent {self.name}: the model was trained for {model_variant(meta)}, "
                              f"the table plays {variant}")
        key = (config, id(model))
        layout = self._layouts.get(key)
        if layout is None:
            game = make_game(trained_for, config)
            layout = self._layouts[key] = game.layout(meta.get("observation", "basic"))
        expected = model.observation_space.shape[0]
        if layout.size != expected:
            raise ConfigError(f"agent {self.name}: the model expects observations of size "
                              f"{expected}, this game gives {layout.size} (another variant?)")
        return model, layout

    def act(self, view, rng: np.random.Generator) -> np.ndarray:
        model, layout = self.network_for(view.config, view.players)
        if view.n == 0:
            return np.zeros(0, dtype=np.int64)
        actions, _ = model.predict(layout.encode(view), deterministic=self.deterministic,
                                   action_masks=view.action_mask())
        return np.asarray(actions, dtype=np.int64)


def action_logits(policy, observations: np.ndarray) -> np.ndarray:
    """(n, A) a policy's raw action logits, unmasked, for a batch of observations. An
    imitation network's were fitted to its teacher search's estimates (training/imitate.py:
    higher, better), so the guided searches read them as estimates of every action."""
    import torch as th
    with th.no_grad():
        obs = th.as_tensor(observations, device=policy.device)  # a network trained on a GPU plays there
        features = policy.extract_features(obs, policy.pi_features_extractor)
        return policy.action_net(policy.mlp_extractor.forward_actor(features)).cpu().numpy()


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k highest scores along the last axis, in ascending index order (of
    equal scores the lower index first): the candidates both guided searches keep with
    `top=K`, rated by `action_logits`."""
    return np.sort(np.argsort(-scores, axis=-1, kind="stable")[..., :k], axis=-1)


def load_model(path: str | Path):
    """A saved MaskablePPO model's policy (`model_file.PolicyModel`, read without running
    any code of the file) and its sidecar meta; a ConfigError that names the file for
    anything else: missing, a directory, not a zip, truncated, a zip that is not a model of
    this lab's architectures, pickled code, a meta file that is not a JSON object."""
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"agent ppo: no model at {path}")
    if not path.is_file():
        raise ConfigError(f"agent ppo: {path} is not a model file (a directory?)")
    if not zipfile.is_zipfile(path):
        raise ConfigError(f"agent ppo: {path} is not a model (a MaskablePPO .zip); truncated or another file?")
    model = read_model(path)  # the zip's directory first, then each entry's checksum as it is read
    meta_file = model_meta_path(path)
    meta: dict = {}
    if meta_file.exists():
        meta = read_json(meta_file, limit=MAX_META_BYTES, what=f"agent ppo: the model's meta file {meta_file}")
        if not isinstance(meta, dict):
            raise ConfigError(f"agent ppo: the model's meta file {meta_file} must hold a JSON object")
        players = meta.get("players")
        if players is not None and not (isinstance(players, int) or
                                        (isinstance(players, list) and all(isinstance(p, int) for p in players))):
            raise ConfigError(f"agent ppo: {meta_file}: players must be a seat count or a list of them")
        for key in ("game", "variant", "deck", "observation"):
            if key in meta and not isinstance(meta[key], str):
                raise ConfigError(f"agent ppo: {meta_file}: {key} must be a string")
    return model, meta
