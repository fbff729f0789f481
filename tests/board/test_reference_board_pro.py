"""Tests of the pro-side scalar reference (tests/support/reference_board_pro.py) itself.

Four parts: the board and the material as data, and the set-up; the pro rules as the
scripted cases of tests/support/board_pro_cases.py (one test per case id); bad input; invariants
over a few hundred random pro and pro-luck games at 2-6 players (every tile and every
action card in exactly one place, scores the sum of the effects, each effect what its
field says, games end, the record of decisions replays to the same game).
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from tests.support import reference_board_pro as ref
from tests.support.board_pro_cases import BASE, CASES, active_of, board_of, cards

# =========================================================================== helpers


def case_state(case: dict) -> ref.State:
    """The position a case starts from."""
    rules = ref.Rules(**case.get("rules", {}))
    return ref.position(
        rules,
        board_of(case["board"], len(rules.rows)),
        case["hands"],
        scores=case.get("scores"),
        actions=case.get("actions"),
        deck=case.get("deck"),
        discards=case.get("discards"),
        action_draws=case.get("action_draws", ()),
        luck=case.get("luck"),
        stacks=case.get("stacks"),
        supply=case.get("supply", ()),
        refill_due=case.get("refill_due", False),
        stops=case.get("stops", ()),
    )


def run_case(case: dict) -> tuple[ref.State, list[ref.TurnResult]]:
    """Play a case's turns with its scripted answers; every answer must be asked."""
    state = case_state(case)
    script = ref.Script(case.get("answers", []))
    results = []
    for tiles in case["turns"]:
        result = ref.play_turn(state, tiles, script)
        results.append(result)
        state = result.state
    script.finish()
    return state, results


def luck_of(held: dict) -> dict:
    """A luck hand with every kind named."""
    return {kind: held.get(kind, 0) for kind in ref.LUCK_KINDS}


# =========================================================================== the board as data and the set-up


def test_default_pro_board_is_the_rules_table():
    rows = ref.DEFAULT_PRO_ROWS
    assert [len(r) for r in rows] == [5, 6, 4, 7, 5, 6, 4, 7, 5, 6]
    # "The take fields of rows 1 and 4 give the row's tiles into the player's hand"
    assert [r[-1] for r in rows] == ["H", "T", "T", "H", "T", "T", "T", "T", "T", "T"]
    assert all(code not in ("T", "H") for r in rows for code in r[:-1])
    # "every field is special (field 1 included)"
    assert all(code != "." for r in rows for code in r)
    assert [r for r in range(10) if "2" in rows[r]] == [5, 6, 7, 8, 9]
    assert Counter(code for r in rows for code in r)["D"] == 6
    assert Counter(code for r in rows for code in r)["A"] == 8
    ref.check_rules(ref.Rules())
    ref.check_rules(ref.Rules(variant="pro-luck"))


def test_material_counts():
    assert ref.DEFAULT_ACTION_DECK == {k: 4 for k in ("stop", "swap", "skip", "front", "ascending", "one_more")}
    assert sum(ref.DEFAULT_ACTION_DECK.values()) == 24  # "24 action cards"
    assert ref.STOP_SIGNS == 2 and ref.START_ACTION_CARDS == 2
    assert sum(ref.DEFAULT_BULLHEADS.values()) == 165


BAD_RULES = [
    ("basic variant", {"variant": "basic"}, "variant"),
    ("no take field last", {"rows": [["-", "+"]] + [["-", "T"]] * 4}, "last field"),
    ("H inside a row", {"rows": [["-", "H", "T"]] + [["-", "T"]] * 4}, "only last"),
    ("T inside a row", {"rows": [["T", "H"]] + [["-", "T"]] * 4}, "only last"),
    ("unknown code", {"rows": [["X", "T"]] + [["-", "T"]] * 4}, "unknown"),
    ("four rows", {"rows": [["-", "T"]] * 4}, "at least 5 rows"),
    ("a one-field row", {"rows": [["H"]] + [["-", "T"]] * 4}, "at least 2 fields"),
    ("a deck without kinds", {"action_deck": {"stop": 4}}, "action_deck"),
    ("a negative deck count", {"action_deck": {**ref.DEFAULT_ACTION_DECK, "skip": -1}}, "action_deck"),
    ("four stop signs", {"stop_signs": 4}, "stop_signs"),
    ("six bullheads", {"bullheads": [6] * 100}, "1-5"),
]


