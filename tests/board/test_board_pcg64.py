"""The seat views' random numbers computed in the kernel (sixnimmt_env/board/_kernel/pcg64.py,
`views.random_legal`): the same actions as with NumPy's draws, and the generator left
where NumPy's draws leave it, for views of every variant, of some games and mixed seats;
the jumps against NumPy's own `PCG64.advance`; other generators drawn from by NumPy."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from sixnimmt_env.board._kernel import pcg64
from sixnimmt_env.board.rules import VARIANTS
from sixnimmt_env.core.game import make_game
from sixnimmt_env.core.rng import game_seeds


class NumPyDraws:
    """A generator the kernel does not draw for (not a numpy Generator): the views' numbers
    come from NumPy's `random`, the path the kernel's numbers must equal."""

    def __init__(self, rng: np.random.Generator):
        self.rng = rng

    def random(self, n: int) -> np.ndarray:
        return self.rng.random(n)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_kernels_numbers_are_numpys(variant, players):
    game = make_game("board", players=players, variant=variant)
    batch = 48
    st = game.new_games(game_seeds(players, batch))
    mine, numpys = np.random.default_rng(players), np.random.default_rng(players)
    assert pcg64.words(mine) is not None
    part, mixed = np.arange(batch)[::3], np.arange(batch)[::3] % players  # some games, mixed seats
    while not game.game_over(st).all():
        a = game.view(st, mixed, part).random_legal_actions(mine)
        assert (a == game.view(st, mixed, part).random_legal_actions(NumPyDraws(numpys))).all()
        actions = [game.view(st, [p] * batch).random_legal_actions(mine) for p in range(players)]
        expected = [game.view(st, [p] * batch).random_legal_actions(NumPyDraws(numpys)) for p in range(players)]
        assert all((x == y).all() for x, y in zip(actions, expected))
        assert mine.bit_generator.state == numpys.bit_generator.state
        game.step(st, np.stack(actions), inplace=True)


@njit
def _jumped(state, d, jumps):
    pcg64.jumps_for(state, jumps)
    lo, hi = pcg64.jump(state[0], state[1], d, jumps)
    return lo, hi, pcg64.draw(*pcg64.affine(lo, hi, pcg64.POWERS[0, 0], pcg64.POWERS[0, 1], jumps[0, 0], jumps[0, 1]))


@pytest.mark.parametrize("d", [0, 1, 2, 7, 63, 64, 65, 4096, 8193, (1 << 40) + 3])
def test_a_jump_is_numpys_advance(d):
    rng = np.random.default_rng(11)
    rng.random(5)
    _, words = pcg64.words(rng)
    lo, hi, u = _jumped(words.copy(), d, np.empty((2 * pcg64.SHORT, 2), dtype=np.uint64))
    rng.bit_generator.advance(d)
    state = rng.bit_generator.state["state"]["state"]
    assert (int(lo), int(hi)) == (state & ((1 << 64) - 1), state >> 64)
    assert u == rng.random()  # the double of the next step


def test_other_generators_are_drawn_from_by_numpy():
    assert pcg64.words(np.random.Generator(np.random.Philox(3))) is None
    assert pcg64.words(np.random.RandomState(3)) is None
    game = make_game("board", players=4, variant="pro-luck")
    st = game.new_games(game_seeds(2, 16))
    rng = np.random.Generator(np.random.Philox(3))
    for _ in range(20):
        actions = np.stack([game.view(st, [p] * 16).random_legal_actions(rng) for p in range(4)])
        game.step(st, actions, inplace=True)  # (checked: legal)
