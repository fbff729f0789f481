"""Agents: legality in every phase, reproducibility, information, registry, heuristics."""

from __future__ import annotations

import numpy as np
import pytest

from agents.registry import make_agent, parse_spec
from sixnimmt_env import ConfigError, RuleConfig, from_deal, game_seeds, new_games, step
from sixnimmt_env.cards.actions import action_size, engine_actions
from sixnimmt_env.cards.seat_view import SeatView

FAST_SPECS = ["random", "lowest", "highest", "min-gap", "safe-high", "greedy",
              "bayes:samples=8", "mcs:rollouts=3", "mcs:rollouts=3:score=relative"]


def to_engine(st, actions, games):
    return engine_actions(st.config, st.phase[games], actions)


def play_with(spec: str, players: int, row_choice: str, games: int = 3, seed: int = 0):
    """All seats played by `spec`; every action is checked against the mask."""
    agent = make_agent(spec)
    rng = np.random.default_rng(seed)
    cfg = RuleConfig(players=players, row_choice=row_choice, end_score=None, max_rounds=1)
    st = new_games(cfg, game_seeds(seed, games))
    trace = []
    row_decisions = 0
    while not st.game_over().all():
        actions = np.zeros((players, games), dtype=np.int64)
        for seat in range(players):
            view = SeatView(st, seat)
            chosen = agent.act(view, rng)
            mask = view.action_mask()
            assert chosen.shape == (games,)
            assert (chosen >= 0).all() and (chosen < action_size(cfg)).all()
            assert mask[np.arange(games), chosen].all(), f"{spec} played an illegal action"
            row_decisions += int(view.is_chooser.sum())
            actions[seat] = to_engine(st, chosen, np.arange(games))
        trace.append(actions.copy())
        st, _ = step(st, actions)
    return trace, row_decisions


@pytest.mark.parametrize("spec", FAST_SPECS)
@pytest.mark.parametrize("players", [2, 5, 10])
def test_agents_play_legal_actions_in_every_phase(spec, players):
    _, rows = play_with(spec, players, "player", games=3, seed=players)
    play_with(spec, players, "cheapest", games=2, seed=players)


def test_row_phase_is_exercised():
    _, rows = play_with("lowest", 4, "player", games=6)
    assert rows > 0


@pytest.mark.parametrize("spec", ["random", "bayes:samples=8", "mcs:rollouts=4"])
def test_same_seed_same_decisions(spec):
    a, _ = play_with(spec, 4, "player", games=2, seed=7)
    b, _ = play_with(spec, 4, "player", games=2, seed=7)
    assert all((x == y).all() for x, y in zip(a, b))


@pytest.mark.parametrize("spec", ["bayes:samples=50", "mcs:rollouts=20", "min-gap"])
def test_decision_ignores_other_seats_hidden_cards(spec):
    """Swap the other seats' hidden cards for different unseen cards: same decision."""
    cfg = RuleConfig(players=3, row_choice="cheapest")
    mine = [5, 17, 23, 38, 44, 51, 62, 77, 88, 99]
    rows = [12, 40, 70, 95]
    used = set(mine) | set(rows)
    unseen = [c for c in range(1, 105) if c not in used]
    a = from_deal(cfg, [[mine, unseen[:10], unseen[10:20]]], [rows])
    b = from_deal(cfg, [[mine, unseen[60:70], unseen[30:40]]], [rows])
    va, vb = SeatView(a, 0), SeatView(b, 0)
    assert (va.unseen == vb.unseen).all()
    agent = make_agent(spec)
    assert agent.act(va, np.random.default_rng(1)) == agent.act(vb, np.random.default_rng(1))


def outlook_position():
    """Seat 0 holds 3, 41, 56, 90; rows end 10, 40 (5 cards), 55, 80."""
    cfg = RuleConfig(players=2, row_choice="cheapest")
    rows = [[[10, 0, 0, 0, 0], [20, 25, 30, 35, 40], [55, 0, 0, 0, 0], [80, 0, 0, 0, 0]]]
    return from_deal(cfg, [[[3, 41, 56, 90], [4, 60, 70, 100]]], rows)


@pytest.mark.parametrize("spec,card", [
    ("lowest", 56),     # lowest safe card: 3 is too low, 41 a sixth card
    ("highest", 90),    # its highest card
    ("min-gap", 56),    # lands right after 55 (41 would be the sixth card on 40)
    ("safe-high", 90),  # highest card that is neither too low nor a sixth card
    ("greedy", 56),     # costs nothing alone; smallest gap among the free cards
])
def test_heuristics_pick_the_documented_card(spec, card):
    view = SeatView(outlook_position(), 0)
    assert make_agent(spec).act(view, np.random.default_rng(0))[0] == card - 1


def test_heuristics_take_the_cheapest_row():
    cfg = RuleConfig(players=2)
    rows = [[[10, 11, 0, 0, 0], [20, 0, 0, 0, 0], [55, 0, 0, 0, 0], [80, 0, 0, 0, 0]]]
    st = from_deal(cfg, [[[3, 41], [4, 60]]], rows)
    st, _ = step(st, np.array([[3], [60]]))  # 3 is too low: seat 0 chooses
    view = SeatView(st, 0)
    assert view.is_chooser[0]
    # row 1 (card 20, 3 bullheads) vs row 0 (10+11: 3+5) vs row 3 (80: 3) -> row 1, lower index
    assert make_agent("lowest").act(view, np.random.default_rng(0))[0] == 104 + 1


def test_mcs_searches_rows_too():
    cfg = RuleConfig(players=2)
    rows = [[[10, 11, 0, 0, 0], [20, 0, 0, 0, 0], [55, 0, 0, 0, 0], [80, 0, 0, 0, 0]]]
    st = from_deal(cfg, [[[3, 41], [4, 60]]], rows)
    st, _ = step(st, np.array([[3], [60]]))
    action = make_agent("mcs:rollouts=30").act(SeatView(st, 0), np.random.default_rng(0))[0]
    assert 104 <= action < 108


def test_registry_errors_list_the_valid_choices():
    with pytest.raises(ConfigError, match="valid agents: random, lowest"):
        make_agent("alphazero")
    with pytest.raises(ConfigError, match="valid parameters: rollouts"):
        make_agent("mcs:depth=3")
    with pytest.raises(ConfigError, match="not a valid int"):
        make_agent("mcs:rollouts=many")
    with pytest.raises(ConfigError, match="key=value"):
        make_agent("mcs:100")
    assert parse_spec("mcs:rollouts=100:score=relative") == ("mcs", {"rollouts": "100", "score": "relative"})
    assert make_agent("mcs:rollouts=7").rollouts == 7


def test_match_rotations_share_deals_and_cancel_seat_luck():
    """With every seat the same deterministic agent, rotated seats get equal totals."""
    from agents.arena import run_match
    result = run_match(["lowest"] * 4, RuleConfig(players=4, row_choice="cheapest", max_rounds=2),
                       deals=5, seed=3, progress=False)
    (only,) = result.agents
    assert only.seats == 4 and abs(only.win_share - 0.25) < 1e-9


def test_match_reports_mcs_beating_random():
    from agents.arena import run_match
    result = run_match(["mcs:rollouts=20", "random", "random"], RuleConfig(players=3, row_choice="cheapest", max_rounds=1),
                       deals=20, seed=1, progress=False)
    by = {a.name: a for a in result.agents}
    assert by["mcs:rollouts=20"].points_per_round < by["random"].points_per_round
    assert by["mcs:rollouts=20"].ms_per_decision > 0
