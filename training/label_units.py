"""One label unit of `imitate`, for either game: the card game's (training/labels.py) or
the board game's (training/board_labels.py), by the `game` key of the unit's rule options
(a board run's `rule_options()` carries it; a card run's has none). A module of its own,
so neither labeller imports the other."""

from __future__ import annotations


def label_batch(index: int, players: int, deals: int, teacher: str, field: tuple[str, ...], field_seats: int,
                explore: float, observation: str, rules: dict, seed: int, out: str) -> tuple[int, int, float]:
    """Label unit `index` (training.labels.label_batch's arguments), of the game `rules` names."""
    if rules.get("game") == "board":
        from .board_labels import board_label_batch
        board = {k: v for k, v in rules.items() if k != "game"}
        return board_label_batch(index, players, deals, teacher, field, field_seats, explore, observation, board,
                                 seed, out)
    from .labels import label_batch as card_label_batch
    return card_label_batch(index, players, deals, teacher, field, field_seats, explore, observation, rules, seed, out)
