"""The board game's compiled core, private to the board package: the rules of one game at a
time as plain Python compiled by numba, and the plumbing that hands them the state.

`place.py` places a turn's tiles (the stage machine; `effects.py`, `pro.py`, `turns.py`
and `answers.py` hold the rules it inlines), `play.py` is the one compiled driver every
path runs (the public step, random play, the search's rollouts), `views.py` answers the
seat views' questions; `inputs.py` hands a state's arrays to them, stored as
`board/_storage.py` says; `threads.py` splits games over cores; `jit.py` keeps numba's cache
fresh and shared by every install of the same code, `compiling.py` has one process a
machine compile the kernels and says when they do. The board package's public modules (`engine`,
`seat_view`, `game`, ...) are the way in.
"""

from numba import njit

from .compiling import kernel  # noqa: F401  (the decorator of every compiled entry point)

# Every rule below the drivers is compiled once (per argument types) and inlined into its
# callers by LLVM (`forceinline`: LLVM's alwaysinline). The drivers' calls pass the state, a
# tuple of ~40 arrays, so a real call would copy hundreds of words; inlined, it costs
# nothing. Inlining in numba's IR instead (`inline="always"`) copied each rule's typed IR,
# and the state's tuple with it, into every call site and every driver: the same games and
# speed at about twice the cold compile (docs/speed.md, "The first start, again"). The
# stage machine's two levels called once a driver (`place.place_on`, `run_game`) are
# inlined in numba's IR (`inline_once`). Nothing here allocates, so the kernels run
# without reference counting (_nrt=False). The rules are only ever called from compiled code,
# so numba builds no Python or C entry point for them (`no_cpython_wrapper`, `no_cfunc_wrapper`):
# each wrapper unboxed the state's ~40 arrays, and was lowered, optimised and turned into
# machine code once per rule, for nothing: half of a first game's compile (docs/speed.md, "The
# first start, a third time"). The drivers' machine code is the same instruction for instruction.
RULE = {"_nrt": False, "no_cpython_wrapper": True, "no_cfunc_wrapper": True}
inline = njit(forceinline=True, **RULE)
inline_once = njit(inline="always", **RULE)
