"""`mcs` for the board game: determinized flat Monte-Carlo search through the batched engine.

For every entry that must decide, each candidate — every tile in hand in the pick
phases (under play-two the first tile is the candidate and the second comes from the
rollout policy), both answers of a question — is played in `rollouts` simulated worlds.
A world is the game's own (`BoardSeatView.worlds`, sixnimmt_env/board/worlds.py): the
game as the seat knows it with the tiles the seat has not seen (`unseen`) dealt at random: into the other hands (as many
as the seat holds), into the others' first tiles when they are already face down under
play-two, and the rest into the supply (with 2-3 players before the refill, the refill
comes from it). The candidate is played, and the game runs on under the rollout policy
for `horizon` turns counting the current one (0: to the end of the game). A rollout that
stops before the end counts `card_value` points for each luck card a seat holds (cards
gained for a loss soften it; at the cut they would otherwise count nothing). The
candidate with the best mean result wins: own points (`score=own`) or own minus the
others' mean (`score=relative`). Equal means (common: several tiles land on plain
fields) go to the tile `tie_break` values most (a heuristic's value, `none`: the lowest).

Rollout policy: every seat puts out the tile in its last held slot; the other hands are
dealt, and the searcher's own hand shuffled, in random order, so that is uniformly
random play. Questions are answered by the heuristics' rules
(`agents.board.heuristics.answer_questions`: "+5" when the field is worse than +5, "2x"
always, a "+5" luck card unless its owner holds one per tile left); answering at random
would waste the cards the search is trying to value.

Common random numbers: every candidate of an entry is played in the same worlds, and
there the others play the same tiles in the same order, so the comparison sees the
candidates' differences rather than the worlds'. All candidates of all entries run in one
batch (chunks of at most `batch` simulations), played inside the board's compiled driver
(`engine.rollout`: the candidate as the first decision, then the rollout policy turn
after turn, no trip back to Python but at a refill, the end of a game or a reshuffle).
`rollout_actions` states the same policy in NumPy: the driver is tested against it.

The defaults (32 rollouts, horizon 3, card value 3, board-green ties) were chosen by
matches against `board-safe` (README, board-agents section; the time a decision takes:
docs/speed.md): three turns of rollouts widened mcs's lead over `board-safe`
on the basic side (basic +2.4 points a game against +1.6 for one turn, luck +2.2 against
+1.5); rollouts to the end of the game (horizon 0) played worse than one turn (random
play that long is mostly noise about the decision at hand); on the pro side one turn and
three both beat `board-safe` by 7-10 points. The search never reads a hidden tile: it sees only the view (a test
deals the hidden tiles anew and checks the decisions stay the same).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from sixnimmt_env.board import engine
from sixnimmt_env.board import state as board_state  # its phase and question codes
from sixnimmt_env.board.actions import ANSWER_NO, ANSWER_YES, FREE_ROW_ACTION, LUCK_ACTION, NO_CARD_ACTION, PASS_ACTION
from sixnimmt_env.board.placement import field_effect
from sixnimmt_env.board.rules import DOUBLE, PLUS5, PLUS5_POINTS
from sixnimmt_env.board.seat_view import BoardSeatView
from sixnimmt_env.board.state import BoardState
from sixnimmt_env.board.warm import load_driver
from sixnimmt_env.board.worlds import load_deal_worlds

from .heuristics import VALUES, tile_values


def rollout_actions(st: BoardState) -> NDArray[np.int64]:
    """(P, B) the rollout policy's actions: every seat puts out the tile in its last held
    slot (hands are dealt, and the searcher's own hand shuffled, in random order, so this
    is uniformly random play — and the same play in every candidate's copy of a world);
    the asker of an open question answers by the heuristics' rules (the engine ignores
    the other entries)."""
    if st.config.pro:  # hands differ in size; an empty one passes
        count = (st.hands > 0).sum(axis=1)  # (P, B)
        last = np.maximum(count - 1, 0)[:, None, :]
    else:
        count = (st.hands[0] > 0).sum(axis=0)
        last = np.broadcast_to(np.maximum(count - 1, 0), (st.players, 1, st.batch_size))
    actions = np.take_along_axis(st.hands, last, axis=1)[:, 0, :].astype(np.int64) - 1
    actions[actions < 0] = PASS_ACTION
    asked = np.flatnonzero(st.phase == board_state.PHASE_ASK)
    if len(asked):
        actions[st.asker[asked].astype(np.intp), asked] = rule_answers(st, asked)
    return actions


def rule_answers(st: BoardState, games: NDArray) -> NDArray[np.int64]:
    """The heuristics' answers (see the module doc) for the askers of `games`, from the state."""
    layout = st.config.board
    ask = st.ask[games]
    seat = st.asker[games].astype(np.intp)
    tile = st.queue[st.at[games].astype(np.intp), games]
    effect = field_effect(layout, st.row[games].astype(np.intp), st.field[games].astype(np.intp), tile)
    plus5 = np.where(effect < PLUS5_POINTS, ANSWER_YES, ANSWER_NO)
    left = (st.hands[0, :, games] > 0).sum(axis=1)
    kind = np.where(st.luck[PLUS5, seat, games] >= left, LUCK_ACTION[DOUBLE], LUCK_ACTION[PLUS5])
    # pro: no action card in a rollout; the tile moved after a take goes to the first free row
    free = FREE_ROW_ACTION + np.argmax(st.length[:, games] == 0, axis=0)
    return np.select(
        [ask == board_state.ASK_PLUS5, ask == board_state.ASK_DOUBLE, ask == board_state.ASK_LUCK_CARD,
         ask == board_state.ASK_ACTION, ask == board_state.ASK_FREE_ROW],
        [plus5, np.full(len(games), ANSWER_YES), kind, np.full(len(games), NO_CARD_ACTION), free],
        PASS_ACTION).astype(np.int64)


