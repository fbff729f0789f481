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
# without reference counting (_nrt=False).
inline = njit(forceinline=True, _nrt=False)
inline_once = njit(inline="always", _nrt=False)
