"""The one compiled driver of the board game: every path that plays turns runs here.

`drive` walks each game of a list through its decisions under a policy, placing between
them (`place.place_on`), so the rules' questions and a turn's tiles cost no trip back to
Python. The policies:

- GIVEN: one decision step with the actions (P, B) the caller gives (`engine.step`,
  behind `Game.step`: the environments, the agents, the arena): the asker's answer, or
  every seat's tile; then the placing goes on until the next stop.
- RANDOM: uniformly random play from the caller's numbers (`engine.play_random`, the
  kernel-only benchmark): a tile at fraction numbers[j, p] of each hand, the legal answer
  at fraction numbers[j, P + i] for the game's next K questions.
- ROLLOUT: the board search's rollout policy (`agents/board/search.py`): every seat puts
  out the last tile it holds (hands dealt in random order: random play), a question is
  answered by the heuristics' rules (`rule_answer`), turn after turn until `limit[j]`;
  with `actions` (P, B), the game's first decision takes actions[p, b] where it is >= 0
  (the searcher's candidate) and the rollout's choice elsewhere.

A game whose placing is under way (stopped for an action deck's reshuffle, `placing`)
takes no decision under any policy: its placing goes on (`_driver.after_kernel`).

Every game stops where the rules hand something to NumPy (its status, place.py's codes):
the end of its hands (refill or the end of the game), an action deck to reshuffle.

`drive` is a rule (`inline`: no entry point, inlined where it is called) in two kernels, so
two machine codes of it: GIVEN's, inlined into `checked_step` with the policy as a constant
(the public step, its branches for the other policies folded away; the check, `illegal_at`,
inlined beside it), and `play`'s, Python's calls (RANDOM, ROLLOUT: the policy an int64),
compiled only where a process plays at random or rolls out. A first game that only steps
compiles one kernel, `checked_step`, with every rule inside it.
"""

from __future__ import annotations

from ..actions import (
    ANSWER_NO,
    ANSWER_YES,
    FREE_ROW_ACTION,
    LUCK_ACTION,
    N_ACTIONS,
    N_TILE_ACTIONS,
    NO_CARD_ACTION,
    PASS_ACTION,
)
from ..rules import DOUBLE, PLUS5, PLUS5_POINTS
from ..state import ASK_ACTION, ASK_DOUBLE, ASK_FREE_ROW, ASK_LUCK_CARD, ASK_PLUS5, PHASE_ASK, PHASE_PICK
from . import inline, kernel
from .answers import allows, legal_answers, store
from .place import ASKED, NEXT_TURN, PICKING, place_on
from .turns import HELD_BITS, SLOT_AT_FRACTION, SLOT_FOUND, SLOT_LAST, SLOT_OF_TILE, put_out

GIVEN, RANDOM, ROLLOUT = 0, 1, 2  # the policies



@inline
def rule_answer(b, s, t):
    """The heuristics' answer to game b's question (agents/board/heuristics.py): "+5"
    when the field's effect is worse than +5, "2×" always, a "+5" luck card unless the
    asker holds one per tile left in seat 0's hand (then "2×"); pro: no action card, the
    first free row."""
    ask = s.ask[b]
    if ask == ASK_PLUS5:
        row, field = s.row[b], s.field[b]
        effect = t.bull_sign[row, field] * t.bulls[s.queue[b, s.at[b]]] + t.fixed[row, field]
        return ANSWER_YES if effect < PLUS5_POINTS else ANSWER_NO
    if ask == ASK_DOUBLE:
        return ANSWER_YES
    if ask == ASK_LUCK_CARD:
        left = 0
        while left < s.hands.shape[2] and s.hands[b, 0, left] > 0:
            left += 1
        return LUCK_ACTION[DOUBLE] if s.luck[b, PLUS5, s.asker[b]] >= left else LUCK_ACTION[PLUS5]
    if ask == ASK_ACTION:
        return NO_CARD_ACTION
    if ask == ASK_FREE_ROW:
        for r in range(s.length.shape[1]):
            if s.length[b, r] == 0:
                return FREE_ROW_ACTION + r
        return FREE_ROW_ACTION
    return PASS_ACTION


@kernel
def play(s, t, e, report, policy, games, actions, numbers, limit, scratch, status, found):
    """`drive` from Python: random play and rollouts (the policy an int64; a step, GIVEN, goes
    through `checked_step`)."""
    drive(s, t, e, report, policy, games, actions, numbers, limit, scratch, status, found)


