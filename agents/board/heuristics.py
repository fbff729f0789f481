"""Rule-of-thumb players of the board game, batched over the view's entries.

Each scores every tile in hand from the placement preview (`sixnimmt_env.board.placement`:
where the tile would land alone, and what that field would do) and puts out the best.
Under play-two the pair counts: at the first pick every pair of tiles is scored (the
lower placed first, the higher on the board that leaves), the lower tile of the best
pair goes out; at the second pick, every tile together with the tile already out.
Usable luck cards count where they would be played: a "+5" lifts any field but a take
to +5, a "2x" turns a take into 2 x its best two tiles minus the row.

| name | a tile's value |
| --- | --- |
| `board-greedy` | its points if placed alone now; ties to the smallest gap above its row's end |
| `board-safe` | its expected *losses* (red fields, takes), with the risk of being pushed one field on: another seat's tile between its row's end and it comes first; ties keep tiles with more bullheads |
| `board-green` | its expected points with that push risk, and a tile with several bullheads played anywhere but a plus field loses half of them (they are worth more on a green field) |

Questions (every heuristic): use "+5" when the field's effect is worse than +5; use "2x"
always (it only adds); of the luck cards, a "+5" — unless the seat already holds at least
one "+5" per tile left in its hand, which it could not all play: then a "2x".

The push risk: the other seats put out k tiles this turn, each a uniform draw from the
tiles this seat has not seen (u of them, m of which lie between the row's end and the
tile: those would join the same row first); the chance that none does is
C(u - m, k) / C(u, k). Pushed one field on, the tile gets that field's effect, or on the
take field takes the row plus the pusher (counted as the mean bullheads of the unseen
tiles); a tile that would take a row and is pushed escapes (it follows the pusher to a
fresh row: 0).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from sixnimmt_env.board.actions import ANSWER_NO, ANSWER_YES, LUCK_ACTION, PASS_ACTION
from sixnimmt_env.board.layout import FIXED, GREEN
from sixnimmt_env.board.placement import Preview, field_effect, is_take, place, preview, unseen_ahead, unseen_below
from sixnimmt_env.board.rules import DOUBLE, PLUS5, PLUS5_POINTS
from sixnimmt_env.board.seat_view import BoardSeatView
from sixnimmt_env.board.state import ASK_DOUBLE, ASK_LUCK_CARD, ASK_PLUS5, PHASE_PICK_SECOND

from ..rule_table import RuleTableAgent
from .pro_answers import answer_pro

_NEG = -1e18


# --------------------------------------------------------------------------- questions


def luck_card_choice(view: BoardSeatView) -> NDArray[np.int64]:
    """(n,) the luck card to take: "+5", unless the seat holds a "+5" for every tile left
    in its hand already (more could not be played): then "2x". A card comes from a stack
    that holds one, so an empty stack forces the other."""
    plus5_held = view.luck[:, 0, PLUS5].astype(np.int64)
    stack = view.stack
    double = ((plus5_held >= view.hand_size) | (stack[:, PLUS5] == 0)) & (stack[:, DOUBLE] > 0)
    return np.where(double, LUCK_ACTION[DOUBLE], LUCK_ACTION[PLUS5]).astype(np.int64)


def answer_questions(view: BoardSeatView) -> NDArray[np.int64]:
    """(n,) the heuristics' answers where the seat is asked, PASS_ACTION elsewhere: "+5"
    when the field's effect is worse than +5, "2x" always, luck card by `luck_card_choice`."""
    actions = np.full(view.n, PASS_ACTION, dtype=np.int64)
    if not view.is_asker.any():
        return actions
    ask = view.ask
    asked = ask == ASK_PLUS5
    if asked.any():
        row, field = view.current
        effect = field_effect(view.config.board, row.astype(np.intp), field.astype(np.intp), view.revealed[:, 0])
        actions[asked] = np.where(effect < PLUS5_POINTS, ANSWER_YES, ANSWER_NO)[asked]
    actions[ask == ASK_DOUBLE] = ANSWER_YES
    asked = ask == ASK_LUCK_CARD
    if asked.any():
        actions[asked] = luck_card_choice(view)[asked]
    return answer_pro(view, actions) if view.config.pro else actions


# --------------------------------------------------------------------------- tile values


@dataclass
class Context:
    """Per-entry facts the value functions read; arrays (m,) for the m entries picking."""

    layout: object
    unseen_below: NDArray  # (m, N + 2) unseen tiles with a number below t, for t = 0..N+1
    unseen: NDArray  # (m,) tiles the seat has not seen
    others: NDArray  # (m,) tiles the other seats put out this turn
    pusher_bulls: NDArray  # (m,) mean bullheads of the unseen tiles
    plus5: NDArray  # (m,) bool, a usable "+5"
    double: NDArray  # (m,) bool, a usable "2x"


