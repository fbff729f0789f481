"""Agents for the board game: legal actions in every phase for 2-6 players and both
variants, reproducibility, blindness to hidden tiles, the heuristics' documented choices,
the registry's per-game `mcs`, and a small strength check."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.arena import run_match
from agents.board.heuristics import BoardHeuristicAgent, answer_questions
from agents.board.search import BoardMonteCarloAgent
from agents.registry import PerGameAgent, describe, make_agent
from sixnimmt_env.board import engine
from sixnimmt_env.board.actions import ANSWER_YES, LUCK_ACTION, PASS_ACTION
from sixnimmt_env.board.rules import DOUBLE, HAND_SIZE, PLUS5, BoardConfig
from sixnimmt_env.board.state import (
    ASK_DOUBLE,
    ASK_LUCK_CARD,
    ASK_PLUS5,
    PHASE_ASK,
    PHASE_OVER,
    PHASE_PICK,
    PHASE_PICK_SECOND,
)
from sixnimmt_env.board.worlds import determinize
from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.game import make_game

FAST_MCS = "mcs:rollouts=3"
SPECS = ["random", "board-greedy", "board-safe", "board-green", FAST_MCS,
         "mcs:rollouts=2:horizon=3:score=relative:tie_break=none:card_value=0"]
HEURISTICS = ["board-greedy", "board-safe", "board-green"]


def play(specs, players, variant, games=2, seed=0, check=True):
    """A mixed table (seat s plays specs[s % len(specs)]) to the end of every game.
    Returns (the actions of every step, the phases and questions seen, the final state)."""
    game = make_game("board", players=players, variant=variant)
    agents = [make_agent(specs[s % len(specs)], "board") for s in range(players)]
    rng = np.random.default_rng(seed)
    st = game.new_games(np.arange(seed, seed + games))
    trace, seen = [], set()
    while not game.game_over(st).all():
        actions = np.zeros((players, games), dtype=np.int64)
        for seat, agent in enumerate(agents):
            view = game.view(st, np.full(games, seat))
            chosen = agent.act(view, rng)
            assert chosen.shape == (games,) and chosen.dtype == np.int64
            if check:
                mask = view.action_mask()
                assert mask[np.arange(games), chosen].all(), f"{agent.name} played an illegal action"
            for e in np.flatnonzero(view.must_act):
                seen.add(("ask", int(view.ask[e])) if view.is_asker[e] else ("phase", int(view.phase[e])))
            actions[seat] = chosen
        trace.append(actions.copy())
        st, _ = game.step(st, actions)
    return trace, seen, st


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("variant", ["basic", "luck"])
def test_every_agent_plays_legal_actions_to_the_end(players, variant):
    order = SPECS[players % len(SPECS):] + SPECS[:players % len(SPECS)]  # every agent in some seat
    _, seen, st = play(order, players, variant, games=2, seed=players)
    assert (st.phase == PHASE_OVER).all()
    assert ("phase", PHASE_PICK) in seen


def test_every_phase_and_question_is_exercised():
    seen = set()
    for players in (2, 4, 6):
        seen |= play(["board-green", FAST_MCS, "random", "board-safe"], players, "luck", games=4,
                     seed=10 + players)[1]
    assert {("phase", PHASE_PICK), ("phase", PHASE_PICK_SECOND), ("ask", ASK_PLUS5),
            ("ask", ASK_DOUBLE), ("ask", ASK_LUCK_CARD)} <= seen


@pytest.mark.parametrize("spec", SPECS)
def test_same_seed_same_decisions(spec):
    a = play([spec, "board-green", spec], 3, "luck", games=2, seed=5, check=False)[0]
    b = play([spec, "board-green", spec], 3, "luck", games=2, seed=5, check=False)[0]
    assert len(a) == len(b) and all((x == y).all() for x, y in zip(a, b))


def test_mcs_rolls_out_to_the_end_of_the_game():
    _, _, st = play(["mcs:rollouts=2:horizon=0", "random", "board-safe", "random"], 4, "basic", games=1, seed=3)
    assert (st.phase == PHASE_OVER).all()


def hide_differently(st, seat: int, rng):
    """A copy of `st` with every tile `seat` cannot see dealt anew: the other hands, the
    others' face-down first tiles (play-two) and the supply's undrawn part; other seed."""
    alt = st.copy()
    P = st.players
    for b in range(st.batch_size):
        places = []  # (array, index) of every hidden tile
        for p in range(P):
            if p == seat:
                continue
            places += [(alt.hands, (p, j, b)) for j in range(HAND_SIZE) if alt.hands[p, j, b]]
            if st.phase[b] == PHASE_PICK_SECOND:
                places.append((alt.picked, (0, p, b)))
        places += [(alt.supply, (j, b)) for j in range(int(alt.drawn[b]), alt.supply.shape[0]) if alt.supply[j, b]]
        hidden = np.array([arr[i] for arr, i in places])
        for (arr, i), tile in zip(places, rng.permutation(hidden)):
            arr[i] = tile
    alt.seed = st.seed + np.uint64(12345)
    return alt


def blind(agent, players: int, variant: str) -> bool:
    """At every step of random games, the tiles seat (step mod P) cannot see dealt anew
    give the same decisions for the same random stream."""
    game = make_game("board", players=players, variant=variant)
    rng = np.random.default_rng(players)
    st = game.new_games(np.arange(3))
    steps = 0
    while not game.game_over(st).all():
        seat = steps % players
        alt = hide_differently(st, seat, rng)
        view, alt_view = game.view(st, seat), game.view(alt, seat)
        assert (view.unseen == alt_view.unseen).all()
        a = agent.act(view, np.random.default_rng(steps))
        b = agent.act(alt_view, np.random.default_rng(steps))
        if (a != b).any():
            return False
        actions = np.stack([game.view(st, s).random_legal_actions(rng) for s in range(players)])
        st, _ = game.step(st, actions)
        steps += 1
    return True


@pytest.mark.parametrize("spec", SPECS[1:] + ["mcs:rollouts=8:horizon=2"])
@pytest.mark.parametrize("players,variant", [(2, "luck"), (4, "luck"), (5, "basic")])
def test_decisions_ignore_hidden_tiles(spec, players, variant):
    assert blind(make_agent(spec, "board"), players, variant), f"{spec} decided differently with other hidden tiles"


class Peeker:
    """Plays the tile of its hand nearest to the next seat's first hidden tile."""

    name = "peeker"

    def act(self, view, rng):
        actions = view.random_legal_actions(rng)
        st = view._st
        for e in np.flatnonzero(view.picking):
            target = int(st.hands[(view.seats[e] + 1) % view.players, 0, view.games[e]])
            hand = view.hand[e][view.hand[e] > 0].astype(np.int64)
            actions[e] = hand[np.argmin(np.abs(hand - target))] - 1
        return actions


