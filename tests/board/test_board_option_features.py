"""The pro side's option rows of the `tile-features` observation (board/option_features.py)
against the engine itself: at every action-card offer and free-row question of random pro
games, each legal answer is played on a copy of the game, and the tile must land where its
row says (or take the row it says), with the points it says; and the tile scorer puts each
row's score on that row's action."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env.board.actions import ANSWER_NO, NO_CARD_ACTION, PASS_ACTION
from sixnimmt_env.board.layout import KIND_NAMES, TAKE, TAKE_TO_HAND
from sixnimmt_env.board.option_features import ANSWERS, OPTION_FEATURES, option_actions
from sixnimmt_env.board.state import ASK_ACTION, ASK_FREE_ROW, PHASE_ASK
from sixnimmt_env.core.game import make_game

TAKES = (TAKE, TAKE_TO_HAND)
F = {name: k for k, name in enumerate(OPTION_FEATURES)}


def questions(variant: str, games: int, seed: int, wanted: int, asks=(ASK_ACTION, ASK_FREE_ROW)):
    """Yield (game, state, seat, g) at questions `asks` (the pro ones by default) of random
    4-player games, until `wanted`."""
    game = make_game("board", players=4, variant=variant)
    rng = np.random.default_rng(seed)
    state = game.new_games(np.arange(games) + 100 * seed)
    found = 0
    while not game.game_over(state).all() and found < wanted:
        actions = np.full((4, games), PASS_ACTION, dtype=np.int64)
        for s in range(4):
            view = game.view(state, np.full(games, s))
            for g in np.flatnonzero(view.is_asker & np.isin(view.ask, asks)):
                found += 1
                yield game, state, s, int(g)
            actions[s] = view.random_legal_actions(rng)
        game.step(state, actions, inplace=True)


def play_answer(game, state, seat, g, action):
    """One game (a copy of game g) after `seat` answers `action`, further offers on the
    same tile answered with no card: (state, the tile's (row, field) and points from the
    step's events, or None while it waits). Events, not the board: a later tile of the
    turn may take the row the tile landed in."""
    st = state.take(np.array([g]))
    tile = int(game.view(st, np.array([seat])).revealed[0, 0])
    answer, place = action, None
    for _ in range(8):
        acts = np.full((4, 1), PASS_ACTION, dtype=np.int64)
        acts[seat, 0] = answer
        st, events = game.step(st, acts, report=True)
        hit = np.flatnonzero(events.tile[:, 0] == tile)
        if len(hit):
            place = int(events.row[hit[0], 0]), int(events.field[hit[0], 0])
            return st, place, int(events.points[hit[0], 0])
        moved = np.flatnonzero((events.tile[:, 0] == 0) & (events.moved_to[:, 0] >= 0))
        if len(moved):  # a free row answered: the tile's own entry says where it went, on field 1
            return st, (int(events.moved_to[moved[0], 0]), 0), int(events.points[moved[0], 0])
        view = game.view(st, np.array([seat]))
        if not (view.is_asker[0] and view.revealed[0, 0] == tile):
            break
        # after a Stop: now place it; a luck question on the field first: no
        answer = NO_CARD_ACTION if view.ask[0] == ASK_ACTION else ANSWER_NO
    return st, place, None


@pytest.mark.parametrize("variant", ["pro", "pro-luck"])
def test_every_legal_answer_lands_where_its_row_says(variant):
    game = make_game("board", players=4, variant=variant)
    layout = game.layout("tile-features")
    board = game.rules.board
    R, Fw = board.kind.shape
    acts = option_actions(R)
    checked = {a: 0 for a in ANSWERS}
    for game, state, seat, g in questions(variant, 8, seed=4, wanted=150):
        view = game.view(state, np.array([seat]), np.array([g]))
        rows = layout.decode(layout.encode(view))["options"][0]
        mask = view.action_mask()[0]
        ask = int(view.ask[0])
        for i, action in enumerate(acts):
            row = rows[i]
            expected = "free_row" if i < R else "no_card" if i == R else "skip" if i == 4 * R + 1 \
                else ("stop", "front", "ascending")[(i - R - 1) // R]
            asked = (expected == "free_row") == (ask == ASK_FREE_ROW)
            assert bool(row.any()) == asked  # only the question's own answers have a row
            if not mask[action]:
                continue
            assert ANSWERS[int(np.argmax(row[:len(ANSWERS)]))] == expected and row[:len(ANSWERS)].sum() == 1
            if expected != "free_row":
                assert row[F["gain"]] == pytest.approx(row[F["points"]] - rows[R, F["points"]], abs=1e-5)
            field = round(float(row[F["field"]]) * Fw)
            kinds = row[F[f"kind_{KIND_NAMES[0]}"]:][:len(KIND_NAMES)]
            assert kinds.sum() == 1
            st, place, points = play_answer(game, state, seat, g, int(action))
            assert place is not None and place == (place[0], field), (expected, place, field)
            assert board.kind[place] == int(np.argmax(kinds)) and bool(row[F["take"]]) == (board.kind[place] in TAKES)
            if expected == "stop":
                assert place[0] != i - (R + 1)
            if expected == "free_row":
                assert place[0] == i
            # points at once, but not for H (the tiles go to the hand: the row's points are a
            # cost deferred to the end) nor with a "+5" question pending on the field
            if board.kind[place] != TAKE_TO_HAND and st.phase[0] != PHASE_ASK:
                assert points == pytest.approx(float(row[F["points"]]) * 10, abs=1e-4)
            checked[expected] += 1
    assert checked["free_row"] > 10 and checked["no_card"] > 10 and checked["front"] + checked["ascending"] > 10


def test_only_the_asked_seat_sees_option_rows_and_basic_has_none():
    assert "options" not in make_game("board", players=4, variant="basic").layout("tile-features").offsets
    game = make_game("board", players=4, variant="pro")
    layout = game.layout("tile-features")
    for game, state, seat, g in questions("pro", 4, seed=2, wanted=20):
        for s in range(4):
            rows = layout.decode(layout.encode(game.view(state, np.array([s]), np.array([g]))))["options"][0]
            assert rows.any() == (s == seat)


def test_the_scorer_puts_each_option_rows_score_on_its_action():
    """One shared network scores every option row, row i onto action option_actions(R)[i];
    the model file keeps where the rows are, and refuses option rows past the observation."""
    import torch as th

    from agents.board.policy import TileScorer, tile_scorer_kwargs
    game = make_game("board", players=4, variant="pro")
    layout = game.layout("tile-features")
    R = game.rules.board.kind.shape[0]
    kw = tile_scorer_kwargs(layout, (32,), (16,))
    assert kw["options"] == [layout.offsets["options"], 4 * R + 2]
    assert "options" not in tile_scorer_kwargs(make_game("board", players=4).layout("tile-features"), (32,), (16,))
    th.manual_seed(0)
    net = TileScorer(layout.size, game.info.n_actions, kw["tile_slots"], kw["context"], kw["hidden"], kw["options"])
    obs = th.tensor(np.concatenate([layout.encode(game.view(state, np.array([seat]), np.array([g])))
                                    for _, state, seat, g in questions("pro", 4, 3, 6)]))  # encoded as met
    with th.no_grad():
        th.nn.init.normal_(net.option_out[-1].weight)
        logits = net(obs)
        rows = th.as_tensor(layout.decode(obs.numpy())["options"])
        scores = net.option_out(net.option_in(rows) + net.option_ctx(net.context(obs))[:, None, :])[..., 0]
    assert th.allclose(logits[:, option_actions(R)], scores, atol=1e-6)
    assert scores.std() > 0  # the rows differ: a real score per answer, not one constant
