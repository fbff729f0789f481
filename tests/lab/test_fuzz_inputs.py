"""Property-based tests of bad input: valid input works, invalid input gets the documented
error (one line and exit code 2 on the command line, a typed error in the API), never a
traceback and never a silent wrong result. The CLI runs in process (CliRunner).

Entry points: agent specs and their parameters, `sixnimmt match` options, `--set`
values and config files of `sixnimmt train`, game records (`sixnimmt replay`) mutated
field by field, board layout files, model files. Counterexamples the search found are
kept as plain tests at the end.
"""

from __future__ import annotations

import json
import math
import string

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sixnimmt_env.core.errors import ConfigError, InvalidRecordError, SixNimmtError
from tests.support.fuzz_support import MUTATIONS, RETYPES, assert_one_line_error, count, dumps, mutate, paths, run_cli

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.function_scoped_fixture])
CLI = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                      HealthCheck.function_scoped_fixture])

# ---------------------------------------------------------------- agent specs

TIE_BREAKS = ["none", "board-greedy", "board-safe", "board-green"]
CARD_PARAMS = {  # name -> {parameter: strategy of valid text values}
    "random": {}, "lowest": {}, "highest": {}, "min-gap": {}, "safe-high": {}, "greedy": {},
    "bayes": {"samples": st.integers(1, 30).map(str)},
    "mcs": {"rollouts": st.integers(1, 6).map(str), "score": st.sampled_from(["own", "relative"])},
}
BOARD_PARAMS = {
    "random": {}, "board-greedy": {}, "board-safe": {}, "board-green": {},
    "mcs": {"rollouts": st.integers(1, 3).map(str), "score": st.sampled_from(["own", "relative"]),
            "horizon": st.integers(0, 2).map(str),
            "card_value": st.floats(-20, 20, allow_nan=False).map(lambda x: f"{x:.3f}"),
            "tie_break": st.sampled_from(TIE_BREAKS), "batch": st.integers(1, 5000).map(str)},
}
GAME_PARAMS = {"cards": CARD_PARAMS, "board": BOARD_PARAMS}
INT_PARAMS = {"samples", "rollouts", "horizon", "batch"}
MINIMUM = {"samples": 1, "rollouts": 1, "horizon": 0, "batch": 1}


@st.composite
def valid_spec(draw, game: str):
    table = GAME_PARAMS[game]
    name = draw(st.sampled_from(sorted(table)))
    keys = draw(st.lists(st.sampled_from(sorted(table[name])), unique=True)) if table[name] else []
    params = [f"{k}={draw(table[name][k])}" for k in keys]
    return ":".join([name, *params])


