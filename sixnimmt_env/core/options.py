"""Rule options with one meaning for every front end: the Python API and the envs (through
`make_game`), the command line and the web server.

`canonical_rule_options` is the one place a value that front ends spell differently is
given its meaning. So far there is one such rule, for two options:

**An end score of 0 means no end score** (`end_score=None`: the game ends by `max_rounds`
alone). Why 0 means "none" instead of being an error: a command line or a web form cannot
type None, and 0 is the one value nobody needs literally; as a limit it would end every
game after its first round (every total is at least 0), which `max_rounds=1` already says.
The CLI has documented `--end-score 0` as "unused" from its start, so the Python API
follows it rather than the other way round. The stored form is None: records, a
tournament's `tournament.json` and `rules.to_dict()` never hold a 0.

**A round limit of 0 means no round limit** (`max_rounds=None`), for the same reasons: a
config file (training's `max_rounds = 0`) cannot write None either, and a limit of 0
rounds would end a game before it starts.

The rule is written for the options' names, so it holds for every game that has an
`end_score` or `max_rounds`; a game without one still refuses the option (the board game does).
"""

from __future__ import annotations

from collections.abc import Mapping
from numbers import Integral
from typing import Any

# Rule options whose 0 means "this limit is not used" (None).
ZERO_MEANS_NONE = ("end_score", "max_rounds")


def canonical_rule_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """`options` (make_game keywords) with every value in its stored form: an integer 0
    for an option of ZERO_MEANS_NONE becomes None. Anything else passes unchanged for the
    game to check (a bool or 0.0 is not an integer 0, so the game refuses it)."""
    out = dict(options)
    for name in ZERO_MEANS_NONE:
        value = out.get(name)
        if isinstance(value, Integral) and not isinstance(value, bool) and value == 0:
            out[name] = None
    return out