def test_the_blindness_check_catches_a_peeker():
    assert not blind(Peeker(), 4, "basic")


# --------------------------------------------------------------------------- heuristics


def position(hand, rows, players=2, variant="basic", other=None):
    """One game: seat 0 holds `hand`, rows[r] lists row r's tiles (the first four rows
    hold at least one), the other seats hold the lowest tiles left."""
    cfg = BoardConfig(players=players, variant=variant)
    used = set(hand) | {t for r in rows for t in r}
    free = [t for t in range(1, 101) if t not in used]
    hands = [list(hand) + [0] * (HAND_SIZE - len(hand))]
    for p in range(1, players):
        mine = (other or free)[(p - 1) * len(hand):p * len(hand)]
        hands.append(mine + [0] * (HAND_SIZE - len(mine)))
    free = [t for t in free if all(t not in h for h in hands)]
    st = engine.from_deal(cfg, [hands], [[r[0] for r in rows[:4]]], [free])
    for r, tiles in enumerate(rows):
        st.tiles[r, :len(tiles), 0] = tiles
        st.length[r, 0] = len(tiles)
    st.picks[:] = 1
    return st


def test_heuristics_pick_their_documented_tiles():
    # rows end 10 (field 2 plain), 25 (row 2: ". + . - . T", next field 3 plain),
    # 42 (row 3: ". - + T", next field 3 green) and 60 (row 4 field 2 plain)
    rows = [[10], [20, 25], [40, 42], [60]]
    st = position([44, 66, 26, 13], rows, other=[1, 2, 3, 4])
    view = make_game("board", players=2).view(st, 0)
    # 44 lands on the green field of row 3 (+5: 44 is a multiple of 11, 5 bullheads); 66,
    # 26 and 13 on plain fields
    for spec in ("board-greedy", "board-green"):
        assert make_agent(spec, "board").act(view, np.random.default_rng(0))[0] == 44 - 1
    # board-safe counts only losses: 44 risks being pushed onto the take field (43 is
    # unseen), the others lose nothing; of those, the fewest bullheads (26, 13: 1 each),
    # then the smallest gap: 26 follows 25
    assert make_agent("board-safe", "board").act(view, np.random.default_rng(0))[0] == 26 - 1


