"""The kernels' calls without numba's dispatch (sixnimmt_env/board/_kernel/calls.py): a
remembered tuple's key is a short token, shared by tuples of one numba type, and the calls
give the kernels' results."""

from __future__ import annotations

import numpy as np
from numba import typeof

from sixnimmt_env.board._kernel import calls, inputs
from sixnimmt_env.board._kernel import views as kernel_views
from sixnimmt_env.board.actions import N_ACTIONS
from sixnimmt_env.core.game import make_game
from sixnimmt_env.core.rng import game_seeds


def test_a_states_arrays_are_keyed_by_a_token_shared_by_states_of_one_type():
    game = make_game("board", players=4, variant="pro-luck")
    first, second = (game.new_games(game_seeds(seed, 8)) for seed in (0, 1))
    a, b = inputs.arrays(first), inputs.arrays(second)
    assert a is not b and typeof(a) == typeof(b)
    token = calls.key(a)
    assert token == calls.key(b) and len(token) == 2  # (hashing it costs nothing like 41 item keys)
    other = inputs.arrays(make_game("board", players=4, variant="basic").new_games(game_seeds(0, 8)))
    if typeof(other) != typeof(a):
        assert calls.key(other) != token


def test_a_fast_call_gives_the_kernels_result():
    game = make_game("board", players=4, variant="pro")
    st = game.new_games(game_seeds(3, 16))
    rng = np.random.default_rng(3)
    for _ in range(12):  # into the questions of the pro side
        game.step(st, np.stack([game.view(st, np.full(16, p)).random_legal_actions(rng) for p in range(4)]),
                  inplace=True)
    s, t = inputs.arrays(st), inputs.tables(st.config)
    seats, games = np.full(16, 1, dtype=np.intp), np.arange(16)
    masks = [np.zeros((16, N_ACTIONS), dtype=bool) for _ in range(3)]
    status = np.empty(16, dtype=np.int8)
    kernel_views.seat_status(s.phase, s.asker, s.ask, s.hands, seats, games, status)
    fast = calls.Fast(kernel_views.action_masks)
    for mask in masks[:2]:  # the first call through the dispatcher, the second through the entry kept
        fast(s, t, seats, games, status, np.zeros(N_ACTIONS, dtype=np.int64), mask)
    kernel_views.action_masks(s, t, seats, games, status, np.zeros(N_ACTIONS, dtype=np.int64), masks[2])
    assert len(fast._entries) == (1 if fast._jit else 0)
    assert (masks[0] == masks[2]).all() and (masks[1] == masks[2]).all() and masks[2].any()
