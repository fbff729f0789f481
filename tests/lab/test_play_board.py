"""`sixnimmt play --game board` driven through its injected console and input (no terminal),
and the board's step text that the demo prints."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from experiments.play.board import BoardTerminalGame
from experiments.play.demo import play_demo
from experiments.play.session import HUMAN_NAME, terminal_game
from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.game import make_game
from sixnimmt_env.core.rng import game_seeds

LUCK_2P = make_game("board", players=2, variant="luck")
BASIC_3P = make_game("board", players=3)


class Person:
    """Answers prompts: first the scripted lines of each kind of prompt, then the lowest
    tile held (the second lowest for a second tile), "n" to yes/no questions and "+5"
    for a luck card. A scripted entry may be a string, or EOFError / KeyboardInterrupt
    (raised)."""

    def __init__(self, tiles=(), questions=(), luck=(), width=120):
        self.out = io.StringIO()
        self.console = Console(file=self.out, width=width, force_terminal=False, highlight=False)
        self.scripts = {"tile": list(tiles), "question": list(questions), "luck": list(luck)}
        self.prompts: list[str] = []

    @property
    def screen(self) -> str:
        return self.out.getvalue()

    def hand(self) -> list[str]:
        return [line for line in self.screen.splitlines() if line.startswith("your tiles")][-1].split()[2:]

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        self.console.print(prompt, end="")
        kind = "question" if prompt.startswith("Use") else "luck" if prompt.startswith("Luck") else "tile"
        script = self.scripts[kind]
        answer = script.pop(0) if script else None
        if answer is EOFError or answer is KeyboardInterrupt:
            raise answer
        if answer is None:
            answer = {"question": "n", "luck": "+5"}.get(kind) or self.hand()[prompt.startswith("Your second")]
        self.console.print(answer)
        return answer


def play(person: Person, game=LUCK_2P, opponents=None, seed=7, **kw):
    opponents = ["random"] * (game.info.players - 1) if opponents is None else opponents
    return BoardTerminalGame(game, list(opponents), seed, person.console, person, **kw).play()


def test_a_whole_game_is_played_to_its_end():
    person = Person()
    result = play(person, BASIC_3P, seed=4)
    assert result.finished and not result.interrupted
    screen = person.screen
    assert result.turns == int(re.findall(r"^Turn (\d+)", screen, re.M)[-1])
    assert "6 nimmt! Das Brettspiel (basic game)" in screen and "Game over" in screen
    assert "Revealed: you" in screen and re.search(r"you \d+ → row \d+ field \d+ \(\w+", screen)
    assert ("You win!" in screen or "You share the win." in screen or "Winner" in screen)
    # the final table: the most points first
    points = [int(m) for m in re.findall(r"│ (?:you|seat \d \(random\))(?:  \(winner\))?\s*│\s*(-?\d+) │", screen)]
    assert len(points) == 3 and points == sorted(points, reverse=True)
    assert sorted(result.totals, reverse=True) == points
    assert not any(p.startswith(("Use", "Luck")) for p in person.prompts)  # no luck cards: no questions


def test_the_screen_shows_the_board_by_field_kinds_tiles_points_and_luck_cards():
    person = Person(tiles=[KeyboardInterrupt], width=400)
    play(person)
    screen = person.screen
    assert re.search(r"^Fields: \. nothing · \+ plus the tile's bullheads · - minus", screen, re.M)
    assert "2 two tiles a turn while uncovered" in screen and "T take the row" in screen
    rows = re.findall(r"^ ?(\d+)\s+(\d+|\.)\s.*\d+ points?", screen, re.M)  # label, the first field
    assert [int(r) for r, _ in rows] == list(range(1, 11))  # ten rows
    assert sum(first.isdigit() for _, first in rows) == 4  # four active (a tile on field 1)
    hand = person.hand()
    assert len(hand) == 12 and [int(t) for t in hand] == sorted(int(t) for t in hand)
    assert re.search(r"^bullheads(\s+[1-5]){12}$", screen, re.M)
    assert "Points: you 0 · seat 2 (random) 0" in screen
    assert "Luck cards left: +5 6 · 2x 6" in screen
    assert "(an approximation of the printed board)" in screen


def test_field_kinds_have_colours_on_a_terminal():
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=True, color_system="standard", highlight=False)
    game = BoardTerminalGame(LUCK_2P, ["random"], 7, console, lambda prompt: "quit")
    game.play()
    screen = out.getvalue()
    assert "\x1b[1;32m+" in screen  # green fields
    assert "\x1b[1;31m-" in screen  # red fields
    assert "\x1b[1;36m2" in screen  # play two
    assert "\x1b[1;30;43mT" in screen  # take


def test_bad_tile_inputs_get_a_message_and_a_new_prompt():
    hand = LUCK_2P.new_games(game_seeds(7, 1)).hands[0, :, 0].tolist()
    not_held = next(str(t) for t in range(1, 101) if t not in hand)
    person = Person(tiles=["", "abc", "0", "101", not_held, EOFError, "  ", "quit"])
    result = play(person)
    screen = person.screen
    assert "Type one of your tiles" in screen
    assert "'abc' is not a tile" in screen and "'0' is not a tile" in screen and "'101' is not a tile" in screen
    assert f"You do not hold {not_held}. Your tiles:" in screen
    assert "Ctrl-D" in screen
    assert person.prompts == ["Your tile: "] * 8
    assert not result.finished and not result.interrupted and result.turns == 0


def test_questions_are_asked_bad_answers_refused_and_answers_applied():
    # Luck cards: a take passes a clover, the person picks 2x, and is later asked to use it.
    person = Person(questions=["maybe", "y"], luck=["what", "2x"])
    result = play(person)
    screen = person.screen
    assert result.finished
    assert "Luck card (+5 or 2x): " in person.prompts and "'what' is not a luck card. Type +5 or 2x." in screen
    assert "took your points down past a clover" in screen
    asked = [p for p in person.prompts if p.startswith("Use")]
    assert asked, "the person was never asked to use a luck card"
    assert "Answer y (use a" in screen
    if "Use 2x? (y/n): " in asked:  # the first answered yes: the take counts its two best tiles plus
        assert re.search(r"With a 2x card the two best tiles count plus: [+-]\d+ points", screen)
        assert re.search(r"you \d+ → row \d+ field \d+ \(take\), takes \d+ tiles with a 2x card", screen)
    else:
        assert re.search(r"With a \+5 card it scores \+5 instead", screen)
        assert re.search(r"you \d+ (→ row \d+ field \d+ \(.*\), )?.*with a \+5 card", screen)


def test_play_two_asks_for_a_first_and_a_second_tile():
    person = Person()
    play(person)
    assert "Your first tile: " in person.prompts and "Your second tile: " in person.prompts
    i = person.prompts.index("Your first tile: ")
    assert person.prompts[i + 1] in ("Your second tile: ", "Use +5? (y/n): ", "Use 2x? (y/n): ",
                                     "Luck card (+5 or 2x): ")
    assert re.search(r"^Turn \d+, two tiles each$", person.screen, re.M)
    # both tiles are revealed together, after the second
    assert re.search(r"Revealed: you \d+ · you \d+ · seat 2 \(random\) \d+ · seat 2 \(random\) \d+", person.screen)


def test_quit_keeps_the_completed_turns_and_ctrl_c_interrupts():
    person = Person(tiles=[None, None, "quit"])
    result = play(person, BASIC_3P, seed=4)
    assert not result.finished and not result.interrupted and result.turns == 2
    assert "Game stopped." in person.screen and "Points after the last completed turn: you" in person.screen
    person = Person(tiles=[None, KeyboardInterrupt])
    result = play(person, BASIC_3P, seed=4)
    assert result.interrupted and result.turns == 1 and "Game stopped (Ctrl-C)." in person.screen
    person = Person(tiles=[EOFError] * 3)
    result = play(person, BASIC_3P, seed=4)
    assert result.interrupted and result.turns == 0 and "No input" in person.screen


def test_quit_during_a_question_drops_that_turn():
    person = Person(luck=["quit"])
    result = play(person)
    assert not result.finished and "Game stopped." in person.screen
    last_shown = int(re.findall(r"^Turn (\d+)", person.screen, re.M)[-1])
    assert result.turns == last_shown - 1


def test_agents_that_cannot_play_the_board_are_refused():
    with pytest.raises(ConfigError, match="agent 'lowest' plays cards, not 'board'"):
        BoardTerminalGame(BASIC_3P, ["lowest", "random"], 1, Console(file=io.StringIO()), input)
    with pytest.raises(ConfigError, match="1 opponents for 2 other seats"):
        BoardTerminalGame(BASIC_3P, ["random"], 1, Console(file=io.StringIO()), input)


def test_hints_show_the_board_mcs_estimate_of_every_tile():
    """The board's mcs has `estimates` (as the web page's hints use): the terminal shows
    its choice and its mean points per tile before the person's first tile."""
    person = Person(tiles=[None, "quit"])
    result = play(person, LUCK_2P, seed=7, hints=True)
    first = person.screen.split("Your tile:")[0]
    hint = re.search(r"Hint \(mcs:rollouts=\d+\): play (\d+)\. Mean points for you[\s\S]*?more is better\):\n"
                     r"\s+((?:\d+: -?[\d.]+\s*)+)", first)
    assert hint, first
    estimates = {t: float(m) for t, m in (pair.split(": ") for pair in hint.group(2).split("  ") if pair.strip())}
    hand = [line for line in first.splitlines() if line.startswith("your tiles")][0].split()[2:]
    assert list(estimates) == hand  # every tile held, ascending
    assert max(estimates, key=estimates.get) == hint.group(1)  # the most points: the board's utility
    assert not result.finished and result.turns == 1


