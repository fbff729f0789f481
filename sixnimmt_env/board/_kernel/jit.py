"""The board kernels' numba cache, fresh only while every source they are compiled from is.

numba (0.68) keys a cached function on the content of its own file. A driver in
`play.py` inlines the rules of `place.py`, `effects.py`, ... and the
constants of `state.py` and `rules.py` are frozen into its machine code; none of those files
is part of its key, so after an edit to one of them the cached driver goes on running the
old rules (a changed `kernel.rules_row` once left the random-play driver as it was until its
cache files were deleted: docs/speed.md). The locators below stamp every cached board kernel
with one digest of all the board modules the kernel modules import, directly or not, so an
edit to any of them compiles every kernel anew.

Where: a directory named by that digest (`shared_cache_dir`), under NUMBA_CACHE_DIR when it
is set, else under the user's cache directory (~/.cache/sixnimmt), else in the package's
`__pycache__` (a home that cannot be written). numba's own directories are named by the
source file's path, so a wheel installed into a fresh venv compiled every kernel again
(minutes: docs/speed.md); named by the sources, every checkout and install of the same
code shares one compile a machine. (numba's index still checks its version, the
signature and the CPU the code was compiled for.)

`install()` runs when the board package is imported (`board/__init__.py`), before any kernel
module is: numba picks a function's locator when `@njit(cache=True)` decorates it. It
also registers `compiling.CompileNotice` (the lines on stderr while a kernel compiles) and
`inlined.install()` (the rules optimised once, inside the kernels).
"""

from __future__ import annotations

import ast
import hashlib
import os
from functools import lru_cache
from pathlib import Path

from numba.core import caching, config
from numba.misc.appdirs import AppDirs

from . import compiling, inlined

HERE = Path(__file__).resolve().parent  # the compiled core, board/_kernel/
KERNEL_MODULES = "*.py"  # the modules holding compiled code: all of this package's


def kernel_sources(package: Path = HERE) -> tuple[Path, ...]:
    """The modules of `package` (the compiled core) and every module of the board package
    around it they import from (`from .x import ...`, `from ..x import ...`, `from . import
    x`), transitively, sorted."""
    board = package.parent
    todo, seen = sorted(package.glob(KERNEL_MODULES)), set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
            if isinstance(node, ast.ImportFrom) and node.level >= 1:
                base = path.parent.parents[node.level - 2] if node.level > 1 else path.parent
                if base != board and board not in base.parents:
                    continue  # outside the board package (core, numpy): not compiled into the kernels
                names = [node.module] if node.module else [alias.name for alias in node.names]
                for name in names:
                    parts = name.split(".")
                    for f in (base.joinpath(*parts).with_suffix(".py"), base.joinpath(*parts) / "__init__.py"):
                        if f.is_file():
                            todo.append(f)
    return tuple(sorted(seen))


def sources_digest(package: Path = HERE) -> str:
    """One digest of the names and contents of `kernel_sources(package)`."""
    digest = hashlib.sha256()
    for path in kernel_sources(package):
        digest.update(str(path.relative_to(package.parent)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


@lru_cache(maxsize=1)
def _this_package_digest() -> str:
    # once a process: numba asks for the stamp at every load and save of a kernel
    return sources_digest()


class _KernelSourcesStamp:
    """A locator of numba's for the board's kernel modules only, stamped with the digest
    of all their sources instead of their own file's."""

    def get_source_stamp(self):
        return _this_package_digest()

    @classmethod
    def from_function(cls, py_func, py_file):
        if Path(py_file).resolve().parent != HERE:
            return None
        return super().from_function(py_func, py_file)


def shared_cache_dir(root: str | os.PathLike) -> str:
    """The kernels' cache directory under `root`: named by the digest of their sources, not
    by where they are installed, so every checkout and install of the same sources shares
    it (a wheel installed into a fresh venv loads the kernels a checkout compiled), and
    two versions of the sources each keep their own."""
    return os.path.join(root, CACHE_PREFIX + _this_package_digest()[:DIGEST_CHARS])


class UserProvidedLocator(_KernelSourcesStamp, caching.UserProvidedCacheLocator):
    """NUMBA_CACHE_DIR, when set (numba's own choice first)."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = shared_cache_dir(config.CACHE_DIR)


class PerUserLocator(_KernelSourcesStamp, caching.UserWideCacheLocator):
    """The user's cache directory (~/.cache/sixnimmt on Linux): once per machine and user."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = shared_cache_dir(AppDirs(appname="sixnimmt", appauthor=False).user_cache_dir)


class InTreeLocator(_KernelSourcesStamp, caching.InTreeCacheLocator):
    """The package's own __pycache__, when the user's cache directory is not writable."""


LOCATORS = (UserProvidedLocator, PerUserLocator, InTreeLocator)  # in order of preference
CACHE_PREFIX = "board-kernels-"  # + the first DIGEST_CHARS of the sources' digest
DIGEST_CHARS = 16


def install() -> None:
    """Put the board's locators ahead of numba's own (once), the compile notice, and the
    rules' libraries left unoptimised until inlined (`inlined.py`)."""
    classes = caching.CacheImpl._locator_classes
    for cls in reversed(LOCATORS):
        if cls not in classes:
            classes.insert(0, cls)
    compiling.install_notice()
    inlined.install()
