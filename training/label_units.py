"""One label unit of `imitate`, for either game: the card game's (training/labels.py) or
the board game's (training/board_labels.py), by the `game` key of the unit's rule options
(a board run's `rule_options()` carries it; a card run's has none). A module of its own,
so neither labeller imports the other."""

from __future__ import annotations


def label_unit(index: int, players: int, deals: int, teacher: str, field: tuple[str, ...], field_seats: int,
               explore: float, observation: str, rules: dict, seed: int):
    """Label unit `index` (training.labels.label_unit's arguments and result), of the game `rules` names."""
    if rules.get("game") == "board":
        from .board_labels import board_label_unit
        board = {k: v for k, v in rules.items() if k != "game"}
        return board_label_unit(index, players, deals, teacher, field, field_seats, explore, observation, board, seed)
    from .labels import label_unit as card_label_unit
    return card_label_unit(index, players, deals, teacher, field, field_seats, explore, observation, rules, seed)
