"""Every `sixnimmt` command with bad input, in process: one line on stderr that says
what is wrong, and exit code 2 (the table is the command line's checklist; the property
tests in test_fuzz_inputs.py search the larger spaces behind some of its rows)."""

from __future__ import annotations

import pytest

from tests.support.fuzz_support import assert_one_line_error, count, run_cli

CASES = [
    # demo
    ("demo --players 1", "players must be 2..10"),
    ("demo --players 7 --game board", "players must be 2..6 for the board game"),
    ("demo --seed -1", "seed must be in 0..2**64-1"),
    ("demo --variant nope", "variant must be one of"),
    ("demo --record /nonexistent/dir/x.json", "cannot write the record"),
    ("demo --players x", "Invalid value for '--players'"),
    ("demo --colour red", "No such option: --colour"),
    # play
    ("play --players 1", "players must be 2..10"),
    ("play --opponents foo", "unknown agent 'foo'"),
    ("play --game board --opponents lowest", "agent 'lowest' plays cards, not 'board'"),
    # replay
    ("replay README.md", "not JSON"),
    ("replay /nonexistent.json", "cannot read"),
    ("replay", "Missing argument 'FILE'"),
    # match
    ("match --agents foo --games 2", "unknown agent 'foo'"),
    ("match --agents random,random --games 0", "at least 1"),
    ("match --agents random,random --players 3", "No such option: --players"),
    ("match --agents random --games 2", "players must be 2..10, got 1"),
    ("match --agents random,random --records /proc/x", "cannot write the records to /proc/x"),
    ("match --agents random,random --game board --deck full", "unknown rule option(s) for the board game: deck"),
    ("match --agents random,random --game board --layout /nonexistent.toml", "cannot read layout file"),
    # baselines
    ("baselines --players 11", "players must be 2..10"),
    ("baselines --row-choice x", "row_choice must be one of"),
    ("baselines --agents foo", "unknown agent 'foo'"),
    # train
    ("train --config /nonexistent.toml", "cannot read the config file"),
    ("train --set players", "must look like key=value"),
    ("train --set learning_rat=0.1", "unknown training option 'learning_rat'"),
    ("train --set learning_rate=nan", "learning_rate must be a positive number"),
    ("train --set gamma=2", "gamma must be in (0, 1]"),
    ("train --set pool_weights=[1]", "pool_weights must be a table"),
    ("train --set pool_weights={\"random\":-1}", "pool_weights must give each group a number >= 0"),
    ("train --set eval_opponent=foo", "unknown agent 'foo'"),
    ("train --set name=a/b", "name must be a directory name"),
    ("train --resume /nonexistent/run", "no complete checkpoint"),
    ("train --resume /tmp --set players=3", "--resume continues a run with its saved config"),
    # tournament and report
    ("tournament --agents random --games 1 --out /tmp/never", "at least two agents"),
    ("tournament --agents random,foo --out /tmp/never", "unknown agent 'foo'"),
    ("tournament --agents random,lowest --games 0 --out /tmp/never", "--games must be at least 1"),
    ("tournament --agents random,lowest --players-range a-b", "--players-range must look like 2-10"),
    ("tournament --agents random,lowest --players-range 5-2", "at least one seat count"),
    ("tournament --agents random,lowest --workers 0", "--workers must be at least 1"),
    ("tournament --agents random,random", "list each agent once"),
    ("tournament --resume /nonexistent/t", "holds no tournament to resume"),
    ("tournament --agents random,lowest --out README.md", "is a file, not a directory"),
    ("report /nonexistent/t", "holds no tournament results"),
    # studies
    ("study die-sechste --players a,b", "--players must list seat counts"),
    ("study die-sechste --mcs foo", "unknown agent 'foo'"),
    ("study die-sechste --heuristic-games 0", "must be at least 1"),
    ("study board-skill --workers 0", "--workers must be at least 1"),
    ("study board --players 9", "players must be 2..6"),
    ("study board --layout nope", "a layout is a .toml or .json file or a shipped name"),
    ("study board --search lowest", "agent 'lowest' plays cards, not 'board'"),
    # exploit (card game only) and reproduce
    ("exploit board-safe --set game=board", "exploit is card game only (--set game=board)"),
    ("exploit board-safe", "exploit is card game only: agent 'board-safe' plays board"),
    ("reproduce /nonexistent.md", "cannot read /nonexistent.md"),
    ("reproduce README.md", "README.md: no figures"),
    ("reproduce experiments/baselines.md --scale 0", "--scale 0: must be in (0, 100]"),
    ("reproduce experiments/baselines.md --timeout 0", "--timeout must be positive"),
    ("reproduce experiments/baselines.md --figure nothing-so-named", "no figure matches"),
    # benchmarks
    ("bench engine --batch 0", "batch must be >= 1 and seconds > 0"),
    ("bench engine --seconds nan --no-limit", "batch must be >= 1 and seconds > 0"),
    ("bench engine --limit-script /nonexistent.sh", "no such file"),
    ("bench env --kind x", "--kind must be parallel or vec"),
    ("bench board --players 9", "players must be 2..6"),
    ("bench board --variant expert", "variant must be one of basic, luck, pro, pro-luck"),
    # serve, backends, sweep
    ("serve --port 70000", "--port must be 0..65535"),
    ("serve --log-level x", "--log-level must be one of"),
    ("serve --idle-minutes 0", "--idle-minutes must be > 0"),
    ("serve --idle-minutes nan", "--idle-minutes must be > 0"),
    ("match --agents random,random --backend nope", "--backend must be one of local, ray"),
    ("match --agents random,random --workers 0", "--workers must be at least 1"),
    ("match --agents random,random --chunk-deals -1", "--chunk-deals must be 0"),
    ("tournament --agents random,lowest --backend nope --out /tmp/never", "--backend must be one of"),
    ("sweep", "give a sweep file, or --resume DIR"),
]


@pytest.mark.parametrize("args, fragment", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_and_exit_2(args, fragment):
    count("CLI commands (fixed cases)", args.split()[0] + (" " + args.split()[1] if args.split()[0] in
                                                          ("study", "bench") else ""))
    code, _, err = run_cli(*args.split())
    assert_one_line_error(code, err, fragment)
