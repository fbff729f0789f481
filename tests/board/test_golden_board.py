"""The board engine plays bit for bit as it always has: a pin for refactors and speed work.

tests/data/golden-board.json holds SHA-256 digests of whole random games (every state
array and every event of every step, the observations of every seat) at 2-6 players,
basic and luck, both next-row options, played through the public API (`make_game`, seat
views, `Game.step`). This module recomputes them with today's code: any change in what
the engine does, however it does it, changes a digest. Regenerate
(`python tests/board/test_golden_board.py --write`) only for a deliberate rules change.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from sixnimmt_env.board.actions import PASS_ACTION
from sixnimmt_env.core.game import make_game

GOLDEN_FILE = Path(__file__).parents[1] / "data" / "golden-board.json"
CASES = {f"{variant}-{players}p-{next_row}": dict(players=players, variant=variant, next_row=next_row)
         for variant in ("basic", "luck") for players in (2, 3, 4, 5, 6) for next_row in ("scan", "rotate")
         if next_row == "scan" or players == 4}
STATE_FIELDS = ("turn", "phase", "picks", "hands", "picked", "tiles", "length", "supply", "drawn", "gone",
                "score", "luck", "luck_new", "stack", "pointer", "refilled", "queue", "queue_seat", "ask",
                "asker")
EVENT_FIELDS = ("tile", "seat", "row", "field", "kind", "points", "taken", "moved_to", "plus5", "double",
                "luck_gained", "turn_over")
BATCH = 40
BASIC_ACTIONS = PASS_ACTION + 1  # the actions of the basic and luck variants (digests predate the pro ones)


def _update(h, a) -> None:
    a = np.ascontiguousarray(a)
    h.update(str(a.dtype).encode())
    h.update(str(a.shape).encode())
    h.update(a.tobytes())


def digests(players: int, variant: str, next_row: str) -> dict[str, str]:
    """Digests of BATCH random games: state after every step, events, observations."""
    game = make_game("board", players=players, variant=variant, next_row=next_row)
    st = game.new_games(np.arange(BATCH) + 1000 * players)
    rng = np.random.default_rng(players)
    hs = {k: hashlib.sha256() for k in ("state", "events", "obs")}
    seats = [np.full(BATCH, p) for p in range(players)]
    encoder = game.layout()
    while not game.game_over(st).all():
        views = [game.view(st, seats[p]) for p in range(players)]
        for v in views:
            _update(hs["obs"], encoder.encode(v))
            mask = v.action_mask()
            assert not mask[:, BASIC_ACTIONS:].any(), "basic and luck never allow a pro action"
            _update(hs["obs"], mask[:, :BASIC_ACTIONS])
        actions = np.stack([v.random_legal_actions(rng) for v in views])
        st, ev = game.step(st, actions, report=True)
        for name in STATE_FIELDS:
            _update(hs["state"], getattr(st, name))
        for name in EVENT_FIELDS:
            _update(hs["events"], getattr(ev, name))
    return {k: h.hexdigest() for k, h in hs.items()}


@pytest.mark.parametrize("case", sorted(CASES))
def test_board_games_unchanged(case):
    golden = json.loads(GOLDEN_FILE.read_text())
    assert digests(**CASES[case]) == golden[case]


if __name__ == "__main__":
    if "--write" not in sys.argv:
        sys.exit("usage: python tests/board/test_golden_board.py --write  (only for a deliberate rules change)")
    GOLDEN_FILE.write_text(json.dumps({c: digests(**kw) for c, kw in sorted(CASES.items())}, indent=1) + "\n")
