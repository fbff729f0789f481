"""The board state's arrays stored game-major and shown game-last
(sixnimmt_env/board/_storage.py): the documented shapes over game-first storage, the
kernels handed that storage and writing through to the state's views, copies, takes and
repeats keeping it, a field replaced by a game-last array stored again, and a batch
played through it playing the games of the same batch stored game-last."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env.board import _storage as storage
from sixnimmt_env.board import engine
from sixnimmt_env.board._kernel import inputs as kernel_state
from sixnimmt_env.core.game import make_game
from sixnimmt_env.core.rng import game_seeds


def test_full_is_a_game_last_view_of_game_major_storage():
    a = storage.full((3, 5, 7), 2, np.int8)
    assert a.shape == (3, 5, 7) and (a == 2).all() and not a.flags.c_contiguous
    major = storage.game_major(a)
    assert major.shape == (7, 3, 5) and major.flags.c_contiguous and np.shares_memory(major, a)
    assert storage.game_major(np.zeros((3, 5, 7), np.int8)) is None  # game-last storage
    one = storage.full((7,), 1, np.int8)
    assert one.shape == (7,) and one.flags.c_contiguous
    plain = np.arange(105).reshape(3, 5, 7)
    stored = storage.stored(plain)
    assert np.array_equal(stored, plain) and storage.game_major(stored) is not None
    assert storage.stored(stored) is stored


def test_the_kernel_gets_the_storage_and_writes_through():
    game = make_game("board", players=4, variant="pro")
    st = game.new_games(game_seeds(3, 1024))
    assert st.hands.shape == (4, game.rules.hand_slots, 1024) and not st.hands.flags.c_contiguous
    s = kernel_state.arrays(st)
    assert s.hands.flags.c_contiguous and s.hands.shape == (1024, 4, game.rules.hand_slots)
    assert np.shares_memory(s.hands, st.hands) and s.phase is st.phase
    assert kernel_state.arrays(st) is s  # the same fields: the same kernel arrays
    engine.play_random(st, np.random.default_rng(0).random((1024, 12), dtype=np.float32))
    assert (st.turn == 1).sum() > 500 and np.array_equal(np.moveaxis(s.hands, 0, -1), st.hands)
    for other, games in ((st.copy(), slice(None)), (st.take(np.arange(512)), slice(None)), (st.repeat(2), slice(0, None, 2))):
        assert np.array_equal(other.hands[..., games][..., :512], st.hands[..., :512])
        assert storage.game_major(other.hands) is not None and not np.shares_memory(other.hands, st.hands)
    st.hands = np.ascontiguousarray(st.hands)  # a field replaced: stored game-major again, the kernel sees it
    for other, games in ((st.copy(), slice(None)), (st.take(np.arange(512)), slice(None)), (st.repeat(2), slice(0, None, 2))):
        assert np.array_equal(other.hands[..., games][..., :512], st.hands[..., :512])
        assert storage.game_major(other.hands) is not None
    major = kernel_state.arrays(st).hands
    assert major is not s.hands and major.shape[0] == 1024 and np.shares_memory(major, st.hands)


@pytest.mark.parametrize("variant", ["basic", "pro-luck"])
def test_a_batch_plays_the_same_games_from_game_last_arrays(variant):
    """Games 0..99 of a batch of 1024 and a batch of 100 whose arrays were handed in
    game-last (stored anew on the kernel's first call)."""
    game = make_game("board", players=4, variant=variant)
    seeds = game_seeds(5, 1024)
    big, small = game.new_games(seeds), game.new_games(seeds[:100])
    for name in kernel_state.STATE_FIELDS:
        setattr(small, name, np.ascontiguousarray(getattr(small, name)))
    rng = np.random.default_rng(5)
    while not game.game_over(big).all():
        uniforms = rng.random((1024, 12), dtype=np.float32)
        engine.play_random(big, uniforms)
        if not game.game_over(small).all():
            engine.play_random(small, uniforms[:100])
    assert game.game_over(small).all()
    for name in kernel_state.STATE_FIELDS:
        assert np.array_equal(getattr(big, name)[..., :100], getattr(small, name)), name