@inline
def drive(s, t, e, report, policy, games, actions, numbers, limit, scratch, status, found):
    """Every game of `games` (j-th: games[j]) under `policy` (the module doc), until it
    stops; status[j] says why (place.py's codes). `actions` (P, B) for GIVEN (and for
    ROLLOUT's first decision, or (0, 0)); `numbers` (g, P + K) for RANDOM; `limit` (g,)
    the turn ROLLOUT stops at; `scratch` (N_ACTIONS,); `found` (g, P) for GIVEN after the
    check, each seat's slot of its tile and tiles held as `illegal_at` found them (the
    hands not searched again), else (0, P). `e` is written only when `report`."""
    P = s.hands.shape[1]
    K = numbers.shape[1] - P
    given = policy == GIVEN or (policy == ROLLOUT and actions.shape[0] > 0)
    for j in range(len(games)):
        b = games[j]
        i = 0  # RANDOM: the game's answers used
        act = not placing(b, s)
        first = given  # the first decision takes the given actions
        why = PICKING
        while True:
            how = ((SLOT_FOUND if found.shape[0] else SLOT_OF_TILE) if first else SLOT_AT_FRACTION
                   if policy == RANDOM else SLOT_LAST)
            if act and s.phase[b] == PHASE_ASK:
                if first and (policy == GIVEN or actions[s.asker[b], b] >= 0):
                    answer = actions[s.asker[b], b]
                elif policy == RANDOM:
                    if i == K:
                        why = ASKED
                        break
                    answer = scratch[int(numbers[j, P + i] * legal_answers(b, s, t, scratch))]
                    i += 1
                else:
                    answer = rule_answer(b, s, t)
                store(b, s, answer)
            elif act and not put_out(b, s, t, how, actions, numbers, found, j):
                why = PICKING  # the first tile of two is out
                first = False
                if policy == ROLLOUT:
                    continue
                break
            act = True
            first = False
            why = place_on(b, s, t, e, report)
            if policy == GIVEN:
                break
            if why == ASKED:
                continue
            if policy == ROLLOUT and why == NEXT_TURN and s.turn[b] < limit[j]:
                continue
            break
        status[j] = why


@inline
def placing(b, s):
    """Whether game b's placing is under way: its tiles revealed (the queue holds them) and
    no question waiting, as after a stop for the action deck's reshuffle. (A turn's end
    empties the queue, so a game about to put out tiles holds none.)"""
    return s.phase[b] == PHASE_PICK and s.queue[b, 0] > 0


@kernel
def checked_step(s, t, e, report, games, actions, numbers, limit, scratch, status, found):
    """`Game.step` in one call (one trip from Python and back fewer a step: each costs the
    interpreter its caches, docs/speed.md): the check, `illegal_at`'s index of the first
    game of `games` whose actions are not legal, nothing written then; else -1, every game
    played under GIVEN (`drive`, with the tiles' slots the check found; `numbers`, `limit`
    empty; `found` (g, P) room). `found` with no rows: no check (an unchecked step, or the
    placing after a reshuffle), the same machine code."""
    j = illegal_at(s, t, games, actions, found) if found.shape[0] else -1
    if j < 0:  # GIVEN as a constant (numba: Literal[int](0)), the other policies' branches folded away:
        # the public step's replay 18.7 against 23.9 ms with the int64 policy Python's calls use
        # (docs/speed.md, 2026-12-07). Inlined, not a kernel called: a first game compiles this one kernel
        drive(s, t, e, report, GIVEN, games, actions, numbers, limit, scratch, status, found)
    return j


@inline
def illegal_at(s, t, games, actions, found):
    """The index j of the first game of `games` whose actions (P, B) are not legal (the
    asker's answer not among the legal answers; a tile not in its seat's hand, where a pro
    seat with an empty hand may pass), -1 when all are. Picking, found[j, p] is seat p's
    slot of its tile (0 for a pass) << HELD_BITS | its tiles held, for `put_out`
    (`found` (g, P))."""
    for j in range(len(games)):
        b = games[j]
        if s.phase[b] == PHASE_ASK:
            a = actions[s.asker[b], b]
            if not (0 <= a < N_ACTIONS and allows(b, s, t, a)):
                return j
            continue
        for p in range(s.hands.shape[1]):
            a = actions[p, b]
            tile = a + 1 if 0 <= a < N_TILE_ACTIONS else 0  # (0: no held tile; the held tiles are in front)
            held, slot = 0, -1
            while held < s.hands.shape[2] and s.hands[b, p, held] > 0:  # one pass: the slot and the count
                if s.hands[b, p, held] == tile:
                    slot = held
                held += 1
            if slot < 0 and not (t.pro and held == 0):
                return j
            found[j, p] = max(slot, 0) << HELD_BITS | held
    return -1
