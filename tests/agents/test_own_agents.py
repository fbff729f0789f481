"""Own agents: py: specs, plug-ins, cmd: bots over JSON lines (agents/plugins.py, agents/external.py)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.arena import run_match
from agents.registry import check_spec, is_local_only, make_agent
from sixnimmt_env import make_game
from sixnimmt_env.core.errors import ConfigError, IllegalActionError

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "tests" / "data" / "bots"
PY = sys.executable


def test_python_agent_by_file_typed_params():
    agent = make_agent(f"py:{BOTS}/my_agent.py:LowestCard:offset=2:strict=yes", "cards")
    assert agent.offset == 2 and agent.strict is True
    result = run_match([f"py:{BOTS}/my_agent.py:LowestCard", "random", "random"], make_game("cards", players=3),
                       2, 0, progress=False)
    assert "py:" in str(result) and "win share" in str(result)


def test_python_agent_by_module(monkeypatch):
    monkeypatch.syspath_prepend(str(BOTS))
    assert make_agent("py:my_agent:LowestCard:offset=1").offset == 1


@pytest.mark.parametrize("spec, words", [("py:nowhere.py:X", "no Python file"), ("py:no_such_mod_zz:X", "no module"),
                                          (f"py:{BOTS}/my_agent.py:Missing", "no class"),
                                          (f"py:{BOTS}/my_agent.py:NoAct", "no act"),
                                          (f"py:{BOTS}/my_agent.py:LowestCard:offset=x", "not a valid int"),
                                          ("cmd:no-such-program-zz", "no program")])
def test_one_line_errors(spec, words):
    with pytest.raises(ConfigError, match=words):
        check_spec(spec)


def test_illegal_action_names_the_agent():
    # counted from 1, as a person reads them: the first decision of the first game is round 1, turn 1
    with pytest.raises(IllegalActionError, match=r"agent 'py:.*Cheater'.*seat 1, game 1 \(deal 1, .*round 1, turn 1 "):
        run_match([f"py:{BOTS}/my_agent.py:Cheater", "random", "random"], make_game("cards", players=3), 1, 0,
                  progress=False)


def test_local_only():
    assert is_local_only("py:x.py:A") and is_local_only(" cmd:node bot.js") and not is_local_only("mcs")


def test_entry_point_plugin(tmp_path, monkeypatch):
    from agents import plugins
    from agents.registry import describe
    (tmp_path / "fake_plugin_mod.py").write_text((BOTS / "my_agent.py").read_text())
    dist = tmp_path / "fake_sixnimmt_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-sixnimmt-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[sixnimmt.agents]\nfake-lowest = fake_plugin_mod:LowestCard\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins.plugin_entries.cache_clear()
    try:
        assert "fake-lowest" in describe()
        assert make_agent("fake-lowest:offset=3", "cards").offset == 3
    finally:
        plugins.plugin_entries.cache_clear()


@pytest.mark.parametrize("game", ["cards", "board"])
@pytest.mark.parametrize("bot", [f"{PY} docs/examples/bot.py", "node docs/examples/bot.js"])
def test_reference_bots_play(bot, game, monkeypatch):
    monkeypatch.chdir(ROOT)
    if bot.startswith("node") and not __import__("shutil").which("node"):
        pytest.skip("no node")
    result = run_match([f"cmd:{bot}", "random", "random"], make_game(game, players=3), 2, 0, progress=False)
    assert not result.notes, result.notes


@pytest.mark.parametrize("bot, words", [("crash", "crashed: exited with code 3"), ("garbage", "garbage"),
                                        ("timeout", "timed out"), ("illegal", "not a legal action")])
def test_faulty_bots_forfeit(bot, words):
    spec = f"cmd:{PY} {BOTS}/{bot}_bot.py:timeout=0.2"
    result = run_match([spec, "random", "random"], make_game("cards", players=3), 1, 0, progress=False)
    assert len(result.notes) == 1 and "FORFEITS" in result.notes[0] and words in result.notes[0]


def test_timeout_bot_leaves_no_process(monkeypatch):
    """The bot's whole process group (it and the child it started) is gone after the match.
    Checked by the group the bot was started in, not by a command line: another test file
    on the other worker runs the same bot at the same time."""
    from agents import external
    from tests.support.process_support import wait_until_empty

    started = []
    real = external.start_bot
    monkeypatch.setattr(external, "start_bot", lambda argv: started.append(real(argv)) or started[-1])
    agent = make_agent(f"cmd:{PY} {BOTS}/timeout_bot.py:timeout=0.2")
    run_match([agent, "random", "random"], make_game("cards", players=3), 1, 0, progress=False)
    agent.close()
    assert started
    for proc, _ in started:  # the bot leads its own session: its group is its pid
        assert wait_until_empty(proc.pid, seconds=2) == []


def test_bot_never_sees_other_hands(tmp_path):
    """Two deals that differ only in another seat's hand show seat 0 the same first view."""
    game = make_game("cards", players=3)
    log = tmp_path / "log.jsonl"
    agent = make_agent(f"cmd:{PY} {BOTS}/record_bot.py {log}")
    st = game.new_games(np.array([5], dtype=np.uint64))
    other = game.new_games(np.array([5], dtype=np.uint64))
    other.hands[[1, 2]] = other.hands[[2, 1]]  # seats 1 and 2 swap hands
    for state in (st, other):
        agent.act(game.view(state, [0], [0]), np.random.default_rng(0))
    agent.close()
    acts = [json.loads(x) for x in log.read_text().splitlines() if '"act"' in x]
    assert len(acts) == 2 and acts[0] == acts[1]
    assert not (st.hands[1] == other.hands[1]).all()


