"""What both games repeated, written once in core: the game base, the record helpers, the
not-a-bool integer check, the step's action check and the seat view base."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from sixnimmt_env.board._replay import ReplayResult as BoardReplay
from sixnimmt_env.board.game import BoardGame
from sixnimmt_env.board.rules import BoardConfig
from sixnimmt_env.board.seat_view import BoardSeatView
from sixnimmt_env.cards.game import CardGame
from sixnimmt_env.cards.records import ReplayResult as CardReplay
from sixnimmt_env.cards.rules import RuleConfig
from sixnimmt_env.cards.seat_view import SeatView
from sixnimmt_env.core.checks import check_int, is_int
from sixnimmt_env.core.errors import ConfigError, IllegalActionError, InvalidRecordError
from sixnimmt_env.core.game import GameBase, make_game
from sixnimmt_env.core.records import ReplayResultBase, fail, short
from sixnimmt_env.core.seat_view import SeatViewBase

ROOT = Path(__file__).resolve().parents[2]
GAMES = [("cards", CardGame, RuleConfig, "the card games"), ("board", BoardGame, BoardConfig, "the board game")]


@pytest.mark.parametrize("name,cls,config,words", GAMES)
def test_both_games_bind_their_rules_through_the_base(name, cls, config, words):
    """Equality, hashing, repr and make()'s checks are the base's, the same for both games."""
    assert issubclass(cls, GameBase)
    assert not {"__eq__", "__hash__", "__repr__", "bind"} & set(vars(cls))
    a, b = make_game(name, players=3), make_game(name, config(players=3))
    assert a == b and hash(a) == hash(b) and repr(a) == f"{cls.__name__}({config(players=3)})"
    assert a != make_game(name, players=4)
    with pytest.raises(ConfigError, match=f"^unknown rule option\\(s\\) for {words}: speed; valid: players"):
        make_game(name, speed=2)
    with pytest.raises(ConfigError, match="give rules or rule options, not both"):
        make_game(name, config(), players=3)
    other = RuleConfig() if config is BoardConfig else BoardConfig()
    with pytest.raises(ConfigError, match=f"the rules of {words} are a {config.__name__}, got {type(other).__name__}"):
        make_game(name, other)
    assert make_game("cards", players=3) != make_game("board", players=3)


def test_check_int_refuses_bools_and_names_the_bounds():
    assert is_int(3) and is_int(np.int64(3)) and not is_int(True) and not is_int(np.bool_(True)) and not is_int(3.0)
    assert check_int("players", np.int16(4), 2, 10) == 4 and type(check_int("n", np.int64(1), 0)) is int
    assert check_int("end_score", None, 1, optional=True) is None
    cases = [(("players", True, 2, 10), "players must be an integer 2..10, got True"),
             (("players", 11, 2, 10), "players must be 2..10, got 11"),
             (("n", -1, 0), "n must be a non-negative integer, got -1"),
             (("end_score", 0, 1), "end_score must be a positive integer, got 0"),
             (("end_score", "9", 1), "end_score must be a positive integer, got '9'")]
    for args, message in cases:
        with pytest.raises(ConfigError, match=f"^{re.escape(message)}$"):
            check_int(*args)
    with pytest.raises(ConfigError, match="players must be 2..6 for the board game, got 7"):
        check_int("players", 7, 2, 6, context=" for the board game")
    with pytest.raises(InvalidRecordError, match="or None"):
        check_int("max_rounds", 0.5, 1, optional=True, error=InvalidRecordError)


def test_rules_take_numpy_integers_and_keep_plain_ints():
    """One check for both games: a NumPy seat count is an integer to both (the board game
    refused it), and the board's record rules stay JSON."""
    board = BoardConfig(players=np.int64(3), plus5_cards=np.int32(2))
    assert type(board.players) is int and json.dumps(board.to_dict())
    assert RuleConfig(players=np.int64(3)).to_dict()["players"] == 3
    for bad in (True, 4.0, "4"):
        for config in (RuleConfig, BoardConfig):
            with pytest.raises(ConfigError, match="players must be an integer"):
                config(players=bad)


def test_no_inline_not_a_bool_checks_left():
    """The games and training check integers through core.checks only (the adapters' own
    input checks are adapters/checks.py)."""
    pattern = re.compile(r"isinstance\([^()]*, \(?bool[^)]*\)\)? or not isinstance|and not isinstance\([^()]*, bool\)")
    found = [f"{p.relative_to(ROOT)}:{i}" for pkg in ("sixnimmt_env/cards", "sixnimmt_env/board", "training")
             for p in sorted((ROOT / pkg).rglob("*.py"))
             for i, line in enumerate(p.read_text().splitlines(), 1) if pattern.search(line)]
    assert found == []


def test_record_helpers_are_shared():
    assert issubclass(CardReplay, ReplayResultBase) and issubclass(BoardReplay, ReplayResultBase)
    assert str(fail("round 2", "bad")) == "round 2: bad" and str(fail("", "bad")) == "bad"
    assert short("x" * 100, 10) == '"xxxxxx...' and short({1}) == "{1}"


def test_differences_name_the_record_key_and_quote_as_json():
    """Totals and winners are compared once, for both games: under the record's own key
    (the board's "scores"), the record's value quoted as JSON."""
    card = CardReplay({"rounds": [{"penalties": [1, 2]}], "totals": [1, "2"], "winners": [0]},
                      [[1, 2]], [1, 2], [0], True)
    assert card.find_differences() == ['totals are [1, "2"], replay gives [1, 2]']
    board = BoardReplay({"scores": [3, 4], "winners": [1]}, [3, 5], [1], True, 12)
    assert board.find_differences() == ["scores are [3, 4], replay gives [3, 5]"]
    assert board.completed()["scores"] == [3, 5]


@pytest.mark.parametrize("name", ["cards", "board"])
def test_both_engines_check_step_actions_alike(name):
    from importlib import import_module
    engine = import_module(f"sixnimmt_env.{name}.engine")
    st = make_game(name, players=3).new_games([1, 2])
    with pytest.raises(IllegalActionError, match="^actions must be integers.*got dtype float64"):
        engine.step(st, np.zeros((3, 2)))
    with pytest.raises(IllegalActionError, match=re.escape("must have shape (players, batch) = (3, 2), got (2, 3)")):
        engine.step(st, np.zeros((2, 3), dtype=np.int64))


def test_seat_views_share_the_base():
    """Both views come from SeatViewBase: relative seats and the phase are read one way."""
    for name, view_class in (("cards", SeatView), ("board", BoardSeatView)):
        assert issubclass(view_class, SeatViewBase)
        assert not {"_rel", "phase", "__init__"} & set(vars(view_class))
        game = make_game(name, players=3)
        st = game.new_games([5, 6])
        view = game.view(st, [2, 0], [1, 0])
        totals = np.arange(6).reshape(3, 2)
        assert view._rel(totals).tolist() == [[5, 1, 3], [0, 2, 4]]
        assert view._rel(np.stack([totals, 10 * totals])).shape == (2, 2, 3)
