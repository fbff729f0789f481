"""# 6 nimmt! Das Brettspiel (2019) — PettingZoo environment `sixnimmt_board_v1`

| | |
| --- | --- |
| import | `from sixnimmt_env import sixnimmt_board_v1` |
| create | `sixnimmt_board_v1.parallel_env(players=4, variant="basic", ...)`; AEC: `sixnimmt_board_v1.env(...)` |
| variants | `basic`, `luck` (luck cards), `pro` (action cards, the board's pro side), `pro-luck` |
| agents | `player_0` .. `player_{P-1}`, P = 2..6 (seat s+1 sits left of seat s) |
| actions | `Discrete(371)` in every variant (basic and luck never allow one past 104) |
| observations | `{"observation": Box(low, high, (D,), float32), "action_mask": Box(0, 1, (371,), int8)}`; bounds from the rules |
| rewards | the points a seat wins (`"points"`; more is better), or `"relative"`, `"rank"` |
| parallel | yes (`is_parallelizable`); `env()` is the AEC form via `parallel_to_aec` |
| older name | `sixnimmt_v0` (`sixnimmt_env.parallel_env(game="board")`): the same env |

The rules: docs/rules/board-game.md. The game is one long deal of 12 tiles per seat (24
with 2 or 3 players): there are no rounds.

## Steps and phases
Every step, every live agent submits one action. In a **pick** phase every seat with
tiles puts out a tile at once (a second one in `pick_second`, after a "play two" field).
While the turn's tiles are placed, a question may be **asked** of one seat — use a luck
card now? take which luck card? (luck variants); play an action card on this tile? which
free row? (pro) — and every other seat passes (action 104). The action mask is never all
zeros. `info["phase"]` indexes `env.info.phases`: `pick`, `pick_second`, `ask`, `over`.

## Actions
<<ACTIONS>>

## Observation
What the seat may know and nothing else: own tiles, the board (tiles, field kinds and
values), the tiles out of the game, the tiles revealed this turn, the question asked and
its tile, scores, luck and action cards as the table sees them. Seats are relative
(index 0 is the observer). `observation=` picks the variant: `"basic"` (default),
`"tile-features"` or `"tile-answers"` (tables in docs/environments.md).
`basic`, variants basic and luck.

<<BASIC>>

Variants pro and pro-luck add two questions to `ask` (action, free_row) and these fields
after `turn` (the fields between shift by 2).

<<PRO>>

## Rewards
- `"points"` (default; `"penalty"` is an alias): the points the seat won in this step
  (negative when it lost some).
- `"relative"`: own points in this step − the mean of the other seats'.
- `"rank"`: 0 until the episode ends, then (seats with fewer points − seats with more)
  / (P − 1): +1 for a lone winner, −1 for a lone loser, ties share.

## Options
| option | values (default first) |
| --- | --- |
| `players` | 2..6 (4) |
| `variant` | `"basic"`, `"luck"`, `"pro"`, `"pro-luck"` |
| `layout` | the board: a shipped layout's name (`basic-default`, `pro-default`) or a TOML/JSON layout file (docs/board-layout.md) |
| `next_row` | where a tile goes after taking a row: `"scan"` (the first empty row below), `"rotate"` |
| `plus5_cards`, `double_cards` | luck cards in the two open stacks (6 each) |
| `action_cards` | pro: the action deck, six counts (4 each) |
| `rules` | a `BoardConfig` instead of the rule options; `game=` a board `Game` from `make_game` |
| `observation` | `"basic"`, `"tile-features"`, `"tile-answers"` |
| `reward` | `"points"`, `"relative"`, `"rank"` |
| `episode` | `"game"`; `"round"` is the same (one deal) |
| `illegal_action`, `illegal_reward` | `"raise"` (`IllegalActionError`); `"penalize"`: `illegal_reward` (−10), the episode ends |
| `render_mode` | `None`, `"ansi"`, `"human"` |
| `observation_key` | `"observation"` (`"observations"` for RLlib's action masking) |

Infos, resets from a given deal, copies and the conventions for RL libraries are common
to every environment of the lab: the sheet of `sixnimmt_env.adapters.pettingzoo_env`.

## Version history
- v1 (2026-12): the board game under a name and sheet of its own. The environment is
  `sixnimmt_v0`'s with `game="board"`: the same observations, actions, rewards and seeds
  (tested side by side); `game=` takes only a board game here.
- v0: the board game through `sixnimmt_v0`'s `game="board"` (all four variants, the
  `tile-features` and `tile-answers` observations).
"""

from __future__ import annotations

from .pettingzoo_env import SixNimmtParallelEnv, env_functions
from .sheet import fill

NAME = "sixnimmt_board_v1"

__doc__ = fill(__doc__, "board", {"ACTIONS": ("actions", "pro"), "BASIC": ("layout", "basic", "basic"),
                                  "PRO": ("layout", "pro", "basic", ("basic", "basic"))})


class BoardParallelEnv(SixNimmtParallelEnv):
    """The board game as a PettingZoo ParallelEnv (the module docstring is its sheet).

    Args:
        players: seats, 2..6.
        game: "board" or a board `Game` from `make_game` (its rules are played).
        **kwargs: the options of `SixNimmtParallelEnv` and the board rule options
            (variant, layout, next_row, plus5_cards, double_cards, action_cards).
    """

    metadata = {**SixNimmtParallelEnv.metadata, "name": NAME}
    kind = "board"


parallel_env, env = env_functions(BoardParallelEnv)
