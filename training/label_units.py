"""One label unit of `imitate`, for either game: `training.labels.label_unit` with the card
game's labeller (training/labels.py) or the board game's (training/board_labels.py), by
the `game` key of the unit's rule options (a board run's `rule_options()` carries it; a
card run's has none). A module of its own, so neither labeller imports the other."""

from __future__ import annotations

from .labels import label_unit as play_unit


def label_unit(index: int, players: int, deals: int, teacher: str, field: tuple[str, ...], field_seats: int,
               explore: float, observation: str, rules: dict, seed: int):
    """Label unit `index` (training.labels.label_unit's arguments and result), of the game `rules` names."""
    if rules.get("game") == "board":
        from agents.board.search import BoardMonteCarloAgent

        from .board_labels import BoardLabeller
        board = {k: v for k, v in rules.items() if k != "game"}
        return play_unit(index, players, deals, teacher, field, field_seats, explore, observation, board, seed,
                         kind="board", labeller=BoardLabeller, searcher=BoardMonteCarloAgent)
    return play_unit(index, players, deals, teacher, field, field_seats, explore, observation, rules, seed)
