"""The board kernels' numba cache is stamped with all the sources they are compiled from
(sixnimmt_env/board/_kernel/jit.py): numba's own stamp is the function's file alone, so an
edit to a rule inlined from another module (or to a constant frozen into the code) would
leave a cached driver running the old rules. The cache's directory is named by those
sources, so every install of them shares it, and a kernel compiles under a file lock
there (`_kernel/compiling.py`), so one process a machine compiles it."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from llvmlite import ir
from numba import njit
from numba.core import event
from numba.core.errors import TypingError
from numba.core.registry import CPUDispatcher

from sixnimmt_env.board._kernel import compiling, inlined
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
    assert {"play", "checked_step", "seat_status", "hand_sizes", "action_masks", "random_actions"} <= set(cached)


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
    assert "_render.py" not in names  # an edit elsewhere in the package costs no recompile


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


def _kernel_cache_dir(package_root, env) -> str:
    code = "from sixnimmt_env.board._kernel import play; print(play.play._cache._cache_path)"
    return subprocess.run([sys.executable, "-c", code], cwd=package_root, env=dict(env, PYTHONPATH=str(package_root)),
                          capture_output=True, text=True, check=True).stdout.strip()


def test_an_installed_copy_of_the_same_sources_shares_the_checkouts_compiled_kernels(tmp_path):
    """The cache directory is named by the sources' digest, not by where they are installed:
    a wheel installed into a fresh venv (tests/lab/test_package.py) loads the kernels the
    checkout compiled instead of compiling them again (minutes on a slow machine)."""
    checkout = Path(jit_cache.HERE).parents[2]
    copy = tmp_path / "site"
    shutil.copytree(checkout / "sixnimmt_env", copy / "sixnimmt_env", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "user-cache")
    here, there = _kernel_cache_dir(checkout, env), _kernel_cache_dir(copy, env)
    assert here == there and Path(here).parent == tmp_path / "user-cache" / "sixnimmt", (here, there)
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba")  # numba's own setting first, shared the same way
    here, there = _kernel_cache_dir(checkout, env), _kernel_cache_dir(copy, env)
    assert here == there and Path(here).parent == tmp_path / "numba", (here, there)


def _locked_elsewhere(path: Path) -> bool:
    """Whether another process holds the file lock on `path`."""
    code = "import fcntl, sys; fcntl.flock(open(sys.argv[1], 'a'), fcntl.LOCK_EX | fcntl.LOCK_NB)"
    return subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True).returncode != 0


def _tiny_kernels(tmp_path):
    (tmp_path / "tiny_kernels.py").write_text(
        "from sixnimmt_env.board._kernel.compiling import kernel\n\n"
        "@kernel\ndef add_one(x):\n    return x + 1\n\n"
        "@kernel\ndef broken(x):\n    return x.no_such_attribute\n")
    sys.path.insert(0, str(tmp_path))
    try:
        return importlib.import_module("tiny_kernels")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("tiny_kernels", None)


@pytest.mark.skipif(compiling.fcntl is None, reason="no file locks on this platform")
def test_a_kernel_compiles_under_the_machines_lock_and_a_failed_compile_frees_it(tmp_path):
    """While a kernel compiles (a cache miss), the lock in its cache directory is held, so a
    second process waits for the machine code instead of compiling it too; a cache hit takes
    no lock; a compile that fails lets it go."""
    tiny = _tiny_kernels(tmp_path)
    lock = Path(tiny.add_one._cache._cache_path) / compiling.LOCK_NAME
    seen = []

    class Spy(event.Listener):
        def on_start(self, ev):
            if ev.data["dispatcher"] is tiny.add_one:
                seen.append(_locked_elsewhere(lock))

        def on_end(self, ev):
            pass

    with event.install_listener(compiling.COMPILE_EVENT, Spy()):
        assert tiny.add_one(1) == 2
    assert seen == [True] and compiling.LOCK.depth == 0 and not _locked_elsewhere(lock)
    with pytest.raises(TypingError):
        tiny.broken(1)
    assert compiling.LOCK.depth == 0 and not _locked_elsewhere(lock)


def _module(*functions: tuple[str, bool, bool]) -> ir.Module:
    """A module defining (or declaring) functions: (name, always inline, defined)."""
    module = ir.Module()
    for name, always, defined in functions:
        fn = ir.Function(module, ir.FunctionType(ir.VoidType(), []), name)
        if always:
            fn.attributes.add(inlined.ALWAYS_INLINE)
        if defined:
            ir.IRBuilder(fn.append_basic_block()).ret_void()
    return module


def test_a_module_is_inline_only_when_every_function_it_defines_is_alwaysinline():
    assert inlined.inlined_only(_module(("rule", True, True), ("callee", True, False)))
    assert inlined.inlined_only(_module(("rule", True, True), ("other", False, False)))  # (declared only)
    assert not inlined.inlined_only(_module(("rule", True, True), ("wrapper", False, True)))
    assert not inlined.inlined_only(_module(("declared", True, False)))


def test_a_rule_gets_no_machine_code_of_its_own_and_the_kernel_inlining_it_runs():
    """The rules' libraries (`_kernel/inlined.py`): linked into the kernel that inlines
    them, never optimised or made into machine code alone; the kernel gives its result."""

    @njit(forceinline=True, no_cpython_wrapper=True, no_cfunc_wrapper=True, _nrt=False)
    def bump(a, i, by):
        a[i] += by

    @njit(_nrt=False)
    def bump_all(a):
        for i in range(len(a)):
            bump(a, i, 2)
            bump(a, i, i)  # (another signature: the constant 2 is typed as a literal)
        return a.sum()

    a = np.arange(5, dtype=np.int64)
    assert bump_all(a) == 10 + 10 + 10
    assert list(a) == [2, 4, 6, 8, 10]
    assert inlined._ORIGINAL, "the hooks are not installed (numba other than 0.68?)"
    (kernel,) = bump_all.overloads.values()
    assert not getattr(kernel.library, "_sixnimmt_inlined_only", False)
    assert len(bump.overloads) == 2
    engine = kernel.library.codegen._engine
    for rule in bump.overloads.values():
        assert rule.library._sixnimmt_inlined_only
        assert not engine.is_symbol_defined(rule.fndesc.mangled_name)  # never made into machine code
    assert engine.is_symbol_defined(kernel.fndesc.mangled_name)
