"""The board as data (sixnimmt_env/board/layout.py, docs/board-layout.md).

The shipped defaults against the default boards of docs/rules/board-game.md (transcribed
below in the rules' own notation), every validation refusal as a table of (bad input,
message fragment), file and record round trips, and the derived arrays an engine reads.
Rows and fields are numbered from 1 in messages, as on screen.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from sixnimmt_env.board._layout_files import (
    DEFAULT_LAYOUT,
    SHIPPED_LAYOUTS,
    layout_from_dict,
    layout_to_dict,
    load_layout,
    save_layout,
)
from sixnimmt_env.board._layout_render import render_board
from sixnimmt_env.board.layout import (
    DEFAULT_BULLHEADS,
    DEFAULT_CLOVERS,
    DRAW_ACTION,
    DRAW_TILE,
    FIXED,
    GREEN,
    NO_FIELD,
    PLAIN,
    PLAY_TWO,
    RED,
    TAKE,
    TAKE_TO_HAND,
    BoardLayout,
    default_bullheads,
)
from sixnimmt_env.core.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]

# docs/rules/board-game.md, "Default board, basic side" and "Default board, pro side".
BASIC_TABLE = """
R1   .  .  +  -  T
R2   .  +  .  -  .  T
R3   .  -  +  T
R4   .  .  +  .  -3 .  T
R5   .  +  -  .  T
R6   .  2  +  -  .  T
R7   .  -  2  T
R8   .  +  .  2  -  .  T
R9   .  2  -  +2 T
R10  .  +  2  -  .  T
"""
PRO_TABLE = """
R1   -  A  -  +  H
R2   -  D  +  -  A  T
R3   +  -  D  T
R4   -  A  -  +2 -  D  H
R5   -  +  A  -  T
R6   D  2  -  +  -  T
R7   -  A  2  T
R8   +  -  D  2  -  A  T
R9   -  2  A  -3 T
R10  A  -  2  +  D  T
"""


def table_rows(table: str) -> list[list[str]]:
    """Rows of a board table in the rules' notation ("R1  .  +  T"), field 1 first."""
    return [line.split()[1:] for line in table.strip().splitlines()]


TABLES = {"basic-default": ("basic", table_rows(BASIC_TABLE)), "pro-default": ("pro", table_rows(PRO_TABLE))}
BASIC_ROWS = TABLES["basic-default"][1]
PRO_ROWS = TABLES["pro-default"][1]


def edit(rows: list[list[str]], row: int, fld: int, code) -> list[list]:
    """A copy of `rows` with field `fld` of row `row` (both from 1) set to `code`."""
    out = [list(r) for r in rows]
    out[row - 1][fld - 1] = code
    return out


def with_row(rows: list[list[str]], row: int, fields: list) -> list[list]:
    """A copy of `rows` with row `row` (from 1) replaced."""
    out = [list(r) for r in rows]
    out[row - 1] = fields
    return out


def basic(**changes) -> BoardLayout:
    return BoardLayout(**{"name": "test", "side": "basic", "rows": BASIC_ROWS, **changes})


def pro(**changes) -> BoardLayout:
    return BoardLayout(**{"name": "test", "side": "pro", "rows": PRO_ROWS, **changes})


# =========================================================================== the shipped defaults


@pytest.mark.parametrize("name", SHIPPED_LAYOUTS)
def test_shipped_default_matches_the_rules_table(name):
    side, rows = TABLES[name]
    layout = load_layout(name)
    assert (layout.name, layout.side, layout.approximation) == (name, side, True)
    assert layout.n_rows == len(rows) == 10
    for r, (got, want) in enumerate(zip(layout.rows, rows), 1):
        for f, (g, w) in enumerate(zip(got, want), 1):
            assert g == w, f"{name} row {r} field {f}"
        assert len(got) == len(want), f"{name} row {r} length"


@pytest.mark.parametrize("name", SHIPPED_LAYOUTS)
def test_shipped_default_tiles_and_clovers(name):
    layout = load_layout(name)
    assert layout.bullheads == DEFAULT_BULLHEADS
    assert sum(layout.bullheads) == 165  # board-game.md: "165 in all"
    assert layout.clovers == tuple(c for c in range(-1000, 1001, 10) if c != 0) == DEFAULT_CLOVERS


