"""sixnimmt lab: batched NumPy rules engines for 6 nimmt! and its relatives, behind one
game interface, with PettingZoo, Gymnasium and SB3 adapters.

Sub-packages (imports point down this list only):

- `core`: the game interface (`Game`, `GameInfo`, `make_game`), observation layouts,
  rewards, the records envelope, rng, errors; imports numpy only.
- `cards`: classic 6 nimmt! and Die Sechste: rules data, batched engine, seat view,
  encoders, records, rendering; imports `core`.
- `board`: the 2019 board game (6 nimmt! Das Brettspiel): rules and layouts, batched
  engine, seat view, encoders, records, rendering; imports `core`.
- `adapters`: PettingZoo ParallelEnv/AEC, Gymnasium env, SB3 VecEnv, learner seats among
  opponents; imports `core` (and reaches the games through the interface).

The card engine's names stay importable from here (`RuleConfig`, `new_games`, `step`, ...).
"""

from importlib import metadata as _metadata

from .cards.engine import StepEvents, from_deal, new_games, play_slots, restart, step
from .cards.rules import VARIANTS, RuleConfig, Variant
from .cards.state import PHASE_CARDS, PHASE_OVER, PHASE_ROW, State, concat
from .core.errors import ConfigError, IllegalActionError, InvalidRecordError, SixNimmtError
from .core.game import GAMES, Game, GameInfo, make_game
from .core.rng import game_seeds

__all__ = [  # the re-exports, and the adapters loaded on first use (see __getattr__)
    "GAMES", "PHASE_CARDS", "PHASE_OVER", "PHASE_ROW", "VARIANTS", "ConfigError", "Game", "GameInfo",
    "IllegalActionError", "InvalidRecordError", "RuleConfig", "SixNimmtError", "State", "StepEvents",
    "Variant", "concat", "from_deal", "game_seeds", "make_game", "new_games", "play_slots", "restart", "step",
    "parallel_env", "env", "SixNimmtParallelEnv", "SixNimmtEnv", "SixNimmtVecEnv",
    "sixnimmt_cards_v1", "sixnimmt_board_v1", "sixnimmt_v0",
]

try:  # the one version number is pyproject.toml's, as installed
    __version__ = _metadata.version("sixnimmt-lab")
except _metadata.PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"

# The adapters import gymnasium/pettingzoo/SB3; load them only when asked for, so the
# engines stay importable (and fast to import) without them.
_ADAPTERS = {
    "parallel_env": "pettingzoo_env", "env": "pettingzoo_env", "SixNimmtParallelEnv": "pettingzoo_env",
    "SixNimmtEnv": "gym_env", "SixNimmtVecEnv": "vec_env",
}
# The PettingZoo environments by versioned name (PettingZoo's `chess_v6` style): each module
# has parallel_env() and env() and its spec sheet as docstring; sixnimmt_v0, the older
# name of both, is the generic module.
_ENV_MODULES = {"sixnimmt_cards_v1": "sixnimmt_cards_v1", "sixnimmt_board_v1": "sixnimmt_board_v1",
                "sixnimmt_v0": "pettingzoo_env"}


def __getattr__(name):
    if name in _ADAPTERS:
        import importlib
        return getattr(importlib.import_module(f".adapters.{_ADAPTERS[name]}", __name__), name)
    if name in _ENV_MODULES:
        import importlib
        return importlib.import_module(f".adapters.{_ENV_MODULES[name]}", __name__)
    raise AttributeError(f"module 'sixnimmt_env' has no attribute {name!r}")
