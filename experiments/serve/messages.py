"""Reading one message from a page: JSON within bounds, every field of an odd type refused
with one line that names the field (never an `internal` error, never a traceback).

The text is parsed by the lab's one bounded JSON reader (`core/untrusted.loads_json`: the
nesting depth, strict types, a RecursionError is a refusal), with one difference: an
integer of more than MAX_DIGITS digits is kept as a `LongNumber` rather than refused at
once, so the field that holds it is the one named ("seed must be a whole number ..., got
a number of 5000 digits").

What the server sends is written by `json_text` (orjson: a step's table, ~4 KB of small
dicts, is encoded about ten times faster than by the standard library's encoder, the
largest part of a table's answer after the engine and the table views).
"""

from __future__ import annotations

import orjson

from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.strict_json import json_text as strict_json_text
from sixnimmt_env.core.untrusted import MAX_INT_DIGITS, loads_json

MAX_DEPTH = 6  # the deepest message of the page nests 2 (a `new` message's options)
MAX_DIGITS = MAX_INT_DIGITS


class LongNumber:
    """An integer of the message too long to be any field's value; says how long it is."""

    def __init__(self, digits: str):
        self.digits = len(digits.lstrip("-"))

    def __repr__(self) -> str:
        return f"a number of {self.digits} digits"


def parse_message(text: str, max_chars: int) -> dict:
    """The message `text` as a dict with a string `type` (ConfigError naming what is wrong)."""
    if len(text) > max_chars:
        raise ConfigError(f"message too long ({len(text)} characters; at most {max_chars})")
    msg = loads_json(text, error=ConfigError, what="message", depth=MAX_DEPTH, long_int=LongNumber)
    if not isinstance(msg, dict):
        raise ConfigError("a message is a JSON object with a 'type'")
    if not isinstance(msg.get("type"), str):
        raise ConfigError(f"type must be a message type (new, act, next, resume, ping), got {shown(msg.get('type'))}")
    if "id" in msg and not isinstance(msg["id"], (str, type(None))):
        raise ConfigError(f"id must be a game's id (text), got {shown(msg['id'])}")
    return msg


def json_text(message) -> str:
    """`message` (plain data) as compact JSON text: what `json.dumps` gives, parsed back
    (non-ASCII characters as themselves, not escaped). What orjson does not take (an
    integer past 64 bits, a NumPy scalar) goes to the lab's strict encoder (the standard
    library's, a non-finite float written as null, as orjson writes it)."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        return strict_json_text(message, separators=(",", ":"))


def shown(value, limit: int = 40) -> str:
    """A field's value as an error message shows it: short, on one line."""
    if isinstance(value, (LongNumber, bool)) or value is None:
        return repr(value)
    if isinstance(value, (dict, list)):
        return f"a JSON {'object' if isinstance(value, dict) else 'list'}"
    text = strict_json_text(value) if isinstance(value, str) else str(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


def whole_number(name: str, value, low: int, high: int, *, text_ok: bool = True) -> int:
    """`value` (a JSON integer, or its decimal text when `text_ok`) as an int in low..high;
    ConfigError naming `name` otherwise."""
    if text_ok and isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= MAX_DIGITS:
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"{name} must be a whole number {low}..{high}, got {shown(value)}")
    return value
