"""The stage machine: placing tiles one stage at a time for games the rules stop with a
question (a luck card to play, luck cards gained), and the answers that resume them.

Every pass of `run_stages` advances each running game through the stages of its current tile
(`BoardState.stage`), so games in different stages share the array operations; a stage
may park its games in PHASE_ASK until the asked seat answers (`answer`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..core.errors import IllegalActionError
from .actions import ANSWER_NO, LUCK_ACTION, decode
from .events import BoardEvents
from . import actioncards
from .actions import FREE_ROW_ACTION, N_ACTIONS, describe_action
from .layout import DRAW_ACTION, DRAW_TILE, TAKE, TAKE_TO_HAND
from .rules import ASCENDING, FRONT, SKIP
from .rows import field_tables, landing_points, next_free_rows, packed_rows, taken_points, target_rows
from .rules import DOUBLE, PLUS5, PLUS5_POINTS
from .state import (ASK_ACTION, ASK_DOUBLE, ASK_FREE_ROW, ASK_LUCK_CARD, ASK_NONE, ASK_PLUS5, NO_CARD, NO_SEAT,
                    PHASE_ASK, PHASE_PICK, STAGE_FREE, STAGE_GAIN, STAGE_LAND, STAGE_MOVE, STAGE_MOVED, STAGE_NEXT,
                    STAGE_OFFER, STAGE_PLACE, STAGE_TAKE, BoardState)
from .turns import end_turn, first_stage


def _offer(st: BoardState, games: NDArray, run: NDArray, ev) -> None:
    """Pro: before a tile is placed its owner, while holding action cards, is offered them
    (playable or not), one card at a time; a card that places the tile, or no card, ends
    the offer (STAGE_PLACE). Stop, Swap and One more are played and the offer comes again."""
    _, _, seat = _current(st, games)
    answered = st.answered[games]
    g, s = games[answered], seat[answered]
    if len(g):
        st.answered[g] = False
        kind, arg = st.answer[g], st.answer_arg[g]
        played = kind != NO_CARD
        st.stage[g[~played]] = STAGE_PLACE
        if played.any():
            places = actioncards.play(st, g[played], s[played], kind[played].astype(np.intp), arg[played])
            st.stage[g[played][places]] = STAGE_PLACE  # the others are offered their cards again
    g, s = games[~answered], seat[~answered]
    holds = st.action[:, s, g].sum(axis=0) > 0
    st.stage[g[~holds]] = STAGE_PLACE
    if holds.any():
        _park(st, g[holds], ASK_ACTION, run)

def answer(st: BoardState, games: NDArray, actions: NDArray, validate: bool) -> None:
    """The askers of `games` answer their questions; the placing goes on from there."""
    ask = st.ask[games]
    actions = np.asarray(actions, dtype=np.int64)
    yes_no = (actions == ANSWER_NO) | (actions == ANSWER_NO + 1)
    kind = np.clip(actions - LUCK_ACTION[PLUS5], 0, 1)
    luck = ((actions == LUCK_ACTION[PLUS5]) | (actions == LUCK_ACTION[DOUBLE])) & (st.stack[kind, games] > 0)
    ok = np.where(ask == ASK_LUCK_CARD, luck, yes_no)
    pro = (ask == ASK_ACTION) | (ask == ASK_FREE_ROW)
    if pro.any():
        g = games[pro]
        legal = np.where((ask[pro] == ASK_ACTION)[:, None], action_options(st, g), actioncards.free_rows(st, g))
        a = actions[pro]
        ok[pro] = (a >= 0) & (a < N_ACTIONS) & legal[np.arange(len(g)), np.clip(a, 0, N_ACTIONS - 1)]
    if validate and not ok.all():
        j = int(np.flatnonzero(~ok)[0])
        b = games[j]
        legal = ""
        if pro[j]:  # name the legal answers, as the rules allow them now
            g = np.array([b])
            mask = action_options(st, g) if ask[j] == ASK_ACTION else actioncards.free_rows(st, g)
            legal = "; legal: " + ", ".join(f"{a} ({describe_action(int(a))})" for a in np.flatnonzero(mask[0]))
        raise IllegalActionError(
            f"game {b}, seat {int(st.asker[b])}, turn {int(st.turn[b])}: action {int(actions[j])} does not "
            f"answer the question {_ASK_WORDS[int(ask[j])]}{legal}")
    st.answer[games] = decode(actions).astype(np.int8)
    if pro.any():
        g, a = games[pro], actions[pro]
        card, arg = actioncards.decode_play(a)
        st.answer[g] = np.where(ask[pro] == ASK_ACTION, card, a - FREE_ROW_ACTION).astype(np.int8)
        st.answer_arg[g] = arg
    st.phase[games] = PHASE_PICK
    st.ask[games] = ASK_NONE
    st.asker[games] = NO_SEAT
    st.answered[games] = True


_ASK_WORDS = {ASK_LUCK_CARD: "which luck card (+5 or 2x, from a stack that holds one)", ASK_PLUS5: "use +5 (yes or no)",
              ASK_DOUBLE: "use 2x (yes or no)", ASK_ACTION: "which action card, if any (one the rules allow now)",
              ASK_FREE_ROW: "which free row"}


def action_options(st: BoardState, games: NDArray) -> NDArray[np.bool_]:
    """(g, N_ACTIONS) the legal answers of the action-card offer in each of `games`."""
    _, tile, seat = _current(st, games)
    return actioncards.options(st, games, seat, tile)


def _park(st: BoardState, games: NDArray, ask: int, run: NDArray) -> None:
    """Stop `games` until the current tile's owner answers `ask`."""
    st.phase[games] = PHASE_ASK
    st.ask[games] = ask
    st.asker[games] = st.queue_seat[st.at[games].astype(np.intp), games]
    run[games] = False