def test_a_bots_stderr_is_kept_to_its_tail(tmp_path, monkeypatch):
    """A bot writing 24 MiB to stderr before it crashes (one filled 1.6 GiB of temporary
    space in 10 s): its last line still names the crash, and at most 2 x STDERR_TAIL bytes
    of it were ever held (the temporary file held all of it)."""
    from agents import bot_process

    tails = []
    monkeypatch.setattr(bot_process, "StderrTail", lambda pipe, _made=bot_process.StderrTail: tails.append(_made(pipe))
                        or tails[-1])
    bot = tmp_path / "loud_bot.py"
    bot.write_text("import sys\nfor line in sys.stdin:\n    if '\"start\"' in line:\n"
                   "        print('{\"type\": \"ready\"}', flush=True)\n    else:\n"
                   "        for _ in range(24):\n            sys.stderr.write('x' * (1 << 20) + '\\n')\n"
                   "        sys.stderr.write('my last words\\n')\n        sys.exit(3)\n")
    agent = make_agent(f"cmd:{PY} {bot}:timeout=60")
    result = run_match([agent, "random", "random"], make_game("cards", players=3), 1, 0, progress=False)
    agent.close()
    assert "my last words" in result.notes[0] and "exited with code 3" in result.notes[0]
    assert len(tails) == 1 and tails[0].total >= 24 << 20
    assert len(tails[0]._data) <= 2 * bot_process.STDERR_TAIL


def test_tables_name_agents_by_name_and_json_keeps_each_spec(tmp_path):
    (tmp_path / "named.py").write_text("import numpy as np\n\nclass Lowest:\n    name = 'lowest-legal'\n\n"
                                       "    def act(self, view, rng):\n"
                                       "        return view.action_mask().argmax(axis=1).astype(np.int64)\n")
    py, cmd = f"py:{tmp_path}/named.py:Lowest", f"cmd:{PY} {ROOT}/docs/examples/bot.py"
    result = run_match([py, cmd, "random"], make_game("cards", players=3), 1, 0, progress=False)
    table = str(result).splitlines()
    rows = [line.split()[0] for line in table[2:5]]
    assert sorted(rows) == ["cmd:bot.py", "lowest-legal", "random"]  # the name attribute; a short form for cmd:
    assert f"  lowest-legal = {py}" in table and f"  cmd:bot.py = {cmd}" in table  # each full spec once, below
    assert len(cmd) > 40 and max(len(line) for line in table[1:5]) <= 101  # as wide as with short names only
    agents = {a["name"]: a["spec"] for a in result.as_dict()["agents"]}
    assert agents == {"lowest-legal": py, "cmd:bot.py": cmd, "random": "random"}


