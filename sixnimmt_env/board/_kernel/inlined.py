"""The rules' own code is never run: numba optimises it once, inside the kernel that inlines it.

Every rule below the kernels (`_kernel/__init__.py`'s `inline`: LLVM's alwaysinline, no
entry point from Python or C) is compiled by numba into a library of its own, which numba
(0.68) then treats as code to run: it runs LLVM's function passes and its full module
optimisation over it (with the rules it calls linked in and inlined), and turns it into
machine code. Nothing ever runs that: every caller links the rule's module in, inlines it
and optimises the whole kernel again; the kernel's machine code is what is cached and run.
So a rule's body was optimised once per level of rules above it, and turned into machine
code for nothing (a first game compiles ~70 such libraries: docs/speed.md, "The first
start, a fourth time").

`install()` has numba skip, for a library whose every defined function is alwaysinline,
the function passes, the module optimisation and the machine code: its module is only
linked into its callers (as numba links every library), where the kernel's optimisation
(the full pipeline, inlining first) runs over it once. A library with anything else in it
(an entry point, a kernel) is compiled as before. The same games (the golden digests); the
kernels' machine code differs (the rules reach the kernel unoptimised), at the public
step's speed of before (docs/speed.md).

Only for numba 0.68 (pyproject pins it): the hooks are numba's own `CPUCodeLibrary`
methods; another version, or one without them, compiles as before.
"""

from __future__ import annotations

import numba
from numba.core import codegen

ALWAYS_INLINE = "alwaysinline"
NUMBA_VERSION = "0.68."  # the version whose CPUCodeLibrary these hooks follow
_Library = codegen.CPUCodeLibrary
_HOOKS = ("add_ir_module", "add_llvm_module", "finalize", "_finalize_dynamic_globals",
          "_verify_declare_only_symbols", "_get_module_for_linking")


def inlined_only(ir_module) -> bool:
    """Whether every function `ir_module` (llvmlite.ir) defines is alwaysinline (a rule's
    own module: it has no entry point)."""
    defined = [f for f in ir_module.functions if not f.is_declaration]
    return bool(defined) and all(ALWAYS_INLINE in f.attributes for f in defined)


def _add_ir_module(self, ir_module):
    if inlined_only(ir_module):
        self._sixnimmt_inlined_only = True
    return _ORIGINAL["add_ir_module"](self, ir_module)


def _add_llvm_module(self, ll_module):
    if getattr(self, "_sixnimmt_inlined_only", False):
        self._final_module.link_in(ll_module)  # (no function passes: the caller's optimisation does it)
        return
    _ORIGINAL["add_llvm_module"](self, ll_module)


def _finalize(self):
    """numba's `finalize` without the optimisation and the machine code, for a rule's
    library: its callees linked in, then ready to be linked into its callers."""
    if not getattr(self, "_sixnimmt_inlined_only", False):
        return _ORIGINAL["finalize"](self)
    codegen.require_global_compiler_lock()
    self._raise_if_finalized()
    seen = set()
    for library in self._linking_libraries:
        if library not in seen:
            self._reload_init.update(library._reload_init)
            seen.add(library)
            self._final_module.link_in(library._get_module_for_linking(), preserve=True)
    self._finalize_dynamic_globals()
    self._verify_declare_only_symbols()
    self._finalized = True


def _set_env(self, env_name, env):
    """numba's `set_env`, skipped for a library that never reached the JIT engine (a
    rule's: the address of its environment is 0; nothing reads it, as in a cached kernel)."""
    if self._engine.get_global_value_address(env_name):
        _ORIGINAL["set_env"](self, env_name, env)


_ORIGINAL: dict = {}


def install() -> None:
    """Put the hooks on numba's CPU code library (once; not for another numba version)."""
    if _ORIGINAL or not numba.__version__.startswith(NUMBA_VERSION):
        return
    if not all(hasattr(_Library, name) for name in _HOOKS) or not hasattr(codegen.JITCPUCodegen, "set_env"):
        return
    for name in ("add_ir_module", "add_llvm_module", "finalize"):
        _ORIGINAL[name] = getattr(_Library, name)
    _ORIGINAL["set_env"] = codegen.JITCPUCodegen.set_env
    _Library.add_ir_module, _Library.add_llvm_module, _Library.finalize = _add_ir_module, _add_llvm_module, _finalize
    codegen.JITCPUCodegen.set_env = _set_env
