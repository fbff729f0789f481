"""sixnimmt lab: a batched NumPy rules engine for 6 nimmt! and its relatives."""

from .engine import StepEvents, from_deal, new_games, play_slots, restart, step
from .errors import ConfigError, IllegalActionError, InvalidRecordError, SixNimmtError
from .rng import game_seeds
from .rules import VARIANTS, RuleConfig, Variant
from .state import PHASE_CARDS, PHASE_OVER, PHASE_ROW, State, concat

__version__ = "0.1.0"


def __getattr__(name):
    # The adapters import gymnasium/pettingzoo; load them only when asked for, so the
    # engine stays importable (and fast to import) without them.
    if name in ("parallel_env", "env", "SixNimmtParallelEnv"):
        from . import pettingzoo_env as _env_module
        return getattr(_env_module, name)
    raise AttributeError(f"module 'sixnimmt_env' has no attribute {name!r}")