def test_heuristics_avoid_a_take():
    # row 3 (". - + T") holds 40 41 42: 43 would take it (3 + 1 + 1 bullheads lost);
    # row 1 (". . + - T") holds 10 11: 12 lands on its green field (+1)
    rows = [[10, 11], [20], [40, 41, 42], [60]]
    st = position([43, 12], rows, other=[1, 2])
    view = make_game("board", players=2).view(st, 0)
    for spec in HEURISTICS:
        assert make_agent(spec, "board").act(view, np.random.default_rng(0))[0] == 12 - 1


def test_play_two_pairs():
    """Under play-two the pair counts. Row 6 (". 2 + - . T") holds 70: 98 covers its
    play-two field (0), then 99 lands on its green field (+5: a multiple of 11). 42 alone
    scores +1 on row 3's green field, but 42 and 43 together take row 3 (40 41 42)."""
    rows = [[10], [20], [40, 41], [60], [], [70]]
    st = position([42, 43, 99, 98], rows, other=[1, 2, 3, 4])
    st.picks[:] = 2
    game = make_game("board", players=2)
    agent = make_agent("board-greedy", "board")
    view = game.view(st, 0)
    assert view.picks[0] == 2
    assert agent.act(view, np.random.default_rng(0))[0] == 98 - 1  # the lower tile of the best pair
    st, _ = game.step(st, np.array([[98 - 1], [1 - 1]]))
    view = game.view(st, 0)
    assert view.phase[0] == PHASE_PICK_SECOND and view.picked[0, 0] == 98
    assert agent.act(view, np.random.default_rng(0))[0] == 99 - 1


def test_answers_to_questions():
    game = make_game("board", players=2, variant="luck")
    st = position([12, 30], [[10, 11], [20], [40], [60]], variant="luck", other=[1, 2])
    st.luck[PLUS5, 0] = 1  # usable (gained in an earlier turn)
    st, _ = game.step(st, np.array([[12 - 1], [1 - 1]]))  # 1 goes after 60; 12 onto row 1's green field
    view = game.view(st, 0)
    assert view.is_asker[0] and view.ask[0] == ASK_PLUS5
    # 12 would score +1 on the green field: worse than +5, so play it
    assert answer_questions(view)[0] == ANSWER_YES
    for spec in HEURISTICS:
        assert make_agent(spec, "board").act(view, np.random.default_rng(0))[0] == ANSWER_YES
    assert (make_agent("board-green", "board").act(game.view(st, 1), np.random.default_rng(0)) == PASS_ACTION).all()