@pytest.mark.parametrize("name,kwargs,message", BAD_RULES, ids=[c[0] for c in BAD_RULES])
def test_bad_rules_are_refused(name, kwargs, message):
    with pytest.raises(ValueError, match=message):
        ref.Rules(**kwargs)


def test_plain_and_fixed_fields_are_accepted_on_the_pro_side():
    """ "any field code may stand anywhere but the last field" """
    rules = ref.Rules(rows=[[".", "+3", "-2", "2", "D", "A", "H"]] + [list(r) for r in ref.DEFAULT_PRO_ROWS[1:]])
    assert ref.field_kind(rules.rows[0][1]) == "fixed" and ref.field_points("-2", 5) == -2


@pytest.mark.parametrize("players", range(2, 7))
def test_setup(players):
    rng = random.Random(players)
    rules = ref.Rules()
    hands, start, draws = ref.deal(players, rng)
    deck = ref.shuffled_deck(rules, rng)
    state = ref.new_game(rules, hands, start, draws, deck)
    # start tiles on field 1 of rows 1-4; "Start tiles cover field 1 but trigger nothing"
    assert state.board == [[t] for t in start] + [[]] * 6
    assert state.scores == [0] * players and state.supply == draws
    assert state.hands == [sorted(h) for h in hands]
    # "Each player starts with 2 action cards", dealt in the order of action_draws, seat 0 first
    assert state.actions == [ref.sort_cards(deck[2 * s : 2 * s + 2]) for s in range(players)]
    assert state.drawn_actions == deck[: 2 * players]
    assert state.action_draws == deck[2 * players :]
    assert sum(state.deck.values()) == 24 - 2 * players and state.discards == cards()
    assert state.refill_due == (players <= 3)
    assert state.stops == [] and not state.over
    assert ref.tiles_per_seat(state) == 1


def test_setup_refuses_a_partial_supply_and_a_short_deal():
    hands, start, draws = ref.deal(2, random.Random(0))
    deck = ref.shuffled_deck(ref.Rules(), random.Random(0))
    with pytest.raises(ValueError, match="every tile not dealt"):
        ref.new_game(ref.Rules(), hands, start, draws[:-1], deck)
    with pytest.raises(ValueError, match="need 4 cards"):
        ref.new_game(ref.Rules(), hands, start, draws, deck[:3])
    with pytest.raises(ValueError, match="no longer in the deck"):
        ref.new_game(ref.Rules(action_deck={**ref.DEFAULT_ACTION_DECK, "stop": 3}), hands, start, draws, ["stop"] * 4)


# =========================================================================== the rules as scripted cases


def test_case_ids_are_unique_and_many():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)) and 40 <= len(ids) <= 70


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_pro_rule_case(case):
    if "error" in case:
        # the last answer is illegal: refused, and the message names the legal set
        with pytest.raises(ValueError, match=re.escape(case["error"])):
            run_case(case)
        return
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
        got = [(p.seat, p.tile, p.row, p.field, p.how) for r in results for p in r.placements]
        assert got == case["placements"]
    if "counts" in case:
        assert [r.count for r in results] == case["counts"]
    if "stops_per_turn" in case:
        assert [r.stops for r in results] == case["stops_per_turn"]
    if "removed" in case:
        assert state.removed == case["removed"]
    if "hands_after" in case:
        assert state.hands == [sorted(h) for h in case["hands_after"]]
    if "actions_after" in case:
        assert state.actions == [ref.sort_cards(c) for c in case["actions_after"]]
    if "luck_after" in case:
        assert state.luck == [luck_of(h) for h in case["luck_after"]]
    for key in ("deck", "discards"):
        if key + "_after" in case:
            assert getattr(state, key) == cards(**case[key + "_after"]), key
    for key in ("scores", "supply", "stacks", "action_draws"):
        if key + "_after" in case:
            assert getattr(state, key) == case[key + "_after"], key
    if "over" in case:
        assert state.over == case["over"]
    if "winners" in case:
        assert ref.winners(state.scores) == case["winners"]
    # every case: scores moved by exactly the effects, four rows active, no sign left standing
    start = case.get("scores") or [0] * len(case["hands"])
    assert state.scores == [start[s] + sum(r.deltas[s] for r in results) for s in range(len(start))]
    assert len(active_of(state.board)) == 4 and state.stops == []