@st.composite
def invalid_spec(draw, game: str):
    """(spec, kind, fragment the message must hold): one thing wrong with a valid spec."""
    table = GAME_PARAMS[game]
    name = draw(st.sampled_from(sorted(table)))
    with_params = sorted(k for k in table[name])
    kinds = ["unknown_name", "unknown_param", "malformed"]
    if with_params:
        kinds += ["duplicate", "wrong_type", "out_of_range"]
    kind = draw(st.sampled_from(kinds))
    text = st.text(st.sampled_from(string.ascii_letters + string.digits + "-_.+!@#$%^&*()[]{}<>?/;'~|"),
                   min_size=1, max_size=8)
    if kind == "unknown_name":
        bad = draw(text.filter(lambda t: t not in {**CARD_PARAMS, **BOARD_PARAMS, "ppo": 0}))
        return bad, kind, f"unknown agent {bad!r}"
    if kind == "unknown_param":
        key = draw(text.filter(lambda t: t not in table[name] and t.strip() == t))
        return f"{name}:{key}=1", kind, f"no parameter {key}"
    if kind == "malformed":
        part = draw(text)
        return f"{name}:{part}", kind, "must look like key=value"
    key = draw(st.sampled_from(with_params))
    if kind == "duplicate":
        value = draw(table[name][key])
        return f"{name}:{key}={value}:{key}={value}", kind, "given twice"
    if kind == "wrong_type":
        if key in INT_PARAMS:
            value = draw(st.sampled_from(["abc", "1.5", "", "nan", "1e3", "--2"]))
            return f"{name}:{key}={value}", kind, f"{key}={value!r} is not a valid int"
        if key == "card_value":
            value = draw(st.sampled_from(["nan", "inf", "-inf", "abc", ""]))
            return f"{name}:{key}={value}", kind, f"{key}={value!r} is not a valid float"
        value = draw(st.sampled_from(["", "OWN", "3", "board"]))
        return f"{name}:{key}={value}", kind, f"{key} must be"
    # out of range
    if key in INT_PARAMS:
        value = draw(st.integers(-10**6, MINIMUM[key] - 1))
        return f"{name}:{key}={value}", kind, f"{key} must be >= {MINIMUM[key]}"
    if key == "card_value":  # every finite float is allowed: a float past the range of floats
        return f"{name}:{key}=1e999", kind, "is not a valid float"
    value = draw(text.filter(lambda t: t not in ("own", "relative", *TIE_BREAKS)))
    return f"{name}:{key}={value}", kind, f"{key} must be"


def _play_one(spec: str, game: str):
    from agents.arena import run_match
    from sixnimmt_env.core.game import make_game

    table = make_game("cards", players=2, max_rounds=1) if game == "cards" else make_game("board", players=2)
    return run_match([spec, "random"], table, 1, 0, progress=False)


@settings(max_examples=20, deadline=None)
@given(data=st.data(), game=st.sampled_from(["cards", "board"]))
def test_valid_agent_specs_build_and_play(data, game):
    from agents.registry import check_spec, make_agent

    spec = data.draw(valid_spec(game))
    count("agent specs (API)", "valid")
    assert check_spec(spec, game) == spec.split(":")[0]
    make_agent(spec, game)
    result = _play_one(spec, game)
    assert result.games == 2  # both rotations played to the end with legal moves


@FAST
@given(data=st.data(), game=st.sampled_from(["cards", "board"]))
def test_invalid_agent_specs_are_config_errors_naming_the_problem(data, game):
    from agents.registry import check_spec, make_agent

    spec, kind, fragment = data.draw(invalid_spec(game))
    count("agent specs (API)", kind)
    with pytest.raises(ConfigError) as err:
        if kind == "out_of_range":
            check_spec(spec, game)  # types are fine: the range is the agent's own check
        make_agent(spec, game)
    assert fragment in str(err.value)


@CLI
@given(data=st.data(), game=st.sampled_from(["cards", "board"]))
def test_match_cli_with_bad_agent_specs(data, game):
    spec, kind, fragment = data.draw(invalid_spec(game))
    count("sixnimmt match --agents", kind)
    code, _, err = run_cli("match", "--agents", f"{spec},random", "--games", "1", "--game", game, "--no-progress")
    assert_one_line_error(code, err, fragment)


# ---------------------------------------------------------------- match options

GOOD_OPTIONS = {
    "cards": {"--variant": st.sampled_from(["classic", "die-sechste"]),
              "--row-choice": st.sampled_from(["player", "cheapest"]),
              "--deck": st.sampled_from(["full", "exact"]),
              "--seed": st.integers(0, 2**63).map(str)},
    "board": {"--variant": st.sampled_from(["basic", "luck"]),
              "--next-row": st.sampled_from(["scan", "rotate"]),
              "--layout": st.just("basic-default"),
              "--seed": st.integers(0, 2**63).map(str)},
}
BAD_OPTIONS = {  # option -> (bad values, fragment of the message)
    "--games": (["0", "-1", "abc", "1.5", ""], "games"),
    "--seed": (["-1", "18446744073709551616", "x"], "seed"),
    "--variant": (["nope", "CLASSIC", ""], "variant"),
    "--row-choice": (["auto", ""], "row_choice"),
    "--deck": (["half"], "deck"),
    "--end-score": (["-5", "x"], "end"),
    "--max-rounds": (["-2", "y"], "max"),  # 0 is "no limit", as --end-score 0 (core/options.py)
    "--game": (["chess", ""], "game"),
    "--layout": (["nope", "README.md", "/nonexistent/layout.toml"], "layout"),
    "--next-row": (["down"], "next_row"),
    "--agents": (["", ",", "random,,random"], "agents"),
}


