"""The board kernels' numba cache is stamped with all the sources they are compiled from
(sixnimmt_env/board/_kernel/jit.py): numba's own stamp is the function's file alone, so an
edit to a rule inlined from another module (or to a constant frozen into the code) would
leave a cached driver running the old rules."""

from __future__ import annotations

import importlib

import numpy as np
from numba.core.registry import CPUDispatcher

from sixnimmt_env.board._kernel import jit as jit_cache

KERNEL_MODULES = ("place", "turns", "effects", "pro", "answers", "play", "views")


def test_every_cached_board_kernel_is_stamped_with_all_its_sources():
    cached = []
    for name in KERNEL_MODULES:
        module = importlib.import_module(f"sixnimmt_env.board._kernel.{name}")
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher) and value._cache.__class__.__name__ != "NullCache":
                locator = value._cache._impl._locator
                assert isinstance(locator, jit_cache.LOCATORS), (name, value.__name__, type(locator))
                assert locator.get_source_stamp() == jit_cache.sources_digest()
                cached.append(value.__name__)
    assert {"play", "first_illegal", "seat_status", "hand_sizes", "action_masks", "random_actions"} <= set(cached)


def test_the_sources_are_the_kernel_modules_and_what_they_import_transitively(tmp_path):
    board, kernel = tmp_path / "board", tmp_path / "board" / "_kernel"
    kernel.mkdir(parents=True)
    files = {
        "_kernel/a.py": "from ..consts import X\nfrom . import helpers\nfrom ...core import Z\n",
        "_kernel/helpers.py": "import numpy\n",
        "consts.py": "from .deep import Y\nX = Y + 1\n",
        "deep.py": "Y = 1\n",
        "unrelated.py": "Z = 3\n",
    }
    for name, text in files.items():
        (board / name).write_text(text)
    (tmp_path / "core.py").write_text("Z = 1\n")  # outside the board package: not a source
    got = [str(p.relative_to(board)) for p in jit_cache.kernel_sources(kernel)]
    assert got == ["_kernel/a.py", "_kernel/helpers.py", "consts.py", "deep.py"]
    before = jit_cache.sources_digest(kernel)
    (board / "unrelated.py").write_text("Z = 4\n")
    assert jit_cache.sources_digest(kernel) == before
    (board / "deep.py").write_text("Y = 2\n")  # a constant two imports away: the kernels compile anew
    assert jit_cache.sources_digest(kernel) != before


def test_the_real_kernels_sources_hold_the_rules_and_constants_they_inline():
    names = {str(p.relative_to(jit_cache.HERE.parent)) for p in jit_cache.kernel_sources()}
    assert {"_kernel/place.py", "_kernel/effects.py", "_kernel/pro.py", "_kernel/play.py", "state.py", "rules.py",
            "layout.py", "actions.py"} <= names
    assert "render.py" not in names  # an edit elsewhere in the package costs no recompile


def test_the_kernels_tables_have_one_numba_type_whatever_made_the_game():
    """numba compiles and caches a kernel once per argument type, read-only flags included: a
    deep copy of an env (the env checks' copies check; vectorising wrappers copy envs) holds a
    writable copy of the frozen layout, and must still hand the kernels tables of the same
    type, or its first step compiles every kernel again (~1 minute; the test suite's workers
    did, 190 s a test)."""
    import copy

    from numba import typeof

    import sixnimmt_env
    from sixnimmt_env.board._kernel import inputs
    from sixnimmt_env.core.rng import game_seeds

    env = sixnimmt_env.parallel_env(3, game="board")
    twin = copy.deepcopy(env)
    assert twin.game.rules.board.kind.flags.writeable != env.game.rules.board.kind.flags.writeable  # (the case)
    configs = [e.game.new_games(game_seeds(0, 1)).config for e in (env, twin)]
    assert typeof(inputs.tables(configs[0])) == typeof(inputs.tables(configs[1]))


def test_a_views_seats_and_games_have_one_numba_type_however_they_were_given():
    """A board view hands its seats and games to compiled kernels: a scalar seat (broadcast,
    stride 0) or a strided slice of games must not be a new argument type, or the agents'
    first views compile the view kernels again (the shipped-model tests took ~2 minutes)."""
    from numba import typeof

    from sixnimmt_env.core.game import make_game
    from sixnimmt_env.core.rng import game_seeds

    game = make_game("board", players=3, variant="basic")
    st = game.new_games(game_seeds(0, 8))
    plain = game.view(st, np.full(8, 1))
    for view in (game.view(st, 1), game.view(st, 2, np.arange(8)[::2]), plain.subset(np.array([1, 3]))):
        assert typeof(view.seats) == typeof(plain.seats) and typeof(view.games) == typeof(plain.games)