def run_stages(st: BoardState, run: NDArray[np.bool_], ev: BoardEvents | None) -> None:
    """Advance the placing of every game in `run` until it is asked something or its turn ends."""
    handlers = ((STAGE_OFFER, _offer), (STAGE_PLACE, _place), (STAGE_TAKE, _take), (STAGE_LAND, _land),
                (STAGE_GAIN, _gain), (STAGE_FREE, _free), (STAGE_MOVE, _move), (STAGE_MOVED, _moved),
                (STAGE_NEXT, _next))
    while run.any():
        for stage, handler in handlers:
            games = np.flatnonzero(run & (st.stage == stage))
            if len(games):
                handler(st, games, run, ev)


def _current(st: BoardState, games: NDArray) -> tuple[NDArray, NDArray, NDArray]:
    """(k, tile, seat) of the tile being placed in each of `games`."""
    k = st.at[games].astype(np.intp)
    return k, st.queue[k, games].astype(np.intp), st.queue_seat[k, games].astype(np.intp)


def _usable(st: BoardState, kind: int, seats: NDArray, games: NDArray) -> NDArray[np.bool_]:
    """Whether each seat holds a luck card of `kind` gained before this turn."""
    if not st.config.luck:
        return np.zeros(len(games), dtype=bool)
    return st.luck[kind, seats, games] > st.luck_new[kind, seats, games]


def _place(st: BoardState, games: NDArray, run: NDArray, ev) -> None:
    """Rules 1-2 (and the too-low exception): the row and field of each current tile."""
    layout = st.config.board
    _, tile, seat = _current(st, games)
    if st.config.pro:  # stopped rows count as absent; a placing card decides the field
        row = actioncards.rules_row(st, games, tile)
        card = st.card[games]
        row = np.where((card == ASCENDING) | (card == FRONT), st.card_row[games], row).astype(np.intp)
        field = st.length[row, games].astype(np.intp) + (card == SKIP)
        field[card == FRONT] = 0
        kind = layout.kind[row, field]
        take = (kind == TAKE) | (kind == TAKE_TO_HAND)
        scored = kind == TAKE  # "2x" only where a row is scored
    else:
        row = target_rows(packed_rows(st.tiles[:, :, games], st.length[:, games]), tile, st.length.shape[0])
        field = st.length[row, games].astype(np.intp)
        take = scored = layout.kind[row, field] == TAKE
    st.row[games], st.field[games] = row, field
    ask_double = scored & _usable(st, DOUBLE, seat, games)
    ask_plus5 = ~take & _usable(st, PLUS5, seat, games)
    st.stage[games] = np.where(take, STAGE_TAKE, STAGE_LAND)
    st.answer[games] = 0
    st.answered[games] = False
    if ask_double.any():
        _park(st, games[ask_double], ASK_DOUBLE, run)
    if ask_plus5.any():
        _park(st, games[ask_plus5], ASK_PLUS5, run)


