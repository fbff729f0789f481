"""Tests of the board-game scalar reference (tests/support/reference_board.py) itself.

Three parts: the board as data and the set-up; every rule of docs/rules/board-game.md
(variants 1-2, basic side) as a table of scripted cases with ids; invariants over many
random games at 2-6 players. The engine is later checked against this reference.

Notation in the cases: boards are {row: tiles} for the active rows (rows 0..9, the rules'
R1..R10); fields are 1-based. The default basic board (field 1 first):
    R1 . . + - T         R6  . 2 + - . T
    R2 . + . - . T       R7  . - 2 T
    R3 . - + T           R8  . + . 2 - . T
    R4 . . + . -3 . T    R9  . 2 - +2 T
    R5 . + - . T         R10 . + 2 - . T
Default bullheads used below: 10, 20, 30, 40, 50, 60, 80 -> 3; 11, 22, 44 -> 5; 15 -> 2;
every other tile named -> 1.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.support import reference_board as ref
from tests.support.board_cases import B0, CASES, active_of, board_of, bullheads_with

# =========================================================================== helpers


def run_case(case: dict) -> tuple[ref.State, list[ref.TurnResult]]:
    """Play a case's turns from its position with its scripted answers; every answer must be asked."""
    rules = ref.Rules(**case.get("rules", {}))
    state = ref.position(
        rules,
        board_of(case["board"], len(rules.rows)),
        case["hands"],
        scores=case.get("scores"),
        luck=case.get("luck"),
        stacks=case.get("stacks"),
        pointer=case.get("pointer", 3),
        supply=case.get("supply", ()),
        refill_due=case.get("refill_due", False),
    )
    script = ref.Script(case.get("answers", []))
    results = []
    for tiles in case["turns"]:
        result = ref.play_turn(state, tiles, script)
        results.append(result)
        state = result.state
    script.finish()
    return state, results


# =========================================================================== the board as data and the set-up


def test_default_basic_board_is_the_rules_table():
    rows = ref.DEFAULT_BASIC_ROWS
    assert [len(r) for r in rows] == [5, 6, 4, 7, 5, 6, 4, 7, 5, 6]
    assert len(rows[0]) - 1 == 4  # "Row 1 has 4 fields to place on; the next placement takes it"
    assert any(r[3] == "T" for r in rows)  # the review's take example: a take field at field 4
    assert all(r[0] == "." and r[-1] == "T" and "T" not in r[:-1] for r in rows)
    assert [r for r in range(10) if "2" in rows[r]] == [5, 6, 7, 8, 9]  # play two only in rows 6-10
    assert [code for r in rows for code in r if ref.field_kind(code) == "fixed"] == ["-3", "+2"]
    ref.check_rules(ref.Rules())


def test_default_bullheads_and_clovers():
    table = ref.DEFAULT_BULLHEADS
    assert sorted(table) == list(range(1, 101))
    assert sum(table.values()) == 165
    assert [table[t] for t in (11, 55, 99, 10, 100, 5, 95, 1, 57)] == [5, 5, 5, 3, 3, 2, 2, 1, 1]
    assert Counter(table.values()) == {5: 9, 3: 10, 2: 9, 1: 72}
    assert 0 not in ref.DEFAULT_CLOVERS
    assert all(c % 10 == 0 for c in ref.DEFAULT_CLOVERS)
    assert {-60, -10, 10, 60, -1000, 1000} <= set(ref.DEFAULT_CLOVERS)
    assert ref.DEFAULT_LUCK_STACKS == {"+5": 6, "2x": 6}


def test_bullheads_as_a_list():
    values = [((t % 5) or 5) for t in range(1, 101)]
    assert ref.Rules(bullheads=values).bullheads[7] == 2