def test_luck_card_choice():
    st = position([12, 30], [[10, 11], [20], [40], [60]], variant="luck", other=[1, 2])
    st.phase[:] = PHASE_ASK
    st.ask[:], st.asker[:] = ASK_LUCK_CARD, 0
    view = make_game("board", players=2, variant="luck").view(st, 0)
    assert answer_questions(view)[0] == LUCK_ACTION[PLUS5]
    st.luck[PLUS5, 0] = 2  # one "+5" per tile in hand already: take a "2x"
    view = make_game("board", players=2, variant="luck").view(st, 0)
    assert answer_questions(view)[0] == LUCK_ACTION[DOUBLE]
    st.stack[DOUBLE] = 0  # no "2x" left: the "+5" after all, the only legal card
    view = make_game("board", players=2, variant="luck").view(st, 0)
    assert answer_questions(view)[0] == LUCK_ACTION[PLUS5]
    st.luck[PLUS5, 0] = 0
    st.stack[DOUBLE], st.stack[PLUS5] = 1, 0  # no "+5" left: a "2x", though a "+5" would be wanted
    view = make_game("board", players=2, variant="luck").view(st, 0)
    assert answer_questions(view)[0] == LUCK_ACTION[DOUBLE]
    for spec in HEURISTICS:
        assert make_agent(spec, "board").act(view, np.random.default_rng(0))[0] == LUCK_ACTION[DOUBLE]
    st.ask[:] = ASK_DOUBLE
    assert answer_questions(make_game("board", players=2, variant="luck").view(st, 0))[0] == ANSWER_YES


# --------------------------------------------------------------------------- search


def test_determinize_fills_every_hidden_place_from_the_unseen_tiles():
    for players in (2, 3, 5):
        game = make_game("board", players=players, variant="luck")
        st = game.new_games(np.arange(4))
        rng = np.random.default_rng(0)
        for _ in range(3):
            st, _ = game.step(st, np.stack([game.view(st, s).random_legal_actions(rng) for s in range(players)]))
        view = game.view(st, np.arange(4) % players)
        known = view.known_state()
        determinize(known, view.seats, view.unseen, rng)
        for b in range(4):
            seat = int(view.seats[b])
            hands = known.hands[:, :, b]
            counts = (hands > 0).sum(axis=1)
            assert (counts == counts[seat]).all()
            dealt = [t for p in range(players) if p != seat for t in hands[p] if t]
            if st.phase[b] == PHASE_PICK_SECOND:
                dealt += [int(known.picked[0, p, b]) for p in range(players) if p != seat]
            supply = [t for t in known.supply[int(known.drawn[b]):, b] if t]
            everything = sorted(dealt + supply)
            assert everything == np.flatnonzero(view.unseen[b]).tolist()  # each unseen tile once
            if players <= 3 and not st.refilled[b]:
                assert len(supply) >= players * HAND_SIZE  # the refill comes from it
            assert sorted(t for t in hands[seat] if t) == sorted(t for t in st.hands[seat, :, b] if t)


def test_determinize_refuses_a_view_with_more_hidden_places_than_unseen_tiles():
    game = make_game("board", players=4, variant="basic")
    view = game.view(game.new_games(np.arange(2)), 0)
    unseen = view.unseen.copy()
    unseen[1, np.flatnonzero(unseen[1])[5:]] = False  # game 1: 5 unseen tiles for 3 hands of 12
    with pytest.raises(ValueError, match="more hidden places"):
        determinize(view.known_state(), view.seats, unseen, np.random.default_rng(0))


def test_mcs_estimates_every_candidate():
    game = make_game("board", players=4, variant="luck")
    st = game.new_games([3])
    view = game.view(st, 0)
    agent = BoardMonteCarloAgent(rollouts=8, horizon=1, tie_break="none")
    (cands, means), = agent.estimates(view, np.random.default_rng(0)).values()
    assert sorted(cands + 1) == sorted(int(t) for t in st.hands[0, :, 0] if t)
    assert means.shape == cands.shape and np.isfinite(means).all()
    assert agent.act(view, np.random.default_rng(0))[0] == cands[int(np.argmax(means))]


def test_mcs_batch_chunks_give_legal_decisions():
    """A small `batch` splits the entries into several engine batches."""
    play(["mcs:rollouts=3:batch=40", "board-green"], 4, "luck", games=3, seed=2)


