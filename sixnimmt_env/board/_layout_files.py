"""A board layout in files and records: the keys of a layout file (TOML or JSON, read
with the untrusted-input limits) and of a record's "layout", the shipped defaults
(`layouts/*.toml`), and the layout written back (docs/board-layout.md). The layout
itself, its codes and checks: `layout.py`.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from ..core.strict_json import json_text
from ..core.untrusted import decode, loads_json, loads_toml, read_bytes
from .layout import DEFAULT_BULLHEADS, DEFAULT_CLOVERS, N_TILES, BoardLayout, _bad

SHIPPED_LAYOUTS = ("basic-default", "pro-default")  # layouts/<name>.toml
MAX_LAYOUT_BYTES = 2**20  # a layout file is a few kB
DEFAULT_LAYOUT = {"basic": "basic-default", "pro": "pro-default"}


# --------------------------------------------------------------------------- dicts and records

FILE_KEYS = ("name", "side", "approximation", "clovers", "bullheads", "rows")  # a layout file
RECORD_LAYOUT_KEYS = ("name", "side", "approximation", "rows", "clovers")  # a record's "layout"


def _unknown_keys(data: dict, known: tuple[str, ...], what: str) -> None:
    unknown = sorted(str(k) for k in set(data) - set(known))
    if unknown:
        raise _bad(f"unknown key(s) in {what}: {', '.join(unknown)} (known: {', '.join(known)})")


def _from_flat(data: Any, default_name: str | None) -> BoardLayout:
    """A layout from the keys of a layout file (FILE_KEYS; side and rows required)."""
    if not isinstance(data, dict):
        raise _bad(f"a layout is a table of the keys {', '.join(FILE_KEYS)}")
    _unknown_keys(data, FILE_KEYS, "the layout")
    for key in ("side", "rows") + (() if default_name else ("name",)):
        if key not in data:
            raise _bad(f"the key {key!r} is missing")
    return BoardLayout(name=data.get("name", default_name), side=data["side"], rows=data["rows"],
                       clovers=data.get("clovers", DEFAULT_CLOVERS),
                       bullheads=data.get("bullheads", DEFAULT_BULLHEADS),
                       approximation=data.get("approximation", True))


def layout_to_dict(layout: BoardLayout) -> dict[str, Any]:
    """The "layout" and "bullheads" keys of a board-game record (merge them into one).

    "side" and "approximation" are written too (optional keys added to the record format),
    so a record read back gives an equal layout without knowing the variant.
    """
    return {"layout": {"name": layout.name, "side": layout.side, "approximation": layout.approximation,
                       "rows": [list(row) for row in layout.rows], "clovers": list(layout.clovers)},
            "bullheads": list(layout.bullheads)}


def layout_from_dict(data: Any, side: str | None = None) -> BoardLayout:
    """The layout a record carries: its "layout" object and "bullheads" (other keys ignored).

    Args:
        data: a record, or any dict with "layout" (name, rows; optional side, approximation
            (absent: true), clovers (absent: DEFAULT_CLOVERS)) and optional "bullheads"
            (absent: DEFAULT_BULLHEADS).
        side: the side the record's variant plays on; needed when "layout" has no "side",
            and must agree with it when it has one.

    Raises:
        ConfigError: the layout is malformed or invalid (a record reader reports it as an
            invalid record).
    """
    if not isinstance(data, dict) or not isinstance(data.get("layout"), dict):
        raise _bad('a record carries its board as a "layout" object (and "bullheads")')
    lay = data["layout"]
    _unknown_keys(lay, RECORD_LAYOUT_KEYS, '"layout"')
    given = lay.get("side", side)
    if side is not None and given != side:
        raise _bad(f"the layout is for the {given!r} side, the variant plays on the {side!r} side")
    if given is None:
        raise _bad('"layout" has no "side" ("basic" or "pro") and none was given')
    flat = {**lay, "side": given}
    if "bullheads" in data:
        flat["bullheads"] = data["bullheads"]
    return _from_flat(flat, None)


# --------------------------------------------------------------------------- files


def _flat(layout: BoardLayout) -> dict[str, Any]:
    d = layout_to_dict(layout)
    return {**d["layout"], "bullheads": d["bullheads"]}


def _toml_text(layout: BoardLayout) -> str:
    """The layout as TOML (tomllib reads only; the format is small enough to write here)."""
    def s(text: str) -> str:  # a JSON string of printable text is a valid TOML string
        return json.dumps(text, ensure_ascii=False)

    lines = ["# 6 nimmt! Das Brettspiel: one side of the board (format: docs/board-layout.md)."]
    if layout.approximation:
        lines.append("# APPROXIMATION: not known to be the printed board. Set approximation = false "
                     "only for real values.")
    lines += [f"name = {s(layout.name)}", f"side = {s(layout.side)}",
              f"approximation = {'true' if layout.approximation else 'false'}", "",
              "# score-track values holding a clover (luck cards)",
              f"clovers = [{', '.join(map(str, layout.clovers))}]", "",
              f"# bullheads of tiles 1..{N_TILES}, ten a line", "bullheads = ["]
    for start in range(0, N_TILES, 10):
        tens = ", ".join(map(str, layout.bullheads[start:start + 10]))
        lines.append(f"  {tens},  # {start + 1}-{start + 10}")
    lines += ["]", "", "# one list per row, field 1 first", "rows = ["]
    lines += [f"  [{', '.join(s(c) for c in row)}],  # row {r}" for r, row in enumerate(layout.rows, 1)]
    lines.append("]")
    return "\n".join(lines) + "\n"


def save_layout(layout: BoardLayout, path: str | Path) -> None:
    """Write a layout file, TOML or JSON by the suffix; load_layout reads it back equal."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".toml":
        text = _toml_text(layout)
    elif suffix == ".json":
        text = json_text(_flat(layout), indent=1, ensure_ascii=False) + "\n"
    else:
        raise ConfigError(f"{path}: a layout file ends in .toml or .json")
    path.write_text(text, encoding="utf-8")