BAD_RULES = [
    ("unknown variant", {"variant": "pro"}, "variant"),
    ("unknown next_row", {"next_row": "choose"}, "next_row"),
    ("four rows only", {"rows": [[".", "T"]] * 4}, "at least 5 rows"),
    ("a one-field row", {"rows": [["T"]] + [[".", "T"]] * 4}, "at least 2 fields"),
    ("no take field last", {"rows": [[".", "+"]] + [[".", "T"]] * 4}, "last field"),
    ("a take field inside", {"rows": [[".", "T", "T"]] + [[".", "T"]] * 4}, "only last"),
    ("field 1 not plain", {"rows": [["+", "T"]] + [[".", "T"]] * 4}, "field 1 is plain"),
    ("pro code on the basic side", {"rows": [[".", "D", "T"]] + [[".", "T"]] * 4}, "unknown"),
    ("fixed value 0", {"rows": [[".", "+0", "T"]] + [[".", "T"]] * 4}, "unknown"),
    ("99 bullhead values", {"bullheads": [1] * 99}, "100"),
    ("six bullheads", {"bullheads": bullheads_with({7: 6})}, "1-5"),
    ("a missing tile", {"bullheads": {t: 1 for t in range(1, 100)}}, "1..100"),
    ("a clover not an int", {"clovers": [10, 2.5]}, "clovers"),
    ("a negative stack", {"luck_stacks": {"+5": -1, "2x": 6}}, "luck_stacks"),
]


@pytest.mark.parametrize("name,kwargs,message", BAD_RULES, ids=[c[0] for c in BAD_RULES])
def test_bad_rules_are_refused(name, kwargs, message):
    with pytest.raises(ValueError, match=message):
        ref.Rules(**kwargs)


@pytest.mark.parametrize("players", range(2, 7))
def test_setup(players):
    hands, start, draws = ref.deal(players, random.Random(players))
    assert sorted([t for h in hands for t in h] + start + draws) == list(range(1, 101))
    state = ref.new_game(ref.Rules(), hands, start, draws)
    # "four start tiles go on field 1 of the top four rows"; the other six rows are free.
    assert state.board == [[t] for t in start] + [[]] * 6
    assert [len(h) for h in state.hands] == [12] * players  # "Each player draws 12 tiles"
    assert state.supply == draws  # in draw order
    assert len(state.supply) == 100 - 4 - 12 * players
    assert state.scores == [0] * players  # "everyone starts at 0"
    assert state.stacks == {"+5": 6, "2x": 6}
    assert state.luck == [{"+5": 0, "2x": 0}] * players
    assert state.pointer == 3  # "rotate": row 4 after set-up
    assert state.refill_due == (players <= 3)  # the 2-3-player refill
    assert ref.tiles_per_seat(state) == 1  # rows 1-4 hold no play-two field
    assert not ref.game_over(state)


BAD_SETUPS = [
    ("one player", lambda h, s, d: (h[:1], s, d), "players"),
    ("seven players", lambda h, s, d: (h + [[0]] * 5, s, d), "players"),
    ("a hand of 11", lambda h, s, d: ([h[0][:11]] + h[1:], s, d), "12 tiles"),
    ("three start tiles", lambda h, s, d: (h, s[:3], d), "4 start tiles"),
    ("a tile dealt twice", lambda h, s, d: (h, [h[0][0]] + s[1:], d), "twice"),
    ("tile 101", lambda h, s, d: (h, s, d + [101]), "1..100"),
]


@pytest.mark.parametrize("name,change,message", BAD_SETUPS, ids=[c[0] for c in BAD_SETUPS])
def test_bad_setups_are_refused(name, change, message):
    hands, start, draws = ref.deal(2, random.Random(0))
    with pytest.raises(ValueError, match=message):
        ref.new_game(ref.Rules(), *change(hands, start, draws))


