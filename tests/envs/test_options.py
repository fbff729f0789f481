"""The rule-options seam: every front end (the CLI's commands, the web server, the Python
API) builds the same game from the same options, and each value has one meaning there
(an end score of 0 is none; a front end's None is "not given", the game's default)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from experiments.options import GAME_OPTIONS, OPTIONS, GameOptions, game_options
from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.game import GAMES, make_game
from sixnimmt_env.core.options import canonical_rule_options

ROOT = Path(__file__).resolve().parents[2]

# (game, players, the options as a front end gives them (None: not given), make_game keywords)
CASES = [
    ("cards", 3, {}, {}),
    ("cards", 3, {"end_score": None}, {}),
    ("cards", 3, {"end_score": 0, "max_rounds": 2}, {"end_score": 0, "max_rounds": 2}),
    ("cards", 3, {"end_score": 0, "max_rounds": 2}, {"end_score": None, "max_rounds": 2}),
    ("cards", 4, {"variant": "die-sechste", "row_choice": "cheapest", "deck": "exact", "end_score": 30},
     {"variant": "die-sechste", "row_choice": "cheapest", "deck": "exact", "end_score": 30}),
    ("board", 2, {"variant": "luck", "next_row": "rotate", "layout": "basic-default"},
     {"variant": "luck", "next_row": "rotate", "layout": "basic-default"}),
    ("board", 3, {"variant": "pro", "layout": None}, {"variant": "pro"}),
]
AGENTS = {"cards": "lowest,random", "board": "random,board-safe"}


class _Built(Exception):
    """Raised by the spy once the command has built its game: nothing is played."""


def _same(a, b) -> bool:
    return a.info == b.info and a.rules == b.rules


def _cli_args(game: str, given: dict) -> list[str]:
    args = ["--game", game]
    for name, value in given.items():
        if value is not None:
            args += [f"--{name.replace('_', '-')}", str(value)]
    return args


def _command_args(command: str, game: str, players: int) -> list[str]:
    return {"demo": ["demo", "--players", str(players)],
            "play": ["play", "--players", str(players), "--opponents", "random"],
            "match": ["match", "--agents", ",".join(["random"] * players), "--no-progress"],
            "tournament": ["tournament", "--players", str(players), "--agents", AGENTS[game], "--no-progress"],
            }[command]


@pytest.mark.parametrize("command", ["demo", "play", "match", "tournament"])
@pytest.mark.parametrize("game,players,given,api", CASES)
def test_every_front_end_builds_the_same_game(monkeypatch, tmp_path, command, game, players, given, api):
    import sixnimmt_env.core.game as core_game
    from experiments.cli import app
    from experiments.serve.setup import game_from

    expected = make_game(game, players=players, **api)
    built = []
    real = core_game.game_module

    class Spy:
        def __init__(self, name):
            self.module = real(name)

        def make(self, rules=None, **options):
            result = self.module.make(rules, **options)
            if result.info.players == players:
                built.append(result)
                raise _Built
            return result

    monkeypatch.setattr(core_game, "game_module", Spy)
    monkeypatch.chdir(tmp_path)  # the tournament's out/ directory, never written: the spy stops it first
    result = CliRunner().invoke(app, _command_args(command, game, players) + _cli_args(game, given))
    assert isinstance(result.exception, _Built), (result.exception, result.output)
    assert _same(built[0], expected)
    monkeypatch.setattr(core_game, "game_module", real)
    # the page sends text, "" for an option left at the game's default; it offers no
    # layout (a layout may name a file, and a path from the network is never opened)
    page = {k: "" if v is None else str(v) for k, v in given.items() if k not in ("variant", "layout")}
    served = game_from({"game": game, "players": players, "variant": given.get("variant"), "options": page})
    api = {k: v for k, v in api.items() if k != "layout"}
    assert _same(served, make_game(game, players=players, **api))


def test_end_score_zero_is_none_in_the_python_api():
    zero = make_game("cards", players=3, end_score=0, max_rounds=5)
    assert zero.rules.end_score is None and zero == make_game("cards", players=3, end_score=None, max_rounds=5)
    assert make_game("cards", players=3, end_score=np.int64(0), max_rounds=5).rules.end_score is None
    with pytest.raises(ConfigError, match="set end_score or max_rounds"):
        make_game("cards", end_score=0)  # no end score and no round limit: a game that never ends
    with pytest.raises(ConfigError, match="unknown rule option.*board game: end_score"):
        make_game("board", end_score=0)  # a game without an end score still refuses it


def test_max_rounds_zero_is_none_in_the_api_and_in_a_training_config():
    """One home for "0 means none": make_game and a training config's rule options agree."""
    from training.config import RunConfig
    zero = make_game("cards", players=3, end_score=66, max_rounds=0)
    assert zero.rules.max_rounds is None and zero == make_game("cards", players=3, end_score=66)
    options = RunConfig(end_score=0, max_rounds=3).rule_options()
    assert options["end_score"] is None and options["max_rounds"] == 3
    assert RunConfig(max_rounds=0).rule_options()["max_rounds"] is None


