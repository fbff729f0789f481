"""The agents named after one rule of a table (`lowest`, `board-safe`, ...), for any game.

Each game's heuristics keep their own table, name -> rule (a card key, a tile value); the
checking of a name against it and the agent's name are the same for every game and live here.
"""

from __future__ import annotations

from typing import Any, ClassVar


class RuleTableAgent:
    """An agent playing the rule `RULES[rule]`; a subclass sets RULES and the words of its
    unknown-name error (WHAT)."""

    RULES: ClassVar[dict[str, Any]] = {}
    WHAT: ClassVar[str] = "heuristic"

    def __init__(self, rule: str):
        if rule not in self.RULES:
            raise ValueError(f"unknown {self.WHAT} {rule!r}")
        self.name = rule
        self.rule = self.RULES[rule]