# =========================================================================== the rules as scripted cases
#
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_rule_case(case):
    state, results = run_case(case)
    asked = [a for r in results for a in r.asked]
    assert [(a.seat, a.ask, a.answer) for a in asked] == case.get("answers", [])
    if "options" in case:
        assert [a.options for a in asked] == case["options"]
    if "asks_per_turn" in case:
        assert [[a.ask for a in r.asked] for r in results] == case["asks_per_turn"]
    if "board_after" in case:
        assert active_of(state.board) == case["board_after"]
    if "effects" in case:
        assert [(e.seat, e.tile, e.cause, e.points) for r in results for e in r.effects] == case["effects"]
    if "placements" in case:
        got = [(p.seat, p.tile, p.row, p.field, p.too_low, p.moved) for r in results for p in r.placements]
        assert got == case["placements"]
    if "counts" in case:
        assert [r.count for r in results] == case["counts"]
    if "removed" in case:
        assert state.removed == case["removed"]
    for key in ("scores", "luck", "stacks", "hands", "supply", "pointer"):
        if key + "_after" in case:
            assert getattr(state, key) == case[key + "_after"], key
    if "over" in case:
        assert ref.game_over(state) == case["over"]
    if "winners" in case:
        assert ref.winners(state.scores) == case["winners"]
    # every case: the scores moved by exactly the effects, and four rows stay active
    start = case.get("scores") or [0] * len(case["hands"])
    assert state.scores == [start[s] + sum(r.deltas[s] for r in results) for s in range(len(start))]
    assert len(active_of(state.board)) == 4


def test_every_field_kind_and_cause_has_a_case():
    causes = {effect[2] for case in CASES for effect in case.get("effects", [])}
    assert causes == {"plain", "green", "red", "fixed", "play_two", "take", "plus5", "take_2x"}


def test_decisions_in_the_record_form():
    case = next(c for c in CASES if c["id"] == "order-on-a-take-double-then-luck-cards-then-field-1-plus5")
    _, results = run_case(case)
    assert ref.record_decisions(results[0].asked) == [
        {"seat": 0, "ask": "use_double", "answer": False},
        {"seat": 0, "ask": "luck_card", "answer": "+5"},
        {"seat": 0, "ask": "use_plus5", "answer": True},
    ]


# =========================================================================== bad input during play


def small_position(**kwargs) -> ref.State:
    """Two seats on B0 with the given hands (default 11 and 41)."""
    return ref.position(ref.Rules(**kwargs), board_of(B0), [[11], [41]])


def test_play_turn_refuses_bad_tiles():
    state = small_position()
    with pytest.raises(ValueError, match="does not hold tile 12"):
        ref.play_turn(state, [[12], [41]])
    with pytest.raises(ValueError, match="must put out 1 tile"):
        ref.play_turn(state, [[], [41]])
    with pytest.raises(ValueError, match="need the tiles of 2 seats"):
        ref.play_turn(state, [[11]])
    over = ref.play_turn(state, [[11], [41]]).state
    with pytest.raises(ValueError, match="the game is over"):
        ref.play_turn(over, [[], []])
    assert state.hands == [[11], [41]]  # the input state is never mutated


def test_a_decision_must_be_one_of_the_options():
    state = ref.position(ref.Rules(variant="luck"), board_of(B0), [[11], [41]], luck=[{"+5": 1}, {}])
    with pytest.raises(ValueError, match="not one of"):
        ref.play_turn(state, [[11], [41]], lambda seat, ask, options: 1)  # 1 == True, but not a bool
    with pytest.raises(ValueError, match="no decide callback"):
        ref.play_turn(state, [[11], [41]])


def test_bad_positions_are_refused():
    with pytest.raises(ValueError, match="4 active rows"):
        ref.position(ref.Rules(), board_of({0: [10], 1: [20], 2: [30]}), [[11], [41]])
    with pytest.raises(ValueError, match="takes"):
        ref.position(ref.Rules(), board_of({0: [1, 2, 3, 4, 5], 1: [20], 2: [30], 3: [40]}), [[11], [41]])
    with pytest.raises(ValueError, match="twice"):
        ref.position(ref.Rules(), board_of(B0), [[10], [41]])


def test_refill_needs_enough_draws():
    state = ref.position(ref.Rules(), board_of(B0), [[11], [41]], supply=[50, 51], refill_due=True)
    with pytest.raises(ValueError, match="refill needs 24"):
        ref.play_turn(state, [[11], [41]])


# =========================================================================== invariants over random games