def _take(st: BoardState, games: NDArray, run: NDArray, ev) -> None:
    """The tile reached a take field: its owner scores the tiles left of it, which leave
    the game ("2×": the two best count plus); the tile moves on (STAGE_MOVE)."""
    bulls = st.config.board.tile_bulls
    k, tile, seat = _current(st, games)
    row = st.row[games].astype(np.intp)
    taken = st.tiles[row, :, games].T  # (F, g): the row's tiles (all left of the take field)
    lost = taken_points(bulls, taken.T)
    if st.config.pro:  # an H field: the tiles go into the hand unscored, not out of the game
        st.card[games] = NO_CARD  # (an Ascending that reached the take field is used up)
        to_hand = st.config.board.kind[row, st.field[games].astype(np.intp)] == TAKE_TO_HAND
        if to_hand.any():
            actioncards.to_hand(st, seat[to_hand], games[to_hand], row[to_hand])
            lost = np.where(to_hand, 0, lost)
            taken = taken * ~to_hand[None, :]  # (not out of the game)
    double = st.answer[games] == 1
    best_two = -np.sort(-bulls[taken].astype(np.int32), axis=0)[:2].sum(axis=0)  # a one-tile row: that tile
    points = np.where(double, 2 * best_two - lost, -lost)
    _use_luck(st, DOUBLE, seat, games, double)
    count = (st.tiles[row, :, games] > 0).sum(axis=1)
    st.gone[taken.astype(np.intp), games[None, :]] = True
    st.gone[0, games] = False
    st.tiles[row, :, games] = 0
    st.length[row, games] = 0
    if ev is not None:
        ev.taken[k, games] = count
        ev.double[k, games] = double
        _record(st, ev, games, k, tile, seat, row, st.field[games], points)
    _score(st, games, seat, points, STAGE_FREE if st.config.pro else STAGE_MOVE)


def _land(st: BoardState, games: NDArray, run: NDArray, ev) -> None:
    """The tile lands on a field that takes nothing: the field's effect, or "+5"."""
    k, tile, seat = _current(st, games)
    row, field = st.row[games].astype(np.intp), st.field[games].astype(np.intp)
    if st.config.pro:
        front = st.card[games] == FRONT
        for j in np.flatnonzero(front):  # every tile and gap of the row one field right; shifted tiles trigger nothing
            r, b, n = row[j], games[j], int(st.length[row[j], games[j]])
            st.tiles[r, 1:n + 1, b] = st.tiles[r, :n, b].copy()
        st.length[row, games] = np.where(front, st.length[row, games] + 1, field + 1)
        st.card[games] = NO_CARD
    else:
        st.length[row, games] = field + 1
    st.tiles[row, field, games] = tile
    plus5 = st.answer[games] == 1
    points = _field_effect(st, games, seat, row, field, tile, plus5)
    if ev is not None:
        ev.plus5[k, games] = plus5
        _record(st, ev, games, k, tile, seat, row, field, points)
    _score(st, games, seat, points, STAGE_NEXT)


def _record(st, ev: BoardEvents, games, k, tile, seat, row, field, points) -> None:
    ev.tile[k, games], ev.seat[k, games] = tile, seat
    ev.row[k, games], ev.field[k, games] = row, field
    ev.kind[k, games] = st.config.board.kind[row, field]
    ev.points[k, games] += points.astype(np.int16)


def _use_luck(st: BoardState, kind: int, seat: NDArray, games: NDArray, used: NDArray) -> None:
    """Luck cards played go back on their stack at once."""
    if used.any():
        g, s = games[used], seat[used]
        st.luck[kind, s, g] -= 1
        st.stack[kind, g] += 1


def _score(st: BoardState, games: NDArray, seat: NDArray, points: NDArray, then: int) -> None:
    """Add one effect's points; a net loss that passes clovers gains luck cards (STAGE_GAIN),
    else the tile goes on to `then`."""
    st.answered[games] = False  # the question before this effect is answered and used
    old = st.score[seat, games]
    new = old + points
    st.score[seat, games] = new
    gain = np.zeros(len(games), dtype=np.int64)
    if st.config.luck:
        clovers = np.asarray(st.config.board.clovers)
        # clovers c with new <= c < old, only when the score went down
        gain = (np.searchsorted(clovers, old, "left") - np.searchsorted(clovers, new, "left")) * (points < 0)
    st.gain[games] = gain
    st.after_gain[games] = then
    st.stage[games] = np.where(gain > 0, STAGE_GAIN, then)