@pytest.mark.parametrize("name", SHIPPED_LAYOUTS)
def test_shipped_default_facts_of_the_rules(name):
    """Facts the rules state of the board: row 1 has 4 fields then its take field; some
    row takes at field 4 (the review's example); play two only in rows 6-10."""
    layout = load_layout(name)
    assert layout.row_len[0] == 5
    assert 4 in layout.row_len.tolist()
    rows_with_play_two = {r + 1 for r in range(layout.n_rows) if (layout.kind[r] == PLAY_TWO).any()}
    assert rows_with_play_two == set(range(6, 11))


def test_each_side_has_its_default():
    assert {side: load_layout(name).side for side, name in DEFAULT_LAYOUT.items()} == {"basic": "basic", "pro": "pro"}


def test_pro_default_takes_rows_1_and_4_into_the_hand():
    ends = [row[-1] for row in load_layout("pro-default").rows]
    assert [r for r, end in enumerate(ends, 1) if end == "H"] == [1, 4]


def test_shipped_files_say_they_are_approximations():
    for name in SHIPPED_LAYOUTS:
        text = (ROOT / "sixnimmt_env" / "board" / "layouts" / f"{name}.toml").read_text()
        assert "APPROXIMATION" in text and "approximation = true" in text


def test_shipped_files_are_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "layouts/*.toml" in config["tool"]["setuptools"]["package-data"]["sixnimmt_env.board"]


BULLHEAD_CLASSES = [
    # (class, tiles, bullheads each) -- board-game.md "Tile bullheads [default]"
    ("multiples of 11, 55 capped at 5", [11, 22, 33, 44, 55, 66, 77, 88, 99], 5),
    ("other multiples of 10", [10, 20, 30, 40, 50, 60, 70, 80, 90, 100], 3),
    ("other multiples of 5", [5, 15, 25, 35, 45, 65, 75, 85, 95], 2),
    ("every other tile (sample)", [1, 2, 3, 4, 6, 12, 54, 56, 57, 61, 64, 98], 1),
]


@pytest.mark.parametrize("tiles,bulls", [c[1:] for c in BULLHEAD_CLASSES], ids=[c[0] for c in BULLHEAD_CLASSES])
def test_default_bullheads(tiles, bulls):
    assert [default_bullheads(t) for t in tiles] == [bulls] * len(tiles)
    assert [DEFAULT_BULLHEADS[t - 1] for t in tiles] == [bulls] * len(tiles)


# =========================================================================== validation

