"""sixnimmt lab: a batched NumPy rules engine for 6 nimmt! and its relatives."""

from .engine import StepEvents, from_deal, new_games, play_slots, step
from .errors import ConfigError, IllegalActionError, InvalidRecordError, SixNimmtError
from .rng import game_seeds
from .rules import VARIANTS, RuleConfig, Variant
from .state import PHASE_CARDS, PHASE_OVER, PHASE_ROW, State, concat

__version__ = "0.1.0"