@CLI
@given(data=st.data(), game=st.sampled_from(["cards", "board"]), players=st.integers(2, 5))
def test_match_cli_valid_options_play(data, game, players):
    chosen = data.draw(st.lists(st.sampled_from(sorted(GOOD_OPTIONS[game])), unique=True, max_size=3))
    args = ["match", "--agents", ",".join(["random"] * players), "--games", "1", "--game", game, "--no-progress"]
    if game == "cards":
        args += ["--max-rounds", "1"]
    values = {option: data.draw(GOOD_OPTIONS[game][option]) for option in chosen}
    # Die Sechste's exact deck is one deck of cards, for 2..4 players only (the rules
    # refuse it at 5 with a one-line error): not a valid combination
    assume(not (values.get("--variant") == "die-sechste" and values.get("--deck") == "exact" and players > 4))
    for option, value in values.items():
        args += [option, value]
    count("sixnimmt match options", "valid")
    code, out, err = run_cli(*args)
    assert code == 0, err
    assert f"1 deals x {players} seat rotations = {players} games" in out


@CLI
@given(data=st.data(), game=st.sampled_from(["cards", "board"]))
def test_match_cli_one_bad_option_is_one_line(data, game):
    options = {k: v for k, v in BAD_OPTIONS.items()
               if not (game == "board" and k in ("--row-choice", "--deck", "--end-score", "--max-rounds"))
               and not (game == "cards" and k in ("--layout", "--next-row"))}
    option = data.draw(st.sampled_from(sorted(options)))
    values, fragment = options[option]
    value = data.draw(st.sampled_from(values))
    args = {"--agents": "random,random", "--games": "1", "--game": game}
    if game == "cards" and option != "--max-rounds":
        args["--max-rounds"] = "1"
    args[option] = value
    count("sixnimmt match options", f"bad {option}")
    code, _, err = run_cli("match", "--no-progress", *[x for kv in args.items() for x in kv])
    assert_one_line_error(code, err, fragment)


def test_options_of_the_other_game_are_one_line():
    count("sixnimmt match options", "option of the other game")
    code, _, err = run_cli("match", "--agents", "random,random", "--game", "board", "--row-choice", "player")
    assert_one_line_error(code, err, "unknown rule option(s) for the board game: row_choice")
    code, _, err = run_cli("match", "--agents", "random,random", "--layout", "basic-default")
    assert_one_line_error(code, err, "layout")


# ---------------------------------------------------------------- sixnimmt train: --set and config files

def _bad_value(default):
    """Values of the wrong type, or of the right type out of range, for an option."""
    junk = st.sampled_from(["abc", "", "[1", "{", "nan", "-1", "0", "1e999", "[]", "[-3]", '{"x": 1}', "maybe"])
    return junk