def random_pick(rng: random.Random) -> ref.Pick:
    """Uniformly random tiles from the hand."""
    return lambda state, seat, count: rng.sample(state.hands[seat], count)


class RandomDecide:
    """Uniformly random answers; remembers every (seat, ask, options, answer) it gave."""

    def __init__(self, rng: random.Random) -> None:
        """Start with no answers given."""
        self.rng = rng
        self.given: list[tuple[int, str, list, object]] = []

    def __call__(self, seat: int, ask: str, options: list):
        """Pick any option."""
        answer = self.rng.choice(options)
        self.given.append((seat, ask, list(options), answer))
        return answer


def crossed(clovers: list[int], old: int, new: int) -> int:
    """Clovers a loss from old to new passes or lands on."""
    return len({c for c in clovers if new <= c < old})


def check_game(rules: ref.Rules, players: int, seed: int) -> ref.GameResult:
    """Play one random game and check every invariant after every turn."""
    rng = random.Random(seed)
    hands, start, draws = ref.deal(players, rng)
    decide = RandomDecide(rng)
    game = ref.play_game(rules, hands, start, draws, random_pick(rng), decide)
    kinds = ref.LUCK_KINDS
    total_cards = rules.luck_stacks

    state = ref.new_game(rules, hands, start, draws)
    scores = [0] * players
    played: list[int] = []
    for t, result in enumerate(game.turns):
        after = result.state
        # four active rows at all times (between turns; a take refills its row's count at once)
        assert len(active_of(after.board)) == 4
        # every tile exactly once: on the board, removed, in a hand or still in the supply
        on_board = [x for row in after.board for x in row]
        where = on_board + after.removed + [x for h in after.hands for x in h] + after.supply
        assert sorted(where) == list(range(1, 101)), f"turn {t}"
        # the tiles of the turn: from the hands, as many as the rule says
        for seat, chosen in enumerate(result.tiles):
            assert len(chosen) == min(result.count, len(state.hands[seat]))
            assert set(chosen) <= set(state.hands[seat])
        turn_tiles = sorted(x for chosen in result.tiles for x in chosen)
        played += turn_tiles
        placed = [p for p in result.placements if not p.moved]
        assert [p.tile for p in placed] == turn_tiles  # each once, lowest first
        # scores = the sum of the effects, and each effect is what its field says
        for e in result.effects:
            scores[e.seat] += e.points
            code = rules.rows[e.row][e.field - 1]
            bulls = rules.bullheads[e.tile]
            if e.cause == "plus5":
                assert e.points == 5 and code != "T"
            elif e.cause in ("take", "take_2x"):
                assert code == "T"
            else:
                assert e.points == ref.field_points(code, bulls) and e.cause == ref.field_kind(code)
            if e.gained:
                assert rules.variant == "luck" and e.points < 0
                assert len(e.gained) <= crossed(rules.clovers, scores[e.seat] - e.points, scores[e.seat])
        assert after.scores == scores
        takes = [e for e in result.effects if e.cause.startswith("take")]
        assert len(takes) == sum(p.moved for p in result.placements)  # each take moves its tile once
        assert not set(result.removed) & set(on_board)
        # decisions: only from the legal options, only with a usable card, none in the basic variant
        held = [dict(c) for c in state.luck]
        stacks = dict(state.stacks)
        for a in result.asked:
            assert rules.variant == "luck"
            if a.ask == "luck_card":
                assert a.options == [k for k in kinds if stacks[k] > 0] and a.answer in a.options
                stacks[a.answer] -= 1
            else:
                assert a.options == [True, False] and isinstance(a.answer, bool)
                assert a.ask in ("use_plus5", "use_double")
                kind = "+5" if a.ask == "use_plus5" else "2x"
                assert held[a.seat][kind] > 0, "offered a card the seat did not hold at the start of the turn"
                if a.answer:
                    held[a.seat][kind] -= 1
                    stacks[kind] += 1
        assert stacks == after.stacks
        # luck cards are conserved: on the stacks or in the hands
        for k in kinds:
            assert after.stacks[k] + sum(c[k] for c in after.luck) == total_cards[k]
        state = after

    assert ref.game_over(state)
    refill = draws[: 12 * players] if players <= 3 else []
    assert sorted(played) == sorted([x for h in hands for x in h] + refill)  # every dealt tile, each once
    assert game.scores == scores and game.winners == ref.winners(scores)
    assert [a[:2] + (a[3],) for a in decide.given] == [(a.seat, a.ask, a.answer) for r in game.turns for a in r.asked]
    return game


