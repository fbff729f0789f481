"""The board's questions in compiled code (sixnimmt_env/board/_kernel/answers.py) and the
random-play fast path (engine.play_random): at every question of random games of the
luck and pro variants (2-6 players) the legal answers equal the vectorized formulas the
engine used before (kept here as the test's oracle), and play_random plays, bit for bit,
the games the checked interface (seat-view masks, Game.step) plays with the same random
numbers."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env.board import actioncards, engine
from sixnimmt_env.board._driver import CHECKED_STEP, NO_LIMIT, answer_masks
from sixnimmt_env.board._kernel import inputs
from sixnimmt_env.board.actions import (
    ANSWER_NO,
    ANSWER_YES,
    ASCENDING_ACTION,
    FREE_ROW_ACTION,
    FRONT_ACTION,
    LUCK_ACTION,
    N_ACTIONS,
    NO_CARD_ACTION,
    ONE_MORE_ACTION,
    PASS_ACTION,
    SKIP_ACTION,
    STOP_ACTION,
    SWAP_ACTION,
)
from sixnimmt_env.board.rules import ASCENDING, FRONT, N_TILES, ONE_MORE, SKIP, STOP, SWAP
from sixnimmt_env.board.state import ASK_ACTION, ASK_FREE_ROW, ASK_LUCK_CARD, PHASE_ASK, PHASE_OVER
from sixnimmt_env.core.game import make_game
from sixnimmt_env.core.rng import game_seeds
from tests.support.board_rows import packed_rows, target_rows


def oracle_masks(st, games):
    """(g, N_ACTIONS) the legal answers as the engine's NumPy code wrote them before the
    compiled version (actioncards.options / free_rows, the yes-no and luck answers)."""
    g = len(games)
    ask = st.ask[games]
    mask = np.zeros((g, N_ACTIONS), dtype=bool)
    yes_no = (ask != ASK_LUCK_CARD) & (ask != ASK_ACTION) & (ask != ASK_FREE_ROW)
    mask[yes_no, ANSWER_NO] = mask[yes_no, ANSWER_YES] = True
    luck = ask == ASK_LUCK_CARD
    mask[luck, LUCK_ACTION[0]] = st.stack[0, games[luck]] > 0
    mask[luck, LUCK_ACTION[1]] = st.stack[1, games[luck]] > 0
    free = ask == ASK_FREE_ROW
    R = st.length.shape[0]
    mask[np.flatnonzero(free)[:, None], FREE_ROW_ACTION + np.arange(R)] = (st.length[:, games[free]] == 0).T
    offer = ask == ASK_ACTION
    if offer.any():
        o = games[offer]
        k = st.at[o].astype(np.intp)
        mask[offer] = offer_oracle(st, o, st.queue_seat[k, o].astype(np.intp), st.queue[k, o].astype(np.intp))
    return mask


def offer_oracle(st, games, seats, tile):
    g = len(games)
    R = st.length.shape[0]
    row_len = st.config.board.row_len.astype(np.intp)
    held = st.action[:, seats, games] > 0
    length = st.length[:, games].astype(np.intp)
    active = (st.length[:, games] > 0) & ~st.stops[:, games]
    ends = np.take_along_axis(st.tiles[:, :, games], np.maximum(length - 1, 0)[:, None, :], axis=1)[:, 0]
    first = st.tiles[:, 0, games]
    mask = np.zeros((g, N_ACTIONS), dtype=bool)
    mask[:, NO_CARD_ACTION] = True
    rows = np.arange(R)
    stop = held[STOP] & (st.stops_left[games] > 0)
    mask[:, STOP_ACTION + rows] = (active & stop[None, :]).T
    front = active & (first > tile[None, :]) & (length < row_len[:, None] - 1)
    mask[:, FRONT_ACTION + rows] = (front & held[FRONT][None, :]).T
    ascending = active & (ends < tile[None, :])
    mask[:, ASCENDING_ACTION + rows] = (ascending & held[ASCENDING][None, :]).T
    open_length = np.where(active, st.length[:, games], 0).astype(np.int8)
    target = target_rows(packed_rows(st.tiles[:, :, games], open_length), tile, R)
    mask[:, SKIP_ACTION] = held[SKIP] & (length[target, np.arange(g)] + 1 < row_len[target] - 1)
    in_hand = np.zeros((g, N_TILES + 1), dtype=bool)
    in_hand[np.arange(g)[:, None], st.hands[seats, :, games].astype(np.intp)] = True
    in_hand[:, 0] = False
    mask[:, SWAP_ACTION:SWAP_ACTION + N_TILES] = in_hand[:, 1:] & held[SWAP][:, None]
    mask[:, ONE_MORE_ACTION:ONE_MORE_ACTION + N_TILES] = in_hand[:, 1:] & held[ONE_MORE][:, None]
    return mask


@pytest.mark.parametrize("variant", ["luck", "pro", "pro-luck"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_legal_answers_are_the_former_formulas_at_every_question(variant, players):
    game = make_game("board", players=players, variant=variant)
    batch = 64
    st = game.new_games(game_seeds(players, batch))
    rng = np.random.default_rng(players)
    kinds = set()
    while not game.game_over(st).all():
        asked = np.flatnonzero(st.phase == PHASE_ASK)
        if len(asked):
            assert (answer_masks(st, asked) == oracle_masks(st, asked)).all()
            kinds |= set(st.ask[asked].tolist())
        actions = np.stack([game.view(st, [p] * batch).random_legal_actions(rng) for p in range(players)])
        st, _ = game.step(st, actions)
    assert kinds >= ({ASK_ACTION, ASK_FREE_ROW} if "pro" in variant else {ASK_LUCK_CARD})


def play_random_through_the_interface(game, st, uniforms, reshuffled):
    """One play_random call, as a driver of the checked interface would play it with
    the same numbers: per game, the tile at each seat's fraction of its hand, then the
    legal answer (the view's mask, ascending) at the fraction of its next question,
    while it is asked (one answer a call: K = 1; a reshuffle ends the call's answers)."""
    P = game.rules.players
    for b in np.flatnonzero(st.phase != PHASE_OVER):
        only = np.arange(st.batch_size) == b
        if st.phase[b] != PHASE_ASK:
            actions = np.full((P, st.batch_size), PASS_ACTION)
            for p in range(P):
                held = st.hands[p, :, b][st.hands[p, :, b] > 0]
                if len(held):
                    actions[p, b] = held[int(np.float64(uniforms[b, p]) * len(held))] - 1
            reshuffled.clear()
            st, _ = game.step(st, actions, games=only)
            if st.phase[b] != PHASE_ASK or reshuffled:
                continue
        seat = int(st.asker[b])
        legal = np.flatnonzero(game.view(st, [seat], [b]).action_mask()[0])
        actions = np.full((P, st.batch_size), PASS_ACTION)
        actions[seat, b] = legal[int(np.float64(uniforms[b, P]) * len(legal))]
        st, _ = game.step(st, actions, games=only)
    return st


@pytest.mark.parametrize("variant,players", [("basic", 3), ("luck", 4), ("pro", 2), ("pro", 5), ("pro-luck", 4)])
def test_play_random_plays_the_games_of_the_checked_interface(variant, players, monkeypatch):
    reshuffled = []
    original = actioncards.reshuffle
    monkeypatch.setattr(actioncards, "reshuffle", lambda st, b: (reshuffled.append(b), original(st, b)))
    game = make_game("board", players=players, variant=variant)
    batch = 12
    fast = game.new_games(game_seeds(7, batch))
    slow = fast.copy()
    rng = np.random.default_rng(7)
    calls = 0
    while not game.game_over(fast).all():
        uniforms = rng.random((batch, players + 1), dtype=np.float32)
        engine.play_random(fast, uniforms)
        slow = play_random_through_the_interface(game, slow, uniforms, reshuffled)
        for name in ("hands", "tiles", "score", "luck", "action", "phase", "ask", "stage", "turn", "deck_at"):
            assert (getattr(fast, name) == getattr(slow, name)).all(), (calls, name)
        calls += 1
    assert calls > 20 and game.game_over(slow).all()


class _Check:
    """The step's one compiled call (`checked_step`: the check, then the play, as `Game.step`
    makes it) of one game's answers, each on the state `st` as it stands: on a copy, kept
    alive while no answer is taken (its arrays' types are keyed once for the calls while it
    lives), a fresh one after an answer is taken and played."""

    def __init__(self, st):
        self.st, self.work = st, None

    def takes(self, b: int, actions) -> bool:
        """Whether the check takes `actions` in game b (then the copy has played them; else
        nothing is written)."""
        if self.work is None:
            players = actions.shape[0]
            self.work = self.st.copy()
            self.kin, self.game = inputs.fetch(self.work), np.array([b], dtype=np.intp)
            self.rest = (np.zeros((0, players), dtype=np.float32), NO_LIMIT, np.zeros(N_ACTIONS, dtype=np.int64),
                         np.zeros(1, dtype=np.int8), np.zeros((1, players), dtype=np.int64))
        taken = CHECKED_STEP(self.kin.s, self.kin.t, inputs.NO_EVENTS, False, self.game, actions, *self.rest) < 0
        if taken:
            self.work = None
        return taken


@pytest.mark.parametrize("variant,players", [("luck", 3), ("pro", 4), ("pro-luck", 5)])
def test_the_steps_check_accepts_exactly_the_legal_answers(variant, players):
    """The step's check (`checked_step`'s `illegal_at`, through `answers.allows`: one answer
    checked) accepts, at every question of random games, exactly the answers of the asker's
    mask (`answer_masks`, the list `legal_answers` writes), and none outside the actions."""
    game = make_game("board", players=players, variant=variant)
    batch = 12
    st = game.new_games(game_seeds(players + 7, batch))
    rng = np.random.default_rng(players)
    candidates = np.arange(-1, N_ACTIONS + 1)
    checked = 0
    while not game.game_over(st).all():
        asked = np.flatnonzero(st.phase == PHASE_ASK)
        masks = answer_masks(st, asked)
        for j, b in enumerate(asked):
            actions = np.zeros((players, batch), dtype=np.int64)
            accepted, check = [], _Check(st)
            for a in candidates:
                actions[st.asker[b], b] = a
                accepted.append(check.takes(b, actions))
            assert (np.array(accepted) == np.r_[False, masks[j], False]).all(), (b, int(st.ask[b]))
            checked += 1
        actions = np.stack([game.view(st, [p] * batch).random_legal_actions(rng) for p in range(players)])
        st, _ = game.step(st, actions)
    assert checked > 50