# (id, layout factory, fragment of the one-line ConfigError)
REFUSED = [
    ("unknown code", lambda: basic(rows=edit(BASIC_ROWS, 2, 2, "X")),
     "row 2, field 2: unknown field code 'X'; allowed on the basic side: ., +, -, +N/-N, 2, T"),
    ("lower-case take", lambda: basic(rows=edit(BASIC_ROWS, 3, 4, "t")),
     "row 3, field 4: unknown field code 't'"),
    ("a number, not a code string", lambda: basic(rows=edit(BASIC_ROWS, 6, 2, 2)),
     "row 6, field 2: unknown field code 2 (codes are strings"),
    ("fixed value zero", lambda: basic(rows=edit(BASIC_ROWS, 4, 5, "+0")),
     "row 4, field 5: unknown field code '+0'"),
    ("fixed value with a leading zero", lambda: basic(rows=edit(BASIC_ROWS, 4, 5, "-03")),
     "unknown field code '-03'"),
    ("fixed value beyond int16", lambda: basic(rows=edit(BASIC_ROWS, 4, 5, "+40000")),
     "unknown field code '+40000'"),
    ("take field inside a row", lambda: basic(rows=edit(BASIC_ROWS, 1, 3, "T")),
     "row 1, field 3: 'T' is a take field, allowed only as the last field of a row"),
    ("no take field at the end", lambda: basic(rows=edit(BASIC_ROWS, 3, 4, "+")),
     "row 3, field 4: the last field must be a take field (T), got '+'"),
    ("a row of one field", lambda: basic(rows=with_row(BASIC_ROWS, 5, ["T"])),
     "row 5 has 1 field(s); a row needs at least 2"),
    ("an empty row", lambda: basic(rows=with_row(BASIC_ROWS, 10, [])), "row 10 has 0 field(s)"),
    ("a row of 128 fields", lambda: basic(rows=with_row(BASIC_ROWS, 2, ["."] * 127 + ["T"])),
     "row 2 has 128 fields; at most 127"),
    ("a row that is a string", lambda: basic(rows=with_row(BASIC_ROWS, 2, ". + T")),
     "row 2 must be a list of field codes"),
    ("rows not a list", lambda: basic(rows=". . T"), "rows must be a list of rows"),
    ("four rows", lambda: basic(rows=BASIC_ROWS[:4]), "4 rows; a board needs at least 5"),
    ("130 rows", lambda: basic(rows=list(BASIC_ROWS) * 13), "130 rows; at most 127"),
    ("basic field 1 green", lambda: basic(rows=edit(BASIC_ROWS, 1, 1, "+")),
     "row 1, field 1: field 1 must be plain ('.') on the basic side, got '+'"),
    ("basic field 1 play two", lambda: basic(rows=edit(BASIC_ROWS, 7, 1, "2")),
     "row 7, field 1: field 1 must be plain"),
    ("draw tile on the basic side", lambda: basic(rows=edit(BASIC_ROWS, 2, 3, "D")),
     "row 2, field 3: 'D' (draw tile) is a pro-side field, not allowed on the basic side"),
    ("draw action on the basic side", lambda: basic(rows=edit(BASIC_ROWS, 2, 3, "A")),
     "row 2, field 3: 'A' (draw action) is a pro-side field"),
    ("take to hand on the basic side", lambda: basic(rows=edit(BASIC_ROWS, 1, 5, "H")),
     "row 1, field 5: 'H' (take to hand) is a pro-side field"),
    ("pro row ends in a red field", lambda: pro(rows=edit(PRO_ROWS, 9, 5, "-")),
     "row 9, field 5: the last field must be a take field (T or H), got '-'"),
    ("pro take to hand inside a row", lambda: pro(rows=edit(PRO_ROWS, 4, 2, "H")),
     "row 4, field 2: 'H' is a take field, allowed only as the last field of a row"),
    ("pro unknown code names the pro codes", lambda: pro(rows=edit(PRO_ROWS, 2, 2, "S")),
     "allowed on the pro side: ., +, -, +N/-N, 2, T, D, A, H"),
    ("99 bullheads", lambda: basic(bullheads=DEFAULT_BULLHEADS[:99]),
     "bullheads must be 100 integers (tiles 1..100), got 99 entries"),
    ("bullheads not a list", lambda: basic(bullheads=3),
     "bullheads must be 100 integers (tiles 1..100), got 3"),
    ("six bullheads", lambda: basic(bullheads=DEFAULT_BULLHEADS[:16] + (6,) + DEFAULT_BULLHEADS[17:]),
     "bullheads of tile 17 must be an integer 1..5, got 6"),
    ("zero bullheads", lambda: basic(bullheads=(0,) + DEFAULT_BULLHEADS[1:]),
     "bullheads of tile 1 must be an integer 1..5, got 0"),
    ("fractional bullheads", lambda: basic(bullheads=DEFAULT_BULLHEADS[:99] + (1.5,)),
     "tile 100 must be an integer 1..5, got 1.5"),
    ("boolean bullheads", lambda: basic(bullheads=(True,) + DEFAULT_BULLHEADS[1:]),
     "tile 1 must be an integer 1..5, got True"),
    ("clover a string", lambda: basic(clovers=[10, "20"]), "clovers must be integers, got '20'"),
    ("clover a float", lambda: basic(clovers=[10.0]), "clovers must be integers, got 10.0"),
    ("clover a boolean", lambda: basic(clovers=[True]), "clovers must be integers, got True"),
    ("clovers not a list", lambda: basic(clovers=10), "clovers must be a list of integers"),
    ("clover twice", lambda: basic(clovers=[-10, 20, 30, 20]), "clover 20 is listed more than once"),
    ("unknown side", lambda: basic(side="blue"), "side must be one of basic, pro, got 'blue'"),
    ("empty name", lambda: basic(name=""), "name must be a non-empty printable string"),
    ("name with a newline", lambda: basic(name="a\nb"), "name must be a non-empty printable string"),
    ("approximation not a boolean", lambda: basic(approximation="yes"),
     "approximation must be true or false, got 'yes'"),
]