def test_every_cause_placement_and_card_has_a_case():
    causes = {e[2] for c in CASES for e in c.get("effects", [])}
    assert causes == {"red", "green", "fixed", "play_two", "draw_tile", "draw_action", "take", "take_2x",
                      "take_hand", "plus5", "end_cards", "end_tiles"}
    hows = {p[4] for c in CASES for p in c.get("placements", [])}
    assert hows == {"rules", "too_low", "moved", "skip", "front", "ascending"}
    played = {a[2]["card"] for c in CASES for a in c.get("answers", []) if a[1] == "action" and a[2]}
    assert played == set(ref.ACTION_KINDS)
    asks = {a[1] for c in CASES for a in c.get("answers", [])}
    assert asks == {"action", "free_row", "luck_card", "use_plus5", "use_double"}


def test_decisions_in_the_record_form():
    case = next(c for c in CASES if c["id"] == "luck-order-action-double-luck-card-free-row-plus5-luck-card")
    _, results = run_case(case)
    assert ref.record_decisions(results[0].asked) == [
        {"seat": 0, "ask": "action", "answer": None},
        {"seat": 0, "ask": "use_double", "answer": False},
        {"seat": 0, "ask": "luck_card", "answer": "+5"},
        {"seat": 0, "ask": "free_row", "answer": 4},
        {"seat": 0, "ask": "use_plus5", "answer": False},
        {"seat": 0, "ask": "luck_card", "answer": "2x"},
    ]


# =========================================================================== bad input


def small(**kwargs) -> ref.State:
    """Two seats on BASE holding 13 and 24 and a spare each."""
    return ref.position(ref.Rules(), board_of(BASE), [[13, 98], [24, 99]], **kwargs)


def test_play_turn_refuses_bad_tiles_and_never_mutates():
    state = small()
    with pytest.raises(ValueError, match="does not hold tile 12"):
        ref.play_turn(state, [[12], [24]])
    with pytest.raises(ValueError, match="must put out 1 tile"):
        ref.play_turn(state, [[13, 98], [24]])
    with pytest.raises(ValueError, match="need the tiles of 2 seats"):
        ref.play_turn(state, [[13]])
    ref.play_turn(state, [[13], [24]])
    assert state.hands == [[13, 98], [24, 99]] and state.board == board_of(BASE)


def test_an_action_ask_needs_a_callback_and_a_legal_answer():
    state = small(actions=[["skip"], []])
    with pytest.raises(ValueError, match="no decide callback"):
        ref.play_turn(state, [[13], [24]])
    with pytest.raises(ValueError, match=re.escape("is not one of [None, {'card': 'skip'}]")):
        ref.play_turn(state, [[13], [24]], lambda seat, ask, options: {"card": "front", "row": 0})


def test_the_game_over_refuses_a_turn():
    state = ref.play_turn(ref.position(ref.Rules(), board_of(BASE), [[13], [24]]), [[13], [24]]).state
    assert state.over
    with pytest.raises(ValueError, match="the game is over"):
        ref.play_turn(state, [[], []])


def test_an_action_draw_must_be_in_the_deck_and_listed():
    board = board_of({0: [10, 12], 1: [20, 21, 23], 2: [30], 3: [40]})
    listed = ref.position(ref.Rules(action_deck=cards(swap=4)), board, [[41, 98], [31, 99]], action_draws=["stop"])
    with pytest.raises(ValueError, match="the deck holds none"):
        ref.play_turn(listed, [[41], [31]])
    unlisted = ref.position(ref.Rules(), board, [[41, 98], [31, 99]])
    with pytest.raises(ValueError, match="action_draws is exhausted"):
        ref.play_turn(unlisted, [[41], [31]])
    drawn = ref.play_turn(unlisted, [[41], [31]], rng=random.Random(1)).state  # a shuffled deck instead
    assert len(drawn.actions[0]) == 1 and drawn.drawn_actions == drawn.actions[0]


BAD_POSITIONS = [
    ("three active rows", dict(board={0: [10], 1: [20], 2: [30]}), "4 active rows"),
    ("a tile on a take field", dict(board={0: [10, 11, 12, 13, 14], 1: [20], 2: [30], 3: [40]}), "takes"),
    ("a gap last", dict(board={0: [10, None], 1: [20], 2: [30], 3: [40]}), "must hold tiles"),
    ("a tile twice", dict(board={0: [13], 1: [20], 2: [30], 3: [40]}), "twice"),
    ("cards not adding up", dict(deck=cards(stop=4)), "add up"),
    ("a stop sign on a free row", dict(stops=[5]), "active row"),
    ("three stop signs", dict(stops=[0, 1, 2]), "at most 2"),
]