@pytest.mark.parametrize("value", [False, 0.0, "0", -1])
def test_only_an_integer_zero_means_no_end_score(value):
    assert canonical_rule_options({"end_score": value}) == {"end_score": value}
    with pytest.raises(ConfigError, match="end_score"):
        make_game("cards", end_score=value)


def test_the_stored_form_holds_no_zero(tmp_path):
    """A front end's options are kept in stored form (a tournament.json holds None)."""
    chosen = GameOptions.given("cards", end_score=0, max_rounds=3, deck=None)
    assert chosen.rule_options == {"end_score": None, "max_rounds": 3}
    assert chosen.build(2).rules.to_dict()["end_score"] is None


def test_every_option_is_a_rule_option_of_some_game():
    known = {"game", "variant"}
    for name in GAMES:
        known |= set(make_game(name).info.rule_options)
    assert set(OPTIONS) <= known


def test_the_decorator_puts_the_options_in_place():
    app = typer.Typer(add_completion=False)
    seen = {}

    @app.command()
    @game_options
    def probe(first: int = typer.Option(1), options: GameOptions = GAME_OPTIONS, last: int = typer.Option(2)):
        seen.update(first=first, options=options, last=last)

    result = CliRunner().invoke(app, ["--first", "5", "--end-score", "0", "--max-rounds", "3", "--last", "6"])
    assert result.exit_code == 0, result.output
    assert seen == {"first": 5, "options": GameOptions("cards", {"end_score": None, "max_rounds": 3}), "last": 6}
    names = [p.name for p in typer.main.get_command(app).params]
    assert names == ["first", *OPTIONS, "last"]


def test_the_decorator_needs_its_parameter():
    with pytest.raises(TypeError, match="GAME_OPTIONS"):
        @game_options
        def no_slot(players: int = 4):
            pass


def test_commands_with_game_options_take_all_of_them():
    from experiments.cli import app

    group = typer.main.get_command(app)
    for name in ("demo", "play", "match", "tournament"):
        params = {p.name for p in group.commands[name].params}
        assert set(OPTIONS) <= params, name


def test_the_cli_is_a_package_by_command_group():
    import importlib

    from experiments.cli import app

    groups = {"play": {"demo", "play", "replay", "serve", "results"},
              "matches": {"match", "tournament", "report", "baselines", "agents"},
              "runs": {"train", "imitate", "distill", "sweep", "gate", "lineage", "keep"}}
    for module, commands in groups.items():
        importlib.import_module(f"experiments.cli.{module}")
        found = {c.name or c.callback.__name__ for c in app.registered_commands
                 if c.callback.__module__ == f"experiments.cli.{module}"}
        assert found == commands, module
    subgroups = {g.name: g.typer_instance for g in app.registered_groups}
    assert set(subgroups) == {"study", "bench"}
    for name, sub in subgroups.items():
        assert {c.callback.__module__ for c in sub.registered_commands} == {f"experiments.cli.{name}"}


def _cli_sources():
    return sorted((ROOT / "experiments" / "cli").glob("*.py"))


def test_no_command_builds_a_game_only_to_check_it():
    """A game built and thrown away (`_game(...)` as a statement) is a check in disguise:
    the library function checks its own inputs, or GameOptions.check says so."""
    found = []
    for path in _cli_sources() or [ROOT / "experiments" / "cli.py"]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                func = node.value.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name in ("_game", "make_game", "build"):
                    found.append(f"{path.name}:{node.lineno}")
    assert found == []


@pytest.mark.parametrize("group", ["bench", "study"])
def test_group_help_names_both_games(group):
    """The groups hold commands of both games: their help does not say card game only."""
    from experiments.cli import app

    sub = next(g.typer_instance for g in app.registered_groups if g.name == group)
    text = sub.info.help.lower()
    assert "card game only" not in text and "board" in text and "card" in text


def test_board_bench_pairs_the_two_engines():
    from experiments.bench.engine import bench_board_against_cards

    board = bench_board_against_cards(2, batch=4, seconds=0.03, pairs=3)
    assert len(board["ratios"]) == 3
    assert board["ratio_to_card_turns"] == round(float(np.median(board["ratios"])), 3)
    assert board["card_turns_per_s"] > 0 and board["turns_per_s"] > 0
    with pytest.raises(ConfigError, match="batch"):
        bench_board_against_cards(2, batch=0)


def test_tournament_prints_the_leaderboards_of_its_summary(tmp_path):
    from experiments.cli import app
    from experiments.tournaments.report import leaderboards

    out = tmp_path / "t"
    result = CliRunner().invoke(app, ["tournament", "--agents", "lowest,random", "--players", "2", "--games", "1",
                                      "--max-rounds", "1", "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    text = leaderboards(summary)
    assert text.startswith("\n2 players (2 games in all):\n| rank | agent |") and "`lowest`" in text
    assert text in result.output