def context(view: BoardSeatView, idx: NDArray) -> Context:
    layout = view.config.board
    unseen = view.unseen[idx]
    below = unseen_below(unseen)
    u = below[:, -1]
    bulls = (unseen * layout.tile_bulls[None, :]).sum(axis=1)
    usable = view.luck_usable[idx]
    return Context(layout, below, u, (view.players - 1) * view.picks[idx].astype(np.int64),
                   bulls / np.maximum(u, 1), usable[:, PLUS5] > 0, usable[:, DOUBLE] > 0)


def _per_entry(a: NDArray, like: NDArray) -> NDArray:
    """(m,) -> (m, 1, ...) broadcasting against `like` (m, ...)."""
    return a.reshape(a.shape + (1,) * (like.ndim - 1))


def with_luck(ctx: Context, p: Preview, points: NDArray) -> NDArray:
    """Points as the seat's usable luck cards would make them (the better of card or not)."""
    plus5 = _per_entry(ctx.plus5, points) & ~p.take
    double = _per_entry(ctx.double, points) & p.take
    points = np.where(plus5, np.maximum(points, PLUS5_POINTS), points)
    return np.where(double, np.maximum(points, p.points_double), points)


def clear_chance(ctx: Context, p: Preview, tile: NDArray) -> NDArray[np.float64]:
    """Chance that none of the others' tiles joins the tile's row before it (see module doc)."""
    between = unseen_ahead(ctx.unseen_below, p, tile).astype(np.float64)
    u = _per_entry(ctx.unseen.astype(np.float64), between)
    k = _per_entry(ctx.others, between)
    chance = np.ones_like(between)
    for i in range(int(ctx.others.max(initial=0))):
        step = np.clip((u - between - i) / np.maximum(u - i, 1), 0.0, 1.0)
        chance = np.where(i < k, chance * step, chance)
    return chance


def pushed_points(ctx: Context, p: Preview, tile: NDArray) -> NDArray[np.float64]:
    """Points if another tile came first in the same row: the next field's effect, or the
    take of the row with the pusher in it; a tile that would take escapes (0)."""
    layout = ctx.layout
    nxt = np.minimum(p.field + 1, layout.kind.shape[1] - 1)
    onto_take = is_take(layout.kind[p.row, nxt])
    effect = field_effect(layout, p.row, nxt, tile).astype(np.float64)
    take_cost = -(p.row_sum + _per_entry(ctx.pusher_bulls, p.row_sum))
    plus5 = _per_entry(ctx.plus5, effect)
    effect = np.where(plus5, np.maximum(effect, PLUS5_POINTS), effect)
    return np.where(p.take, 0.0, np.where(onto_take, take_cost, effect))


def _tie_gap(p: Preview) -> NDArray:
    return -1e-4 * np.where(p.too_low, 100, p.gap)


def greedy_value(ctx: Context, p: Preview, tile: NDArray) -> NDArray:
    return with_luck(ctx, p, p.points) + _tie_gap(p)


def safe_value(ctx: Context, p: Preview, tile: NDArray) -> NDArray:
    clear = clear_chance(ctx, p, tile)
    alone = np.minimum(with_luck(ctx, p, p.points), 0)
    pushed = np.minimum(pushed_points(ctx, p, tile), 0)
    bulls = ctx.layout.tile_bulls[tile.astype(np.intp)]
    return clear * alone + (1 - clear) * pushed - 1e-2 * bulls + _tie_gap(p)


def green_value(ctx: Context, p: Preview, tile: NDArray) -> NDArray:
    layout = ctx.layout
    clear = clear_chance(ctx, p, tile)
    expected = clear * with_luck(ctx, p, p.points) + (1 - clear) * pushed_points(ctx, p, tile)
    plus_field = (p.kind == GREEN) | ((p.kind == FIXED) & (layout.value[p.row, p.field] > 0))
    bulls = layout.tile_bulls[tile.astype(np.intp)].astype(np.float64)
    return expected - np.where(plus_field, 0.0, 0.5 * (bulls - 1)) + _tie_gap(p)


VALUES = {"board-greedy": greedy_value, "board-safe": safe_value, "board-green": green_value}
SUMMARIES = {
    "board-greedy": "the tile with the most points if placed alone now (tile pairs under play-two)",
    "board-safe": "the tile with the least expected loss (red fields, takes), push risk counted",
    "board-green": "chases plus fields: expected points, high-bullhead tiles kept for green fields",
}


# --------------------------------------------------------------------------- choosing


