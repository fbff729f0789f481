"""Die Sechste (docs/rules/die-sechste.md): every rules statement, the worked example,
the twin rules as scripted cases, and the engine against the scalar reference
(tests/support/reference_sechste.py) on thousands of random games with two decks.

Card notation in these tests: names as in records ("10H", "QS"); a trailing "*" marks the
second deck's copy (the twin), id + 52.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from sixnimmt_env import (
    PHASE_CARDS,
    PHASE_OVER,
    PHASE_ROW,
    ConfigError,
    IllegalActionError,
    RuleConfig,
    from_deal,
    game_seeds,
    new_games,
    step,
)
from sixnimmt_env.cards.records import Recorder, replay
from sixnimmt_env.cards.rules import VARIANTS
from sixnimmt_env.core.errors import InvalidRecordError
from tests.support import reference_sechste as ref
from tests.support.rule_flags import rule_names

V = VARIANTS["die-sechste"]


def cid(name: str) -> int:
    """Engine id of a card name; "X*" is the second deck's copy."""
    twin = name.endswith("*")
    return V.parse_card(name.rstrip("*")) + 52 * twin


def cfg(players=4, row_choice="player", **kw) -> RuleConfig:
    return RuleConfig(players=players, row_choice=row_choice, variant="die-sechste", **kw)


def position(config, rows, hands=None, dealer=0):
    """A one-game batch at turn 8 with the given rows (names): each seat holds the named
    card and a spare one (so the round does not end and the table stays to be looked at)."""
    rows = [[cid(c) for c in r] + [0] * (5 - len(r)) for r in rows]
    used = {c for r in rows for c in r} | {cid(c) for c in hands}
    spares = [c for c in range(104, 0, -1) if c not in used]
    hands = [[cid(c), spares[s]] for s, c in enumerate(hands)]
    return from_deal(config, [hands], [rows], dealer=dealer)


def play(st, cards):
    """Every seat plays the named card (its one card in hand)."""
    return step(st, np.array([[cid(c)] for c in cards]))[0]


def choose(st, row):
    actions = np.zeros((st.players, 1), dtype=np.int64)
    actions[st.chooser[0], 0] = row
    return step(st, actions)[0]


def names(st):
    return [[V.card_name(c) for c in r] for r in st.row_lists(0)]


# =========================================================================== the ladder


def test_ladder_numbers_ace_of_clubs_1_to_king_of_spades_52():
    assert V.order[cid("AC")] == 1 and V.order[cid("AD")] == 2 and V.order[cid("AS")] == 4
    assert V.order[cid("2C")] == 5 and V.order[cid("KH")] == 51 and V.order[cid("KS")] == 52
    order = [V.card_name(c) for c in range(1, 53)]
    assert order[:5] == ["AC", "AD", "AH", "AS", "2C"] and order[-2:] == ["KH", "KS"]


def test_rank_first_then_suit():
    # "7S is higher than 7D but lower than 8C"
    assert V.order[cid("7D")] < V.order[cid("7S")] < V.order[cid("8C")]
    assert V.order[cid("10S")] < V.order[cid("JC")] < V.order[cid("QC")] < V.order[cid("KC")]


def test_twins_share_a_ladder_place_and_penalty():
    for c in range(1, 53):
        assert V.order[c] == V.order[c + 52] and V.bullheads[c] == V.bullheads[c + 52]
        assert V.same_face(c) == V.same_face(c + 52) == (c, c + 52)
        assert V.card_name(c) == V.card_name(c + 52)


# =========================================================================== penalty points


@pytest.mark.parametrize("card,points", [
    ("AC", 1), ("2D", 1), ("4H", 1), ("9S", 1), ("5C", 2), ("5S", 2), ("JD", 2), ("QH", 2),
    ("KS", 2), ("10C", 3), ("10S", 3), ("QS", 5), ("QS*", 5), ("AS", 1)])
def test_penalty_points(card, points):
    assert V.bullheads[cid(card)] == points


def test_one_deck_holds_79_points():
    assert int(V.bullheads[1:53].sum()) == 79 and int(V.bullheads[53:].sum()) == 79


# =========================================================================== material and decks


