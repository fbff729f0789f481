"""The generated parts of the environments' spec sheets.

Each versioned environment (`sixnimmt_cards_v1`, `sixnimmt_board_v1`) documents itself in
its module docstring, as PettingZoo's environments do; the docstring's tables of actions
and observation indices are filled in here from the game itself (`Game.describe_action`,
`ObsLayout`), so a sheet cannot drift from the code it describes.
"""

from __future__ import annotations

import re

from ..core.game import make_game


def action_table(game) -> str:
    """The game's actions as a markdown table: runs of actions described alike
    (`play card 1` .. `play card 104`) on one row each."""
    runs: list[list] = []  # [first, last, pattern, first description]
    for action in range(game.info.n_actions):
        words = game.describe_action(action)
        pattern = re.sub(r"\d+", "#", words)
        if runs and runs[-1][2] == pattern:
            runs[-1][1] = action
        else:
            runs.append([action, action, pattern, words])
    lines = ["| action | meaning |", "| --- | --- |"]
    for first, last, _, words in runs:
        if first == last:
            lines.append(f"| {first} | {words} |")
        else:
            lines.append(f"| {first} .. {last} | {words} .. {game.describe_action(last)} |")
    return "\n".join(lines)


def layout_table(game, observation: str | None = None, *, beyond=None) -> str:
    """The observation's index table (`ObsLayout.markdown`), headed by its size D; with
    `beyond` (another `ObsLayout`), only the rows of the fields that one lacks."""
    layout = game.layout(observation)
    known = {f.name for f in beyond.fields} if beyond is not None else set()
    lines = layout.markdown().splitlines()
    rows = [line for line, f in zip(lines[2:], layout.fields) if f.name not in known]
    return "\n".join([f"Length D = {layout.size}:", "", *lines[:2], *rows])


def fill(doc: str, kind: str, tables: dict[str, tuple]) -> str:
    """`doc` with each `<<NAME>>` replaced by its table. NAME -> ("actions", variant), or
    ("layout", variant, observation) for the whole index table, or ("layout", variant,
    observation, (variant, observation)) for the fields beyond the second layout's."""
    for name, (what, variant, *args) in tables.items():
        game = make_game(kind, variant=variant)
        if what == "actions":
            text = action_table(game)
        else:
            beyond = make_game(kind, variant=args[1][0]).layout(args[1][1]) if len(args) > 1 else None
            text = layout_table(game, args[0], beyond=beyond)
        doc = doc.replace(f"<<{name}>>", text)
    return doc
