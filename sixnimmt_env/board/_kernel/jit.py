"""The board kernels' numba cache, fresh only while every source they are compiled from is.

numba (0.68) keys a cached function on the content of its own file. A driver in
`play.py` inlines the rules of `place.py`, `effects.py`, ... and the
constants of `state.py` and `rules.py` are frozen into its machine code; none of those files
is part of its key, so after an edit to one of them the cached driver goes on running the
old rules (a changed `kernel.rules_row` once left the random-play driver as it was until its
cache files were deleted: docs/speed.md). The locators below stamp every cached board kernel
with one digest of all the board modules the kernel modules import, directly or not, so an
edit to any of them compiles every kernel anew; everything else about where numba keeps
its cache (the package's `__pycache__`, NUMBA_CACHE_DIR, the user-wide fallback) is
numba's own.

`install()` runs when the board package is imported (`board/__init__.py`), before any kernel
module is: numba picks a function's locator when `@njit(cache=True)` decorates it. It
also registers `CompileNotice` with numba's event API (`numba.core.event`): the first
time a board kernel is compiled in a process (not loaded from the cache), one line on
stderr says so, since a cold compile takes a while (docs/speed.md) and would otherwise
look like a hang.
"""

from __future__ import annotations

import ast
import hashlib
import sys
from functools import lru_cache
from pathlib import Path

from numba.core import caching, event

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


class UserProvidedLocator(_KernelSourcesStamp, caching.UserProvidedCacheLocator):
    """NUMBA_CACHE_DIR, when set."""


class InTreeLocator(_KernelSourcesStamp, caching.InTreeCacheLocator):
    """The package's own __pycache__, when writable."""


class UserWideLocator(_KernelSourcesStamp, caching.UserWideCacheLocator):
    """The user's cache directory otherwise."""


LOCATORS = (UserProvidedLocator, InTreeLocator, UserWideLocator)  # numba's order of preference


def install() -> None:
    """Put the board's locators ahead of numba's own (once)."""
    classes = caching.CacheImpl._locator_classes
    for cls in reversed(LOCATORS):
        if cls not in classes:
            classes.insert(0, cls)
    if not _NOTICE:
        _NOTICE.append(CompileNotice())
        event.register(COMPILE_EVENT, _NOTICE[0])


COMPILE_EVENT = "numba:compile"  # numba's event around a compile (a cache miss; a cache hit loads without one)
_NOTICE: list = []  # the listener, once registered
NOTICE = "compiling the board kernels (first run only: numba caches them; about a minute of CPU)..."


class CompileNotice(event.Listener):
    """Says once a process, on stderr, that the board kernels are being compiled."""

    said = False

    def on_start(self, ev) -> None:
        dispatcher = (ev.data or {}).get("dispatcher")
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
        if not CompileNotice.said and module.startswith(__package__ + "."):
            CompileNotice.said = True
            print(NOTICE, file=sys.stderr, flush=True)

    def on_end(self, ev) -> None:
        pass