def _value_on(value, ctx: Context, tiles: NDArray, length: NDArray, cand: NDArray) -> NDArray:
    """Values of tiles `cand` (m, ...) on boards tiles (m, [...,] R, F); -inf for no tile."""
    p = preview(ctx.layout, tiles, length, cand)
    v = value(ctx, p, cand.astype(np.int64))
    return np.where(cand > 0, v, _NEG)


def held(hand: NDArray) -> NDArray[np.int64]:
    """(m, W) the hands (m, H) cut after the last slot any of them fills (at least one
    slot): a pro hand has 100 slots and rarely holds more than a dozen tiles. Every value
    and argmax below is taken per slot, and an empty slot never wins (its value is the
    lowest), so the cut slots change no choice: only the time."""
    filled = np.flatnonzero((hand > 0).any(axis=0))
    return hand[:, :max(int(filled[-1]) + 1 if len(filled) else 1, 1)].astype(np.int64)


def tile_values(view: BoardSeatView, idx: NDArray, rule: str) -> NDArray[np.float64]:
    """(m, H) the value under `rule` of each hand slot of entries `idx` played alone
    (no pairs), -inf for empty slots: e.g. a search's tie-break."""
    ctx = context(view, idx)
    full = view.hand[idx]
    hand = held(full)
    values = np.full(full.shape, _NEG)
    values[:, :hand.shape[1]] = _value_on(VALUES[rule], ctx, view.tiles[idx], view.length[idx], hand)
    return values


def choose_tiles(view: BoardSeatView, idx: NDArray, value) -> NDArray[np.int64]:
    """(m,) the tile (number) each entry `idx` (all picking) puts out under `value`."""
    ctx = context(view, idx)
    layout = ctx.layout
    hand = held(view.hand[idx])  # (m, H): up to the last slot held
    tiles, length = view.tiles[idx], view.length[idx]
    m_ = len(idx)
    rows = np.arange(m_)
    out = np.zeros(m_, dtype=np.int64)
    second = view.phase[idx] == PHASE_PICK_SECOND
    pairs = (view.picks[idx] == 2) & ~second
    single = ~second & ~pairs
    alone = _value_on(value, ctx, tiles, length, hand)  # (m, H)
    if single.any():
        out[single] = hand[rows[single], alone[single].argmax(axis=1)]
    if pairs.any() or second.any():  # the board after each hand tile placed alone: (m, H, R, F)
        after_t, after_l, _ = place(layout, tiles[:, None], length[:, None], hand)
    if pairs.any():
        s = np.flatnonzero(pairs)
        h = hand[s]
        every = np.broadcast_to(h[:, None, :], (len(s),) + h.shape[1:] * 2)  # (k, H, H): tile j after tile i
        then = _value_on(value, _subset(ctx, s), after_t[s], after_l[s], every)
        lower = (h[:, :, None] < h[:, None, :]) & (h[:, :, None] > 0) & (h[:, None, :] > 0)
        pair = np.where(lower, alone[s][:, :, None] + then, _NEG)
        best = pair.reshape(len(s), -1).argmax(axis=1)
        out[s] = h[np.arange(len(s)), best // h.shape[1]]
    if second.any():
        s = np.flatnonzero(second)
        sub = _subset(ctx, s)
        first = view.picked[idx[s], 0].astype(np.int64)  # (k,)
        h = hand[s]
        f_t, f_l, _ = place(layout, tiles[s], length[s], first)
        v_first = _value_on(value, sub, tiles[s], length[s], first[:, None])[:, 0]
        v_after_first = _value_on(value, sub, f_t, f_l, h)  # each tile after the first
        first_each = np.broadcast_to(first[:, None, None], h.shape + (1,))
        v_first_after = _value_on(value, sub, after_t[s], after_l[s], first_each)[..., 0]  # first after each tile
        total = np.where(h > first[:, None], v_first[:, None] + v_after_first, alone[s] + v_first_after)
        total = np.where(h > 0, total, _NEG)
        out[s] = h[np.arange(len(s)), total.argmax(axis=1)]
    return out


def _subset(ctx: Context, s: NDArray) -> Context:
    return Context(ctx.layout, ctx.unseen_below[s], ctx.unseen[s], ctx.others[s], ctx.pusher_bulls[s],
                   ctx.plus5[s], ctx.double[s])


class BoardHeuristicAgent(RuleTableAgent):
    """A tile value from VALUES plus the heuristics' answers to questions."""

    RULES = VALUES
    WHAT = "board heuristic"

    def act(self, view: BoardSeatView, rng: np.random.Generator) -> NDArray[np.int64]:
        actions = answer_questions(view)
        picking = np.flatnonzero(view.picking)
        if len(picking):
            actions[picking] = choose_tiles(view, picking, self.rule) - 1
        return actions