@pytest.mark.parametrize("players,size", [(2, 52), (3, 52), (4, 52), (5, 104), (7, 104), (10, 104)])
def test_one_deck_for_2_to_4_two_decks_for_5_to_10(players, size):
    config = cfg(players)
    assert len(V.deck(players, "full")) == size
    st = new_games(config, game_seeds(1, 50))
    dealt = np.concatenate([st.hands.reshape(-1, 50), st.starters], axis=0)
    assert dealt.max() <= size
    for b in range(50):  # every physical card at most once
        assert len(set(dealt[:, b].tolist())) == dealt.shape[0]


@pytest.mark.parametrize("players,top", [(2, ["6S"]), (3, ["8S", "9C", "9D"]), (4, ["JS"])])
def test_exact_card_count(players, top):
    """2 players A-6 (24 cards), 3 players A-8 plus 9C and 9D (34), 4 players A-J (44)."""
    cards = [V.card_name(c) for c in V.deck(players, "exact")]
    assert len(cards) == 10 * players + 4
    assert cards[0] == "AC" and cards[-len(top):] == top
    st = new_games(cfg(players, deck="exact"), game_seeds(2, 20))
    dealt = np.concatenate([st.hands.reshape(-1, 20), st.starters], axis=0)
    assert (np.sort(dealt, axis=0) == np.arange(1, 10 * players + 5)[:, None]).all()


def test_exact_card_count_is_for_two_to_four_players():
    with pytest.raises(ConfigError, match="2..4 players"):
        cfg(5, deck="exact")


# =========================================================================== card names


def test_names_round_trip_every_card():
    for c in range(1, 105):
        name = V.card_name(c)
        assert V.parse_card(name) == (c - 1) % 52 + 1
        assert V.card_value(c) == name
    assert V.parse_card("qs") == cid("QS") and V.parse_card(" 10h ") == cid("10H")


@pytest.mark.parametrize("bad", ["", "1H", "11H", "QX", "Q", "H10", "10", 10, None, "ZZ"])
def test_bad_names_give_a_clear_error(bad):
    with pytest.raises(InvalidRecordError, match="not a die-sechste card"):
        V.parse_card(bad, "round 0, seat 1")


# =========================================================================== the worked example


def test_worked_example_anna_ben_carla_dan():
    """Rows end 8H, QS (row 2 holds 9S 10C JD QH QS), 2C, 7D; Anna JS, Ben KC, Carla AH, Dan 7S."""
    rows = [["8H"], ["9S", "10C", "JD", "QH", "QS"], ["2C"], ["7D"]]
    st = position(cfg(4), rows, ["JS", "KC", "AH", "7S"])
    st = play(st, ["JS", "KC", "AH", "7S"])
    assert st.phase[0] == PHASE_ROW and st.chooser[0] == 2  # Carla's AH is too low
    assert st.row_options[:, 0].all()
    st = choose(st, 2)  # she takes row 3 (index 2): only the 2C, 1 point
    assert names(st) == [["8H", "JS"], ["KC"], ["AH"], ["7D", "7S"]]
    assert st.total()[:, 0].tolist() == [0, 13, 1, 0]  # Ben: 1 + 3 + 2 + 2 + 5


# =========================================================================== twins


def test_twins_in_one_turn_are_placed_from_the_dealers_left():
    """Both 9H revealed: the seat closer to the dealer's left places first, the other
    copy goes onto its twin; with a four-card row the second copy is the sixth card."""
    rows = [["2C", "3C", "4C", "8S"], ["AC"], ["AD"], ["AH"]]
    for dealer, first, second in [(0, 1, 3), (2, 3, 1), (3, 1, 3)]:
        st = position(cfg(4), rows, ["AS", "9H", "2D", "9H*"], dealer=dealer)
        st = play(st, ["AS", "9H", "2D", "9H*"])
        assert st.phase[0] == PHASE_CARDS
        assert st.total()[first, 0] == 0
        assert st.total()[second, 0] == 4 + 1  # 2C 3C 4C 8S and the first 9H
        assert [V.card_name(c) for c in st.row_lists(0)[0]] == ["9H"]


def test_a_twin_may_be_placed_on_its_counterpart():
    rows = [["5C", "9H"], ["9S"], ["AD"], ["AH"]]
    st = position(cfg(2), rows, ["9H*", "KC"])
    st = play(st, ["9H*", "KC"])
    assert names(st) == [["5C", "9H", "9H"], ["9S", "KC"], ["AD"], ["AH"]]
    assert st.total()[:, 0].tolist() == [0, 0]


