"""The terminal board game plays every variant to its end, and keeps its record on any stop.

A scripted random person answers each prompt from what the screen shows it may answer
(the tiles held, the numbered answers), so it can never loop on a prompt: every prompt
gets at most a few tries (AssertionError after), and every test runs under a watchdog
(SIGALRM) that fails it instead of hanging the suite.
"""

from __future__ import annotations

import io
import json
import re
import signal

import numpy as np
import pytest
from rich.console import Console
from typer.testing import CliRunner

from experiments.cli import app
from experiments.play.board import BoardTerminalGame
from sixnimmt_env.core.game import make_game
from sixnimmt_env.core.records import replay

WATCHDOG_SECONDS = 120
TRIES = 5  # answers to one prompt before the person gives up (a prompt loop is a bug)


@pytest.fixture(autouse=True)
def watchdog():
    """Fail (not hang) a test that runs longer than WATCHDOG_SECONDS."""
    def expired(signum, frame):
        raise TimeoutError(f"test still running after {WATCHDOG_SECONDS} s (a prompt loop?)")
    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(WATCHDOG_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


class RandomPerson:
    """Answers every prompt at random from the legal answers the screen shows: a tile of
    the hand last shown (less the first tile of this turn), a number of the numbered
    list, y/n, a luck card. A refused answer is followed by the list the game prints."""

    def __init__(self, seed: int, first=None):
        self.out = io.StringIO()
        self.console = Console(file=self.out, width=200, force_terminal=False, highlight=False)
        self.rng = np.random.default_rng(seed)
        self.first = first  # pick(options) instead of a random one (a scripted person)
        self.prompts: list[str] = []
        self._seen = 0  # screen length at the last answer
        self._tries = 0
        self._put_out: list[str] = []  # this turn's first tile

    def _choose(self, options: list[str]) -> str:
        assert options, f"no legal answer shown:\n{self.out.getvalue()[-1500:]}"
        if self.first is not None:
            return self.first(options)
        return str(options[int(self.rng.integers(len(options)))])

    def __call__(self, prompt: str) -> str:
        screen = self.out.getvalue()
        new = screen[self._seen:]
        self._tries = self._tries + 1 if self.prompts and self.prompts[-1] == prompt and not new.count("\n") > 2 else 1
        assert self._tries <= TRIES, f"prompt {prompt!r} asked {self._tries} times:\n{screen[-1500:]}"
        self.prompts.append(prompt)
        refused = re.findall(r"Your tiles: ([\d ]+)$", new, re.M)
        if prompt.startswith(("Your tile", "Your first", "Your second")):
            if refused:
                held = refused[-1].split()
            else:
                held = [line for line in screen.splitlines() if line.startswith("your tiles")][-1].split()[2:]
            if prompt.startswith("Your second"):
                held = [t for t in held if t not in self._put_out]
            else:
                self._put_out = []
            answer = self._choose(held)
            self._put_out.append(answer)
        elif prompt.startswith("Your choice"):
            n = int(re.search(r"\(1-(\d+)\)", prompt).group(1))
            answer = self._choose([str(i) for i in range(1, n + 1)])
        elif prompt.startswith("Luck card"):
            answer = self._choose(["+5", "2x"])
        elif prompt.startswith("Use"):
            answer = self._choose(["y", "n"])
        else:
            raise AssertionError(f"unknown prompt {prompt!r}")
        self.console.print(prompt + answer)
        self._seen = len(self.out.getvalue())
        return answer


def _play(game, opponents, seed, person):
    session = BoardTerminalGame(game, opponents, seed, person.console, person)
    return session, session.play()


@pytest.mark.parametrize("variant", ["basic", "luck", "pro", "pro-luck"])
@pytest.mark.parametrize("players", [2, 4])
def test_random_full_games_of_every_board_variant(variant, players):
    game = make_game("board", players=players, variant=variant)
    for seed in range(3):
        person = RandomPerson(seed * 10 + players)
        _, result = _play(game, ["random"] * (players - 1), seed, person)
        assert result.finished, person.out.getvalue()[-1500:]
        assert "Game over" in person.out.getvalue()
        assert not replay(json.loads(json.dumps(result.record))).differences


def test_the_pro_game_of_seed_8_plays_past_the_play_two_turn():
    """`sixnimmt play --game board --variant pro --seed 8` (4 players, mcs): at a
    play-two turn a seat with one tile passes, and its pass (action 104) was shown as tile
    105 (IndexError, the game and its record lost)."""
    game = make_game("board", players=4, variant="pro")
    person = RandomPerson(0, first=lambda shown: shown[0])  # the lowest tile, the first answer, every time
    _, result = _play(game, ["mcs"] * 3, 8, person)
    assert result.finished and result.turns >= 10
    assert re.search(r"^Turn \d+, two tiles each$", person.out.getvalue(), re.M)
    assert not replay(json.loads(json.dumps(result.record))).differences


def test_an_unexpected_error_keeps_the_record_one_line_exit_1(tmp_path, monkeypatch):
    """A bug mid-game: the record of the completed turns is written, one line, exit 1."""
    def lowest(self, st):
        view = self.game.view(st, [0], [0])
        return min(int(t) for t in view.hand[0] if t)

    def show_events(self, before, after, events):
        if int(before.turn[0]) == 2:  # the third turn: recorded, but not completed for the record
            raise IndexError("index 105 is out of bounds for axis 0 with size 101")
    monkeypatch.setattr(BoardTerminalGame, "_ask_tile", lowest)
    monkeypatch.setattr(BoardTerminalGame, "_show_events", show_events)
    record = tmp_path / "game.json"
    run = CliRunner().invoke(app, ["play", "--game", "board", "--players", "3", "--opponents", "random",
                                   "--seed", "8", "--record", str(record)])
    assert run.exit_code == 1, run.output
    errors = [line for line in run.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "IndexError" in errors[0] and "Traceback" not in run.output + run.stderr
    rec = json.loads(record.read_text())
    assert not replay(rec).differences and len(rec["turns"]) == 2