# ---------------------------------------------------------------------- malformed answers (issue 60)

MALFORMED = {  # the bot's kind of answer (tests/data/bots/malformed_bot.py) -> words of the reason
    "deep": "nested deeper than", "long-number": "integer of more than 40 digits", "not-utf8": "not UTF-8",
    "not-json": "not JSON", "string": "answered a string, not a list", "object": "answered an object, not a list",
    "wrong-type": "not a list of 3 integer action(s)", "two-answers": "wrote before it was asked",
    "half-line": "half a line came", "closed-stdout": "closed its stdout",
    "start-string": "answered the start message with a string, not a JSON object",
}


@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_every_malformed_answer_is_a_forfeit_with_its_reason(kind):
    """Each answer the bot's channel can bring — nested 200,000 deep (a RecursionError in
    json.loads before), a 5,000-digit number (a ValueError), not UTF-8, not JSON, the wrong
    type, two answers to one question, half a line then silence, its stdout closed —
    puts the bot out with the reason in the table's FORFEITS line and in each game row."""
    spec = f"cmd:{PY} {BOTS}/malformed_bot.py {kind}:timeout=0.3"
    result = run_match([spec, "random", "random"], make_game("cards", players=3), 1, 0, progress=False)
    assert len(result.notes) == 1 and "FORFEITS" in result.notes[0] and MALFORMED[kind] in result.notes[0]
    assert "\n" not in result.notes[0] and len(result.notes[0]) < 600, result.notes[0]
    assert result.games == 3  # the match finished: every rotation played out


def test_a_bot_that_stops_reading_cannot_block_a_write():
    """A bot that never reads its stdin again: a message longer than the pipe holds was a
    blocking write, a hang; it is now a timeout that puts the bot out."""
    from agents.external import BotFault, ExternalAgent

    agent = ExternalAgent(f"{PY} {BOTS}/malformed_bot.py deaf", timeout=0.3)
    try:
        agent.check(make_game("cards", players=3))
        assert agent.out is None
        with pytest.raises(BotFault, match="did not read its input"):
            agent._send({"type": "act", "padding": "x" * (4 << 20)}, __import__("time").monotonic() + 0.3, 0.3)
    finally:
        agent.close()


def test_match_cli_with_a_deeply_nested_answer_is_a_forfeit_row():
    """`sixnimmt match` against a bot answering 200,000 `[` ended in `RecursionError:
    maximum recursion depth exceeded` (issue 60): now exit code 0, the FORFEITS line
    naming the nesting, and no traceback."""
    import subprocess

    bot = f"cmd:{PY} {BOTS}/malformed_bot.py deep:timeout=0.5"
    proc = subprocess.run([str(Path(PY).parent / "sixnimmt"), "match", "--agents", f"{bot},random,random",
                           "--games", "1", "--max-rounds", "1", "--no-progress"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "Error" not in proc.stderr, proc.stderr
    assert "FORFEITS" in proc.stdout and "nested deeper than" in proc.stdout, proc.stdout


def test_tournament_rows_keep_the_reason_from_worker_processes(tmp_path):
    """A tournament's work units run in worker processes, where the bot's agent object
    lives: each game row of results.jsonl carries the reason with its forfeits, and the
    run ends without a traceback."""
    import subprocess

    bot = f"cmd:{PY} {BOTS}/malformed_bot.py long-number:timeout=0.5"
    proc = subprocess.run([str(Path(PY).parent / "sixnimmt"), "tournament", "--agents", f"{bot},random,greedy",
                           "--players", "3", "--games", "1", "--max-rounds", "1", "--workers", "2",
                           "--out", str(tmp_path / "t"), "--no-progress"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    rows = [json.loads(line) for line in (tmp_path / "t" / "results.jsonl").read_text().splitlines()]
    reasons = [why for row in rows for why in row.get("forfeit_reasons", {}).values()]
    assert rows and len(reasons) == len(rows) and all("more than 40 digits" in why for why in reasons), rows