def test_mcs_beats_random():
    result = run_match(["mcs", "random", "random", "random"], make_game("board", players=4, variant="luck"),
                       deals=16, seed=1, progress=False)
    by = {a.name: a for a in result.agents}
    assert by["mcs"].points_per_round > by["random"].points_per_round + 3
    assert by["mcs"].win_share > 0.25
    assert by["mcs"].ms_per_decision > 0  # reported; how fast is a benchmark's question (sixnimmt match)


# --------------------------------------------------------------------------- registry


def test_mcs_plays_both_games():
    agent = make_agent("mcs:rollouts=5")
    assert isinstance(agent, PerGameAgent)
    assert agent.rollouts == 5  # the default game's (cards) implementation
    assert isinstance(agent.for_game("board"), BoardMonteCarloAgent) and agent.for_game("board").rollouts == 5
    assert isinstance(make_agent("mcs", "board"), BoardMonteCarloAgent)
    # the same object at a card table and at a board table
    for game_name, rules in (("cards", {"players": 3, "max_rounds": 1, "row_choice": "cheapest"}),
                             ("board", {"players": 3, "variant": "luck"})):
        result = run_match([agent, "random", "random"], make_game(game_name, **rules), deals=1, seed=0,
                           progress=False)
        assert {a.name for a in result.agents} == {"mcs:rollouts=5", "random"}


def test_board_agents_are_listed_and_refused_elsewhere():
    text = describe()
    for spec in HEURISTICS:
        assert any(line.startswith(spec) and line.endswith("(board)") for line in text.splitlines())
    assert sum(line.startswith("mcs:") for line in text.splitlines()) == 2
    with pytest.raises(ConfigError, match="agents for 'board': random, mcs, ppo, guided, board-greedy"):
        make_agent("greedy", "board")
    with pytest.raises(ConfigError, match="plays board, not 'cards'"):
        make_agent("board-safe", "cards")
    with pytest.raises(ConfigError, match="horizon"):
        make_agent("mcs:depth=2")
    with pytest.raises(ConfigError, match="horizon must be"):
        make_agent("mcs:horizon=-1", "board")
    with pytest.raises(ConfigError, match="tie_break must be"):
        make_agent("mcs:tie_break=lowest", "board")
    with pytest.raises(ConfigError, match="agents for 'board'"):
        run_match(["lowest", "random"], make_game("board", players=2), deals=1, seed=0, progress=False)


def test_random_and_ppo_at_the_board_table():
    from sb3_contrib import MaskablePPO

    from agents.ppo import PPOAgent
    from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv

    with pytest.raises(ConfigError, match="no shipped model plays 'board' at 5 players"):  # shipped: 2, 4, 6
        run_match(["ppo"] + ["random"] * 4, make_game("board", players=5, variant="luck"), deals=1, seed=0,
                  progress=False)
    game = make_game("board", players=4, variant="luck")
    env = SixNimmtVecEnv(num_games=4, game="board", players=4, variant="luck", seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=32, n_epochs=1, verbose=0, seed=0)
    agent = PPOAgent(model=model, meta={"game": "board", "players": 4})
    agent.name = "ppo-board"
    result = run_match([agent, "random", "board-green", "mcs:rollouts=2"], game, deals=1, seed=0,
                       progress=False)
    assert {a.name for a in result.agents} == {"ppo-board", "random", "board-green", "mcs:rollouts=2"}


def test_heuristic_agent_rejects_unknown_rules():
    with pytest.raises(ValueError):
        BoardHeuristicAgent("board-reckless")


def test_action_mask_allows_tile_1_beside_empty_slots():
    """Regression: the view's mask wrote the empty slots' False over tile 1's entry."""
    st = position([1, 30], [[10], [20], [40], [60]], other=[2, 3])
    view = make_game("board", players=2).view(st, 0)
    mask = view.action_mask()[0]
    assert np.flatnonzero(mask).tolist() == [1 - 1, 30 - 1]


