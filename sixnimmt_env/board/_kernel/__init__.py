"""The board game's compiled core, private to the board package: the rules of one game at a
time as plain Python compiled by numba, and the plumbing that hands them the state.

`place.py` places a turn's tiles (the stage machine; `effects.py`, `pro.py`, `turns.py`
and `answers.py` hold the rules it inlines), `play.py` is the one compiled driver every
path runs (the public step, random play, the search's rollouts), `views.py` answers the
seat views' questions; `inputs.py` hands a state's arrays to them, stored as
`storage.py` says; `threads.py` splits games over cores; `jit.py` keeps numba's cache
fresh and shared by every install of the same code, `compiling.py` has one process a
machine compile the kernels and says when they do. The board package's public modules (`engine`,
`seat_view`, `game`, ...) are the way in.
"""

from numba import njit

from .compiling import kernel  # noqa: F401  (the decorator of every compiled entry point)

# Every rule below the drivers is inlined into them (numba IR inlining): calls between
# compiled functions would pass the state, a tuple of ~40 arrays, and numba's reference
# counting would touch every array at every call. Nothing here allocates, so the kernels
# run without reference counting (_nrt=False).
inline = njit(inline="always", _nrt=False)