def test_a_card_behind_two_rows_ending_in_twins_goes_to_the_shorter():
    rows = [["AC", "7D"], ["2C", "3C", "7D"], ["KS"], ["AH"]]
    rows[1][-1] = "7D*"
    for row_choice in ("player", "cheapest"):
        st = position(cfg(2, row_choice), rows, ["8C", "AS"])
        st = play(st, ["8C", "AS"])
        assert st.phase[0] == PHASE_CARDS, "different lengths: nobody is asked"
        assert names(st)[0] == ["AC", "7D", "8C"]
    rows = [["2C", "3C", "7D"], ["AC", "7D*"], ["KS"], ["AH"]]
    st = play(position(cfg(2), rows, ["8C", "AS"]), ["8C", "AS"])
    assert names(st)[1] == ["AC", "7D", "8C"]


def test_equal_twin_rows_the_owner_chooses():
    rows = [["7D"], ["7D*"], ["KS"], ["AH"]]
    st = position(cfg(3), rows, ["AS", "8C", "2C"])
    st = play(st, ["AS", "8C", "2C"])
    # AS goes on AH; then 8C (seat 1) belongs behind the twin rows 0 and 1
    assert st.phase[0] == PHASE_ROW and st.chooser[0] == 1
    assert st.row_options[:, 0].tolist() == [True, True, False, False]
    assert names(st)[3] == ["AH", "AS", "2C"], "cards below it are placed before the question"
    assert [V.card_name(c) for c in st.revealed[:, 0] if c] == ["8C"], "what still waits"
    with pytest.raises(IllegalActionError, match="legal rows: \\[0, 1\\]"):
        choose(st, 2)
    st = choose(st, 1)
    assert st.phase[0] == PHASE_CARDS
    assert names(st)[:2] == [["7D"], ["7D", "8C"]]
    assert st.total()[:, 0].tolist() == [0, 0, 0], "placed behind, not taken"


def test_equal_full_twin_rows_the_chosen_row_is_taken():
    rows = [["AC", "2C", "3C", "4C", "7D"], ["AD", "2D", "3D", "4D", "7D*"], ["KS"], ["AH"]]
    st = play(position(cfg(2), rows, ["8C", "2H"]), ["8C", "2H"])
    assert st.phase[0] == PHASE_ROW and st.chooser[0] == 0
    st = choose(st, 0)
    assert names(st)[0] == ["8C"] and st.total()[0, 0] == 5


def test_equal_twin_rows_cheapest_takes_fewer_points_then_lower_index():
    rows = [["5C", "7D"], ["2C", "7D*"], ["KS"], ["AH"]]  # row 0: 3 points, row 1: 2
    st = play(position(cfg(2, "cheapest"), rows, ["8C", "AS"]), ["8C", "AS"])
    assert names(st)[1] == ["2C", "7D", "8C"]
    rows = [["2C", "7D"], ["3C", "7D*"], ["KS"], ["AH"]]  # equal points: lower index
    st = play(position(cfg(2, "cheapest"), rows, ["8C", "AS"]), ["8C", "AS"])
    assert names(st)[0] == ["2C", "7D", "8C"]


def test_too_low_then_twin_rows_two_questions_in_one_turn():
    rows = [["7D"], ["7D*"], ["KS"], ["5H"]]
    st = position(cfg(3), rows, ["AC", "8C", "2C"])
    st = play(st, ["AC", "8C", "2C"])
    assert st.phase[0] == PHASE_ROW and st.chooser[0] == 0 and st.row_options[:, 0].all()
    st = choose(st, 3)  # AC takes 5H's row; 2C follows on it
    assert st.phase[0] == PHASE_ROW and st.chooser[0] == 1
    assert st.row_options[:, 0].tolist() == [True, True, False, False]
    st = choose(st, 0)
    assert names(st) == [["7D", "8C"], ["7D"], ["KS"], ["AC", "2C"]]
    assert st.total()[:, 0].tolist() == [2, 0, 0]


def test_a_too_low_card_is_never_a_twin_question():
    rows = [["7D"], ["7D*"], ["KS"], ["5H"]]
    st = play(position(cfg(2), rows, ["AC", "KH"]), ["AC", "KH"])
    assert st.row_options[:, 0].all()  # any row, not just the twin rows