class BoardMonteCarloAgent:
    """Flat Monte-Carlo search over tiles and answers, rollouts batched in the engine."""

    name = "mcs"

    def __init__(self, rollouts: int = 32, score: str = "own", horizon: int = 3, card_value: float = 3.0,
                 tie_break: str = "board-green", batch: int = 4096):
        if tie_break != "none" and tie_break not in VALUES:
            raise ValueError(f"tie_break must be none or one of {', '.join(VALUES)}")
        self.card_value, self.tie_break = card_value, tie_break
        if rollouts < 1:
            raise ValueError("rollouts must be >= 1")
        if score not in ("own", "relative"):
            raise ValueError("score must be own or relative")
        if horizon < 0:
            raise ValueError("horizon must be >= 0 (0: to the end of the game)")
        if batch < 1:
            raise ValueError("batch must be >= 1")
        self.rollouts, self.relative, self.horizon, self.batch = rollouts, score == "relative", horizon, batch
        load_deal_worlds()  # (the deal's kernel loaded now, not in the first decision timed)
        load_driver()  # (and the rollouts' driver)

    def act(self, view: BoardSeatView, rng: np.random.Generator) -> NDArray[np.int64]:
        actions = np.full(view.n, PASS_ACTION, dtype=np.int64)
        estimates = self.estimates(view, rng)
        ties = self._tie_break(view, estimates)
        for e, (cands, means) in estimates.items():
            actions[e] = cands[int(np.argmax(means + ties.get(e, 0.0)))]
        return actions

    def _tie_break(self, view: BoardSeatView, estimates: dict) -> dict[int, NDArray]:
        """Entry -> a tiny bonus per candidate tile: its board-green value (equal means
        are common when several tiles land on plain fields); questions keep the first."""
        if self.tie_break == "none":
            return {}
        # only where it can matter: a bonus < 1e-4 moves the argmax only past a mean that close to the best
        picking = np.array([e for e, (c, m) in estimates.items()
                            if len(c) > 1 and view.picking[e] and (m.max() - m < 2e-4).sum() > 1], dtype=np.intp)
        if not len(picking):
            return {}
        values = tile_values(view, picking, self.tie_break)  # (m, H) by hand slot
        out = {}
        for i, e in enumerate(picking):
            cands = estimates[int(e)][0]
            hand = view.hand[e].astype(np.int64)
            slot = np.argmax(hand[None, :] == (cands + 1)[:, None], axis=1)
            v = values[i, slot]
            out[int(e)] = 1e-4 * (v - v.min()) / max(float(v.max() - v.min()), 1e-9)
        return out

    @staticmethod
    def candidates(view: BoardSeatView) -> dict[int, NDArray[np.int64]]:
        """Entry -> its candidate actions (tiles ascending; no, yes; "+5", "2x" from the
        stacks that hold one: a card from an empty stack is no answer, and in a rollout
        it would be a card that does not exist, worth more than the legal one)."""
        out = {}
        for e in np.flatnonzero(view.picking):
            out[int(e)] = np.sort(view.hand[e][view.hand[e] > 0]).astype(np.int64) - 1
        pro = view.is_asker & ((view.ask == board_state.ASK_ACTION) | (view.ask == board_state.ASK_FREE_ROW))
        for e in np.flatnonzero(view.is_asker & ~pro):
            if view.ask[e] == board_state.ASK_LUCK_CARD:
                out[int(e)] = np.array([LUCK_ACTION[k] for k in (PLUS5, DOUBLE) if view.stack[e, k] > 0], dtype=np.int64)
            else:
                out[int(e)] = np.array([ANSWER_NO, ANSWER_YES], dtype=np.int64)
        if pro.any():  # every legal answer: no card, each card with each argument; each free row
            mask = view.action_mask()
            for e in np.flatnonzero(pro):
                out[int(e)] = np.flatnonzero(mask[e]).astype(np.int64)
        return out

    def estimates(self, view: BoardSeatView, rng: np.random.Generator) -> dict[int, tuple[NDArray, NDArray]]:
        """Entry -> (candidate actions, mean rollout result of each), for every entry that
        must act; an entry with one candidate gets it with mean 0 (nothing simulated)."""
        cands = self.candidates(view)
        out = {e: (c, np.zeros(1)) for e, c in cands.items() if len(c) == 1}
        search = [e for e, c in cands.items() if len(c) > 1]
        R = self.rollouts
        chunk: list[int] = []
        size = 0
        for e in search + [None]:
            if e is not None and (not chunk or size + len(cands[e]) * R <= self.batch):
                chunk.append(e)
                size += len(cands[e]) * R
                continue
            if chunk:
                means = self._simulate(view, np.array(chunk), [cands[c] for c in chunk], rng)
                out.update({c: (cands[c], m) for c, m in zip(chunk, means)})
            chunk, size = ([e], len(cands[e]) * R) if e is not None else ([], 0)
        return out

    def _simulate(self, view: BoardSeatView, entries: NDArray, cands: list[NDArray],
                  rng: np.random.Generator) -> list[NDArray]:
        """Mean results of every candidate of `entries`, one engine batch. Every candidate
        of an entry is played in the same `rollouts` worlds (common random numbers: the
        same hidden tiles, and the others play the same tiles in the same order), so the
        comparison sees the candidates' differences, not the worlds'."""
        st, seats, first, counts = self.candidate_worlds(view, entries, cands, rng)
        R, E, G = self.rollouts, len(entries), st.batch_size
        given = np.full((st.players, G), -1, dtype=np.int64)  # the others' first decisions: the rollout policy's
        given[seats, np.arange(G)] = first
        horizon = self.horizon if self.horizon > 0 else 10 ** 6
        engine.rollout(st, view.turn[entries].astype(np.int64).repeat(counts * R) + horizon, given)
        rows = np.arange(G)
        value = st.score.astype(np.float64)
        if self.card_value and st.config.luck:  # cards held where a rollout stops short of the end
            value += self.card_value * st.luck.sum(axis=0) * (st.phase != board_state.PHASE_OVER)
        if st.config.pro:  # action cards score 1 each at the end: count them where a rollout stops short
            value += st.action.sum(axis=0) * (st.phase != board_state.PHASE_OVER)
        own = value[seats, rows]
        if self.relative:
            others = (value.sum(axis=0) - own) / (st.players - 1)
            own = own - others
        bounds = np.concatenate([[0], np.cumsum(counts * R)])
        return [own[bounds[i]:bounds[i + 1]].reshape(counts[i], R).mean(axis=1) for i in range(E)]

    def candidate_worlds(self, view: BoardSeatView, entries: NDArray, cands: list[NDArray],
                         rng: np.random.Generator) -> tuple[BoardState, NDArray, NDArray, NDArray]:
        """(state, seats, first, counts): `rollouts` worlds of each entry (the view's
        `worlds`: hidden tiles and action cards dealt at random),
        one copy of each for every candidate, candidate-major within an entry: game
        e's candidate j in world r; `seats` (G,) the observing seat of each game, `first`
        (G,) the candidate it plays, `counts` (E,) the candidates per entry."""
        R = self.rollouts
        E = len(entries)
        counts = np.array([len(c) for c in cands])
        worlds = view.worlds(entries, R, rng)  # world r of entry e at e * R + r
        seats_w = view.seats[entries].astype(np.intp).repeat(R)
        # copy (e, candidate j, world r) -> world e * R + r
        world_of = np.concatenate([np.tile(e * R + np.arange(R), counts[e]) for e in range(E)])
        st = worlds.take(world_of)
        seats = seats_w[world_of]
        first = np.concatenate([np.repeat(c, R) for c in cands])  # (G,) each candidate R times
        return st, seats, first, counts
