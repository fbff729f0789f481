"""A placement's rule flags (cards/events.py, RULE_*) as names, for the tests' messages
and comparisons with the reference engines."""

from __future__ import annotations

from sixnimmt_env.cards.events import RULE_NAMES


def rule_names(flags: int) -> list[str]:
    """The names of the RULE_* bits set in one placement's `flags` (lowest bit first)."""
    return [name for bit, name in RULE_NAMES.items() if flags & bit]