@FAST
@given(data=st.data())
def test_train_set_values_are_valid_or_config_errors(data):
    from training.config import TrainConfig

    defaults = TrainConfig().to_dict()
    key = data.draw(st.sampled_from(sorted(defaults)))
    raw = data.draw(_bad_value(defaults[key]))
    count("sixnimmt train --set", "junk value")
    try:
        cfg = TrainConfig.load(None, [f"{key}={raw}"])
    except ConfigError as e:
        assert key in str(e) or "agent" in str(e) or "rule option" in str(e), str(e)
        code, _, err = run_cli("train", "--set", f"{key}={raw}", "--runs-dir", "/nonexistent/never-written")
        assert_one_line_error(code, err)
        count("sixnimmt train --set", "outcome: ConfigError")
        return
    count("sixnimmt train --set", "outcome: valid")
    # accepted: then it is a sensible value of the option's type, as given
    value = getattr(cfg, key)
    assert type(value) is type(defaults[key]) or (isinstance(defaults[key], float) and isinstance(value, int))
    if isinstance(value, float):
        assert math.isfinite(value)


@FAST
@given(data=st.data(), suffix=st.sampled_from([".json", ".toml"]))
def test_train_config_files_mutated(data, suffix, tmp_path_factory):
    from training.config import TrainConfig

    base = {"players": 3, "num_games": 8, "n_steps": 4, "learning_rate": 0.001, "net_arch": [8, 8],
            "pool_weights": {"random": 1.0}, "pool_search": ["mcs:rollouts=2"], "name": "x", "gamma": 0.99}
    path_ = data.draw(st.sampled_from(paths(base)))
    how = data.draw(st.sampled_from(MUTATIONS))
    doc = mutate(base, path_, how, data.draw(st.sampled_from(RETYPES)))
    count("training config files", how)
    target = tmp_path_factory.mktemp("cfg") / f"train{suffix}"
    if suffix == ".json":
        target.write_text(dumps(doc))
    else:
        try:
            target.write_text(_toml(doc))
        except TypeError:
            assume(False)  # TOML has no null
    try:
        cfg = TrainConfig.load(target)
    except ConfigError:
        code, _, err = run_cli("train", "--config", target, "--runs-dir", "/nonexistent/never-written")
        assert_one_line_error(code, err)
        count("training config files", "outcome: ConfigError")
        return
    count("training config files", "outcome: valid")
    for key, value in doc.items():  # accepted: the file's values, as given
        got = getattr(cfg, key)
        assert (list(got) if isinstance(got, tuple) else got) == value


def _toml(doc: dict) -> str:
    def val(v):
        if v is None:
            raise TypeError("null")
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float):
            return "nan" if math.isnan(v) else ("inf" if v == math.inf else repr(v))
        if isinstance(v, (int,)):
            return str(v)
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(val(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{json.dumps(str(k))} = {val(x)}" for k, x in v.items()) + "}"
        raise TypeError(type(v))
    return "".join(f"{json.dumps(str(k))} = {val(v)}\n" for k, v in doc.items())


@pytest.mark.parametrize("content, suffix, fragment", [
    (None, ".toml", "cannot read the config file"),
    ("players = ", ".toml", "cannot parse"),
    ("[1, 2]", ".json", "a training config is a table of options"),
    ('"players"', ".json", "a training config is a table of options"),
    (b"\xff\xfe\x00", ".toml", "not UTF-8 text"),
])
def test_train_config_files_that_are_not_configs(tmp_path, content, suffix, fragment):
    target = tmp_path / f"c{suffix}"
    if isinstance(content, bytes):
        target.write_bytes(content)
    elif content is not None:
        target.write_text(content)
    count("training config files", "not a config")
    code, _, err = run_cli("train", "--config", target)
    assert_one_line_error(code, err, fragment)


# ---------------------------------------------------------------- records (sixnimmt replay)

@pytest.fixture(scope="module")
def records():
    from experiments.play.demo import play_demo
    from sixnimmt_env.core.game import make_game

    return {"cards": play_demo(make_game("cards", players=3, max_rounds=2), 5, echo=lambda *_: None),
            "board": play_demo(make_game("board", players=2), 3, echo=lambda *_: None)}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), game=st.sampled_from(["cards", "board"]))