def test_terminal_game_dispatches_on_the_game():
    console = Console(file=io.StringIO())
    assert isinstance(terminal_game(BASIC_3P, ["random", "random"], 1, console, input), BoardTerminalGame)
    from experiments.play.cards import TerminalGame
    assert type(terminal_game(make_game("cards", players=3), ["random", "random"], 1, console, input)) is TerminalGame


def test_the_record_of_a_stopped_and_of_a_whole_game_replays():
    from sixnimmt_env.core.records import replay
    result = play(Person(tiles=[None, None, "quit"]), BASIC_3P, seed=4)
    assert result.record["seats"] == [HUMAN_NAME, "random", "random"]
    assert not replay(result.record).differences
    result = play(Person(), LUCK_2P, seed=7)
    assert result.finished and not replay(result.record).differences


# ---------------------------------------------------------------------- the demo's step text


def test_board_demo_is_deterministic_and_tells_every_step():
    lines, again = [], []
    play_demo(LUCK_2P, 5, echo=lines.append)
    play_demo(LUCK_2P, 5, echo=again.append)
    assert lines == again
    text = "\n".join(lines)
    assert lines[0] == "board demo (luck): 2 players, next row scan, plus5 cards 6, double cards 6, seed 5"
    assert "final scores (points):" in text and re.search(r"^winners?: seat \d", text, re.M)
    assert "row 0" not in text  # rows are numbered from 1; a tile stopped by a question moves on later
    assert "is asked: which luck card?" in text and " goes on: " in text


def test_a_move_after_a_question_is_told_by_the_step_that_answers_it():
    game = LUCK_2P
    for seed in range(40):
        lines = []
        play_demo(game, seed, echo=lines.append)
        for i, line in enumerate(lines):
            if line.endswith("moves on after the question: " + line.rsplit(": ", 1)[-1]) and "take" in line:
                tile = re.search(r"seat (\d): (\d+) ->", line).groups()
                follow = lines[i + 1:i + 4]
                assert any(re.match(rf"  seat {tile[0]}: {tile[1]} goes on: moves to row \d+", f) for f in follow), \
                    lines[i:i + 4]
                return
    pytest.fail("no seed in 0..39 stopped a take at a question")


@pytest.mark.parametrize("variant, end", [("basic", "when every tile is placed"),
                                          ("pro", "as soon as a hand is empty at the end of a turn")])
def test_the_start_says_when_the_game_ends(variant, end):
    out = io.StringIO()
    console = Console(file=out, width=200, highlight=False)
    BoardTerminalGame(make_game("board", players=3, variant=variant), ["random"] * 2, 7, console,
                      lambda prompt: "quit").play()
    assert f"the game ends {end}" in out.getvalue()
