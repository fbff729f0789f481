"""The board game's professional side (variants 3-4) through everything that takes a game:
the engine against the separately written pro reference on random games at 2-6 players,
records and replay (bad records too), the PettingZoo and Gymnasium checkers, the
information test, and the agents' legality and blindness."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

import sixnimmt_env
from sixnimmt_env import make_game
from sixnimmt_env.board._records import Recorder
from sixnimmt_env.board._replay import replay
from sixnimmt_env.board.rules import ACTION_KINDS
from sixnimmt_env.core.errors import InvalidRecordError
from sixnimmt_env.core.rng import game_seeds
from tests.support import reference_board_pro as ref

PRO = ["pro", "pro-luck"]


def random_games(players: int, variant: str, seed: int, batch: int):
    """Random legal games on the engine, with their records."""
    game = make_game("board", players=players, variant=variant)
    st = game.new_games(game_seeds(seed, batch))
    rec = Recorder(st, seeds=list(range(batch)))
    rng = np.random.default_rng(seed)
    while not game.game_over(st).all():
        actions = np.stack([game.view(st, [p] * batch).random_legal_actions(rng) for p in range(players)])
        after, _ = game.step(st, actions)
        rec.observe(st, actions, after)
        st = after
    return game, st, [json.loads(json.dumps(r)) for r in rec.records(st)]


def reference_play(record: dict) -> ref.State:
    """A record played on the pro reference: its deal, its action cards in the order drawn,
    every turn's tiles and decisions."""
    rules = ref.Rules(variant=record["variant"])
    taken = set(t for h in record["hands"] for t in h) | set(record["start"])
    supply = record["draws"] + [t for t in range(1, 101) if t not in taken and t not in record["draws"]]
    state = ref.new_game(rules, record["hands"], record["start"], supply, record["action_draws"])
    for turn in record["turns"]:
        script = ref.Script([(d["seat"], d["ask"], d["answer"]) for d in turn["decisions"]])
        state = ref.play_turn(state, turn["tiles"], script).state
        script.finish()
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("variant", PRO)
def test_engine_matches_the_reference_on_random_games(players, variant):
    """Every game's end, as the engine played it, played again on the reference: the same
    board, hands, action cards, scores and winners (the deck's draws included, reshuffles too)."""
    game, st, records = random_games(players, variant, seed=players * 7 + len(variant), batch=24)
    for g, record in enumerate(records):
        state = reference_play(record)
        assert state.over
        assert st.score[:, g].tolist() == state.scores, f"game {g}: scores"
        rows = [[int(t) if t else None for t in st.tiles[r, :st.length[r, g], g]] for r in range(10)]
        assert rows == state.board, f"game {g}: board"
        assert st.hand_lists(g) == state.hands, f"game {g}: hands"
        held = [sorted(ACTION_KINDS[k] for k in range(6) for _ in range(st.action[k, p, g])) for p in range(players)]
        assert held == [sorted(c) for c in state.actions], f"game {g}: action cards"
        assert record["winners"] == ref.winners(state.scores)


@pytest.mark.parametrize("variant", PRO)
def test_records_replay_and_bad_records_are_named(variant):
    _, _, records = random_games(4, variant, seed=5, batch=8)
    for record in records:
        result = replay(record)
        assert result.over and result.differences == []
    record = records[0]
    cases = []
    bad = copy.deepcopy(record)
    bad["action_draws"][0] = "joker"
    cases.append((bad, "action_draws, card 0: \"joker\" is not an action card"))
    bad = copy.deepcopy(record)
    del bad["action_draws"]
    cases.append((bad, "action_draws must list"))
    decided = [(t, i, d) for t, turn in enumerate(record["turns"]) for i, d in enumerate(turn["decisions"])]
    t, i, d = next(x for x in decided if x[2]["ask"] == "free_row")
    bad = copy.deepcopy(record)
    bad["turns"][t]["decisions"][i]["answer"] = 99
    cases.append((bad, f"turn {t}, seat {d['seat']}: illegal answer 99 to free_row"))
    t, i, d = next(x for x in decided if x[2]["ask"] == "action")
    bad = copy.deepcopy(record)
    bad["turns"][t]["decisions"][i]["answer"] = {"card": "skip", "row": 3}
    cases.append((bad, "illegal answer {\"card\": \"skip\", \"row\": 3} to action"))
    for bad, message in cases:
        with pytest.raises(InvalidRecordError) as err:
            replay(bad)
        assert message in str(err.value) and "\n" not in str(err.value)
    # a legal set is named
    assert "legal: [null" in str(pytest.raises(InvalidRecordError, replay, cases[3][0]).value)


@pytest.mark.parametrize("variant", PRO)
def test_pettingzoo_and_gymnasium_checkers(variant):
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test, parallel_api_test

    from sixnimmt_env.adapters.gym_env import SixNimmtEnv
    parallel_api_test(sixnimmt_env.parallel_env(game="board", players=3, variant=variant), num_cycles=200)
    api_test(sixnimmt_env.env(game="board", players=4, variant=variant), num_cycles=100)
    check_env(SixNimmtEnv(game="board", players=4, variant=variant))


def test_an_observation_hides_the_others_cards_and_the_deck():
    """The other seats' tiles, which action cards they hold (not how many) and the deck's
    order are not in an observation."""
    game = make_game("board", players=3, variant="pro")
    st = game.new_games(game_seeds(4, 1))
    other = st.copy()
    other.hands[1, :12, 0], other.supply[:12, 0] = st.supply[:12, 0], st.hands[1, :12, 0]
    held = other.action[:, 2, 0].copy()
    other.action[:, 2, 0] = 0
    other.action[np.argmin(held), 2, 0] = held.sum()  # same count, other kinds
    other.deck[:, 0] = other.deck[::-1, 0]
    layout = game.layout()
    assert np.array_equal(layout.encode(game.view(st, [0])), layout.encode(game.view(other, [0])))
    assert not np.array_equal(layout.encode(game.view(st, [2])), layout.encode(game.view(other, [2])))


@pytest.mark.parametrize("variant", PRO)
def test_agents_play_legal_pro_games(variant):
    from agents.arena import run_match
    result = run_match(["mcs:rollouts=4", "board-green", "board-safe", "random"],
                       make_game("board", players=4, variant=variant), deals=2, seed=3, progress=False)
    assert len(result.agents) == 4 and all(np.isfinite(a.points_per_round) for a in result.agents)


def test_mcs_decides_the_same_whatever_the_hidden_cards():
    from agents.registry import make_agent
    game = make_game("board", players=3, variant="pro")
    st = game.new_games(game_seeds(11, 1))
    other = st.copy()
    other.hands[1, :12, 0], other.supply[:12, 0] = st.supply[:12, 0], st.hands[1, :12, 0]
    other.deck[:, 0] = other.deck[::-1, 0]
    agent = make_agent("mcs:rollouts=8", "board")
    a = agent.act(game.view(st, [0]), np.random.default_rng(1))
    b = agent.act(game.view(other, [0]), np.random.default_rng(1))
    assert a.tolist() == b.tolist()