def test_mutated_records_replay_or_are_invalid(records, data, game):
    from sixnimmt_env.core.records import replay

    base = records[game]
    path_ = data.draw(st.sampled_from(paths(base)))
    how = data.draw(st.sampled_from(MUTATIONS))
    doc = mutate(base, path_, how, data.draw(st.sampled_from(RETYPES)))
    doc = json.loads(dumps(doc))  # what a file would hold
    count(f"records ({game})", how)
    try:
        result = replay(doc)
    except InvalidRecordError as e:
        assert str(e) and "\n" not in str(e).strip()
        count(f"records ({game})", "outcome: InvalidRecordError")
        return
    # accepted: the replay's own completed record replays again without differences
    again = replay(result.completed())
    assert not again.differences
    count(f"records ({game})", "outcome: replayed" + (" with differences" if result.differences else ""))


def test_mutated_records_through_the_cli(records, tmp_path):
    """A sample of the mutations above through `sixnimmt replay`: exit 0, 1 or 2 only,
    one line on stderr for 2."""
    rng = np.random.default_rng(0)
    for game, base in records.items():
        all_paths = paths(base)
        for i in range(12):
            path_ = all_paths[rng.integers(len(all_paths))]
            doc = mutate(base, path_, MUTATIONS[i % 4], RETYPES[i % len(RETYPES)])
            f = tmp_path / f"{game}-{i}.json"
            f.write_text(dumps(doc))
            count(f"sixnimmt replay ({game})", MUTATIONS[i % 4])
            code, _, err = run_cli("replay", f)
            assert code in (0, 1, 2), err
            if code == 2:
                assert_one_line_error(code, err, "invalid record")


# ---------------------------------------------------------------- board layout files

@pytest.fixture(scope="module")
def layout_doc():
    import tomllib
    from pathlib import Path

    import sixnimmt_env.board as board
    return tomllib.loads((Path(board.__file__).parent / "layouts" / "basic-default.toml").read_text())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_layout_files_load_or_are_config_errors(layout_doc, data, tmp_path_factory):
    from agents.arena import run_match
    from sixnimmt_env.core.game import make_game

    path_ = data.draw(st.sampled_from(paths(layout_doc)))
    how = data.draw(st.sampled_from(MUTATIONS))
    doc = mutate(layout_doc, path_, how, data.draw(st.sampled_from(RETYPES)))
    target = tmp_path_factory.mktemp("layout") / "board.json"
    target.write_text(dumps(doc))
    count("board layout files", how)
    try:
        game = make_game("board", players=3, layout=str(target))
    except ConfigError as e:
        assert str(target) in str(e) or "layout" in str(e)
        count("board layout files", "outcome: ConfigError")
        return
    assert run_match(["random", "random", "random"], game, 1, 0, progress=False).games == 3
    count("board layout files", "outcome: valid, a game played")


# ---------------------------------------------------------------- model files

@pytest.fixture(scope="module")
def model_bytes():
    from agents.ppo import SHIPPED_MODEL
    return SHIPPED_MODEL.read_bytes()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.floats(0.0, 0.999))
def test_truncated_model_files_are_config_errors(model_bytes, cut, tmp_path_factory):
    from agents.ppo import PPOAgent

    target = tmp_path_factory.mktemp("model") / "cut.zip"
    target.write_bytes(model_bytes[: int(len(model_bytes) * cut)])
    count("model files", "truncated")
    with pytest.raises(ConfigError, match="agent ppo"):
        PPOAgent(str(target))


