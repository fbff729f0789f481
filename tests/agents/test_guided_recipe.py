"""`guided`'s default recipe is the table's (agents/cards/guided.py `table_recipe`): the
network's 3 best cards in 96 worlds, trusting the table's `ppo`, at 2-4 classic players;
every card in 32 worlds, the least mean, on the table's imitation network at 5 or more and
in Die Sechste. What a spec gives overrides only that value."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env import RuleConfig
from sixnimmt_env.core.game import make_game


def views(variant: str, players: int, turns: int = 2, games: int = 3):
    """Every seat's view of `games` one-round games after `turns` turns of random play."""
    from agents.random_agent import RandomAgent
    game = make_game("cards", RuleConfig(players=players, variant=variant, max_rounds=1, end_score=None))
    st = game.new_games(np.arange(games, dtype=np.uint64))
    rng = np.random.default_rng(2)
    everyone = (np.repeat(np.arange(players), games), np.tile(np.arange(games), players))
    for _ in range(turns):
        st, _ = game.step(st, RandomAgent().act(game.view(st, *everyone), rng).reshape(players, games))
    return game.view(st, *everyone)


@pytest.mark.parametrize("variant, players, wide", [
    ("classic", 2, False), ("classic", 3, False), ("classic", 4, False), ("classic", 5, True),
    ("classic", 6, True), ("classic", 10, True), ("die-sechste", 4, True), ("die-sechste", 6, True)])
def test_the_recipe_of_each_table(variant, players, wide):
    from agents.cards.guided import TRUSTING, WIDE, table_recipe
    assert table_recipe(variant, players) == (WIDE if wide else TRUSTING)


@pytest.mark.parametrize("variant, players, spelt", [
    # the former default, on the table's imitation network
    ("die-sechste", 4, "guided:path=agents/models/imitate-sechste.zip:top=0:worlds=32:trust=0"),
    ("classic", 6, "guided:path=agents/models/ppo-all.zip:top=0:worlds=32:trust=0"),
    # the 4-player recipe on the shipped ppo-4p
    ("classic", 4, "guided:path=agents/models/ppo-4p.zip:top=3:worlds=96:trust=2"),
])
def test_plain_guided_plays_the_tables_recipe_spelt_out(variant, players, spelt):
    from agents.registry import make_agent
    view = views(variant, players)
    plain, explicit = make_agent("guided"), make_agent(spelt)
    got = plain.act(view, np.random.default_rng(5))
    want = explicit.act(view, np.random.default_rng(5))
    assert np.array_equal(got, want)
    assert (plain.worlds, plain.top, plain.trust) == (explicit.worlds, explicit.top, explicit.trust)


def test_a_given_value_overrides_only_itself():
    from agents.registry import make_agent
    agent = make_agent("guided:worlds=8")
    agent.for_table(RuleConfig(players=6), 6)
    assert (agent.worlds, agent.top, agent.trust) == (8, 0, 0.0)
    agent.for_table(RuleConfig(players=4), 4)  # one agent, tables of two sizes (a tournament over seat counts)
    assert (agent.worlds, agent.top, agent.trust) == (8, 3, 2.0)
    mcs = make_agent("guided:rollout=mcs")
    mcs.for_table(RuleConfig(players=6), 6)
    assert (mcs.worlds, mcs.top, mcs.trust) == (96, 3, 0.0)  # mcs's search keeps its fixed defaults
