"""The board's compiled kernels (sixnimmt_env/board/_kernel/) read as plain Python: with
numba's JIT off (NUMBA_DISABLE_JIT=1, in a subprocess: numba reads it once at import) the
same functions run as Python, play the same games bit for bit on a sample of all four
variants, and pass the scripted rule cases and the random-play fast path's agreement with
the checked interface; and a pro game comes out the same alone or among others."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sixnimmt_env.core.game import make_game
from sixnimmt_env.core.rng import game_seeds

ROOT = Path(__file__).parents[2]
SAMPLE = [(variant, players) for variant in ("basic", "luck", "pro", "pro-luck") for players in (2, 4, 6)]
STATE_FIELDS = ("turn", "phase", "picks", "hands", "tiles", "length", "gone", "score", "luck", "stack", "queue",
                "queue_seat", "ask", "asker", "action", "deck", "deck_at", "discard", "stops", "drawn")
EVENT_FIELDS = ("tile", "seat", "row", "field", "kind", "points", "taken", "moved_to", "plus5", "double",
                "luck_gained", "turn_over")


def digest(variant: str, players: int, batch: int = 6) -> str:
    """A digest of `batch` random games: the state after every step and its events."""
    game = make_game("board", players=players, variant=variant)
    st = game.new_games(game_seeds(players, batch))
    rng = np.random.default_rng(players)
    h = hashlib.sha256()
    while not game.game_over(st).all():
        actions = np.stack([game.view(st, [p] * batch).random_legal_actions(rng) for p in range(players)])
        st, ev = game.step(st, actions, report=True)
        for a in [getattr(st, n) for n in STATE_FIELDS] + [getattr(ev, n) for n in EVENT_FIELDS]:
            h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def _without_jit(args: list[str], timeout: int) -> subprocess.CompletedProcess:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


def test_the_kernels_play_the_same_games_with_the_jit_off():
    code = ("import json; from tests.board.test_board_kernel import SAMPLE, digest; "
            "print(json.dumps([digest(v, p) for v, p in SAMPLE]))")
    done = _without_jit(["-c", code], timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [digest(v, p) for v, p in SAMPLE]


def test_the_rule_cases_pass_with_the_jit_off():
    done = _without_jit(["-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "tests/board/test_board_rules_cases.py",
                         "tests/board/test_board_pro_engine_cases.py",
                         "tests/board/test_board_answers.py::test_play_random_plays_the_games_of_the_checked_interface"],
                        timeout=900)
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout


@pytest.mark.parametrize("variant", ["pro", "pro-luck"])
def test_a_pro_game_is_the_same_alone_or_in_a_batch(variant):
    game = make_game("board", players=3, variant=variant)
    seeds = game_seeds(7, 64)
    big, alone = game.new_games(seeds), game.new_games(seeds[[41]])
    rng_big, rng_alone = np.random.default_rng(3), np.random.default_rng(3)
    while not game.game_over(alone)[0]:
        acts = np.stack([game.view(alone, [p]).random_legal_actions(rng_alone) for p in range(3)])
        full = np.stack([game.view(big, [p] * 64).random_legal_actions(rng_big) for p in range(3)])
        full[:, 41] = acts[:, 0]
        big, _ = game.step(big, full)
        alone, _ = game.step(alone, acts)
        for name in ("score", "tiles", "hands", "action", "deck", "queue", "phase"):
            assert np.array_equal(getattr(big.take([41]), name), getattr(alone, name)), name
