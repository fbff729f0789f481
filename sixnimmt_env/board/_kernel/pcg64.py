"""NumPy's PCG64 generator stepped inside a compiled kernel, so a seat view draws its
random numbers in the call that uses them and computes only the numbers it uses
(`views.random_legal`).

`Generator.random(n)` with NumPy's default bit generator, PCG64, steps a 128-bit state
n times (state * MULTIPLIER + inc, mod 2^128) and turns each new state into a double
(XSL-RR: the two halves xor-ed and rotated by the top 6 bits; the top 53 bits of that
over 2^53). A view uses a few of the 2n numbers it draws (an entry picking uses its
number of the first n, one asked its number of the second), so here the state jumps to
each number used, a jump of d steps being the affine map M^d, inc * (M^(d-1) + ... + 1),
built from its powers of two (`POWERS`), and at the end to where NumPy's draws would
leave it. The kernel reads and writes the state where NumPy keeps it (`words`); the
state's layout and the algorithm are checked against NumPy's own once per generator,
and a generator that fails the check, or of another kind, is drawn from by NumPy.
"""

from __future__ import annotations

import ctypes

import numpy as np
from llvmlite import ir
from numba.core import config, types
from numba.extending import intrinsic

from . import inline

MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645  # PCG's default 128-bit multiplier (NumPy's pcg64.h)
_MASK = (1 << 128) - 1
_WORD = (1 << 64) - 1


def _jumps() -> np.ndarray:
    """(2 * SHORT, 4) uint64, each a jump as (A lo, A hi, S lo, S hi), the state after it
    being A * state + inc * S (mod 2^128): rows 0..63 the jumps by 2^k steps, rows SHORT + d
    the jump by d < SHORT steps (one affine map for the short jumps most numbers used are
    apart: no loop over d's bits, whose branches no predictor learns)."""
    out = np.zeros((2 * SHORT, 4), dtype=np.uint64)
    a, s = MULTIPLIER, 1
    for k in range(64):
        out[k] = a & _WORD, a >> 64, s & _WORD, s >> 64
        a, s = a * a & _MASK, s * (a + 1) & _MASK
    a, s = 1, 0
    for d in range(SHORT):
        out[SHORT + d] = a & _WORD, a >> 64, s & _WORD, s >> 64
        a, s = a * MULTIPLIER & _MASK, (s * MULTIPLIER + 1) & _MASK
    return out


SHORT = 64  # jumps shorter than this in one step (the table's second half)
POWERS = _jumps()

# id(bit generator) -> (the bit generator, its state words, or None where it failed the check)
_WORDS: dict[int, tuple[object, np.ndarray | None]] = {}
_MAX_KEPT = 64  # generators remembered at once (a process makes a few; more are looked up anew)


def words(rng) -> tuple[object, np.ndarray] | None:
    """(lock, state) of a NumPy Generator on PCG64: its lock and a (4,) uint64 array over
    the generator's own state (state lo, hi, inc lo, hi), for `random_legal`; None where
    NumPy must draw (another generator, a layout not the one checked, or the kernels
    running as Python: NUMBA_DISABLE_JIT)."""
    if type(rng) is not np.random.Generator or config.DISABLE_JIT:
        return None
    bit_generator = rng.bit_generator
    known = _WORDS.get(id(bit_generator))
    if known is None or known[0] is not bit_generator:
        if len(_WORDS) >= _MAX_KEPT:
            _WORDS.clear()
        known = _WORDS[id(bit_generator)] = (bit_generator, _checked_words(bit_generator))
    return None if known[1] is None else (bit_generator.lock, known[1])