def test_model_files_that_are_not_models(tmp_path, model_bytes):
    import zipfile

    from agents.ppo import PPOAgent

    cases = {"missing": tmp_path / "none.zip", "directory": tmp_path}
    (tmp_path / "readme.zip").write_text("not a zip")
    cases["not a zip"] = tmp_path / "readme.zip"
    with zipfile.ZipFile(tmp_path / "other.zip", "w") as z:
        z.writestr("hello.txt", "hi")
    cases["a zip, not a model"] = tmp_path / "other.zip"
    damaged = bytearray(model_bytes)
    damaged[len(damaged) // 3: len(damaged) // 3 + 64] = b"\0" * 64
    (tmp_path / "damaged.zip").write_bytes(bytes(damaged))
    cases["damaged"] = tmp_path / "damaged.zip"
    (tmp_path / "meta.zip").write_bytes(model_bytes)
    (tmp_path / "meta.json").write_text("{not json")
    cases["bad meta"] = tmp_path / "meta.zip"
    for kind, path in cases.items():
        count("model files", kind)
        with pytest.raises(ConfigError, match="agent ppo"):
            PPOAgent(str(path))
        code, _, err = run_cli("match", "--agents", f"ppo:path={path},random,random,random", "--games", "1")
        assert_one_line_error(code, err, "agent ppo")


@pytest.mark.parametrize("args, fragment", [
    (["--agents", "ppo,random,random", "--game", "board"], "no shipped model plays 'board' at 3 players"),
    (["--agents", "ppo,random,random,random,random", "--game", "board"], "no shipped model plays 'board' at 5 players"),
    (["--agents", "ppo:path=agents/models/ppo-all.zip,random,random,random", "--game", "board"],
     "trained for the 'cards' game"),
])
def test_a_model_for_another_table_is_refused_before_the_first_turn(args, fragment):
    count("model files", "another game or table")
    code, _, err = run_cli("match", *args, "--games", "1")
    assert_one_line_error(code, err, fragment)


# ---------------------------------------------------------------- regressions the search found

def test_regression_spec_with_trailing_colon():
    """'mcs:' (an empty parameter part) was found by the spec search."""
    from agents.registry import make_agent
    with pytest.raises(ConfigError, match="must look like key=value"):
        make_agent("mcs:")


def test_regression_nan_card_value():
    """mcs:card_value=nan built an agent whose values were all NaN (a silent wrong result)."""
    from agents.registry import make_agent
    with pytest.raises(ConfigError, match="not a valid float"):
        make_agent("mcs:card_value=nan", "board")


def test_regression_train_bool_maybe():
    """--set of a bool option to 'maybe' was read as False."""
    from training.config import TrainConfig
    defaults = TrainConfig().to_dict()
    bools = [k for k, v in defaults.items() if isinstance(v, bool)]
    for key in bools:
        with pytest.raises(ConfigError):
            TrainConfig.load(None, [f"{key}=maybe"])


def test_regression_unknown_agent_named_before_the_seat_count():
    code, _, err = run_cli("match", "--agents", "foo", "--games", "2")
    assert_one_line_error(code, err, "unknown agent 'foo'")


def test_regression_issue_examples(tmp_path):
    code, _, err = run_cli("match", "--agents", "ppo:path=README.md,random", "--games", "2")
    assert_one_line_error(code, err, "agent ppo", "README.md")
    code, _, err = run_cli("match", "--agents", "mcs:rollouts=-5,random", "--games", "2")
    assert_one_line_error(code, err, "rollouts must be >= 1")
    code, _, err = run_cli("train", "--config", tmp_path / "does-not-exist.toml")
    assert_one_line_error(code, err, "cannot read the config file")


def test_regression_empty_run_name_trained_into_the_runs_directory():
    """--set name= put a whole training run into runs/ itself (found by the --set search)."""
    from training.config import TrainConfig
    for bad in ("", ".", "..", "a/b"):
        with pytest.raises(ConfigError, match="name must be a directory name"):
            TrainConfig.load(None, [f"name={bad}"])


def test_regression_layer_sizes_checked_before_the_run_directory(tmp_path):
    """net_arch=[-1] made the run directory, then failed inside torch with a traceback."""
    code, _, err = run_cli("train", "--set", "net_arch=[-1]", "--runs-dir", tmp_path)
    assert_one_line_error(code, err, "net_arch")
    assert not any(tmp_path.iterdir())


def test_typed_errors_subclass_the_lab_error():
    from sixnimmt_env.core.errors import OutputError
    assert issubclass(OutputError, SixNimmtError) and issubclass(OutputError, OSError)


def test_every_mutation_of_the_record_envelopes(records):
    """Exhaustively, not sampled: every mutation (and every retype) of every field of the
    records' envelope, rules and layout (paths two deep, of a list its first two and last
    entries; the turns are sampled above). Each is refused, or replayed with its changed
    outputs reported as differences, or plays the very game of the original record: only
    the mutated key (an option dropped for its default, the layout's name) or the
    information-only `seats` and `seed` (docs/spec/game-record.md) may differ."""
    from sixnimmt_env.core.records import replay

    def wanted(p, doc):
        if len(p) > 2 or p[0] in ("turns", "rounds"):
            return False
        return len(p) == 1 or not isinstance(p[1], int) or p[1] in (0, 1, len(doc[p[0]]) - 1)

    information = {"seats", "seed"}
    for game, base in records.items():
        original = replay(json.loads(dumps(base))).completed()
        refused = tried = 0
        for path_ in (p for p in paths(base) if wanted(p, base)):
            for how in MUTATIONS:
                for retype in (["x", None, [], {}, 1.5] if how == "retype" else [None]):
                    doc = json.loads(dumps(mutate(base, path_, how, retype)))
                    count(f"records ({game}), envelope exhaustively", how)
                    tried += 1
                    try:
                        result = replay(doc)
                    except InvalidRecordError as e:
                        assert str(e) and "\n" not in str(e).strip()
                        refused += 1
                        continue
                    if result.differences:
                        continue
                    replayed = result.completed()
                    changed = {k for k in set(replayed) | set(original) if replayed.get(k) != original.get(k)}
                    assert changed <= {path_[0]} | information, (game, path_, how, retype, changed)
        assert refused > tried // 4, (game, refused, tried)  # the rest change outputs or information only


@pytest.mark.parametrize("key, value", [("game", []), ("game", {}), ("variant", []), ("variant", {"a": 1})])
def test_regression_unhashable_game_or_variant_in_a_record(records, key, value):
    """Found by the exhaustive mutation above: a list as the record's game or variant
    was a TypeError (a traceback in `sixnimmt replay`)."""
    from sixnimmt_env.core.records import replay

    doc = json.loads(dumps(records["cards"]))
    doc[key] = value
    with pytest.raises(InvalidRecordError):
        replay(doc)


def test_every_size_in_a_config_is_bounded(tmp_path):
    """`workers = 100000` in an imitate config was accepted (and spawned on demand); every
    size of an imitate or training config has a documented upper bound, refused in one line."""
    from training.config import MAX_LAYER_WIDTH, MAX_ROLLOUT_STEPS, MAX_SIZES
    from training.imitate import MAX_SIZES as IMITATE_SIZES

    for name, most in IMITATE_SIZES.items():
        f = tmp_path / f"imitate-{name}.toml"
        f.write_text(f"{name} = {most + 1}\n")
        code, _, err = run_cli("imitate", "--config", f, "--runs-dir", tmp_path / "runs")
        assert_one_line_error(code, err, name, f"1..{most}")
    for name, most in MAX_SIZES.items():
        code, _, err = run_cli("train", "--set", f"{name}={most + 1}", "--runs-dir", tmp_path / "runs")
        assert_one_line_error(code, err, name, f"at most {most}")
    for sets, words in ((["num_games=65536", "n_steps=65536"], f"at most {MAX_ROLLOUT_STEPS}"),
                        ([f"net_arch=[{MAX_LAYER_WIDTH + 1}]"], "net_arch")):
        code, _, err = run_cli("train", *[a for s in sets for a in ("--set", s)], "--runs-dir", tmp_path / "runs")
        assert_one_line_error(code, err, words)
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())
