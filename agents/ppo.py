"""`ppo:path=...`: a trained MaskablePPO model as a batched agent.

A model is saved as `<name>.zip` with `<name>.json` beside it: the rules it was trained
for, the game kind (`game`; `cards` when absent) and the observation variant it reads
(`observation`; `basic` when absent, as in models from before the variants). It plays
any table of that game kind whose seat count it was trained for; other games and counts
are refused with a clear error, as the policy never saw them.
"""

from __future__ import annotations

import json
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
            path = path or str(SHIPPED_MODEL)
            if not Path(path).exists():
                raise ConfigError(f"agent ppo: no model at {path}")
            from sb3_contrib import MaskablePPO
            model = MaskablePPO.load(path, device="cpu")
            meta_file = model_meta_path(path)
            meta = json.loads(meta_file.read_text()) if meta_file.exists() else {}
        self.model, self.meta = model, meta or {}
        self.deterministic = deterministic
        self.players = self.meta.get("players")
        self._layouts: dict = {}

    def act(self, view, rng: np.random.Generator) -> np.ndarray:
        if self.players is not None and view.players not in np.atleast_1d(self.players):
            raise ConfigError(f"agent {self.name}: trained for {self.players} players, "
                              f"the table has {view.players}")
        trained_for = self.meta.get("game", "cards")
        playing = getattr(view.config, "game", "cards")
        if trained_for != playing:
            raise ConfigError(f"agent {self.name}: the model was trained for the {trained_for!r} game, "
                              f"the table plays {playing!r}")
        layout = self._layouts.get(view.config)
        if layout is None:
            game = make_game(trained_for, view.config)
            layout = self._layouts[view.config] = game.layout(self.meta.get("observation", "basic"))
        expected = self.model.observation_space.shape[0]
        if layout.size != expected:
            raise ConfigError(f"agent {self.name}: the model expects observations of size "
                              f"{expected}, this game gives {layout.size} (another variant?)")
        if view.n == 0:
            return np.zeros(0, dtype=np.int64)
        actions, _ = self.model.predict(layout.encode(view), deterministic=self.deterministic,
                                        action_masks=view.action_mask())
        return np.asarray(actions, dtype=np.int64)
