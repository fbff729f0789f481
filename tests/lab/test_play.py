"""`sixnimmt play` driven through its injected console and input (no terminal).

The end-to-end runs through a pseudo-terminal are in test_play_terminal.py.
"""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
from rich.console import Console

from agents.cards.search import MonteCarloAgent
from experiments.play.cards import TerminalGame
from experiments.play.session import HUMAN_NAME, opponent_specs
from sixnimmt_env import RuleConfig, game_seeds, new_games, step
from sixnimmt_env.cards.seat_view import SeatView
from sixnimmt_env.cards.state import PHASE_ROW
from sixnimmt_env.cards.table_view import choice_reason
from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.records import replay

ONE_ROUND = RuleConfig(players=3, end_score=None, max_rounds=1)


class Person:
    """Answers prompts: first the scripted lines, then the lowest card held / first row allowed.

    A scripted entry may be a string, EOFError or KeyboardInterrupt (raised), or a callable
    given the prompt (for answers that depend on the screen).
    """

    def __init__(self, script=(), row_script=()):
        self.out = io.StringIO()
        self.console = Console(file=self.out, width=120, force_terminal=False, highlight=False)
        self.script, self.row_script = list(script), list(row_script)
        self.played: list[str] = []
        self.prompts: list[str] = []

    @property
    def screen(self) -> str:
        return self.out.getvalue()

    def hand(self) -> list[str]:
        return [line for line in self.screen.splitlines() if line.startswith("your hand")][-1].split()[2:]

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        self.console.print(prompt, end="")
        is_row = prompt.startswith("Row")
        script = self.row_script if is_row else self.script
        answer = script.pop(0) if script else None
        if answer is EOFError or answer is KeyboardInterrupt:
            raise answer
        if callable(answer):
            answer = answer(self)
        if answer is None:
            answer = re.findall(r"\d+", prompt)[0] if is_row else self.hand()[0]
        self.console.print(answer)
        if not is_row and answer in self.hand():
            self.played.append(answer)
        return answer


def play(person: Person, config=ONE_ROUND, opponents=("random", "lowest"), seed=5, hints=False):
    game = TerminalGame(config, list(opponents), seed, person.console, person, hints=hints)
    return game.play()


def test_a_whole_game_is_recorded_and_replays():
    person = Person()
    result = play(person)
    assert result.finished and not result.interrupted and result.turns == 10
    rec = result.record
    assert rec["seats"] == [HUMAN_NAME, "random", "lowest"] and rec["seed"] == 5
    assert [str(t["cards"][0]) for t in rec["rounds"][0]["turns"]] == person.played
    checked = replay(rec)
    assert checked.over and not checked.differences
    assert "Game over" in person.screen and "Revealed: you" in person.screen
    assert re.search(r"Round 1 over: you \+\d+", person.screen)


def test_the_screen_shows_rows_hand_sorted_and_scores():
    person = Person(script=[KeyboardInterrupt])
    play(person)
    screen = person.screen
    hand = person.hand()
    assert len(hand) == 10 and [int(c) for c in hand] == sorted(int(c) for c in hand)
    assert re.search(r"^bullheads(\s+\d+){10}$", screen, re.M)
    assert all(re.search(rf"^{r}\s+\d+(\s+[\d·]+)+\s+\d+ bullheads?", screen, re.M) for r in (1, 2, 3, 4))
    assert "Scores: you 0 · seat 2 (random) 0 · seat 3 (lowest) 0" in screen


def test_bad_card_inputs_get_a_message_and_a_new_prompt():
    not_held = lambda p: next(str(c) for c in range(1, 105) if str(c) not in p.hand())  # noqa: E731
    person = Person(script=["", "xyz", "105", not_held, EOFError, "  "])
    result = play(person)
    screen = person.screen
    assert "Type one of your cards" in screen
    assert "'xyz' is not a card" in screen and "'105' is not a card" in screen
    assert re.search(r"You do not hold \d+\. Your cards:", screen)
    assert "Ctrl-D" in screen
    assert person.prompts[:7] == ["Your card: "] * 7  # six refused, the seventh played
    assert result.finished and not replay(result.record).differences