@pytest.mark.parametrize("name,change,message", BAD_POSITIONS, ids=[c[0] for c in BAD_POSITIONS])
def test_bad_positions_are_refused(name, change, message):
    kwargs = {"board": BASE, **change}
    board = kwargs.pop("board")
    with pytest.raises(ValueError, match=message):
        ref.position(ref.Rules(), board_of(board), [[13, 98], [24, 99]], **kwargs)


# =========================================================================== invariants over random games


class RandomPlayer:
    """Random tiles and answers (an action card is declined half the time, so games differ in length)."""

    def __init__(self, rng: random.Random) -> None:
        """Remember every answer given."""
        self.rng = rng
        self.given: list[tuple[int, str, object]] = []

    def pick(self, state: ref.State, seat: int, count: int) -> list[int]:
        """Any `count` tiles of the hand."""
        return self.rng.sample(state.hands[seat], count)

    def decide(self, seat: int, ask: str, options: list):
        """Any option (None for half the action asks)."""
        if ask == "action" and self.rng.random() < 0.5:
            answer = None
        else:
            answer = self.rng.choice(options)
        self.given.append((seat, ask, answer))
        return answer


def check_turn(before: ref.State, result: ref.TurnResult) -> None:
    """Everything a turn must keep, given the state before it."""
    rules, after = before.rules, result.state
    # four active rows; nothing on a take field; field 1 and the last used field hold tiles
    assert len(active_of(after.board)) == 4
    for r, row in enumerate(after.board):
        if row:
            assert len(row) < len(rules.rows[r]) and row[0] is not None and row[-1] is not None
    # every tile exactly once: board, hands, supply or out of the game
    on_board = [t for row in after.board for t in row if t is not None]
    where = on_board + [t for h in after.hands for t in h] + after.supply + after.removed
    assert sorted(where) == list(ref.TILES)
    # every action card exactly once: deck, discards or a hand (a played card is discarded at once)
    for kind in ref.ACTION_KINDS:
        total = after.deck[kind] + after.discards[kind] + sum(c.count(kind) for c in after.actions)
        assert total == rules.action_deck[kind]
    # luck cards: on a stack or in a hand; none asked about in "pro"
    for kind in ref.LUCK_KINDS:
        assert after.stacks[kind] + sum(h[kind] for h in after.luck) == rules.luck_stacks[kind]
    if not rules.luck:
        assert {a.ask for a in result.asked} <= {"action", "free_row"}
    # signs: at most 2, on distinct rows, all gone after the turn
    assert len(set(result.stops)) == len(result.stops) <= 2 and after.stops == []
    # tiles put out: from the hand, as many as the rule says
    for seat, chosen in enumerate(result.tiles):
        assert len(chosen) == min(result.count, len(before.hands[seat])) and set(chosen) <= set(before.hands[seat])
    assert result.count == ref.tiles_per_seat(before)
    # scores: before + the effects; each effect is what its field says
    assert after.scores == [before.scores[s] + result.deltas[s] for s in range(before.players)]
    assert result.deltas == [sum(e.points for e in result.effects if e.seat == s) for s in range(before.players)]
    supply = list(before.supply)
    for e in result.effects:
        if e.cause in ("end_cards", "end_tiles"):
            continue
        code = rules.rows[e.row][e.field - 1]
        if e.cause == "plus5":
            assert rules.luck and e.points == 5 and code not in ("T", "H")
        elif e.cause in ("take", "take_2x"):
            assert code == "T"
        elif e.cause == "take_hand":
            assert code == "H" and e.points == 0 and e.got
        else:
            assert e.cause == ref.field_kind(code)
            assert e.points == ref.field_points(code, rules.bullheads[e.tile])
            if e.cause == "draw_tile":  # the supply's front tile, or nothing when empty
                assert e.got == (supply.pop(0) if supply else None)
        if e.gained:
            assert rules.luck and e.points < 0
    takes = sum(e.cause.startswith("take") for e in result.effects)
    assert takes == sum(p.how == "moved" for p in result.placements)
    # placed tiles: one per tile put out and per One more played (Swap replaces a tile)
    plays = [a.answer["card"] for a in result.asked if a.ask == "action" and a.answer]
    assert sum(p.how != "moved" for p in result.placements) == sum(map(len, result.tiles)) + plays.count("one_more")
    # a placing card ends the offering: at most one per tile placed
    assert sum(plays.count(k) for k in ref.PLACING_CARDS) <= sum(p.how in ref.PLACING_CARDS for p in result.placements)
    # every answer was a legal option; action asks only to a seat holding a card
    for a in result.asked:
        assert a.answer in a.options
        if a.ask == "action":
            assert a.options[0] is None
        if a.ask == "free_row":
            assert a.options == sorted(a.options)
    # the end: only when a hand is empty after the refill; then the final scoring
    if result.over:
        assert any(not h for h in after.hands)
        final = [e for e in result.effects if e.cause.startswith("end_")]
        ends = [(s, c) for s in range(after.players) for c in ("end_cards", "end_tiles")]
        assert [(e.seat, e.cause) for e in final] == ends
        for s in range(after.players):
            assert final[2 * s].points == len(after.actions[s])
            assert final[2 * s + 1].points == -sum(rules.bullheads[t] for t in after.hands[s])
    else:
        assert all(after.hands)
    if result.refilled:
        assert before.refill_due and not after.refill_due and before.players <= 3


