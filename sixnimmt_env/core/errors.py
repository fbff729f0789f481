"""Typed errors of the lab.

The CLI turns each of them into a one-line message and an exit code; library users can
catch them by type. Messages name the game, seat, turn and the legal set where they apply.
"""

import contextlib


class SixNimmtError(Exception):
    """Base class of every error the lab raises on purpose."""


class ConfigError(SixNimmtError, ValueError):
    """A rule option or other configuration value is invalid."""


class IllegalActionError(SixNimmtError, ValueError):
    """An action is not legal in the current state of a game."""


class InvalidRecordError(SixNimmtError, ValueError):
    """A game record is malformed or breaks the rules (exit code 2 in `sixnimmt replay`)."""


class OutputError(SixNimmtError, OSError):
    """An output cannot be written: disk full, read-only, a file where a directory is due.
    Whatever was written before is left as it was."""


@contextlib.contextmanager
def writing(what: object):
    """Turn an OSError while writing `what` (a path, or words naming it) into an
    OutputError that names it and the system's reason."""
    try:
        yield
    except OutputError:
        raise
    except OSError as e:
        reason = e.strerror or str(e)
        where = f" ({e.filename})" if e.filename and str(e.filename) != str(what) else ""
        raise OutputError(f"cannot write {what}{where}: {reason}") from None