def test_row_choice_bad_inputs_then_the_chosen_row_is_taken():
    # seed 5: the person's lowest card (1) is lower than every row in the first turn
    person = Person(row_script=["", "0", "5", "two", "3"])
    result = play(person)
    screen = person.screen
    assert "lower than the last card of every row" in screen
    assert screen.count("Type a row number") == 4
    assert result.record["rounds"][0]["turns"][0]["choices"] == {"0": 2}
    assert "you 1 → row 3, takes" in screen
    assert not replay(result.record).differences


def test_rows_the_rules_do_not_allow_are_refused():
    # Whatever the variant's reason for a choice, only the view's legal rows are accepted.
    config = RuleConfig(players=3, end_score=None, max_rounds=1)
    st = new_games(config, game_seeds(5, 1))
    hand = st.hands[0, :10, 0]
    actions = np.array([[hand.min()], [st.hands[1, 0, 0]], [st.hands[2, 0, 0]]])
    st, _ = step(st, actions)
    assert st.phase[0] == PHASE_ROW and st.chooser[0] == 0
    st.row_options[1:, 0] = False  # as if the rules allowed row 1 only
    person = Person(row_script=["2", "1"])
    game = TerminalGame(config, ["random", "lowest"], 5, person.console, person)
    assert game._ask_row(st) == 0
    assert "You may not choose row 2 now. Type one of: 1" in person.screen
    assert "lower than the last card of every row" in person.screen
    st.revealed[0, 0] = 99  # a card that fits behind a row: the choice has another reason
    assert "choose where your 99 goes: row 1." in choice_reason(SeatView(st, [0], [0]), [0])


def test_ctrl_c_keeps_the_completed_turns():
    person = Person(script=[None, None, None, KeyboardInterrupt])
    result = play(person)
    assert result.interrupted and not result.finished and result.turns == 3
    checked = replay(result.record)
    assert not checked.over and checked.winners == [] and not checked.differences
    assert "Game stopped (Ctrl-C)" in person.screen


def test_ctrl_c_during_a_row_choice_drops_that_turn():
    person = Person(row_script=[KeyboardInterrupt])
    result = play(person)
    assert result.interrupted and result.turns == 0
    assert result.record["totals"] == [0, 0, 0] and not replay(result.record).differences


def test_quit_ends_without_interrupt_and_closed_input_stops():
    result = play(Person(script=[None, "quit"]))
    assert not result.finished and not result.interrupted and result.turns == 1
    person = Person(script=[EOFError] * 3)
    result = play(person)
    assert result.interrupted and result.turns == 0 and "No input" in person.screen


def test_opponents_are_cycled_and_too_many_refused():
    assert opponent_specs("mcs,random", 6) == ["mcs", "random", "mcs", "random", "mcs"]
    assert opponent_specs(" bayes ", 3) == ["bayes", "bayes"]
    with pytest.raises(ConfigError, match="3 opponents for 2 other seats"):
        opponent_specs("a,b,c", 3)
    with pytest.raises(ConfigError, match="at least one"):
        opponent_specs(" , ", 3)


def test_plain_ppo_is_the_shipped_model_for_the_table_and_a_model_is_refused_other_tables_first(tmp_path):
    import json
    import shutil

    from agents.ppo import SHIPPED_DIR
    for players in (3, 4):
        person = Person(script=["quit"])
        result = play(person, config=RuleConfig(players=players, max_rounds=1),
                      opponents=("ppo", "random", "ppo")[:players - 1])
        assert person.prompts == ["Your card: "] and result.record["seats"][1] == "ppo"
    shutil.copy(SHIPPED_DIR / "ppo-all.zip", tmp_path / "four.zip")
    (tmp_path / "four.json").write_text(json.dumps({"players": 4, "observation": "card-features"}))
    person = Person()
    with pytest.raises(ConfigError, match="trained for 4 players, the table has 3"):
        play(person, opponents=(f"ppo:path={tmp_path / 'four.zip'}", "random"))
    assert person.prompts == []


