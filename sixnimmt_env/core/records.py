"""The records envelope shared by every game, and reading and writing record files.

A record is one JSON object, `{"format": "sixnimmt-record/1", "game": ..., "variant":
..., "rules": {...}, ...}`; a record without "game" is a card-game record (the card
records' format leaves the key out). The rest belongs to the game kind, whose
module replays it (docs/spec/game-record.md for the card games). The helpers below are
what every kind's replay shares: one-line errors naming where a record goes wrong, values
quoted as JSON writes them, and the comparison of recomputed outputs with the record's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

from .checks import is_int
from .errors import InvalidRecordError
from .strict_json import write_json
from .untrusted import loads_json, read_bytes

__all__ = ["FORMAT", "ReplayResultBase", "check_envelope", "fail", "is_int", "load_record", "replay",
           "short", "write_record"]

FORMAT = "sixnimmt-record/1"
DEFAULT_RECORD_GAME = "cards"  # a record without "game"
MAX_RECORD_BYTES = 16 * 2**20  # a 10-player game to 66 points is under 200 kB


def fail(where: str, what: str) -> InvalidRecordError:
    """The error of a record that goes wrong at `where` ("round 2, turn 3"; "" for the
    record as a whole): one line, the place first."""
    return InvalidRecordError(f"{where}: {what}" if where else what)


def short(value: Any, limit: int = 60) -> str:
    """A value from a record as JSON writes it, cut to fit a one-line message."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


class ReplayResultBase:
    """What every game's replay result shares: the record with the outputs filled in
    (`completed`) and the outputs the record gives that the replay does not (`find_differences`).

    A subclass (a dataclass) holds `record`, `totals`, `winners`, `over` and `differences`
    (the list `find_differences` returned); `TOTALS_KEY` is the record's key of the totals,
    and the two hooks add the kind's own outputs (the card games' penalties per round).
    """

    TOTALS_KEY: ClassVar[str] = "totals"
    record: dict[str, Any]
    totals: list[int]
    winners: list[int]

    def _part_differences(self) -> list[str]:
        """Differences in outputs of the kind's own (before totals and winners)."""
        return []

    def _complete_parts(self, record: dict[str, Any]) -> None:
        """Fill in the kind's own outputs in a copy of the record."""

    def find_differences(self) -> list[str]:
        """Each output the record gives that differs from the replay's, in words."""
        diffs = self._part_differences()
        for key, computed in ((self.TOTALS_KEY, self.totals), ("winners", self.winners)):
            if key in self.record and self.record[key] != computed:
                diffs.append(f"{key} are {short(self.record[key], 200)}, replay gives {computed}")
        return diffs

    def completed(self) -> dict[str, Any]:
        """The record with its outputs filled in from the replay."""
        rec = json.loads(json.dumps(self.record))
        self._complete_parts(rec)
        rec[self.TOTALS_KEY], rec["winners"] = self.totals, self.winners
        return rec


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


def seat_words(seats) -> str:
    """Seats as a person reads them, counted from 1: "seat 2", "seats 1 and 3" (a record's
    seats are 0-based); the replay summaries print winners so."""
    shown = [str(int(s) + 1) for s in seats]
    if len(shown) < 2:
        return "seat " + "".join(shown) if shown else "none"
    return "seats " + ", ".join(shown[:-1]) + " and " + shown[-1]


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
    """Write one record as indented strict JSON (core/strict_json.py; atomically: a temp
    file, then a rename)."""
    write_json(path, record, what=f"the record {path}")
