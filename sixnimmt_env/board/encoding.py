"""The board game's flat observation: one layout table, one encoder.

Seats are relative (index 0 is the observer). Tile fields are indexed by tile number
(index 0 is "no tile" and always 0). The field kinds of the board are part of every
observation, so a policy can be trained on several layouts. Bounds come from the rules
and the layout (`Field.low`/`high`): scores are signed.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from ..core.errors import ConfigError
from ..core.layout import Field, ObsLayout
from .layout import KIND_NAMES
from .luck_features import LUCK_FEATURES, LUCK_ROWS, luck_bound, luck_option_features
from .option_features import OPTION_FEATURES, option_features
from .rules import ACTION_KINDS, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, N_TILES, START_ROWS, STOP_SIGNS, BoardConfig
from .seat_view import BoardSeatView
from .state import ASK_ACTION, ASK_NAMES, PHASE_PICK, PHASE_PICK_SECOND
from .tile_features import SLOT_FEATURES, slot_bound, slot_features

OBSERVATIONS = ("basic", "tile-features", "tile-answers")
# tile-features: + hand slots, pro: + the offers' and free rows' option rows; tile-answers: + the
# luck questions' option rows too (luck_features.py). tile-features stays as it was for the
# networks fitted on it (the shipped luck ones answer the luck questions from their context).
SCORE_SCALE = 50.0  # points are divided by this
VALUE_SCALE = 10.0  # fixed field values are divided by this
N_KINDS = len(KIND_NAMES)
MAX_TURNS = 2 * HAND_SIZE  # the turn feature's scale: the basic side's longest game


def turn_bound(config: BoardConfig) -> int:
    """The most turns the observation's turn feature counts (it stays there beyond).

    Every turn each seat puts out at least one tile from its hand, and the game ends once
    a hand is empty, so a game lasts at most as many turns as its poorest seat gets
    tiles. On the basic side hands are only dealt: 12 tiles (24 with the refill at 2-3
    players), hence 24 turns at most. On the pro side draw fields bring tiles in too:
    between them the seats get at most the 96 tiles that do not start the rows, so a
    seat gets at most 96 / P. Tiles a take field hands back (`H`) can be played again,
    so the pro rules set no bound at all; the feature stops counting at this one, which
    random games almost never reach.
    """
    if not config.pro:
        return HAND_SIZE * (2 if config.refill else 1)
    return (N_TILES - START_ROWS) // config.players


def score_bound(config: BoardConfig) -> int:
    """The most points one seat can win or lose in a game (a generous bound).

    Every tile placed acts once: a field effect (at most 5 bullheads, a fixed value or a
    "+5") and, on a take, the tiles of the row (at most 5 bullheads each, two of them
    possibly counted twice with "2×")."""
    layout = config.board
    per_tile = max(5, int(np.abs(layout.value).max(initial=0)))
    take = 5 * (int(layout.row_len.max()) + 2)
    return N_TILES * (per_tile + take)


@lru_cache(maxsize=32)
def board_layout(config: BoardConfig, observation: str = "basic") -> ObsLayout:
    """The flat observation's layout for one rule configuration."""
    if observation not in OBSERVATIONS:
        raise ConfigError(f"observation must be one of {', '.join(OBSERVATIONS)} for the board game, "
                          f"got {observation!r}")
    R, F = config.board.kind.shape
    n = N_TILES + 1
    bound = score_bound(config) / SCORE_SCALE
    asks = ASK_NAMES[1:] if config.pro else ASK_NAMES[1:ASK_ACTION]  # the questions the variant asks
    cards = max(config.plus5_cards, config.double_cards, 1)
    value_high = max(float(np.abs(config.board.value).max(initial=0)) / VALUE_SCALE, 1.0)
    fields = [
        Field("hand", (n,), "1 where the seat holds tile i"),
        Field("picked", (n,), "1 where the seat put out tile i this turn (before the reveal: its own only)"),
        Field("board", (R, F), "the tile on field f of row r / 100 (0: empty)"),
        Field("kinds", (R, F, N_KINDS), "one-hot field kind: " + ", ".join(KIND_NAMES)),
        Field("values", (R, F), f"printed value of fixed fields / {VALUE_SCALE:g}", value_high, -value_high),
        Field("next_kind", (R, N_KINDS), "one-hot kind of the next free field of each active row"),
        Field("row_end", (R,), "the last tile of each active row / 100 (0: not active)"),
        Field("row_length", (R,), f"tiles in each row / {F}"),
        Field("gone", (n,), "1 where tile i is out of the game (taken)"),
        Field("revealed", (n,), "1 where tile i was put out this turn and waits to be placed (questions)"),
        Field("current", (n,), "1 for the tile the question is about"),
        Field("current_row", (R,), "one-hot: the row that tile goes to"),
        Field("scores", (MAX_PLAYERS,), f"points of relative seat i / {SCORE_SCALE:g} (0 beyond P)", bound, -bound),
        Field("luck", (MAX_PLAYERS, 2), f"luck cards (+5, 2x) held by relative seat i / {cards}", 127 / cards),
        Field("usable", (2,), f"own luck cards (+5, 2x) playable this turn / {cards}", 127 / cards),
        Field("stack", (2,), f"luck cards left in the stacks (+5, 2x) / {cards}", 127 / cards),
        Field("phase", (3,), "one-hot: [put out a tile, put out the second tile, answer]; 0 with nothing to decide"),
        Field("ask", (len(asks),), "one-hot question: " + ", ".join(asks)),
        Field("play_two", (1,), "1 when every seat puts out two tiles this turn"),
        Field("players", (MAX_PLAYERS - MIN_PLAYERS + 1,), f"one-hot of the number of players, {MIN_PLAYERS}..{MAX_PLAYERS}"),
        Field("hand_size", (1,), f"tiles in hand / {HAND_SIZE}", config.hand_slots / HAND_SIZE),
        Field("turn", (1,), f"turns completed / {MAX_TURNS}, at most {turn_bound(config)} (`turn_bound`)",
              turn_bound(config) / MAX_TURNS),
    ]
    if config.pro:
        fields += _pro_fields(config)
    if observation in ("tile-features", "tile-answers"):
        fields += _feature_fields(config, observation)
    return ObsLayout(observation, fields, encoder=_encode)