@pytest.mark.parametrize("make,fragment", [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_validation_refuses(make, fragment):
    with pytest.raises(ConfigError) as e:
        make()
    message = str(e.value)
    assert fragment in message
    assert message.startswith("invalid board layout: ") and "\n" not in message


ACCEPTED = [
    # (id, layout factory) -- what the checks deliberately let through
    ("play two in row 1 (rows 6-10 is the default board, not a rule)", lambda: basic(rows=edit(BASIC_ROWS, 1, 2,
     "2"))),
    ("pro field 1 of any non-take kind", lambda: pro(rows=edit(edit(PRO_ROWS, 1, 1, "."), 2, 1, "+5"))),
    ("pro row ending in T where the default has H", lambda: pro(rows=edit(PRO_ROWS, 1, 5, "T"))),
    ("a row of 2 fields", lambda: basic(rows=with_row(BASIC_ROWS, 3, [".", "T"]))),
    ("5 rows", lambda: basic(rows=BASIC_ROWS[:5])),
    ("12 rows", lambda: basic(rows=BASIC_ROWS + BASIC_ROWS[:2])),
    ("no clovers", lambda: basic(clovers=())),
    ("a clover at 0", lambda: basic(clovers=(0,))),
    ("NumPy integers", lambda: basic(bullheads=list(np.array(DEFAULT_BULLHEADS)), clovers=list(np.arange(3)))),
    ("NumPy arrays", lambda: basic(bullheads=np.array(DEFAULT_BULLHEADS), clovers=np.arange(-20, 30, 10))),
]


@pytest.mark.parametrize("make", [c[1] for c in ACCEPTED], ids=[c[0] for c in ACCEPTED])
def test_validation_accepts(make):
    assert isinstance(make(), BoardLayout)


def test_inputs_are_normalized():
    """Lists become tuples, clovers are sorted, NumPy ints become ints: equal layouts
    compare and hash equal however they were given."""
    a = basic(clovers=[30, -10, 20], bullheads=list(np.array(DEFAULT_BULLHEADS, dtype=np.int64)))
    b = BoardLayout("test", "basic", tuple(tuple(r) for r in BASIC_ROWS), (-10, 20, 30))
    assert a == b and hash(a) == hash(b)
    assert a.clovers == (-10, 20, 30) and type(a.bullheads[0]) is int and isinstance(a.rows[0], tuple)


# =========================================================================== derived arrays


@pytest.mark.parametrize("name", SHIPPED_LAYOUTS)
def test_derived_arrays_of_the_defaults(name):
    layout = load_layout(name)
    assert (layout.row_len.shape, layout.row_len.dtype) == ((10,), np.int8)
    assert (layout.kind.shape, layout.kind.dtype) == ((10, 7), np.int8)
    assert (layout.value.shape, layout.value.dtype) == ((10, 7), np.int16)
    assert (layout.tile_bulls.shape, layout.tile_bulls.dtype) == ((101,), np.int16)
    assert layout.row_len.tolist() == [len(row) for row in TABLES[name][1]]
    inside = np.arange(7)[None, :] < layout.row_len[:, None]
    assert (layout.kind[~inside] == NO_FIELD).all() and (layout.kind[inside] != NO_FIELD).all()
    assert (layout.value[layout.kind != FIXED] == 0).all()
    ends = layout.kind[np.arange(10), layout.row_len - 1]
    assert set(ends.tolist()) <= {TAKE, TAKE_TO_HAND}
    assert layout.tile_bulls[0] == 0 and layout.tile_bulls[1:].tolist() == list(DEFAULT_BULLHEADS)


FIELDS = [
    # (layout, row, field (both from 1), kind, value)
    ("basic-default", 1, 1, PLAIN, 0), ("basic-default", 1, 3, GREEN, 0), ("basic-default", 1, 4, RED, 0),
    ("basic-default", 4, 5, FIXED, -3), ("basic-default", 9, 4, FIXED, 2), ("basic-default", 6, 2, PLAY_TWO, 0),
    ("basic-default", 3, 4, TAKE, 0), ("pro-default", 2, 2, DRAW_TILE, 0),
    ("pro-default", 1, 2, DRAW_ACTION, 0), ("pro-default", 1, 5, TAKE_TO_HAND, 0),
    ("pro-default", 4, 4, FIXED, 2), ("pro-default", 9, 4, FIXED, -3),
]


@pytest.mark.parametrize("name,row,fld,kind,value", FIELDS, ids=[f"{c[0]} R{c[1]} F{c[2]}" for c in FIELDS])
def test_field_kinds_and_values(name, row, fld, kind, value):
    layout = load_layout(name)
    assert (layout.kind[row - 1, fld - 1], layout.value[row - 1, fld - 1]) == (kind, value)


def test_derived_arrays_of_a_ragged_board():
    rows = [[".", "T"], [".", "+", "T"], [".", "-", "+", "T"], [".", "+7", ".", "2", "T"], [".", "T"]]
    layout = basic(rows=rows)
    assert layout.kind.shape == (5, 5) and layout.row_len.tolist() == [2, 3, 4, 5, 2]
    assert layout.kind[0].tolist() == [PLAIN, TAKE, NO_FIELD, NO_FIELD, NO_FIELD]
    assert layout.value[3].tolist() == [0, 7, 0, 0, 0]


def test_derived_arrays_are_read_only():
    layout = load_layout("basic-default")
    for table in (layout.row_len, layout.kind, layout.value, layout.tile_bulls):
        with pytest.raises(ValueError):
            table[0] = 1


# =========================================================================== files


def custom() -> BoardLayout:
    """A user's layout: not an approximation, own tiles and clovers, a non-ASCII name."""
    bulls = tuple((t % 5) + 1 for t in range(100))
    return pro(name="echtes Brett – Rückseite", approximation=False, bullheads=bulls, clovers=(-25, 5, 50))


@pytest.mark.parametrize("suffix", [".toml", ".json"])
@pytest.mark.parametrize("which", ["basic-default", "pro-default", "custom"])
def test_file_round_trip(tmp_path, suffix, which):
    layout = custom() if which == "custom" else load_layout(which)
    path = tmp_path / f"board{suffix}"
    save_layout(layout, path)
    back = load_layout(path)
    assert back == layout
    for table in ("row_len", "kind", "value", "tile_bulls"):
        assert np.array_equal(getattr(back, table), getattr(layout, table))


def test_a_file_with_only_side_and_rows_takes_the_defaults(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"side": "basic", "rows": BASIC_ROWS}))
    layout = load_layout(path)
    assert (layout.name, layout.approximation) == ("mine", True)
    assert (layout.bullheads, layout.clovers) == (DEFAULT_BULLHEADS, DEFAULT_CLOVERS)


