"""`ppo:path=...`: a trained MaskablePPO model as a batched agent.

A model is saved as `<name>.zip` with `<name>.json` beside it: the rules it was trained
for, the game kind (`game`; `cards` when absent) and the observation variant it reads
(`observation`; `basic` when absent, as in models from before the variants). It plays
any table of that game kind whose seat count it was trained for; other games and counts
are refused with a clear error, as the policy never saw them.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np

from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.game import make_game


# The model shipped with the repository (kept beside the training code that made it):
# what plain `ppo` plays. Resolved from this file, not the working directory, so
# `sixnimmt play --opponents ppo` works anywhere.
SHIPPED_MODEL = Path(__file__).parents[1] / "training" / "models" / "ppo-4p.zip"


def model_meta_path(model_path: str | Path) -> Path:
    return Path(model_path).with_suffix(".json")


def write_model_meta(model_path: str | Path, meta: dict) -> None:
    model_meta_path(model_path).write_text(json.dumps(meta, indent=1) + "\n")


class PPOAgent:
    """Masked policy of a MaskablePPO model; deterministic (argmax) by default."""

    name = "ppo"

    def __init__(self, path: str = "", deterministic: bool = True, model=None, meta: dict | None = None):
        if model is None:
            model, meta = load_model(path or str(SHIPPED_MODEL))
        self.model, self.meta = model, meta or {}
        self.deterministic = deterministic
        self.players = self.meta.get("players")
        self._layouts: dict = {}

    def check(self, game) -> None:
        """Refuse, before the first turn, a table the model was not trained for: another
        game kind, seat count or observation size (ConfigError)."""
        self._layout(game.rules, game.info.players)

    def _layout(self, config, players: int):
        if self.players is not None and players not in np.atleast_1d(self.players):
            raise ConfigError(f"agent {self.name}: trained for {self.players} players, "
                              f"the table has {players}")
        trained_for = self.meta.get("game", "cards")
        playing = getattr(config, "game", "cards")
        if trained_for != playing:
            raise ConfigError(f"agent {self.name}: the model was trained for the {trained_for!r} game, "
                              f"the table plays {playing!r}")
        layout = self._layouts.get(config)
        if layout is None:
            game = make_game(trained_for, config)
            layout = self._layouts[config] = game.layout(self.meta.get("observation", "basic"))
        expected = self.model.observation_space.shape[0]
        if layout.size != expected:
            raise ConfigError(f"agent {self.name}: the model expects observations of size "
                              f"{expected}, this game gives {layout.size} (another variant?)")
        return layout

    def act(self, view, rng: np.random.Generator) -> np.ndarray:
        layout = self._layout(view.config, view.players)
        if view.n == 0:
            return np.zeros(0, dtype=np.int64)
        actions, _ = self.model.predict(layout.encode(view), deterministic=self.deterministic,
                                        action_masks=view.action_mask())
        return np.asarray(actions, dtype=np.int64)


def load_model(path: str | Path):
    """A saved MaskablePPO model and its sidecar meta; a ConfigError that names the file
    for anything else: missing, a directory, not a zip, truncated, a zip that is not a
    model, a meta file that is not a JSON object, a model without a flat observation."""
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"agent ppo: no model at {path}")
    if not path.is_file():
        raise ConfigError(f"agent ppo: {path} is not a model file (a directory?)")
    if not zipfile.is_zipfile(path):
        raise ConfigError(f"agent ppo: {path} is not a model (a MaskablePPO .zip); truncated or another file?")
    try:
        with zipfile.ZipFile(path) as z:
            names = set(z.namelist())
            broken = z.testzip()
    except (zipfile.BadZipFile, OSError, EOFError) as e:
        raise ConfigError(f"agent ppo: {path} is a damaged zip ({e})") from None
    if broken is not None:
        raise ConfigError(f"agent ppo: {path} is damaged ({broken} fails its checksum)")
    if not {"data", "policy.pth"} <= names:
        raise ConfigError(f"agent ppo: {path} is a zip but not a saved model (no data/policy.pth in it)")
    from sb3_contrib import MaskablePPO
    try:
        model = MaskablePPO.load(path, device="cpu")
    except Exception as e:  # noqa: BLE001 - SB3/torch raise many kinds on a file they cannot read
        raise ConfigError(f"agent ppo: cannot load {path} as a MaskablePPO model: "
                          f"{type(e).__name__}: {e}") from None
    shape = getattr(model.observation_space, "shape", None)
    if not shape or len(shape) != 1:
        raise ConfigError(f"agent ppo: {path} reads observations of shape {shape}, not a flat vector")
    meta_file = model_meta_path(path)
    meta: dict = {}
    if meta_file.exists():
        try:
            meta = json.loads(meta_file.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ConfigError(f"agent ppo: the model's meta file {meta_file} is not JSON ({e})") from None
        if not isinstance(meta, dict):
            raise ConfigError(f"agent ppo: the model's meta file {meta_file} must hold a JSON object")
        players = meta.get("players")
        if players is not None and not (isinstance(players, int) or
                                        (isinstance(players, list) and all(isinstance(p, int) for p in players))):
            raise ConfigError(f"agent ppo: {meta_file}: players must be a seat count or a list of them")
        for key in ("game", "observation"):
            if key in meta and not isinstance(meta[key], str):
                raise ConfigError(f"agent ppo: {meta_file}: {key} must be a string")
    return model, meta

