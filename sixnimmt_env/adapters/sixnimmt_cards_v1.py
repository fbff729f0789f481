"""# 6 nimmt! card games — PettingZoo environment `sixnimmt_cards_v1`

| | |
| --- | --- |
| import | `from sixnimmt_env import sixnimmt_cards_v1` |
| create | `sixnimmt_cards_v1.parallel_env(players=4, variant="classic", ...)`; AEC: `sixnimmt_cards_v1.env(...)` |
| variants | `classic` (104 cards), `die-sechste` (52 playing cards; two decks from 5 players) |
| agents | `player_0` .. `player_{P-1}`, P = 2..10 (seat s+1 sits left of seat s) |
| actions | `Discrete(109)`: 104 card ids, 4 rows, pass |
| observations | `{"observation": Box(0, high, (D,), float32), "action_mask": Box(0, 1, (109,), int8)}`; `high` per element from the rules |
| rewards | the bullheads a seat takes, as minus points (`"points"`), or `"relative"`, `"rank"` |
| parallel | yes (`is_parallelizable`); `env()` is the AEC form via `parallel_to_aec` |
| older name | `sixnimmt_v0` (`sixnimmt_env.parallel_env(game="cards")`): the same env |

## Steps and phases
Every step, every live agent submits one action. In the **cards phase** all seats play a
card at once. When the turn's lowest card is lower than every row and
`row_choice="player"`, the next step is a **row phase**: its owner picks the row to take
(actions 104..107) with the turn's revealed cards visible in its observation, while every
other seat must pass (action 108); then the turn's cards are placed. With
`row_choice="cheapest"` that step never happens. The action mask is never all zeros.
`info["phase"]` indexes `env.info.phases`: `cards`, `row`, `over`.

## Actions
One `Discrete(109)` for every phase and variant (Die Sechste's cards are ids 1..104 too):

<<ACTIONS>>

## Observation
What the seat may know and nothing else: own hand, the rows, the cards seen this round,
the cards revealed this turn during a row choice, all scores, phase, number of players.
Seats are relative (index 0 is the observer, 1 the seat to its left). `observation=`
picks the variant: `"basic"` (default), `"card-features"` or `"card-history"`
(`sixnimmt_env/cards/encoding.py`). `basic` (classic).

<<BASIC>>

`card-features` adds, for each card in hand, what a player works out before playing it
(one slot per hand position), and the rows sorted by their last card.

<<FEATURES>>

`card-history` adds who played what this round.

<<HISTORY>>

## Rewards
- `"points"` (default; `"penalty"` is an alias): minus the bullheads the seat took in
  this step (higher is better).
- `"relative"`: minus (own bullheads in this step − the mean of the other seats').
- `"rank"`: 0 until the episode ends, then (seats with more bullheads − seats with fewer)
  / (P − 1): +1 for a lone winner, −1 for a lone loser, ties share.

## Options
| option | values (default first) |
| --- | --- |
| `players` | 2..10 (4) |
| `variant` | `"classic"`, `"die-sechste"` |
| `row_choice` | `"player"` (the owner of a too-low card picks the row), `"cheapest"` |
| `end_score`, `max_rounds` | the game ends after the round in which a seat reaches `end_score` (66; 0: unused), or after `max_rounds` |
| `deck` | `"full"`, `"exact"` (cards 1..10·P+4) |
| `rules` | a `RuleConfig` instead of the rule options; `game=` a card `Game` from `make_game` |
| `observation` | `"basic"`, `"card-features"`, `"card-history"` |
| `reward` | `"points"`, `"relative"`, `"rank"` |
| `episode` | `"game"` (until 66 points or `max_rounds`), `"round"` (one round) |
| `illegal_action`, `illegal_reward` | `"raise"` (`IllegalActionError`); `"penalize"`: `illegal_reward` (−10), the episode ends |
| `render_mode` | `None`, `"ansi"`, `"human"` |
| `observation_key` | `"observation"` (`"observations"` for RLlib's action masking) |

Infos, resets from a given deal (`reset(options={"deal": ...})`), copies and the
conventions for RL libraries are common to every environment of the lab: the sheet of
`sixnimmt_env.adapters.pettingzoo_env`. Classic games with the basic observation run,
unless rendered, on a pure-Python single-game path (`env.fast_path`), tested to give
exactly what the batched engine gives.

## Version history
- v1 (2026-12): the card games under a name and sheet of their own. The environment is
  `sixnimmt_v0`'s with `game="cards"`: the same observations, actions, rewards and seeds
  (tested side by side); `game=` takes only a card game here.
- v0: first release (`sixnimmt_v0`, both games through `game=`). Later in v0: the game
  interface, `observation=`, observation bounds from the rules, infos as numbers
  (`phase` a code, `illegal_action` a flag), `observation_key=`.
"""

from __future__ import annotations

from .pettingzoo_env import SixNimmtParallelEnv, env_functions
from .sheet import fill

NAME = "sixnimmt_cards_v1"

__doc__ = fill(__doc__, "cards", {"ACTIONS": ("actions", "classic"), "BASIC": ("layout", "classic", "basic"),
                                  "FEATURES": ("layout", "classic", "card-features", ("classic", "basic")),
                                  "HISTORY": ("layout", "classic", "card-history", ("classic", "card-features"))})


class CardsParallelEnv(SixNimmtParallelEnv):
    """The card games as a PettingZoo ParallelEnv (the module docstring is its sheet).

    Args:
        players: seats, 2..10.
        game: "cards" or a card `Game` from `make_game` (its rules are played).
        **kwargs: the options of `SixNimmtParallelEnv` and the card rule options
            (variant, row_choice, end_score, max_rounds, deck).
    """

    metadata = {**SixNimmtParallelEnv.metadata, "name": NAME}
    kind = "cards"


parallel_env, env = env_functions(CardsParallelEnv)