def test_a_user_file_may_say_it_is_not_an_approximation(tmp_path):
    path = tmp_path / "real.toml"
    path.write_text('side = "basic"\napproximation = false\nrows = ' + json.dumps(BASIC_ROWS) + "\n")
    layout = load_layout(path)
    assert layout.approximation is False
    assert "APPROXIMATION" not in render_board(layout)[0]


BAD_FILES = [
    # (id, file name, content, fragment)
    ("unknown key", "b.toml", 'side = "basic"\nrowz = []\n', "unknown key(s) in the layout: rowz"),
    ("no side", "b.toml", f"rows = {json.dumps(BASIC_ROWS)}\n", "the key 'side' is missing"),
    ("no rows", "b.json", '{"side": "pro"}', "the key 'rows' is missing"),
    ("not TOML", "b.toml", "side = basic\n", "not TOML"),
    ("not JSON", "b.json", '{"side": ', "not JSON"),
    ("a JSON list", "b.json", "[1, 2]", "a layout is a table of the keys"),
    ("an invalid layout", "b.json", json.dumps({"side": "basic", "rows": edit(BASIC_ROWS, 2, 2, "D")}),
     "invalid board layout: row 2, field 2: 'D' (draw tile) is a pro-side field"),
    ("an invalid tile", "b.toml",
     f'side = "basic"\nbullheads = {[1] * 99 + [9]}\nrows = {json.dumps(BASIC_ROWS)}\n',
     "bullheads of tile 100 must be an integer 1..5, got 9"),
    ("another suffix", "b.yaml", "side: basic\n", "a layout is a .toml or .json file or a shipped name"),
]


@pytest.mark.parametrize("name,content,fragment", [c[1:] for c in BAD_FILES], ids=[c[0] for c in BAD_FILES])
def test_load_layout_refuses(tmp_path, name, content, fragment):
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(ConfigError) as e:
        load_layout(path)
    message = str(e.value)
    assert fragment in message and message.startswith(f"{path}: ") and "\n" not in message


def test_load_layout_names_a_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="cannot read layout file .*nope.toml"):
        load_layout(tmp_path / "nope.toml")


def test_save_layout_refuses_another_suffix(tmp_path):
    with pytest.raises(ConfigError, match="ends in .toml or .json"):
        save_layout(load_layout("basic-default"), tmp_path / "b.txt")