def _checked_words(bit_generator) -> np.ndarray | None:
    """The state words of a PCG64 bit generator where the memory holds what its `state`
    says and the next double computed here is NumPy's (on a copy); else None."""
    if type(bit_generator) is not np.random.PCG64:
        return None
    # bitgen_t.state points at NumPy's pcg64_state, whose first member points at the
    # pcg64_random_t: the state and the increment, each an unsigned 128-bit integer
    pcg = ctypes.c_void_p.from_address(bit_generator.ctypes.state.value).value
    if not pcg:
        return None
    memory = np.ctypeslib.as_array((ctypes.c_uint64 * 4).from_address(pcg))
    state = bit_generator.state["state"]
    lo_hi = [int(x) for x in memory]
    if lo_hi != [state["state"] & _WORD, state["state"] >> 64, state["inc"] & _WORD, state["inc"] >> 64]:
        return None
    twin = np.random.PCG64()
    twin.state = bit_generator.state
    after = (state["state"] * MULTIPLIER + state["inc"]) & _MASK
    if np.random.Generator(twin).random() != _output(after & _WORD, after >> 64):
        return None
    return memory


def _output(lo: int, hi: int) -> float:
    """The double of a PCG64 state (Python ints): the check's reference of `draw`."""
    x, r = lo ^ hi, hi >> 58
    out = ((x >> r) | (x << (64 - r))) & _WORD
    return (out >> 11) * (1.0 / 9007199254740992.0)


@intrinsic
def affine(typingctx, lo, hi, a_lo, a_hi, c_lo, c_hi):
    """(lo, hi) of a * x + c mod 2^128, each 128-bit number as two uint64 halves."""
    if not all(isinstance(x, types.Integer) and x.bitwidth == 64 for x in (lo, hi, a_lo, a_hi, c_lo, c_hi)):
        return None
    result = types.UniTuple(types.uint64, 2)

    def codegen(context, builder, signature, args):
        wide = ir.IntType(128)

        def join(low, high):
            return builder.or_(builder.shl(builder.zext(high, wide), wide(64)), builder.zext(low, wide))

        x, a, c = join(*args[0:2]), join(*args[2:4]), join(*args[4:6])
        y = builder.add(builder.mul(a, x), c)
        half = ir.IntType(64)
        return context.make_tuple(builder, result, (builder.trunc(y, half),
                                                    builder.trunc(builder.lshr(y, wide(64)), half)))

    return result(lo, hi, a_lo, a_hi, c_lo, c_hi), codegen


@intrinsic
def draw(typingctx, lo, hi):
    """The double in [0, 1) NumPy's PCG64 gives for the state (lo, hi) it stepped to."""
    if not all(isinstance(x, types.Integer) and x.bitwidth == 64 for x in (lo, hi)):
        return None

    def codegen(context, builder, signature, args):
        low, high = args
        word = ir.IntType(64)
        x = builder.xor(low, high)
        r = builder.lshr(high, word(58))
        rotated = builder.or_(builder.lshr(x, r), builder.shl(x, builder.and_(builder.sub(word(64), r), word(63))))
        top = builder.uitofp(builder.lshr(rotated, word(11)), ir.DoubleType())
        return builder.fmul(top, ir.Constant(ir.DoubleType(), 1.0 / 9007199254740992.0))

    return types.float64(lo, hi), codegen


@inline
def jumps_for(state, jumps):
    """jumps[k] = inc * S of POWERS[k] (lo, hi): the increments of POWERS' jumps for this
    generator's inc (`jumps` (2 * SHORT, 2))."""
    for k in range(POWERS.shape[0]):
        jumps[k, 0], jumps[k, 1] = affine(state[2], state[3], POWERS[k, 2], POWERS[k, 3], np.uint64(0),
                                          np.uint64(0))


@inline
def jump(lo, hi, d, jumps):
    """The state (lo, hi) after d more steps."""
    if d < SHORT:
        return affine(lo, hi, POWERS[SHORT + d, 0], POWERS[SHORT + d, 1], jumps[SHORT + d, 0], jumps[SHORT + d, 1])
    k = 0
    while d:
        if d & 1:
            lo, hi = affine(lo, hi, POWERS[k, 0], POWERS[k, 1], jumps[k, 0], jumps[k, 1])
        d >>= 1
        k += 1
    return lo, hi

