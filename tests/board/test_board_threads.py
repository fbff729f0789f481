"""The random-play fast path with the games split over threads (sixnimmt_env/board/_kernel/threads.py):
every variant plays bit for bit the same games at 1, 2 and 3 threads, the blocks
cover the batch once, in order, and the deal's shuffles split over the cores are those of
one thread."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env.board import engine
from sixnimmt_env.board._deal import action_deck, action_decks, dealing_orders, on_all_cores, shuffled_tiles
from sixnimmt_env.board._kernel import inputs as kernel_state
from sixnimmt_env.board._kernel.threads import MIN_GAMES_PER_THREAD, blocks
from sixnimmt_env.board.rules import BoardConfig
from sixnimmt_env.board.state import PHASE_OVER
from sixnimmt_env.core.game import make_game
from sixnimmt_env.core.rng import game_seeds


def play(variant: str, threads: int, batch: int = 3 * MIN_GAMES_PER_THREAD + 5):
    """A batch of random games played to the end by engine.play_random at `threads`."""
    game = make_game("board", players=4, variant=variant)
    st = game.new_games(game_seeds(11, batch))
    rng = np.random.default_rng(11)
    while not game.game_over(st).all():
        engine.play_random(st, rng.random((batch, 4 + 8), dtype=np.float32), threads=threads)
    return st


@pytest.mark.parametrize("variant", ["basic", "luck", "pro", "pro-luck"])
def test_the_games_are_the_same_at_any_thread_count(variant):
    one = play(variant, 1)
    for threads in (2, 3):
        other = play(variant, threads)
        for name in kernel_state.STATE_FIELDS:
            assert np.array_equal(getattr(one, name), getattr(other, name)), (threads, name)


def test_random_numbers_for_the_games_still_on_play_as_a_row_per_game():
    """play_random takes a row per game of the batch, or a row per game not over (the
    benchmark draws only those): the same numbers give the same games."""
    game = make_game("board", players=4, variant="pro-luck")
    by_game = game.new_games(game_seeds(17, 300))
    live_only = by_game.copy()
    rng = np.random.default_rng(17)
    fewer = 0
    while not game.game_over(by_game).all():
        uniforms = rng.random((300, 12), dtype=np.float32)
        live = ~game.game_over(live_only)
        fewer += live.sum() < 300
        engine.play_random(by_game, uniforms, threads=2)
        engine.play_random(live_only, uniforms[live], threads=2)
    assert fewer > 2 and game.game_over(live_only).all()
    for name in kernel_state.STATE_FIELDS:
        assert np.array_equal(getattr(by_game, name), getattr(live_only, name)), name
    fresh = game.new_games(game_seeds(17, 300))
    engine.play_random(fresh, np.zeros((300, 12), np.float32))
    fresh.phase[:10] = PHASE_OVER  # 290 games on: 300 or 290 rows, not 299 or one axis
    for bad in (np.zeros((299, 12), np.float32), np.zeros((300, 3), np.float32), np.zeros(300, np.float32)):
        with pytest.raises(ValueError, match="play_random: random numbers of shape"):
            engine.play_random(fresh, bad)


def test_the_blocks_cover_the_batch_once():
    for n, threads in [(1000, 2), (1000, 3), (130, 4), (10, 2), (0, 2)]:
        parts = blocks(n, threads)
        assert parts[0][0] == 0 and parts[-1][1] == n
        assert all(hi == lo for (_, hi), (lo, _) in zip(parts, parts[1:]))
        assert len(parts) == max(1, min(threads, n // MIN_GAMES_PER_THREAD))


def test_the_deal_split_over_the_cores_is_the_deal_of_one_thread():
    seeds = game_seeds(13, 10 * MIN_GAMES_PER_THREAD + 3)
    assert np.array_equal(on_all_cores(dealing_orders, seeds), shuffled_tiles(seeds).T)
    config = BoardConfig(players=4, variant="pro")
    assert np.array_equal(on_all_cores(lambda part: action_decks(config, part), seeds), action_deck(config, seeds).T)
    assert on_all_cores(dealing_orders, seeds[:0]).shape == (0, 100)