def _gain(st: BoardState, games: NDArray, run: NDArray, ev) -> None:
    """One luck card per clover passed, of the owner's choice (a question for every card
    gained, as records write it: "one entry per clover"; with one stack empty the other
    is the only answer; with both empty nothing is gained and nothing asked)."""
    k, _, seat = _current(st, games)
    some = (st.stack[:, games] > 0).any(axis=0)
    ask = some & ~st.answered[games]
    if ask.any():
        _park(st, games[ask], ASK_LUCK_CARD, run)
    go = ~ask
    g, s, kk, some = games[go], seat[go], k[go], some[go]
    kind = st.answer[g].astype(np.intp)
    gg, ss, kind = g[some], s[some], kind[some]
    st.luck[kind, ss, gg] += 1
    st.luck_new[kind, ss, gg] += 1
    st.stack[kind, gg] -= 1
    if ev is not None:
        ev.luck_gained[kk[some], gg] += 1
    st.answered[g] = False
    st.gain[g] = np.where(some, st.gain[g] - 1, 0)
    finished = g[st.gain[g] == 0]
    st.stage[finished] = st.after_gain[finished]


def _move(st: BoardState, games: NDArray, run: NDArray, ev) -> None:
    """After a take the tile moves to field 1 of the next free row (next_row option)."""
    taken = st.row[games].astype(np.intp)
    origin = taken if st.config.next_row == "scan" else st.pointer[games]
    _move_to(st, games, next_free_rows(st.length, origin, taken, games), run, ev)


def _free(st: BoardState, games: NDArray, run: NDArray, ev) -> None:
    """Pro: after a take the tile's owner picks the free row it moves to (any empty row)."""
    answered = st.answered[games]
    if (~answered).any():
        _park(st, games[~answered], ASK_FREE_ROW, run)
    g = games[answered]
    if len(g):
        st.answered[g] = False
        _move_to(st, g, st.answer[g].astype(np.intp), run, ev)


def _move_to(st: BoardState, games: NDArray, row: NDArray, run: NDArray, ev) -> None:
    """The tile moves to field 1 of `row` (g,); a "+5" may act on that field."""
    k, tile, seat = _current(st, games)
    st.tiles[row, 0, games] = tile
    st.length[row, games] = 1
    st.pointer[games] = row
    st.row[games], st.field[games] = row, 0
    if ev is not None:
        ev.moved_to[k, games] = row
    ask = _usable(st, PLUS5, seat, games)
    st.answer[games] = 0
    st.answered[games] = False
    st.stage[games] = STAGE_MOVED
    if ask.any():
        _park(st, games[ask], ASK_PLUS5, run)


def _moved(st: BoardState, games: NDArray, run: NDArray, ev) -> None:
    """The moved tile on field 1: the field's effect (plain on the basic side), or "+5"."""
    k, tile, seat = _current(st, games)
    plus5 = st.answer[games] == 1
    points = _field_effect(st, games, seat, st.row[games].astype(np.intp), np.zeros(len(games), np.intp), tile, plus5)
    if ev is not None:
        ev.plus5[k[plus5], games[plus5]] = True
        ev.points[k, games] += points.astype(np.int16)
    _score(st, games, seat, points, STAGE_NEXT)


def _field_effect(st: BoardState, games, seat, row, field, tile, plus5) -> NDArray[np.int32]:
    """(g,) the points of a tile's field (green, red, fixed; on the pro side draw fields
    draw instead), or "+5" in its place (a played "+5" replaces a draw too)."""
    layout = st.config.board
    effect = landing_points(field_tables(layout), row * layout.kind.shape[1] + field,
                            layout.tile_bulls[tile].astype(np.int32))
    if st.config.pro:
        kind = layout.kind[row, field]
        draw = (kind == DRAW_TILE) & ~plus5
        if draw.any():
            actioncards.draw_tiles(st, seat[draw], games[draw])
        draw = (kind == DRAW_ACTION) & ~plus5
        if draw.any():
            actioncards.draw_action_cards(st, seat[draw], games[draw])
    _use_luck(st, PLUS5, seat, games, plus5)
    return np.where(plus5, PLUS5_POINTS, effect).astype(np.int32)


def _next(st: BoardState, games: NDArray, run: NDArray, ev) -> None:
    """The next tile of the queue, or the end of the turn."""
    at = st.at[games].astype(np.intp) + 1
    more = (at < st.queue.shape[0])
    more[more] = st.queue[at[more], games[more]] > 0
    st.at[games[more]] = at[more]
    st.stage[games[more]] = first_stage(st)
    ended = games[~more]
    if len(ended):
        run[ended] = False
        if ev is not None:
            ev.turn_over[ended] = True
        end_turn(st, ended)