def test_twin_question_reaches_the_observation_and_mask():
    from sixnimmt_env.cards.encoding import card_layout
    from sixnimmt_env.cards.seat_view import SeatView
    rows = [["7D"], ["7D*"], ["KS"], ["AH"]]
    config = cfg(3)
    st = play(position(config, rows, ["AS", "8C", "2C"]), ["AS", "8C", "2C"])
    view = SeatView(st, np.array([1]))
    mask = view.action_mask()[0]
    assert mask[104:108].tolist() == [1, 1, 0, 0] and mask[:104].sum() == 0
    obs = card_layout(config).decode(card_layout(config).encode(view)[0])
    assert obs["choice_rows"].tolist() == [1, 1, 0, 0]
    assert obs["revealed"][cid("8C")] == 1 and obs["revealed"][cid("AS")] == 0


# =========================================================================== round and game


def test_dealer_rotates_left_and_game_ends_at_66():
    config = cfg(5, "cheapest")
    st = new_games(config, game_seeds(3, 40))
    rng = np.random.default_rng(3)
    rounds_seen = 0
    while not st.game_over().all():
        dealer, rnd = st.dealer.copy(), st.round.copy()
        st, ev = step(st, _random_actions(st, rng), report=True)
        going = ev.round_over & ~st.game_over()
        assert (st.dealer[going] == (dealer[going] + 1) % 5).all()
        assert (st.round[going] == rnd[going] + 1).all()
        rounds_seen += int(ev.round_over.sum())
    assert (st.score.max(axis=0) >= 66).all()
    assert rounds_seen > 40
    # fewest points wins; all tied players win
    lowest = st.score.min(axis=0)
    assert (st.winners() == (st.score == lowest[None, :])).all()


def test_short_game_variants():
    for extra, check in [({"end_score": None, "max_rounds": 3}, lambda st: (st.round == 2).all()),
                         ({"end_score": 44}, lambda st: (st.score.max(axis=0) >= 44).all())]:
        st = new_games(cfg(4, "cheapest", **extra), game_seeds(4, 30))
        rng = np.random.default_rng(4)
        while not st.game_over().all():
            st, _ = step(st, _random_actions(st, rng))
        assert check(st)


# =========================================================================== engine vs reference


def _random_actions(st, rng):
    P, B = st.players, st.batch_size
    n_cards = np.maximum(10 - st.turn.astype(np.int64), 1)
    slots = (rng.random((P, B)) * n_cards).astype(np.int64)
    actions = np.take_along_axis(st.hands.transpose(2, 0, 1), slots.T[:, :, None], 2)[:, :, 0].T.astype(np.int64)
    for b in np.flatnonzero(st.phase == PHASE_ROW):
        actions[st.chooser[b], b] = rng.choice(np.flatnonzero(st.row_options[:, b]))
    return actions


