"""Typed errors of the lab.

The CLI turns each of them into a one-line message and an exit code; library users can
catch them by type. Messages name the game, seat, turn and the legal set where they apply.
"""


class SixNimmtError(Exception):
    """Base class of every error the lab raises on purpose."""


class ConfigError(SixNimmtError, ValueError):
    """A rule option or other configuration value is invalid."""


class IllegalActionError(SixNimmtError, ValueError):
    """An action is not legal in the current state of a game."""


class InvalidRecordError(SixNimmtError, ValueError):
    """A game record is malformed or breaks the rules (exit code 2 in `sixnimmt replay`)."""