# the variants with a network labelled at 4-player tables only (training/configs/imitate-board-4p.toml)
FOUR_PLAYER_BOARD_MODELS = {"luck", "pro", "pro-luck"}


@pytest.mark.parametrize("variant", ["basic", "luck", "pro", "pro-luck"])
def test_plain_ppo_and_guided_take_the_shipped_board_model_of_the_variant(variant):
    """agents/models/board-V.zip: one network per variant for 2, 4 and 6 players, chosen by
    plain `ppo` and `guided`; at 4 players board-V-4p.zip where one is shipped (the model
    for the fewest other sizes wins); each plays legal moves at every question of a whole game."""
    from agents.ppo import SHIPPED_DIR, shipped_model_for
    path = shipped_model_for(2, "board", variant)
    assert path == SHIPPED_DIR / f"board-{variant}.zip" == shipped_model_for(6, "board", variant)
    four = SHIPPED_DIR / (f"board-{variant}-4p.zip" if variant in FOUR_PLAYER_BOARD_MODELS else f"board-{variant}.zip")
    assert shipped_model_for(4, "board", variant) == four
    sizes = {path: [2, 4, 6], four: [4]} if variant in FOUR_PLAYER_BOARD_MODELS else {path: [2, 4, 6]}
    for model, players in sizes.items():
        meta = json.loads(model.with_suffix(".json").read_text())
        assert (meta["game"], meta["variant"], meta["players"]) == ("board", variant, players)
        assert meta["observation"] in ("tile-features", "tile-answers") and model.stat().st_size < 16 * 2**20
    result = run_match(["ppo", "guided:worlds=2", "random", "board-safe"], make_game("board", players=4, variant=variant),
                       1, 0, progress=False)
    assert result.games == 4


def test_guided_top_searches_the_networks_best_candidates_and_rollout_mcs_is_mcs():
    """guided:top=K keeps, of each decision's legal candidates, the K with the highest
    logits of the shipped network; rollout=mcs estimates exactly as mcs does (same
    worlds, same rollouts); the pruned search still never reads a hidden tile."""
    from agents.board.guided import BoardGuidedAgent
    game = make_game("board", players=4, variant="pro-luck")
    rng = np.random.default_rng(3)
    st = game.new_games(np.arange(24))
    for _ in range(3):  # into the game: fewer tiles, questions, action-card offers
        st, _ = game.step(st, np.stack([game.view(st, s).random_legal_actions(rng) for s in range(4)]))
    view = game.view(st, 0)
    full, top = BoardGuidedAgent(rollout="mcs", worlds=4, horizon=2), BoardGuidedAgent(top=2, rollout="mcs", worlds=4, horizon=2)
    for agent in (full, top):
        agent._calls.network = agent.net.network_for(view.config, view.players)  # as act() sets it, per thread
    every, best = full.candidates(view), top.candidates(view)
    assert every.keys() == best.keys() and any(len(c) > 2 for c in every.values())
    searched = np.array(sorted(every))
    logits = top.logits(view, searched)
    for i, e in enumerate(searched):
        kept = every[e] if len(every[e]) <= 2 else np.sort(every[e][np.argsort(-logits[i, every[e]])[:2]])
        assert best[e].tolist() == kept.tolist()
    mcs = BoardMonteCarloAgent(rollouts=4, horizon=2, tie_break="none")
    ours, theirs = full.estimates(view, np.random.default_rng(9)), mcs.estimates(view, np.random.default_rng(9))
    assert ours.keys() == theirs.keys()
    compared = 0
    for e in ours:
        assert ours[e][0].tolist() == theirs[e][0].tolist()
        if len(ours[e][0]) > 1:
            assert np.allclose(ours[e][1], theirs[e][1])
            compared += 1
    assert compared >= 3
    assert blind(make_agent("guided:top=2:rollout=mcs:worlds=4:horizon=2", "board"), 4, "pro-luck")
    with pytest.raises(ValueError, match="top"):
        BoardGuidedAgent(top=-1)
    with pytest.raises(ValueError, match="rollout"):
        BoardGuidedAgent(rollout="random")