def _pro_fields(config: BoardConfig) -> list[Field]:
    """The professional side's fields: action cards, hand sizes, stop signs, deck, discards."""
    R = config.board.kind.shape[0]
    deck = max(sum(config.action_cards), 1)
    most = max(max(config.action_cards), 1)
    return [
        Field("actions", (len(ACTION_KINDS),), f"own action cards by kind ({', '.join(ACTION_KINDS)}) / {most}"),
        Field("action_counts", (MAX_PLAYERS,), f"action cards held by relative seat i / {deck}"),
        Field("hand_sizes", (MAX_PLAYERS,), f"tiles in hand of relative seat i / {N_TILES}"),
        Field("stops", (R,), "1 where a stop sign stands on the row"),
        Field("stops_left", (1,), f"stop signs not on the board / {STOP_SIGNS}"),
        Field("deck", (1,), f"action cards left in the deck / {deck}"),
        Field("discard", (len(ACTION_KINDS),), f"the discard pile by kind / {most}"),
    ]


def _feature_fields(config: BoardConfig, observation: str) -> list[Field]:
    """The feature observations' fields: each hand slot's features, then (pro) each answer's
    to an action-card offer or a free row, and (tile-answers with luck) each luck answer's."""
    R = config.board.kind.shape[0]
    fields = []
    high = slot_bound(config)
    fields.append(Field("hand_slots", (config.hand_slots, len(SLOT_FEATURES)),
                        f"slot j's features at {len(SLOT_FEATURES)}j+k, tiles in hand ascending, empty slots "
                        "last and 0: " + "; ".join(f"{k} {name}" for k, name in enumerate(SLOT_FEATURES)),
                        high, -high))
    if config.pro:  # what each answer to an action-card offer or a free row would do (option_features.py)
        fields.append(Field("options", (4 * R + 2, len(OPTION_FEATURES)),
                            f"the pro questions' answers, row i for action option_actions(R)[i], features at "
                            f"{len(OPTION_FEATURES)}i+k: " + "; ".join(f"{k} {name}" for k, name in
                                                                    enumerate(OPTION_FEATURES)),
                            2 * high, -2 * high))
    if observation == "tile-answers" and config.luck:  # what each answer to a luck question would do
        fields.append(Field("luck_options", (LUCK_ROWS, len(LUCK_FEATURES)),
                            f"the luck questions' answers, row i for action luck_option_actions()[i], features at "
                            f"{len(LUCK_FEATURES)}i+k: " + "; ".join(f"{k} {name}" for k, name in
                                                                    enumerate(LUCK_FEATURES)),
                            luck_bound(config), -luck_bound(config)))
    return fields


