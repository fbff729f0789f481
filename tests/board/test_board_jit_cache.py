"""The board kernels' numba cache is stamped with all the sources they are compiled from
(sixnimmt_env/board/jit_cache.py): numba's own stamp is the function's file alone, so an
edit to a rule inlined from another module (or to a constant frozen into the code) would
leave a cached driver running the old rules."""

from __future__ import annotations

import importlib

from numba.core.registry import CPUDispatcher

from sixnimmt_env.board import jit_cache

KERNEL_MODULES = ("kernel", "kernel_turns", "kernel_effects", "kernel_pro", "kernel_answers", "kernel_play", "kernel_views")


def test_every_cached_board_kernel_is_stamped_with_all_its_sources():
    cached = []
    for name in KERNEL_MODULES:
        module = importlib.import_module(f"sixnimmt_env.board.{name}")
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher) and value._cache.__class__.__name__ != "NullCache":
                locator = value._cache._impl._locator
                assert isinstance(locator, jit_cache.LOCATORS), (name, value.__name__, type(locator))
                assert locator.get_source_stamp() == jit_cache.sources_digest()
                cached.append(value.__name__)
    assert {"play", "first_illegal", "seat_status", "action_masks", "random_actions"} <= set(cached)


def test_the_sources_are_the_kernel_modules_and_what_they_import_transitively(tmp_path):
    files = {
        "kernel_a.py": "from .consts import X\nfrom . import helpers\n",
        "consts.py": "from .deep import Y\nX = Y + 1\n",
        "deep.py": "Y = 1\n",
        "helpers.py": "import numpy\n",
        "unrelated.py": "Z = 3\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    assert [p.name for p in jit_cache.kernel_sources(tmp_path)] == ["consts.py", "deep.py", "helpers.py", "kernel_a.py"]
    before = jit_cache.sources_digest(tmp_path)
    (tmp_path / "unrelated.py").write_text("Z = 4\n")
    assert jit_cache.sources_digest(tmp_path) == before
    (tmp_path / "deep.py").write_text("Y = 2\n")  # a constant two imports away: the kernels compile anew
    assert jit_cache.sources_digest(tmp_path) != before


def test_the_real_kernels_sources_hold_the_rules_and_constants_they_inline():
    names = {p.name for p in jit_cache.kernel_sources()}
    assert {"kernel.py", "kernel_effects.py", "kernel_pro.py", "state.py", "rules.py", "layout.py", "actions.py"} <= names
    assert "render.py" not in names  # an edit elsewhere in the package costs no recompile