def _parse(text: str, suffix: str, where: str) -> Any:
    return loads_toml(text, what=where) if suffix == ".toml" else loads_json(text, what=where)


@lru_cache(maxsize=None)
def _shipped(name: str) -> BoardLayout:
    # Frozen with read-only arrays, so one object can serve every caller.
    text = (resources.files(__package__) / "layouts" / f"{name}.toml").read_text(encoding="utf-8")
    where = f"shipped layout {name}"
    data = _parse(text, ".toml", where)
    try:
        return _from_flat(data, name)
    except ConfigError as e:
        raise ConfigError(f"{where}: {e}") from None


def load_layout(path_or_name: str | Path) -> BoardLayout:
    """A layout from a shipped name (SHIPPED_LAYOUTS) or a .toml / .json file.

    The file's keys are FILE_KEYS: side and rows required; name (absent: the file's stem),
    approximation (absent: true), clovers (absent: DEFAULT_CLOVERS), bullheads (absent:
    DEFAULT_BULLHEADS) optional.

    Raises:
        ConfigError: one line naming the file: unreadable, not TOML/JSON, or an invalid layout.
    """
    if isinstance(path_or_name, str) and path_or_name in SHIPPED_LAYOUTS:
        return _shipped(path_or_name)
    path = Path(path_or_name)
    suffix = path.suffix.lower()
    if suffix not in (".toml", ".json"):
        raise ConfigError(f"{path}: a layout is a .toml or .json file or a shipped name "
                          f"({', '.join(SHIPPED_LAYOUTS)})")
    raw = read_bytes(path, limit=MAX_LAYOUT_BYTES, what=f"layout file {path}")
    text = decode(raw, what=str(path))
    data = _parse(text, suffix, str(path))
    try:
        return _from_flat(data, path.stem)
    except ConfigError as e:
        raise ConfigError(f"{path}: {e}") from None