def test_mcs_takes_a_luck_card_only_from_a_stack_that_holds_one():
    """Asked which luck card to take while the "+5" stack is empty, the board mcs takes
    "2x" (the only answer). It once rolled out both, and a "+5" that does not exist scored
    better than the real "2x": the validated step refused it and a PPO run stopped."""
    game = make_game("board", players=4, variant="luck")
    rng = np.random.default_rng(5)
    st = game.new_games(np.arange(64))
    asked = np.zeros(0, dtype=np.intp)
    while not len(asked) and not game.game_over(st).all():
        st, _ = game.step(st, np.stack([game.view(st, s).random_legal_actions(rng) for s in range(4)]))
        asked = np.flatnonzero((st.phase == PHASE_ASK) & (st.ask == ASK_LUCK_CARD))
    assert len(asked)
    st.stack[PLUS5, asked] = 0  # the "+5" cards all with the seats
    st.stack[DOUBLE, asked] = np.maximum(st.stack[DOUBLE, asked], 1)
    for seed in range(8):
        view = game.view(st, st.asker[asked], asked)
        chosen = make_agent("mcs:rollouts=16", "board").act(view, np.random.default_rng(seed))
        assert (chosen == LUCK_ACTION[DOUBLE]).all(), chosen
        assert view.action_mask()[np.arange(len(asked)), chosen].all()


def _scan_best_card(layout, mask, tiles, length, tile, stops):
    """The pro offer's answer as a scan over the options (Skip, then Front and Ascending
    row by row), keeping any legal option at least as good as the best so far: the oracle
    of agents.board.pro_answers' one-pass choice."""
    from agents.board.pro_answers import CARD_GAIN, _rules_row, field_value
    from sixnimmt_env.board.actions import ASCENDING_ACTION, FRONT_ACTION, NO_CARD_ACTION, SKIP_ACTION

    m, R = length.shape
    at = np.arange(m)
    row = _rules_row(tiles, length, tile, stops)
    best, best_value = np.full(m, NO_CARD_ACTION), field_value(layout, tiles, row, length[at, row], tile) + CARD_GAIN
    options = [(SKIP_ACTION, row, length[at, row] + 1)]
    for r in range(R):
        options += [(FRONT_ACTION + r, np.full(m, r), np.zeros(m, np.intp)), (ASCENDING_ACTION + r, np.full(m, r), length[:, r])]
    for action, r, f in options:
        value = field_value(layout, tiles, r, f, tile)
        better = mask[:, action] & (value >= best_value)
        best, best_value = np.where(better, action, best), np.where(better, value, best_value)
    return best


@pytest.mark.parametrize("variant", ["pro", "pro-luck"])
def test_pro_answers_and_tile_values_match_their_oracles(variant):
    """The heuristics' pro answers (one pass over every option) equal the scan at every
    action-card offer of random games; their tile values over the hand's held slots equal
    the values over all 100 slots (empty slots lowest)."""
    from agents.board.heuristics import VALUES, _value_on, context, tile_values
    from sixnimmt_env.board.state import ASK_ACTION

    game = make_game("board", players=4, variant=variant)
    rng = np.random.default_rng(3)
    st = game.new_games(np.arange(24))
    offers = picks = 0
    while not game.game_over(st).all():
        actions = []
        for seat in range(4):
            view = game.view(st, np.full(24, seat))
            offer = np.flatnonzero(view.is_asker & (view.ask == ASK_ACTION))
            if len(offer):
                got = answer_questions(view)[offer]
                tiles, length = view.tiles.astype(np.int64)[offer], view.length.astype(np.intp)[offer]
                want = _scan_best_card(view.config.board, view.action_mask()[offer], tiles, length,
                                       view.revealed[offer, 0].astype(np.int64), view.stops[offer])
                assert (got == want).all()
                offers += len(offer)
            picking = np.flatnonzero(view.picking)
            if len(picking) and seat == 0:
                ctx = context(view, picking)
                full = _value_on(VALUES["board-safe"], ctx, view.tiles[picking], view.length[picking],
                                 view.hand[picking].astype(np.int64))
                assert np.array_equal(tile_values(view, picking, "board-safe"), full)
                picks += len(picking)
            actions.append(view.random_legal_actions(rng))
        st, _ = game.step(st, np.stack(actions))
    assert offers > 50 and picks > 50


