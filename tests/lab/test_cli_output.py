"""What the commands print for people: `--help` with no type beside a flag (a flag takes no
value) and with each board variant's default layout, and a progress bar whose total settles instead of jumping while the estimate of a
match's length swings."""

from __future__ import annotations

import io

from typer.testing import CliRunner

from experiments.cli import app
from experiments.tournaments.progress import TurnBar


def test_help_shows_a_type_only_beside_options_that_take_a_value():
    for command in ("play", "match", "replay", "tournament"):
        out = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "120"}).stdout
        assert "--help" in out and "<bool>" not in out, command
    assert "<int>" in CliRunner().invoke(app, ["match", "--help"], env={"COLUMNS": "120"}).stdout


def test_help_names_the_board_layout_of_each_variant():
    from sixnimmt_env.board._layout_files import DEFAULT_LAYOUT
    from sixnimmt_env.board.rules import SIDE

    for command in ("match", "tournament", "demo", "play"):
        out = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "200"}).stdout
        out = " ".join(out.replace("│", " ").split())  # the help box's wrapped lines as one text
        for side, layout in DEFAULT_LAYOUT.items():  # each side's default with the variants played on it
            variants = ", ".join(v for v, s in SIDE.items() if s == side)
            assert f"{layout} ({variants})" in out, (command, layout)


def test_a_match_bar_total_moves_by_small_steps_and_ends_at_the_count():
    bar = TurnBar("match", enabled=True, file=io.StringIO())
    # the share played as a game to 66 estimates it: a slow start, then a sudden jump
    shares = [0.01, 0.03, 0.06, 0.08, 0.10, 0.30, 0.32, 0.34, 0.60, 0.80, 0.95, 1.0]
    totals = []
    for share in shares:
        bar.update(1000, share)
        totals.append(bar.bar.total)
    bar.close()
    assert totals[:2] == [None, None]  # no total before SETTLE of the match is played
    shown = [t for t in totals if t is not None]
    for before, after in zip(shown, shown[1:-1]):
        assert abs(after - before) <= 0.15 * before, (before, after)  # never a jump (raw: 100k -> 33k)
    assert shown[-1] == 12_000  # the match's decisions, exactly, at its end