def play_checked(rules: ref.Rules, players: int, seed: int) -> tuple[ref.GameResult, dict]:
    """One random game, every turn checked; returns it and its record."""
    rng = random.Random(seed)
    hands, start, draws = ref.deal(players, rng)
    deck = ref.shuffled_deck(rules, rng)
    player = RandomPlayer(rng)
    game = ref.play_game(rules, hands, start, draws, deck, player.pick, player.decide, rng)
    before = ref.new_game(rules, hands, start, draws, deck)
    for result in game.turns:
        check_turn(before, result)
        before = result.state
    assert game.state.over and sum(r.refilled for r in game.turns) <= 1
    assert game.scores == [sum(r.deltas[s] for r in game.turns) for s in range(players)]
    assert game.winners == [s for s in range(players) if game.scores[s] == max(game.scores)]
    assert player.given == [(a.seat, a.ask, a.answer) for r in game.turns for a in r.asked]
    record = {
        "hands": hands, "start": start, "draws": draws, "action_draws": list(game.state.drawn_actions),
        "turns": [{"tiles": r.tiles, "decisions": ref.record_decisions(r.asked)} for r in game.turns],
    }
    return game, record


def replay(rules: ref.Rules, record: dict) -> ref.State:
    """Play a record again: its tiles, its decisions, its action draws; no random source."""
    state = ref.new_game(rules, record["hands"], record["start"], record["draws"], record["action_draws"])
    for turn in record["turns"]:
        script = ref.Script([(d["seat"], d["ask"], d["answer"]) for d in turn["decisions"]])
        state = ref.play_turn(state, turn["tiles"], script).state
        script.finish()
    return state


GAME_CONFIGS = [(players, variant) for players in range(2, 7) for variant in ("pro", "pro-luck")]


@pytest.mark.parametrize("players,variant", GAME_CONFIGS, ids=[f"{p}p-{v}" for p, v in GAME_CONFIGS])
def test_random_games_keep_the_invariants_and_replay(players, variant):
    # dense clovers in pro-luck, so luck cards are gained and played often
    clovers = list(range(-300, 301, 4)) if variant == "pro-luck" else ref.DEFAULT_CLOVERS
    rules = ref.Rules(variant=variant, clovers=clovers)
    seen = Counter()
    for seed in range(30):
        game, record = play_checked(rules, players, 1000 * players + seed)
        again = replay(rules, record)
        assert again.scores == game.scores and again.board == game.state.board
        assert again.hands == game.state.hands and again.actions == game.state.actions
        for r in game.turns:
            seen.update(a.answer["card"] for a in r.asked if a.ask == "action" and a.answer)
            seen.update(e.cause for e in r.effects)
            seen.update("refill" for _ in range(r.refilled))
    assert set(ref.ACTION_KINDS) <= set(seen)  # every card gets played
    assert {"draw_tile", "draw_action", "take", "take_hand"} <= set(seen)
    if variant == "pro-luck":
        assert {"plus5", "take_2x"} <= set(seen)
    if players <= 3:
        assert seen["refill"] > 0


def test_random_games_with_a_small_deck_reshuffle_and_run_dry():
    """A deck of 2 cards a kind (12): the discards are reshuffled often, and sometimes nothing is drawn."""
    rules = ref.Rules(action_deck={kind: 2 for kind in ref.ACTION_KINDS})
    nothing = 0
    for seed in range(30):
        game, record = play_checked(rules, 2 + seed % 5, seed)
        assert replay(rules, record).scores == game.scores
        nothing += sum(e.cause == "draw_action" and e.got is None for r in game.turns for e in r.effects)
        drawn = len(game.state.drawn_actions)
        assert drawn >= 2 * len(game.scores)
    assert nothing > 0
