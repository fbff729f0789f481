"""The records envelope shared by every game, and reading and writing record files.

A record is one JSON object, `{"format": "sixnimmt-record/1", "game": ..., "variant":
..., "rules": {...}, ...}`; a record without "game" is a card-game record (as every
record was before there were other games). The rest belongs to the game kind, whose
module replays it (docs/spec/game-record.md for the card games).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import InvalidRecordError, writing
from .untrusted import loads_json, read_bytes

FORMAT = "sixnimmt-record/1"
DEFAULT_RECORD_GAME = "cards"  # a record without "game"
MAX_RECORD_BYTES = 16 * 2**20  # a 10-player game to 66 points is under 200 kB


def check_envelope(record: Any) -> str:
    """The game kind of a record, after checking its envelope (InvalidRecordError)."""
    if not isinstance(record, dict):
        raise InvalidRecordError("a record must be a JSON object")
    if record.get("format") != FORMAT:
        raise InvalidRecordError(f"format must be {FORMAT!r}, got {record.get('format')!r}")
    game = record.get("game", DEFAULT_RECORD_GAME)
    from .game import GAMES
    if not isinstance(game, str) or game not in GAMES:
        raise InvalidRecordError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    return game


def replay(record: Any):
    """Check a record of any game against its rules; the game's replay result.

    Raises:
        InvalidRecordError: the record is malformed or breaks the rules.
    """
    from .game import game_module
    return game_module(check_envelope(record)).replay(record)


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file within the limits of core.untrusted (size, depth, integers,
    UTF-8); not-JSON and unreadable files raise InvalidRecordError."""
    data = read_bytes(path, limit=MAX_RECORD_BYTES, error=InvalidRecordError)
    return loads_json(data, error=InvalidRecordError, what=str(path))


def write_record(record: dict[str, Any], path: str | Path) -> None:
    """Write one record as indented JSON (atomically: a temp file, then a rename)."""
    path = Path(path)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with writing(f"the record {path}"):
        try:
            tmp.write_text(json.dumps(record, indent=1) + "\n")
            tmp.replace(path)
        finally:
            tmp.unlink(missing_ok=True)  # a half-written temp file (disk full) is not left behind
