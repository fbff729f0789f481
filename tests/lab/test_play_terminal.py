"""`sixnimmt play` end to end: the real program driven through a pseudo-terminal (pexpect): the card game,
and the board pro game, whose log names every action card the opponents play."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys

import pytest

pexpect = pytest.importorskip("pexpect")

# Plain text on the pty: no colours or cursor codes to match around.
ENV = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "120"}
PROMPTS = [r"Your card: ", r"Row \(([\d, ]+)\): ", r"Game over", pexpect.EOF]


def spawn(*args: str, sigint_ignored: bool = False):
    """`sixnimmt play` on a pty; `sigint_ignored` starts it as a background job of a script would
    (SIGINT ignored, as CI runs the suite), which play must undo for Ctrl-C to reach the game."""
    ignore = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if sigint_ignored else None
    child = pexpect.spawn(sys.executable, ["-m", "experiments.cli", "play", *args], env=ENV,
                          encoding="utf-8", timeout=180, dimensions=(50, 120), preexec_fn=ignore)
    return child


def hand_of(text: str) -> list[str]:
    return re.findall(r"^your hand(.*)$", text, re.M)[-1].split()


def replay(path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", "replay", str(path)],
                          capture_output=True, text=True, timeout=120)


def test_a_whole_game_with_bad_inputs_then_replay(tmp_path):
    record = tmp_path / "game.json"
    child = spawn("--opponents", "random,lowest", "--players", "3", "--max-rounds", "1",
                  "--seed", "5", "--record", str(record))
    card_prompts = row_prompts = 0
    while True:
        which = child.expect(PROMPTS)
        if which == 0:
            hand = hand_of(child.before)
            if card_prompts == 0:  # every kind of bad input once, each answered with a new prompt
                for bad, answer in [("", "Type one of your cards"), ("xyz", "'xyz' is not a card"),
                                    (str(next(c for c in range(1, 105) if str(c) not in hand)),
                                     "You do not hold")]:
                    child.sendline(bad)
                    child.expect_exact(answer)
                    child.expect_exact("Your card: ")
                child.sendcontrol("d")
                child.expect_exact("Ctrl-D")
                child.expect_exact("Your card: ")
            child.sendline(hand[0])  # lowest card: seed 5 makes it too low in turn 1
            card_prompts += 1
        elif which == 1:
            allowed = child.match.group(1).split(", ")
            if row_prompts == 0:
                for bad in ("9", "row"):
                    child.sendline(bad)
                    child.expect_exact(f"There is no row '{bad}'")
                    child.expect(PROMPTS[1])
            child.sendline(allowed[0])
            row_prompts += 1
        elif which == 2:
            break
        else:
            pytest.fail("the program ended before the game was over:\n" + child.before)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert card_prompts == 10 and row_prompts >= 1
    assert "Traceback" not in child.before and "written to" in child.before
    rec = json.loads(record.read_text())
    assert rec["seats"][0] == "human" and len(rec["rounds"][0]["turns"]) == 10
    proc = replay(record)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"totals: {rec['totals']}" in proc.stdout


def test_ctrl_c_saves_the_completed_turns_and_exits_130(tmp_path):
    record = tmp_path / "stopped.json"
    child = spawn("--opponents", "lowest", "--players", "4", "--seed", "2", "--row-choice", "cheapest",
                  "--record", str(record), sigint_ignored=True)
    for _ in range(3):
        child.expect_exact("Your card: ")
        child.sendline(hand_of(child.before)[-1])
    child.expect_exact("Your card: ")
    child.sendintr()
    child.expect_exact("Game stopped (Ctrl-C)", timeout=30)  # a ^C the game ignored would wait for ever
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130, child.before
    assert "Traceback" not in child.before
    rec = json.loads(record.read_text())
    assert len(rec["rounds"][0]["turns"]) == 3 and rec["winners"] == []
    proc = replay(record)
    assert proc.returncode == 0 and "game not over" in proc.stdout, proc.stdout + proc.stderr


def test_arrow_keys_edit_the_typed_line():
    child = spawn("--opponents", "random", "--players", "2", "--max-rounds", "1", "--seed", "3")
    child.expect_exact("Your card: ")
    card = next(c for c in hand_of(child.before) if len(c) == 2 and c[0] != c[1])
    child.send(card[1])
    child.send("\x1b[D")  # left arrow: the first digit goes in front of the second
    child.send(card[0] + "\r")
    which = child.expect([r"is not a card|Type one of", r"Your card: |Row \(", pexpect.EOF])
    assert which == 1, child.before  # the card was played: the game asks on
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
    child.close()


ACTION_CARDS = ("Stop", "Swap", "Skip", "Front", "Ascending", "One more")
BOARD_PROMPTS = [r"Your (first |second )?tile: ", r"Your choice \(1-(\d+)\): ", r"Game over", pexpect.EOF]
PRO_SEED = 0  # random opponents play each of the six action cards in this game (the person: lowest tiles, answer 1)


def test_the_pro_board_game_tells_every_action_card_and_placement(tmp_path):
    record = tmp_path / "pro.json"
    child = spawn("--game", "board", "--variant", "pro", "--opponents", "random", "--seed", str(PRO_SEED),
                  "--record", str(record))
    child.timeout = 120  # the first board game of a run may compile the kernels
    screen, first, helped = "", None, set()
    while True:
        which = child.expect(BOARD_PROMPTS)
        screen += child.before + (child.after if isinstance(child.after, str) else "")
        if which == 0:
            if "tile" not in helped:  # help at the tile prompt explains it, then asks again
                helped.add("tile")
                child.sendline("help")
                child.expect_exact("Put out one tile")
                continue
            held = [line for line in screen.splitlines() if line.startswith("your tiles")][-1].split()[2:]
            if child.match.group(1) == "second ":
                held = [t for t in held if t != first]
            first = held[0]
            child.sendline(first)
        elif which == 1:
            if "choice" not in helped:
                helped.add("choice")
                child.sendline("?")
                child.expect(r"Play an action card|starts a row")
                continue
            child.sendline("1")  # no action card; the first free row
        elif which == 2:
            break
        else:
            pytest.fail("the program ended before the game was over:\n" + screen[-3000:])
    child.expect(pexpect.EOF)
    child.close()
    screen += child.before
    assert child.exitstatus == 0, screen[-2000:]
    assert "Traceback" not in screen
    screen = " ".join(screen.split())  # lines as the terminal wrapped them, joined
    # every action card an opponent played is named, with what it put out
    for name in ACTION_CARDS:
        assert re.search(rf"seat \d \(random\) plays {name}", screen), f"{name} not in the log"
    assert re.search(r"plays One more: tile \d+", screen) and re.search(r"plays Swap for tile \d+", screen)
    assert "STOP: no tile may join this row this turn" in screen  # the stop sign on the board
    assert re.search(r"chooses free row \d+, field 1 ", screen)  # a free row named by its field ...
    assert re.search(r"goes on: moves to row \d+ field 1: [+-]\d+ points?", screen)  # ... and what it scored
    assert "D draw a tile" in screen and "A draw an action card" in screen and "H take the row into your hand" in screen
    assert "Without a card your" in screen  # where the tile lands when no card is played
    assert re.search(r"you \d+ → row \d+ field \d+ \(", screen)
    assert replay(record).returncode == 0


def test_replay_counts_rounds_and_seats_from_1(tmp_path):
    record = tmp_path / "demo.json"
    subprocess.run([sys.executable, "-m", "experiments.cli", "demo", "--players", "3", "--seed", "4", "--max-rounds", "2",
                    "--record", str(record)], check=True, capture_output=True, timeout=120)
    rec = json.loads(record.read_text())
    out = replay(record).stdout
    assert out.startswith("round 1: penalties") and "round 2: penalties" in out and "round 0" not in out
    winners = [s + 1 for s in rec["winners"]]  # the record keeps its 0-based seats
    assert re.search(r"^winners: seats? " + " and ".join(map(str, winners)) + "$", out, re.M) or len(winners) > 2, out
