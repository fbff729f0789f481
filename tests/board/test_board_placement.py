"""The board game's placement preview (sixnimmt_env/board/placement.py) against the
engine's own placements: every tile the engine places in random games, replayed on the
board as it stood, lands where the preview says, with the points it says."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env.board import engine
from sixnimmt_env.board.layout import TAKE
from sixnimmt_env.board.placement import next_free_row, place, preview, row_ends, target_rows
from sixnimmt_env.board.rules import BoardConfig
from sixnimmt_env.board.state import PHASE_ASK, PHASE_OVER, STAGE_GAIN, STAGE_MOVE


def _random_actions(st, rng):
    P, B = st.players, st.batch_size
    count = (st.hands[0] > 0).sum(axis=0)
    slot = (rng.random((P, B)) * np.maximum(count, 1)).astype(np.intp)
    actions = np.take_along_axis(st.hands, slot[:, None, :], axis=1)[:, 0, :].astype(np.int64) - 1
    asked = np.flatnonzero(st.phase == PHASE_ASK)
    first = np.where(st.ask[asked] == 1, 102, 100)
    actions[st.asker[asked].astype(np.intp), asked] = first + (rng.random(len(asked)) < 0.5)
    return actions


def _replay_step(cfg, before, ev, after, b):
    """Replay the tiles game b placed in one step on its board as it stood; check each."""
    layout = cfg.board
    tiles = before.tiles[:, :, b].copy()
    length = before.length[:, b].copy()
    pointer = int(before.pointer[b])
    if before.stage[b] == STAGE_GAIN and before.after_gain[b] == STAGE_MOVE:
        # a take whose tile still waits to move (the gains were asked first)
        row = int(before.row[b])
        origin = row if cfg.next_row == "scan" else pointer
        moved = int(next_free_row(length, np.array(row), np.array(origin)))
        tile = int(before.queue[before.at[b], b])
        tiles[moved, 0], length[moved] = tile, 1
        pointer = moved
    checked = 0
    for k in range(ev.tile.shape[0]):
        tile = int(ev.tile[k, b])
        if tile == 0:
            continue
        origin = None if cfg.next_row == "scan" else np.array(pointer)
        new_t, new_l, p = place(layout, tiles, length, np.array(tile), origin=origin)
        assert (int(p.row), int(p.field)) == (int(ev.row[k, b]), int(ev.field[k, b])), (tile, tiles, length)
        assert bool(p.take) == (layout.kind[p.row, p.field] == TAKE) == (ev.taken[k, b] > 0)
        expected = int(p.points_double if ev.double[k, b] else p.points_plus5 if ev.plus5[k, b] else p.points)
        assert expected == int(ev.points[k, b]), (tile, ev.points[k, b], p)
        if p.take:
            assert int(ev.taken[k, b]) == int((tiles[p.row] > 0).sum())
            moved = np.flatnonzero((new_l > 0) & (length == 0))
            waits = after.phase[b] == PHASE_ASK and after.stage[b] == STAGE_GAIN  # gains asked first
            assert moved.tolist() == [int(ev.moved_to[k, b])] or (waits and ev.moved_to[k, b] == -1)
            pointer = int(moved[0])
        tiles, length = new_t, new_l
        checked += 1
    clean = after.phase[b] != PHASE_ASK or after.stage[b] not in (STAGE_GAIN,)
    if checked and clean and after.phase[b] != PHASE_OVER:
        assert (tiles == after.tiles[:, :, b]).all() and (length == after.length[:, b]).all()
    return checked


@pytest.mark.parametrize("players,variant,next_row", [
    (2, "basic", "scan"), (4, "basic", "scan"), (6, "basic", "rotate"),
    (3, "luck", "scan"), (5, "luck", "rotate"),
])
def test_preview_matches_the_engine(players, variant, next_row):
    cfg = BoardConfig(players=players, variant=variant, next_row=next_row)
    st = engine.new_games(cfg, np.arange(6))
    rng = np.random.default_rng(players)
    placed = 0
    while not (st.phase == PHASE_OVER).all():
        after, ev = engine.step(st, _random_actions(st, rng), report=True)
        for b in range(st.batch_size):
            if st.phase[b] != PHASE_OVER:
                placed += _replay_step(cfg, st, ev, after, b)
        st = after
    assert placed > 6 * players * 12 * 0.9


def test_a_hand_made_board():
    """Rows end 10, 30, 50 (its next field the take field) and 70; tiles 5, 35, 55, 71."""
    cfg = BoardConfig(players=2)
    layout = cfg.board
    R, F = layout.kind.shape
    tiles = np.zeros((R, F), dtype=np.int8)
    length = np.zeros(R, dtype=np.int8)
    tiles[0, :1], tiles[1, :2], tiles[2, :3], tiles[3, :1] = [10], [20, 30], [40, 45, 50], [70]
    length[:4] = [1, 2, 3, 1]
    assert layout.kind[2, 3] == TAKE  # row 3 is ". - + T"
    assert row_ends(tiles, length)[:5].tolist() == [10, 30, 50, 70, -1]
    hand = np.array([5, 35, 55, 71, 0])
    row, too_low = target_rows(row_ends(tiles, length), hand)
    assert row[:4].tolist() == [3, 1, 2, 3] and too_low[:4].tolist() == [True, False, False, False]
    p = preview(layout, tiles, length, hand)
    assert p.field[:4].tolist() == [1, 2, 3, 1]
    bulls = layout.tile_bulls
    # 5 after 70 (too low): row 4 field 2 is plain; 35 on row 2 field 3 (plain);
    # 55 takes row 3 (40, 45, 50); 71 as 5
    assert p.take[:4].tolist() == [False, False, True, False]
    assert p.points[2] == -(bulls[40] + bulls[45] + bulls[50])
    assert p.points_double[2] == 2 * (bulls[40] + bulls[50]) - (bulls[40] + bulls[45] + bulls[50])  # best two: 40, 50
    assert p.points_plus5[:2].tolist() == [5, 5] and p.points_plus5[2] == p.points[2]
    assert not p.valid[4]
    new_t, new_l, q = place(layout, tiles, length, np.array(55))
    assert new_l[2] == 0 and new_l[4] == 1 and new_t[4, 0] == 55  # next free row below row 3
    assert int(q.points) == int(p.points[2])