GAME_CONFIGS = [
    (players, variant, next_row)
    for players in range(2, 7)
    for variant in ("basic", "luck")
    for next_row in ("scan", "rotate")
]


@pytest.mark.parametrize("players,variant,next_row", GAME_CONFIGS, ids=[f"{p}p-{v}-{n}" for p, v, n in GAME_CONFIGS])
def test_random_games_keep_the_invariants(players, variant, next_row):
    rules = ref.Rules(variant=variant, next_row=next_row)
    for seed in range(12):
        check_game(rules, players, 1000 * players + seed)


@pytest.mark.parametrize("players", range(2, 7))
def test_random_games_with_dense_clovers_and_small_stacks(players):
    """Clovers on every multiple of 3 and stacks of 2: gains, empty stacks and returns happen often."""
    rules = ref.Rules(variant="luck", clovers=list(range(-300, 301, 3)), luck_stacks={"+5": 2, "2x": 2})
    seen = Counter()
    for seed in range(15):
        game = check_game(rules, players, 77 * players + seed)
        for r in game.turns:
            seen.update(a.ask for a in r.asked)
            seen.update("one-option" for a in r.asked if a.ask == "luck_card" and len(a.options) == 1)
    assert {"luck_card", "use_plus5", "use_double", "one-option"} <= set(seen)


def test_random_games_gain_one_card_per_clover_while_stacks_last():
    """With stacks too big to run out, every loss gains exactly one card per clover it passes."""
    rules = ref.Rules(variant="luck", clovers=list(range(-300, 301, 4)), luck_stacks={"+5": 500, "2x": 500})
    for seed in range(10):
        game = check_game(rules, 2 + seed % 5, seed)
        scores = [0] * len(game.scores)
        for r in game.turns:
            for e in r.effects:
                old = scores[e.seat]
                scores[e.seat] += e.points
                expected = crossed(rules.clovers, old, scores[e.seat]) if e.points < 0 else 0
                assert len(e.gained) == expected


@pytest.mark.parametrize("players,tiles_each", [(2, 24), (3, 24), (4, 12), (5, 12), (6, 12)])
def test_tiles_played_per_seat(players, tiles_each):
    """'With 2-3 players each player refills once, playing 24 tiles in all; with 4-6 players, 12.'"""
    game = check_game(ref.Rules(), players, players)
    for seat in range(players):
        assert sum(len(r.tiles[seat]) for r in game.turns) == tiles_each
    refills = [t for t, r in enumerate(game.turns) if r.refilled]
    assert len(refills) == (1 if players <= 3 else 0)
    if refills:  # at the end of the turn in which every hand became empty: its tiles were the last ones
        t = refills[0]
        before = game.turns[t - 1].state
        assert [len(chosen) for chosen in game.turns[t].tiles] == [len(h) for h in before.hands]
        assert [len(h) for h in game.turns[t].state.hands] == [12] * players


def test_play_two_turns_happen_and_follow_the_rule():
    """In random games, every turn's count is 2 exactly when an active row had an uncovered play-two field."""
    rules = ref.Rules()
    seen = set()
    for seed in range(20):
        rng = random.Random(seed)
        hands, start, draws = ref.deal(4, rng)
        game = ref.play_game(rules, hands, start, draws, random_pick(rng))
        before = ref.new_game(rules, hands, start, draws)
        for r in game.turns:
            open_rows = [r for r, tiles in enumerate(before.board) if tiles and "2" in rules.rows[r][len(tiles) :]]
            assert r.count == (2 if open_rows else 1)
            seen.add(r.count)
            before = r.state
    assert seen == {1, 2}
