"""The board state's arrays stored one cache line wider where a power-of-two batch would
put a game's entries into a few L1 cache sets (sixnimmt_env/board/padding.py): which
arrays are, that the kernels write through to the state's views, that copies keep it,
and that a padded batch plays the same games as an unpadded one."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env.board import engine, kernel_state, padding
from sixnimmt_env.core.game import make_game
from sixnimmt_env.core.rng import game_seeds


def test_which_shapes_alias():
    assert padding.aliases((4, 4096), np.int8)
    assert padding.aliases((6, 10, 1024), np.int8)
    assert padding.aliases((4, 128), np.int32)  # 512 bytes a row
    assert not padding.aliases((4, 4000), np.int8)
    assert not padding.aliases((4096,), np.int8)  # one entry a game
    assert not padding.aliases((1, 4096), np.int8)
    assert not padding.aliases((0, 4096), np.int8)
    assert not padding.aliases((4, 64), np.int8)


def test_a_power_of_two_batch_is_stored_wider_and_the_kernel_writes_through():
    game = make_game("board", players=4, variant="pro")
    st = game.new_games(game_seeds(3, 1024))
    assert st.hands.shape == (4, game.rules.hand_slots, 1024) and not st.hands.flags.c_contiguous
    s = kernel_state.arrays(st)
    assert s.hands.flags.c_contiguous and s.hands.shape[-1] > 1024
    assert np.shares_memory(s.hands, st.hands) and s.phase is st.phase
    assert kernel_state.arrays(st) is s  # the same fields: the same kernel arrays
    engine.play_random(st, np.random.default_rng(0).random((12, 1024), dtype=np.float32))
    assert (st.turn == 1).sum() > 500 and np.array_equal(s.hands[..., :1024], st.hands)
    for other, games in ((st.copy(), slice(None)), (st.take(np.arange(512)), slice(None)), (st.repeat(2), slice(0, None, 2))):
        assert np.array_equal(other.hands[..., games][..., :512], st.hands[..., :512])
        assert other.hands.base is not None and other.hands.base.shape[-1] > other.batch_size
    st.hands = np.ascontiguousarray(st.hands)  # a field replaced: stored wider again, the kernel sees it
    wide = kernel_state.arrays(st).hands
    assert wide is not s.hands and wide.shape[-1] > 1024 and np.shares_memory(wide, st.hands)


@pytest.mark.parametrize("variant", ["basic", "pro-luck"])
def test_a_padded_batch_plays_the_games_of_an_unpadded_one(variant):
    """Games 0..99 of a batch of 1024 (stored wider) and of a batch of 100 (not)."""
    game = make_game("board", players=4, variant=variant)
    seeds = game_seeds(5, 1024)
    wide, narrow = game.new_games(seeds), game.new_games(seeds[:100])
    rng = np.random.default_rng(5)
    while not game.game_over(wide).all():
        uniforms = rng.random((12, 1024), dtype=np.float32)
        engine.play_random(wide, uniforms)
        if not game.game_over(narrow).all():
            engine.play_random(narrow, uniforms[:, :100])
    assert game.game_over(narrow).all()
    for name in kernel_state.STATE_FIELDS:
        assert np.array_equal(getattr(wide, name)[..., :100], getattr(narrow, name)), name