# =========================================================================== records


@pytest.mark.parametrize("which", ["basic-default", "pro-default", "custom"])
def test_dict_round_trip_through_a_record(which):
    layout = custom() if which == "custom" else load_layout(which)
    record = {"format": "sixnimmt-record/1", "game": "board", "seed": 7, **layout_to_dict(layout)}
    assert set(layout_to_dict(layout)) == {"layout", "bullheads"}
    assert layout_from_dict(json.loads(json.dumps(record))) == layout


def test_a_record_layout_as_the_spec_writes_it():
    """board-record.md's "layout" has name, rows and clovers; the side comes from the
    variant, approximation is then true, absent bullheads are the default table."""
    record = {"variant": "luck", "layout": {"name": "basic-default", "rows": BASIC_ROWS, "clovers": [-10, 10]}}
    layout = layout_from_dict(record, side="basic")
    assert (layout.side, layout.approximation, layout.clovers) == ("basic", True, (-10, 10))
    assert layout.bullheads == DEFAULT_BULLHEADS
    bare = layout_from_dict({"layout": {"name": "x", "rows": BASIC_ROWS}}, side="basic")
    assert bare.clovers == DEFAULT_CLOVERS


BAD_RECORDS = [
    # (id, data, side argument, fragment)
    ("no layout", {"bullheads": list(DEFAULT_BULLHEADS)}, None, 'carries its board as a "layout" object'),
    ("layout not an object", {"layout": BASIC_ROWS}, None, 'carries its board as a "layout" object'),
    ("unknown key", {"layout": {"name": "x", "side": "basic", "rows": BASIC_ROWS, "fields": []}}, None,
     'unknown key(s) in "layout": fields'),
    ("no side anywhere", {"layout": {"name": "x", "rows": BASIC_ROWS}}, None, '"layout" has no "side"'),
    ("side against the variant", {"layout": {"name": "x", "side": "basic", "rows": BASIC_ROWS}}, "pro",
     "the layout is for the 'basic' side, the variant plays on the 'pro' side"),
    ("no name", {"layout": {"side": "basic", "rows": BASIC_ROWS}}, None, "the key 'name' is missing"),
    ("bad bullheads", {"layout": {"name": "x", "side": "basic", "rows": BASIC_ROWS}, "bullheads": [1] * 10},
     None,
     "bullheads must be 100 integers"),
]


@pytest.mark.parametrize("data,side,fragment", [c[1:] for c in BAD_RECORDS], ids=[c[0] for c in BAD_RECORDS])
def test_layout_from_dict_refuses(data, side, fragment):
    with pytest.raises(ConfigError, match="invalid board layout: ") as e:
        layout_from_dict(data, side=side)
    assert fragment in str(e.value)


# =========================================================================== rendering


@pytest.mark.parametrize("name", SHIPPED_LAYOUTS)
def test_render_board(name):
    layout = load_layout(name)
    lines = render_board(layout)
    assert all(isinstance(line, str) and "\n" not in line for line in lines)
    assert lines[0].startswith(f"board {name}: {layout.side} side, 10 rows") and "APPROXIMATION" in lines[0]
    for r, row in enumerate(layout.rows, 1):
        assert lines[r].split(":")[1].split() == list(row)
    legend = lines[lines.index("fields:") + 1:]
    assert any(line.split()[:2] == ["T", "take"] for line in legend)
    assert any(line.split()[:2] == ["+N/-N", "fixed"] for line in legend)
    assert any("D" == line.split()[0] for line in legend) == (layout.side == "pro")
    assert lines[-1].startswith("tile bullheads: 165 in all")


def test_replace_revalidates():
    """dataclasses.replace builds a new layout, so an edit cannot slip past the checks."""
    with pytest.raises(ConfigError, match="row 1, field 1: field 1 must be plain"):
        replace(load_layout("pro-default"), side="basic")


def test_the_documented_example_loads(tmp_path):
    """docs/board-layout.md's example file is a valid layout."""
    text = (ROOT / "docs" / "board-layout.md").read_text()
    example = text.split("```toml\n")[1].split("```")[0]
    path = tmp_path / "my-board.toml"
    path.write_text(example)
    layout = load_layout(path)
    assert (layout.name, layout.approximation, layout.n_rows) == ("my-board", False, 6)