def _card(c: int) -> ref.Card:
    rank, suit = divmod((c - 1) % 52, 4)
    return (rank, suit, (c - 1) // 52)


def play_against_reference(config: RuleConfig, batch: int, seed: int) -> tuple[int, int]:
    """Play to the end; every completed turn must match the reference, the rule flags of
    its placements (StepEvents.rule) included. Returns (turns checked, twin-row
    questions seen)."""
    rng = np.random.default_rng(seed)
    st = new_games(config, game_seeds(seed, batch))
    pending: dict[int, tuple] = {}  # game -> rows, cards, totals, dealer, choices, placements so far
    checked = twin_questions = 0
    while not st.game_over().all():
        before = st.copy()
        actions = _random_actions(st, rng)
        st, ev = step(st, actions, report=True)
        for b in range(batch):
            if before.phase[b] == PHASE_OVER:
                continue
            if before.phase[b] == PHASE_CARDS:
                pending[b] = ([[_card(c) for c in r] for r in before.row_lists(b)],
                              [_card(c) for c in actions[:, b]], before.total()[:, b].copy(),
                              int(before.dealer[b]), [], [])
            else:
                seat = int(before.chooser[b])
                options = np.flatnonzero(before.row_options[:, b]).tolist()
                twin_questions += len(options) == 2
                pending[b][4].append((seat, options, int(actions[seat, b])))
            pending[b][5].extend((int(ev.seat[k, b]), set(rule_names(int(ev.rule[k, b]))))
                                 for k in np.flatnonzero(ev.card[:, b]))
            if st.phase[b] == PHASE_ROW:
                continue
            rows, cards, start, dealer, choices, placed = pending.pop(b)
            answers = iter(choices)

            def answer(seat, options):
                s, opts, row = next(answers)
                assert (s, opts) == (seat, options), f"game {b}: asked {seat} {options}, engine {s} {opts}"
                return row

            result = ref.play_turn(rows, cards, dealer, config.row_choice, answer)
            assert len(result.asked) == len(choices), f"game {b}: questions differ"
            assert placed == result.placed, f"game {b}: rule flags differ"
            checked += 1
            assert (st.total()[:, b] == start + np.array(result.penalties)).all(), f"game {b}: penalties"
            if not ev.round_over[b]:
                assert [[_card(c)[:2] for c in r] for r in st.row_lists(b)] == \
                    [[c[:2] for c in r] for r in result.rows], f"game {b}: rows differ"
    return checked, twin_questions


@pytest.mark.parametrize("players,row_choice", [(p, rc) for p in (5, 6, 8, 10) for rc in ("player", "cheapest")])
def test_two_deck_rounds_match_reference(players, row_choice):
    """2,400 one-round games with two decks (300 per configuration), every turn checked."""
    config = cfg(players, row_choice, end_score=None, max_rounds=1)
    checked, twins = play_against_reference(config, batch=300, seed=players * 7 + len(row_choice))
    assert checked >= 3000
    if row_choice == "player":
        assert twins > 0, "the twin-row question must come up"


@pytest.mark.parametrize("players,row_choice,deck", [(2, "player", "full"), (4, "cheapest", "full"),
                                                     (3, "player", "exact")])
def test_one_deck_rounds_match_reference(players, row_choice, deck):
    config = cfg(players, row_choice, end_score=None, max_rounds=1, deck=deck)
    play_against_reference(config, batch=100, seed=players)


def test_whole_two_deck_games_match_reference():
    play_against_reference(cfg(6, "player"), batch=10, seed=66)


# =========================================================================== records


def _record_games(config, batch, seed):
    st = new_games(config, game_seeds(seed, batch))
    rec = Recorder(st, seeds=list(game_seeds(seed, batch)), engine_actions=True)
    rng = np.random.default_rng(seed)
    while not st.game_over().all():
        actions = _random_actions(st, rng)
        after, ev = step(st, actions, report=True)
        rec.observe(st, actions, after, ev)
        st = after
    return rec.records(st)


def test_records_use_card_names_and_replay():
    records = _record_games(cfg(6, "player", end_score=None, max_rounds=2), 30, 9)
    for record in records:
        assert record["variant"] == "die-sechste"
        rnd = record["rounds"][0]
        assert all(isinstance(c, str) for hand in rnd["hands"] for c in hand)
        result = replay(json.loads(json.dumps(record)))
        assert result.differences == [] and result.totals == record["totals"]


def test_replay_twins_in_one_hand_and_cards_dealt_too_often():
    record = _record_games(cfg(5, "cheapest", end_score=None, max_rounds=1), 1, 5)[0]
    twin = json.loads(json.dumps(record))  # the same name twice in one hand: fine
    hands = twin["rounds"][0]["hands"]
    hands[0][1] = hands[0][0]
    for seat in range(1, 5):  # the second copy of hands[0][0], moved into seat 0's hand
        if hands[0][0] in hands[seat]:
            hands[seat][hands[seat].index(hands[0][0])] = record["rounds"][0]["hands"][0][1]
    twin["rounds"][0]["turns"] = []
    twin.pop("totals"), twin.pop("winners"), twin["rounds"][0].pop("penalties")
    assert replay(twin).differences == []
    bad = json.loads(json.dumps(record))
    bad["rounds"][0]["hands"][1][0] = bad["rounds"][0]["hands"][0][0]
    bad["rounds"][0]["hands"][2][0] = bad["rounds"][0]["hands"][0][0]
    with pytest.raises(InvalidRecordError, match="dealt too often|not in the seat's hand"):
        replay(bad)
    bad = json.loads(json.dumps(record))
    bad["rounds"][0]["hands"][0][0] = "11H"
    with pytest.raises(InvalidRecordError, match="round 0, seat 0: '11H' is not a die-sechste card"):
        replay(bad)


def test_one_deck_record_rejects_a_repeated_name():
    record = _record_games(cfg(4, "cheapest", end_score=None, max_rounds=1), 1, 6)[0]
    record["rounds"][0]["hands"][1][0] = record["rounds"][0]["hands"][0][0]
    with pytest.raises(InvalidRecordError, match="dealt twice"):
        replay(record)


# =========================================================================== environments and CLI


def test_parallel_env_plays_die_sechste_with_twin_questions():
    from pettingzoo.test import parallel_api_test

    import sixnimmt_env

    parallel_api_test(sixnimmt_env.parallel_env(players=6, variant="die-sechste", episode="round"),
                      num_cycles=40)
    env = sixnimmt_env.parallel_env(players=8, variant="die-sechste", episode="round")
    rng = np.random.default_rng(0)
    twin_masks = 0
    for seed in range(30):
        obs, _ = env.reset(seed=seed)
        while env.agents:
            actions = {}
            for a in env.agents:
                mask = obs[a]["action_mask"]
                twin_masks += int(mask[104:108].sum() == 2)
                actions[a] = int(rng.choice(np.flatnonzero(mask)))
            obs, *_ = env.step(actions)
    assert twin_masks > 0, "the twin-row question reaches the agents through the mask"


def test_cli_match_and_study_with_die_sechste(tmp_path):
    from tests.lab.test_cli import sixnimmt

    out = sixnimmt("match", "--agents", "mcs:rollouts=4,min-gap,random,random,random", "--variant",
                   "die-sechste", "--games", "2", "--max-rounds", "1", "--no-progress").stdout
    assert "mcs:rollouts=4" in out
    study = tmp_path / "study"
    sixnimmt("study", "die-sechste", "--out", str(study), "--players", "2,6", "--heuristic-games", "6",
             "--mcs-games", "2", "--mcs", "mcs:rollouts=2", "--workers", "1", "--no-progress")
    results = json.loads((study / "results.json").read_text())
    cells = {(c["variant"], c["deck"], c["players"], c["table"]) for c in results["cells"]}
    assert ("die-sechste", "exact", 2, "mcs") in cells and ("classic", "full", 6, "heuristics") in cells
    assert ("die-sechste", "exact", 6, "heuristics") not in cells
    six = next(c for c in results["cells"] if c["variant"] == "die-sechste" and c["players"] == 6)
    assert six["per_100_rounds"]["on_twin"][0] > 0  # twins fire with two decks
    assert all(c["per_100_rounds"]["on_twin"][0] == 0 for c in results["cells"] if c["variant"] == "classic")
    for f in ("report.md", "points_and_length.png", "twin_rules.png", "seat_position.png"):
        assert (study / f).stat().st_size > 0
    err = sixnimmt("study", "die-sechste", "--players", "1", check_code=2).stderr
    assert "players" in err


def test_vec_env_learner_is_asked_only_for_its_own_decisions():
    """Two questions in one turn (too low, then twin rows): opponents' are played out inside
    the step, so the single learner never gets a pass-only step."""
    from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv

    env = SixNimmtVecEnv(num_games=256, players=8, variant="die-sechste", seed=3)
    env.reset()
    rng = np.random.default_rng(3)
    pass_action = 104 + 4
    twin_rows = 0
    for _ in range(60):
        masks = env.action_masks()
        assert not (masks[:, pass_action] & (masks.sum(axis=1) == 1)).any()
        twin_rows += int((masks[:, 104:108].sum(axis=1) == 2).sum())
        env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    assert twin_rows > 0


@pytest.mark.parametrize("spec", ["mcs:rollouts=8", "bayes:samples=8", "min-gap", "random", "greedy"])
def test_agents_answer_the_twin_row_question_with_one_of_the_two_rows(spec):
    from agents.registry import make_agent
    from sixnimmt_env.cards.seat_view import SeatView

    rows = [["7D"], ["7D*"], ["KS"], ["AH"]]
    st = play(position(cfg(3), rows, ["AS", "8C", "2C"]), ["AS", "8C", "2C"])
    assert st.phase[0] == PHASE_ROW and st.chooser[0] == 1
    action = make_agent(spec).act(SeatView(st, np.array([1])), np.random.default_rng(0))
    assert int(action[0]) in (104, 105)
    choose(st, int(action[0]) - 104)  # legal for the engine