def _numpy_determinize(known, seats, unseen, rng, sizes=None):
    """search.determinize as plain NumPy (its version before the compiled deal): the
    oracle of sixnimmt_env/board/_kernel/worlds.py, drawing the same random numbers."""
    from sixnimmt_env.board.rules import N_TILES

    G, P, H = known.batch_size, known.players, known.hands.shape[1]
    rows = np.arange(G)
    keys = rng.random((G, N_TILES + 1))
    keys[~unseen] = 2.0
    perm = np.argsort(keys, axis=1).astype(np.int8)
    u = unseen.sum(axis=1)
    own = known.hands[seats, :, rows]
    h = (own > 0).sum(axis=1)
    order = np.argsort(np.where(own > 0, rng.random((G, H)), 2.0), axis=1)
    known.hands[seats[:, None], np.arange(H)[None, :], rows[:, None]] = np.take_along_axis(own, order, axis=1)
    second = (known.phase == PHASE_PICK_SECOND).astype(np.int64)
    j = np.arange(H)[None, :]
    taken = np.zeros(G, dtype=np.int64)
    for k in range(P - 1):
        seat = (seats + 1 + k) % P
        hk = h if sizes is None else sizes[rows, seat]
        src = np.minimum(taken[:, None] + j, N_TILES)
        known.hands[seat[:, None], j, rows[:, None]] = np.where(j < hk[:, None], perm[rows[:, None], src], 0)
        taken += hk
    for k in range(P - 1):
        seat = (seats + 1 + k) % P
        first = perm[rows, np.minimum(taken, N_TILES)]
        known.picked[0, seat, rows] = np.where(second > 0, first, known.picked[0, seat, rows])
        taken += second
    pos = np.arange(known.supply.shape[0])[None, :] - known.drawn.astype(np.int64)[:, None]
    src = np.clip(taken[:, None] + pos, 0, N_TILES)
    known.supply[:] = np.where((pos >= 0) & (pos < (u - taken)[:, None]), perm[rows[:, None], src], 0).T


@pytest.mark.parametrize("variant, players", [("luck", 2), ("basic", 5), ("pro", 3), ("pro-luck", 4)])
def test_determinize_deals_what_the_numpy_deal_deals(variant, players):
    """The compiled deal of the hidden tiles (sixnimmt_env/board/_kernel/worlds.py) writes the worlds the
    NumPy version wrote, from the same random numbers, at every step of random games."""
    game = make_game("board", players=players, variant=variant)
    st = game.new_games(np.arange(8))
    rng = np.random.default_rng(1)
    steps = 0
    while not game.game_over(st).all():
        live = np.flatnonzero(~game.game_over(st))
        view = game.view(st, np.full(len(live), steps % players), live)
        sizes = None
        if view.config.pro:
            absolute = (np.arange(players)[None, :] - view.seats[:, None]) % players
            sizes = np.take_along_axis(view.hand_sizes, absolute, axis=1)
        known = view.known_state()
        want, got = known.copy(), known.copy()
        _numpy_determinize(want, view.seats, view.unseen, np.random.default_rng(steps), sizes)
        determinize(got, view.seats, view.unseen, np.random.default_rng(steps), sizes)
        for name in ("hands", "picked", "supply"):
            assert np.array_equal(getattr(want, name), getattr(got, name)), (steps, name)
        st, _ = game.step(st, np.stack([game.view(st, p).random_legal_actions(rng) for p in range(players)]))
        steps += 1
    assert steps >= 10