def test_hints_show_the_mcs_estimate_of_every_card():
    person = Person(script=[None, KeyboardInterrupt])
    play(person, hints=True)
    first = person.screen.split("Your card:")[0]
    hint = re.search(r"Hint \(mcs:rollouts=\d+\): play (\d+)\.[\s\S]*?:\n\s+((?:\d+: [\d.]+\s*)+)", first)
    assert hint, first
    estimates = dict(pair.split(": ") for pair in hint.group(2).split("  ") if pair.strip())
    first_hand = re.search(r"^your hand(.*)$", first, re.M).group(1).split()
    assert list(estimates) == first_hand
    assert min(estimates, key=lambda c: float(estimates[c])) == hint.group(1)


@pytest.mark.parametrize("phase", ["cards", "row"])
def test_mcs_estimates_are_what_act_decides_on(phase):
    config = RuleConfig(players=4, end_score=None, max_rounds=1)
    st = new_games(config, game_seeds(11, 1))
    if phase == "row":  # the first seed whose deal gives seat 0 a card below every row
        seed = next(s for s in range(100) if _lowest_is_too_low(config, s))
        st = new_games(config, game_seeds(seed, 1))
        st, _ = step(st, np.array([[st.hands[0, :10, 0].min()]] + [[st.hands[s, 0, 0]] for s in range(1, 4)]))
        assert st.phase[0] == PHASE_ROW and st.chooser[0] == 0
    view = SeatView(st, [0], [0])
    agent = MonteCarloAgent(rollouts=20)
    action = int(agent.act(view, np.random.default_rng(3))[0])
    if phase == "cards":
        cards, means = agent.card_estimates(view, 0, np.random.default_rng(3))
        assert list(cards) == sorted(st.hands[0, :10, 0].tolist())
        assert action + 1 == cards[np.argmin(means)]
    else:
        rows, means = agent.row_estimates(view, 0, np.random.default_rng(3))
        assert list(rows) == [0, 1, 2, 3]
        assert action - config.variant_data.n_ids == rows[np.argmin(means)]
    assert means.shape == (len(means),) and (means >= 0).all()


def _lowest_is_too_low(config, seed) -> bool:
    st = new_games(config, game_seeds(seed, 1))
    return st.hands[0, :10, 0].min() < st.starters[:, 0].min()


def test_die_sechste_game_with_twins_is_played_by_card_faces_or_names_and_replays():
    """The hand shows the cards' faces, as the page draws them (A♣); a card is read by its
    face or by its name (AC)."""
    config = RuleConfig(players=6, end_score=None, max_rounds=1, variant="die-sechste")
    variant = config.variant_data
    name_of = {variant.card_face(c): variant.card_name(c) for c in range(1, variant.n_ids + 1)}
    person = Person(script=["11H", "zz", lambda p: name_of[p.hand()[0]]])  # not cards of this game, then a name
    result = play(person, config, opponents=("random", "min-gap") * 2 + ("lowest",), seed=3)
    assert result.finished and result.turns == 10
    assert "'11H' is not a card" in person.screen or "not a card" in person.screen
    played = [t["cards"][0] for t in result.record["rounds"][0]["turns"]]
    assert played[1:] == [name_of[face] for face in person.played] and all(isinstance(c, str) for c in played)
    assert not replay(result.record).differences


def test_help_at_the_card_and_the_row_prompt_explains_the_question():
    person = Person(script=["?"], row_script=["help", "3"])  # seed 5: a row choice in the first turn
    result = play(person)
    assert "Play one card of your hand" in person.screen and "Type the number of the row to take" in person.screen
    assert person.prompts[:2] == ["Your card: "] * 2 and result.finished
