"""The terminal and the web page draw the same turn from the same table view: one turn of
the card game (a row to choose, then the takes) and one of the professional board game with
luck cards (a question with its answers) are drawn by the page's own table.js (run by node
in a stand-in DOM, tests/support/page_text.js) and by the terminal's renderer
(experiments/play/table.py, the only way the terminal games show a table); every title,
status, prompt, row, hand, score, info line, legend entry, answer and log line the page
shows is on the terminal's screen in the same words."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from experiments.play.table import TableRenderer
from sixnimmt_env import game_seeds, make_game

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["you", "seat 2 (random)", "seat 3 (lowest)"]

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="the page's drawing runs on node")


def page(view: dict, game: str, unit: str, legal: list[int]) -> dict:
    """What each part of the page shows after drawing `view` (and logging its events)."""
    message = {"static": str(ROOT / "experiments/serve/static"), "view": view, "names": NAMES, "game": game,
               "unit": unit, "legal": legal}
    proc = subprocess.run(["node", str(ROOT / "tests/support/page_text.js")], input=json.dumps(message),
                          capture_output=True, text=True, timeout=60, check=True)
    return json.loads(proc.stdout)


def terminal(view: dict, bulls_word: str) -> list[str]:
    """The terminal's screen for `view`, as the terminal games draw a decision: the start,
    the table, the question and the log; lines with their spaces collapsed."""
    out = io.StringIO()
    table = TableRenderer(Console(file=out, width=5000, force_terminal=False, highlight=False), NAMES, bulls_word)
    table.show_start(view)
    table.show_turn(view, "Scores")
    table.show_question(view, numbered=True)
    table.show_log(view.get("events", []))
    return [" ".join(line.split()) for line in out.getvalue().splitlines()]


def same_turn(shown: dict, lines: list[str]) -> None:
    screen = "\n".join(lines)
    for part in ("title", "status", "prompt"):
        assert " ".join(shown[part].split()) in screen, part
    for row in shown["rows"]:  # an empty place (the page's empty box) is a · on the terminal
        words = [row["label"], *(c or "·" for c in row["cells"]), row["points"]] + ([row["note"]] if row["note"] else [])
        assert " ".join(" ".join(words).split()) in lines, row
    if shown["hand"]:
        assert " ".join([shown["hand_label"], *shown["hand"]]) in lines
    scores = next(line for line in lines if line.startswith("Scores: "))
    for name, total, note in shown["scores"]:
        assert f"{name} {total}" + (f" ({note})" if note else "") in scores
    for line in shown["info"] + shown["choices"] + shown["helps"]:
        assert " ".join(line.split()) in screen, line
    for entry in shown["legend"]:
        assert " ".join(" ".join(entry).split()) in screen, entry
    if shown["pending"]:
        waiting = next(line for line in lines if line.startswith("Waiting to be placed: "))
        assert waiting.removeprefix("Waiting to be placed: ").split(" · ") == shown["pending"]
    for line in shown["log"]:
        assert any(" ".join(line.split()) in mine for mine in lines), line
    assert shown["log"] or not shown.get("events")


def _step(game, st, rng, person_action=None):
    P = game.info.players
    view = game.view(st, np.arange(P), np.zeros(P, dtype=int))
    actions = view.random_legal_actions(rng).reshape(P, 1)
    if person_action is not None:
        actions[0, 0] = person_action
    after, events = game.step(st, actions, report=True)
    return after, game.table_view(after, 0, before=st, events=events, actions=actions)


def test_a_card_turn_with_a_row_to_take_is_drawn_alike():
    game = make_game("cards", players=3, end_score=None, max_rounds=1)
    st, rng = game.new_games(game_seeds(5, 1)), np.random.default_rng(0)
    lowest = int(st.hands[0, :10, 0].min())  # seed 5: lower than every row, so the person takes one
    st, view = _step(game, st, rng, person_action=lowest - 1)
    assert view["pending"] and "lower than the last card of every row" in view["prompt"]
    legal = [r["action"] for r in view["rows"] if r["action"] is not None]
    same_turn(page(view, "cards", "bullheads", legal), terminal(view, "bullheads"))
    _, view = _step(game, st, rng, person_action=legal[0])
    assert any(item.get("take") for item in view["events"])
    same_turn(page(view, "cards", "bullheads", []), terminal(view, "bullheads"))


def test_a_board_question_is_drawn_alike():
    game = make_game("board", players=3, variant="pro-luck")
    rng = np.random.default_rng(1)
    st = game.new_games(game_seeds(2, 1))
    for _ in range(400):  # random play until the person is asked a question with answers
        st, view = _step(game, st, rng)
        if view["choices"] and view["events"]:
            break
    else:
        pytest.fail("no question for seat 0 in 400 random steps")
    shown = page(view, "board", "points", [c["action"] for c in view["choices"]])
    assert shown["choices"] and shown["legend"] and shown["log"]
    same_turn(shown, terminal(view, "bullheads"))
