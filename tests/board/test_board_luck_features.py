"""The luck questions' option rows of the `tile-answers` observation (board/luck_features.py)
against the engine itself: at every "+5", "2x" and luck-card question of random luck and
pro-luck games, each legal answer is played on a copy of the game, and the step must
score the points its row says, gain the luck cards it says and take the card it names;
the tile scorer puts each row's score on that row's action, and a model file keeps the
rows' place."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env.board._kernel.effects import clovers_passed
from sixnimmt_env.board.actions import PASS_ACTION
from sixnimmt_env.board.luck_features import LUCK_ANSWERS, LUCK_FEATURES, clovers_gained, luck_option_actions
from sixnimmt_env.board.rules import DOUBLE, PLUS5
from sixnimmt_env.board.state import ASK_DOUBLE, ASK_LUCK_CARD, ASK_PLUS5, PHASE_ASK
from sixnimmt_env.core.game import make_game
from tests.board.test_board_option_features import questions as pro_questions

F = {name: k for k, name in enumerate(LUCK_FEATURES)}
LUCK_ASKS = (ASK_PLUS5, ASK_DOUBLE, ASK_LUCK_CARD)


def questions(variant: str, games: int, seed: int, wanted: int):
    """Yield (game, state, seat, g) at luck questions of random 4-player games, until `wanted`."""
    return pro_questions(variant, games, seed, wanted, asks=LUCK_ASKS)


def rows_of(game, state, seat, g):
    layout = game.layout("tile-answers")
    return layout.decode(layout.encode(game.view(state, np.array([seat]), np.array([g]))))["luck_options"][0]


@pytest.mark.parametrize("variant", ["luck", "pro-luck"])
def test_every_legal_answer_scores_and_gains_what_its_row_says(variant):
    checked = {a: 0 for a in LUCK_ANSWERS}
    for game, state, seat, g in questions(variant, 8, seed=5, wanted=160):
        view = game.view(state, np.array([seat]), np.array([g]))
        ask = int(view.ask[0])
        rows = rows_of(game, state, seat, g)
        mask = view.action_mask()[0]
        for i, action in enumerate(luck_option_actions()):
            row = rows[i]
            assert bool(row.any()) == ((i >= 2) == (ask == ASK_LUCK_CARD))  # only the question's own answers
            if not mask[action]:
                continue
            answer = LUCK_ANSWERS[int(np.argmax(row[:len(LUCK_ANSWERS)]))]
            assert row[:len(LUCK_ANSWERS)].sum() == 1
            assert answer.startswith({ASK_PLUS5: "plus5", ASK_DOUBLE: "double", ASK_LUCK_CARD: "take"}[ask])
            kind = PLUS5 if "plus5" in answer else DOUBLE
            assert row[F["held"]] * 6 == pytest.approx(view.luck[0, 0, kind])  # 6 cards of each kind
            assert row[F["stack"]] * 6 == pytest.approx(view.stack[0, kind])
            acts = np.full((4, 1), PASS_ACTION, dtype=np.int64)
            acts[seat, 0] = action
            before = state.take(np.array([g]))
            st, events = game.step(before, acts, report=True)
            if ask == ASK_LUCK_CARD:  # the card named, nothing scored
                assert st.luck[kind, seat, 0] == before.luck[kind, seat, 0] + 1 and row[F["points"]] == 0
            else:  # the tile's own entry of the step's events: what this effect scored
                entry = int(before.at[0])
                assert events.points[entry, 0] == pytest.approx(row[F["points"]] * 10, abs=1e-4), answer
                gained = int(round(float(row[F["gained"]])))
                if gained and (before.stack[:, 0] > 0).any():  # a gain asks which card at once
                    assert st.phase[0] == PHASE_ASK and st.ask[0] == ASK_LUCK_CARD and st.gain[0] == gained
                else:
                    assert st.ask[0] != ASK_LUCK_CARD or st.at[0] != entry
                if answer.endswith("yes"):
                    assert (events.plus5 if kind == PLUS5 else events.double)[entry, 0]
                    assert row[F["gain"]] == pytest.approx(row[F["points"]] - rows[0, F["points"]], abs=1e-5)
            checked[answer] += 1
    assert min(checked.values()) > 3, checked


def test_clovers_gained_is_the_engines_rule():
    """The NumPy form the rows use against the kernel's own `clovers_passed`."""
    clovers = np.array([-30, -20, -10, 10, 20, 30])
    rng = np.random.default_rng(0)
    old, new = rng.integers(-40, 40, 500), rng.integers(-40, 40, 500)
    expected = [clovers_passed.py_func(clovers, int(a), int(b)) for a, b in zip(old, new)]
    assert clovers_gained(clovers, old, new).tolist() == expected
    assert clovers_gained(clovers, 20, 19) == 0 and clovers_gained(clovers, 21, 20) == 1


def test_luck_rows_only_in_tile_answers_of_the_luck_variants_and_only_for_the_seat_asked():
    for variant in ("basic", "pro"):
        game = make_game("board", players=4, variant=variant)
        assert game.layout("tile-answers").size == game.layout("tile-features").size
    for variant in ("luck", "pro-luck"):
        game = make_game("board", players=4, variant=variant)
        assert "luck_options" not in game.layout("tile-features").offsets  # the shipped networks' observation
        features, answers = game.layout("tile-features"), game.layout("tile-answers")
        assert answers.offsets["luck_options"] == features.size  # appended: the rest is tile-features
    for game, state, seat, g in questions("luck", 4, seed=2, wanted=20):
        for s in range(4):
            assert rows_of(game, state, s, g).any() == (s == seat)


def test_the_scorer_puts_each_luck_rows_score_on_its_action_and_the_model_file_checks_the_rows():
    from pathlib import Path

    import torch as th

    from agents.board.policy import TileScorer, tile_scorer_kwargs
    from agents.model_file import _architecture
    from sixnimmt_env.core.errors import ConfigError
    game = make_game("board", players=4, variant="pro-luck")
    layout = game.layout("tile-answers")
    kw = tile_scorer_kwargs(layout, (32,), (16,))
    assert kw["luck_options"] == [layout.offsets["luck_options"], 4] and "options" in kw
    th.manual_seed(0)
    net = TileScorer(layout.size, game.info.n_actions, kw["tile_slots"], kw["context"], kw["hidden"], kw["options"],
                     kw["luck_options"])
    obs = th.tensor(np.concatenate([layout.encode(game.view(state, np.array([seat]), np.array([g])))
                                    for _, state, seat, g in questions("pro-luck", 4, 3, 8)]))
    with th.no_grad():
        th.nn.init.normal_(net.luck_out[-1].weight)
        logits = net(obs)
        rows = th.as_tensor(layout.decode(obs.numpy())["luck_options"])
        scores = net.luck_out(net.luck_in(rows) + net.luck_ctx(net.context(obs))[:, None, :])[..., 0]
    assert th.allclose(logits[:, luck_option_actions()], scores, atol=1e-6)
    assert scores.std() > 0
    data = {"observation_space": {"_shape": [layout.size]}, "action_space": {"n": game.info.n_actions},
            "policy_kwargs": {"net_arch": {"pi": [], "vf": [32]}, **{k: list(v) for k, v in kw.items()}}}
    assert _architecture(data, Path("m.zip"))[2]["luck_options"] == kw["luck_options"]
    data["policy_kwargs"]["luck_options"] = [layout.size - 10, 4]
    with pytest.raises(ConfigError, match="luck option rows"):
        _architecture(data, Path("m.zip"))
