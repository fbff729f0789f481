"""What the serve tests read in the server's messages (tests/lab/test_serve*.py): a frame's
messages, and every card a message shows (the hidden-hand checks)."""

from __future__ import annotations

import json


def messages_of(frame) -> list:
    """A WebSocket frame's messages, by the rule `play --join` and the serve bench read them
    (`experiments.play.join.messages_in`: one JSON object, or several in order as an array)."""
    from experiments.play.join import messages_in

    return messages_in(json.loads(frame))


def cards_shown(obj) -> set[int]:
    """Every card id shown anywhere in a message, or in a list or dict of its parts (cells,
    hands and events carry "card")."""
    if isinstance(obj, dict):
        own = {obj["card"]} if isinstance(obj.get("card"), int) else set()
        return own.union(*map(cards_shown, obj.values()))
    if isinstance(obj, list):
        return set().union(*map(cards_shown, obj))
    return set()
