"""The board of 6 nimmt! Das Brettspiel as data: field codes and the validated layout.

The printed board is not known to the project (docs/board-layout.md), so the engine reads
the board from a `BoardLayout`: rows of field codes, the clovers of the score track and
the bullheads of the 100 tiles. Two defaults ship as marked approximations
(`layouts/basic-default.toml`, `layouts/pro-default.toml`); a user can supply the real
values in a file of the same format (read and written by `_layout_files.py`, drawn as
text by `_layout_render.py`).

Rows are numbered 1..R and fields 1..len in messages and on screen (as the rules do),
0-based in the arrays and in records. Field codes, field 1 first:

| code | kind | effect on the tile placed there |
| --- | --- | --- |
| `.` | PLAIN | nothing |
| `+` | GREEN | plus the tile's bullheads |
| `-` | RED | minus the tile's bullheads |
| `+N`, `-N` | FIXED | plus or minus N (N >= 1, no leading zero) |
| `2` | PLAY_TWO | while uncovered in an active row, two tiles a turn |
| `T` | TAKE | take the row (the last field of a row) |
| `D` | DRAW_TILE | pro side: draw a tile |
| `A` | DRAW_ACTION | pro side: draw an action card |
| `H` | TAKE_TO_HAND | pro side: take the row into your hand (the last field) |
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..core.checks import is_int
from ..core.errors import ConfigError

# Field kinds, the values of BoardLayout.kind.
PLAIN, GREEN, RED, FIXED, PLAY_TWO, TAKE, DRAW_TILE, DRAW_ACTION, TAKE_TO_HAND = range(9)
NO_FIELD = -1  # kind beyond a row's last field (rows differ in length, the table does not)
KIND_NAMES = ("plain", "green", "red", "fixed", "play two", "take",
              "draw tile", "draw action", "take to hand")
KIND_EFFECTS = ("nothing", "plus the tile's bullheads", "minus the tile's bullheads", "plus/minus the value",
                "two tiles a turn while uncovered", "take the row: minus the bullheads left of the tile",
                "draw a tile", "draw an action card", "take the row into your hand")

# The one-character codes; fixed values are "+N"/"-N" (FIXED_CODE).
CODES = {".": PLAIN, "+": GREEN, "-": RED, "2": PLAY_TWO, "T": TAKE,
         "D": DRAW_TILE, "A": DRAW_ACTION, "H": TAKE_TO_HAND}
# Canonical form only (no "+0", "+03", "+ 3"), so a layout written out reads back the same.
FIXED_CODE = re.compile(r"[+-][1-9][0-9]*")
MAX_FIXED_VALUE = int(np.iinfo(np.int16).max)  # the value table is int16

SIDES = ("basic", "pro")
PRO_KINDS = frozenset({DRAW_TILE, DRAW_ACTION, TAKE_TO_HAND})
TAKE_KINDS = frozenset({TAKE, TAKE_TO_HAND})
LAST_FIELD = {"basic": ("T",), "pro": ("T", "H")}  # what the last field of a row may be

ACTIVE_ROWS = 4  # rows holding tiles at all times
MIN_ROWS = ACTIVE_ROWS + 1  # a take moves its tile to a free row
MIN_ROW_FIELDS = 2  # a field to place on, then the take field
MAX_ROW_FIELDS = int(np.iinfo(np.int8).max)  # row_len is int8
MAX_ROWS = int(np.iinfo(np.int8).max)  # a row index is int8 in the state (BoardState.row)

N_TILES = 100
MIN_BULLHEADS, MAX_BULLHEADS = 1, 5

# [default] A clover on every non-zero multiple of 10 of an unbounded score track. As a
# finite list: -1000..1000, beyond any score a default board allows (each tile is taken
# at most once, 165 bullheads in all, and lands once, at most 5 points either way), so it
# is "every" multiple in practice; a layout file may give its own list.
TRACK_MIN, TRACK_MAX, CLOVER_STEP = -1000, 1000, 10
DEFAULT_CLOVERS = tuple(c for c in range(TRACK_MIN, TRACK_MAX + 1, CLOVER_STEP) if c != 0)


def default_bullheads(tile: int) -> int:
    """[default] Bullheads of tile 1..100: the card game's rule capped at 5.

    Multiples of 11 give 5 (55 too: the card game's 7 capped), other multiples of 10 give
    3, other multiples of 5 give 2, every other tile 1. Restated rather than imported from
    the card game, which the board package may not import (README "Architecture").
    """
    if tile % 11 == 0:
        return 5
    if tile % 10 == 0:
        return 3
    if tile % 5 == 0:
        return 2
    return 1


DEFAULT_BULLHEADS = tuple(default_bullheads(t) for t in range(1, N_TILES + 1))  # 165 in all



def _is_seq(x: Any) -> bool:
    return isinstance(x, (list, tuple)) or (isinstance(x, np.ndarray) and x.ndim == 1)


def field_kind(code: Any) -> tuple[int, int] | None:
    """(kind, fixed value) of a field code; value 0 for every kind but FIXED; None if unknown."""
    if not isinstance(code, str):
        return None
    if code in CODES:
        return CODES[code], 0
    if FIXED_CODE.fullmatch(code) and int(code[1:]) <= MAX_FIXED_VALUE:
        return FIXED, int(code)
    return None


def _allowed_codes(side: str) -> str:
    pro = ", D, A, H" if side == "pro" else ""
    return f"., +, -, +N/-N, 2, T{pro}"


def _check_list(items, not_a_list: str, least: tuple[int, str], most: tuple[int, str]) -> None:
    """`items` is a list (else `not_a_list`, got ...) of at least least[0] and at most
    most[0] entries (else the message beside the bound, {n} their number)."""
    if not _is_seq(items):
        raise _bad(f"{not_a_list}, got {items!r}")
    n = len(items)
    for message, outside in ((least[1], n < least[0]), (most[1], n > most[0])):
        if outside:
            raise _bad(message.format(n=n))


def _bad(what: str) -> ConfigError:
    return ConfigError(f"invalid board layout: {what}")


@dataclass(frozen=True)
class BoardLayout:
    """One side of the board, validated on construction.

    Validation (each refusal a one-line ConfigError naming the row and field, numbered
    from 1): at least MIN_ROWS rows; every row has at least MIN_ROW_FIELDS fields of known
    codes; its last field is a take field (`T`; on the pro side `T` or `H`) and no other
    field is; on the basic side field 1 is plain and `D`, `A`, `H` do not occur;
    bullheads are N_TILES integers 1..5; clovers are distinct integers.

    Play two "only in rows 6-10" (docs/rules/board-game.md) is a property of the default
    boards, not a rule: the rules never say why, the real board is unknown, and play two
    works the same in any row (in rows 1-4 it is in play from the first turn). Refusing
    it would refuse boards the rules allow; the tests check the defaults keep it.

    Attributes:
        name: the layout's name, as in records ("basic-default").
        side: "basic" (blue bullhead; variants basic and luck) or "pro" (red; pro, pro-luck).
        rows: one tuple of field codes per row, field 1 first; row 1 first.
        clovers: score-track values holding a clover, sorted (given in any order).
        bullheads: N_TILES ints, the bullheads of tiles 1..100.
        approximation: the layout is not known to be the printed board (the shipped
            defaults; a file that omits the key). Only a layout that says False is
            vouched for by whoever wrote it.
        row_len: (R,) int8, derived: the number of fields of each row.
        kind: (R, F) int8, derived: field kinds; F is the longest row's length, and
            kind[r, f] = NO_FIELD (-1) for f >= row_len[r].
        value: (R, F) int16, derived: the printed value of FIXED fields, signed; 0 for
            every other field and beyond a row's end.
        tile_bulls: (N_TILES + 1,) int16, derived: bullheads by tile number, tile_bulls[0] = 0
            (0 is "no tile", as card ids are in the card game).
    The derived arrays are read-only, so layouts can be shared between engines.
    """

    name: str
    side: str
    rows: tuple[tuple[str, ...], ...]
    clovers: tuple[int, ...] = DEFAULT_CLOVERS
    bullheads: tuple[int, ...] = DEFAULT_BULLHEADS
    approximation: bool = True
    row_len: NDArray[np.int8] = field(init=False, repr=False, compare=False)
    kind: NDArray[np.int8] = field(init=False, repr=False, compare=False)
    value: NDArray[np.int16] = field(init=False, repr=False, compare=False)
    tile_bulls: NDArray[np.int16] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name or not self.name.isprintable():
            raise _bad(f"name must be a non-empty printable string, got {self.name!r}")
        if self.side not in SIDES:
            raise _bad(f"side must be one of {', '.join(SIDES)}, got {self.side!r}")
        if not isinstance(self.approximation, bool):
            raise _bad(f"approximation must be true or false, got {self.approximation!r}")
        rows = self._checked_rows()
        bullheads = self._checked_bullheads()
        clovers = self._checked_clovers()
        # Normalized through object.__setattr__ (frozen): tuples of plain ints and strings,
        # so equal layouts compare and hash equal however they were given.
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "bullheads", bullheads)
        object.__setattr__(self, "clovers", clovers)
        n_fields = max(len(row) for row in rows)
        row_len = np.array([len(row) for row in rows], dtype=np.int8)
        kind = np.full((len(rows), n_fields), NO_FIELD, dtype=np.int8)
        value = np.zeros((len(rows), n_fields), dtype=np.int16)
        for r, row in enumerate(rows):
            for f, code in enumerate(row):
                kind[r, f], value[r, f] = field_kind(code)
        tile_bulls = np.array((0,) + bullheads, dtype=np.int16)
        for name, table in (("row_len", row_len), ("kind", kind), ("value", value), ("tile_bulls", tile_bulls)):
            table.setflags(write=False)
            object.__setattr__(self, name, table)

    def _checked_rows(self) -> tuple[tuple[str, ...], ...]:
        rows, side = self.rows, self.side
        _check_list(rows, "rows must be a list of rows, each a list of field codes",
                    (MIN_ROWS, f"{{n}} rows; a board needs at least {MIN_ROWS} ({ACTIVE_ROWS} active rows and a "
                               "free one for a taken row's tile)"), (MAX_ROWS, f"{{n}} rows; at most {MAX_ROWS}"))
        for r, row in enumerate(rows, 1):
            _check_list(row, f"row {r} must be a list of field codes",
                        (MIN_ROW_FIELDS, f"row {r} has {{n}} field(s); a row needs at least {MIN_ROW_FIELDS} (a "
                                         "field to place on, then its take field)"),
                        (MAX_ROW_FIELDS, f"row {r} has {{n}} fields; at most {MAX_ROW_FIELDS}"))
            for f, code in enumerate(row, 1):
                where = f"row {r}, field {f}"
                parsed = field_kind(code)
                if parsed is None:
                    hint = " (codes are strings: write \"2\")" if not isinstance(code, str) else ""
                    raise _bad(f"{where}: unknown field code {code!r}{hint}; allowed on the {side} "
                               f"side: {_allowed_codes(side)}")
                kind = parsed[0]
                if side == "basic" and kind in PRO_KINDS:
                    raise _bad(f"{where}: {code!r} ({KIND_NAMES[kind]}) is a pro-side field, "
                               f"not allowed on the basic side")
                if kind in TAKE_KINDS and f < len(row):
                    raise _bad(f"{where}: {code!r} is a take field, allowed only as the last field "
                               f"of a row")
                if f == len(row) and code not in LAST_FIELD[side]:
                    raise _bad(f"{where}: the last field must be a take field "
                               f"({' or '.join(LAST_FIELD[side])}), got {code!r}")
                # Start tiles and the tile moved after a take land on field 1; on the basic
                # side they trigger nothing there, so the field is plain.
                if f == 1 and side == "basic" and kind != PLAIN:
                    raise _bad(f"{where}: field 1 must be plain ('.') on the basic side, got {code!r}")
        return tuple(tuple(str(code) for code in row) for row in rows)

    def _checked_bullheads(self) -> tuple[int, ...]:
        bulls = self.bullheads
        if not _is_seq(bulls) or len(bulls) != N_TILES:
            got = f"{len(bulls)} entries" if _is_seq(bulls) else repr(bulls)
            raise _bad(f"bullheads must be {N_TILES} integers (tiles 1..{N_TILES}), got {got}")
        for tile, b in enumerate(bulls, 1):
            if not is_int(b) or not MIN_BULLHEADS <= b <= MAX_BULLHEADS:
                raise _bad(f"bullheads of tile {tile} must be an integer "
                           f"{MIN_BULLHEADS}..{MAX_BULLHEADS}, got {b!r}")
        return tuple(int(b) for b in bulls)

    def _checked_clovers(self) -> tuple[int, ...]:
        clovers = self.clovers
        if not _is_seq(clovers):
            raise _bad(f"clovers must be a list of integers (score-track values), got {clovers!r}")
        for c in clovers:
            if not is_int(c):
                raise _bad(f"clovers must be integers, got {c!r}")
        twice = [c for c, n in Counter(int(c) for c in clovers).items() if n > 1]
        if twice:
            raise _bad(f"clover {twice[0]} is listed more than once")
        return tuple(sorted(int(c) for c in clovers))

    @property
    def n_rows(self) -> int:
        """R, the number of rows."""
        return len(self.rows)