def _encode(view: BoardSeatView, layout: ObsLayout) -> NDArray[np.float32]:
    """(n, D) the observations of `view`'s entries."""
    cfg = view.config
    board = cfg.board
    n, P = view.n, view.players
    R, F = board.kind.shape
    out = np.zeros((n, layout.size), dtype=np.float32)
    parts = layout.decode(out)  # views into `out`, in each field's shape
    rows = np.arange(n)[:, None]

    def multi_hot(name, tiles):
        parts[name][rows, tiles] = 1.0
        parts[name][:, 0] = 0.0  # tile 0 is "no tile"

    multi_hot("hand", view.hand)
    multi_hot("picked", view.picked)
    parts["board"][:] = view.tiles / N_TILES
    parts["kinds"][:] = np.eye(N_KINDS, dtype=np.float32)[np.maximum(board.kind, 0)] * (board.kind >= 0)[..., None]
    parts["values"][:] = board.value / VALUE_SCALE
    length = view.length.astype(np.intp)
    active = length > 0
    next_kind = board.kind[np.arange(R)[None, :], np.minimum(length, F - 1)]  # (n, R)
    parts["next_kind"][:] = np.eye(N_KINDS, dtype=np.float32)[np.maximum(next_kind, 0)] * active[..., None]
    parts["row_end"][:] = np.maximum(view.row_end, 0) / N_TILES
    parts["row_length"][:] = length / F
    parts["gone"][:] = view.gone
    multi_hot("revealed", view.revealed)
    multi_hot("current", view.revealed[:, :1] * view.is_asker[:, None])
    row, _ = view.current
    parts["current_row"][np.flatnonzero(view.is_asker), row[view.is_asker]] = 1.0
    parts["scores"][:, :P] = view.scores / SCORE_SCALE
    cards = max(cfg.plus5_cards, cfg.double_cards, 1)
    parts["luck"][:, :P] = view.luck / cards
    parts["usable"][:] = view.luck_usable / cards
    parts["stack"][:] = view.stack / cards
    parts["phase"][:, 0] = (view.phase == PHASE_PICK) & view.picking
    parts["phase"][:, 1] = (view.phase == PHASE_PICK_SECOND) & view.picking
    parts["phase"][:, 2] = view.is_asker
    ask = view.ask.astype(np.intp)
    parts["ask"][np.flatnonzero(ask > 0), ask[ask > 0] - 1] = 1.0
    parts["play_two"][:, 0] = view.picks == 2
    parts["players"][:, P - MIN_PLAYERS] = 1.0
    parts["hand_size"][:, 0] = view.hand_size / HAND_SIZE
    parts["turn"][:, 0] = np.minimum(view.turn, turn_bound(cfg)) / MAX_TURNS
    if cfg.pro:
        _encode_pro(view, parts)
    if "hand_slots" in parts:
        parts["hand_slots"][:] = slot_features(view)
    if "options" in parts:
        parts["options"][:] = option_features(view)
    if "luck_options" in parts:
        parts["luck_options"][:] = luck_option_features(view)
    return out


def _encode_pro(view: BoardSeatView, parts: dict) -> None:
    """The professional side's fields of `view`'s entries, into `parts` (see `_pro_fields`)."""
    cfg, P = view.config, view.players
    deck = max(sum(cfg.action_cards), 1)
    most = max(max(cfg.action_cards), 1)
    parts["actions"][:] = view.action_cards / most
    parts["action_counts"][:, :P] = view.action_counts / deck
    parts["hand_sizes"][:, :P] = view.hand_sizes / N_TILES
    parts["stops"][:] = view.stops
    parts["stops_left"][:, 0] = view.stops_left / STOP_SIGNS
    parts["deck"][:, 0] = view.deck_size / deck
    parts["discard"][:] = view.discard / most
