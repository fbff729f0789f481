"""The board game's `tile-features` observation and the tile-scorer policy that reads it:
every hand slot's features against a brute-force reading of the placement rule, the
scorer's logits on the right actions, learning the greedy rule from the features, and
the policy's model files read back weights-only (its options checked)."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env.board.actions import N_ACTIONS, ONE_MORE_ACTION, SWAP_ACTION
from sixnimmt_env.board.layout import FIXED, GREEN, KIND_NAMES, RED, TAKE, TAKE_TO_HAND
from sixnimmt_env.board.option_features import option_actions
from sixnimmt_env.board.tile_features import SLOT_FEATURES
from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.game import make_game
from tests.support.model_files import with_data_edit

F = {name: k for k, name in enumerate(SLOT_FEATURES)}


def random_positions(variant: str, players: int, games: int, seed: int, turns: int):
    """(game, views): seat views of random games after 0..turns-1 random turns."""
    game = make_game("board", players=players, variant=variant)
    rng = np.random.default_rng(seed)
    state = game.new_games(np.arange(games) + 1000 * seed)
    views = []
    for _ in range(turns):
        if game.game_over(state).all():
            break
        actions = np.zeros((players, games), dtype=np.int64)
        for s in range(players):
            view = game.view(state, np.full(games, s))
            views.append(view)
            actions[s] = view.random_legal_actions(rng)
        game.step(state, actions, inplace=True)
    return game, views


@pytest.mark.parametrize("variant", ["basic", "luck", "pro", "pro-luck"])
def test_every_slot_says_where_its_tile_lands_and_what_it_brings(variant):
    """Brute force, one tile at a time: the row whose last tile is the highest below it,
    the next free field there, its kind; the points (a take costs the row's bullheads, a
    green field gives the tile's, a red one takes them, a fixed field its value); the
    unseen tiles between the row's end and the tile."""
    game, views = random_positions(variant, 4, 6, seed=3, turns=8)
    layout = game.layout("tile-features")
    board = game.rules.board
    checked = 0
    for view in views:
        slots = layout.decode(layout.encode(view))["hand_slots"]
        for e in range(view.n):
            hand = sorted(int(t) for t in view.hand[e] if t > 0)
            ids = [round(float(v) * 100) for v in slots[e, :, F["id"]] if v > 0]
            assert ids == hand and slots[e, len(hand):].sum() == 0
            length = view.length[e].astype(int)
            ends = {r: int(view.tiles[e, r, length[r] - 1]) for r in range(len(length)) if length[r] > 0}
            for j, tile in enumerate(hand):
                f = slots[e, j]
                below = {r: end for r, end in ends.items() if end < tile}
                assert bool(f[F["too_low"]]) == (not below)
                if not below:
                    continue
                row = max(below, key=below.get)
                field = length[row]
                kind = board.kind[row, field]
                bulls = int(board.tile_bulls[tile])
                row_sum = sum(int(board.tile_bulls[t]) for t in view.tiles[e, row, :field])
                take = kind in (TAKE, TAKE_TO_HAND)
                points = (-row_sum if take else bulls if kind == GREEN else -bulls if kind == RED
                          else int(board.value[row, field]) if kind == FIXED else 0)
                between = sum(1 for t in range(ends[row] + 1, tile) if view.unseen[e, t])
                assert round(f[F["field"]] * board.kind.shape[1]) == field
                assert f[F[f"kind_{KIND_NAMES[kind].replace(' ', '_')}"]] == 1
                assert bool(f[F["take"]]) == take
                assert f[F["points"]] * 10 == pytest.approx(points, abs=1e-4)
                assert f[F["row_sum"]] * 10 == pytest.approx(row_sum, abs=1e-4)
                assert f[F["between"]] * 10 == pytest.approx(between, abs=1e-4)
                assert f[F["gap"]] * 100 == pytest.approx(tile - ends[row], abs=1e-4)
                checked += 1
    assert checked > 200


def _scorer(n_actions: int, layout):
    import torch as th

    from agents.board.policy import TileScorer, tile_scorer_kwargs
    th.manual_seed(0)
    kw = tile_scorer_kwargs(layout, (32,), (16,))
    return TileScorer(layout.size, n_actions, kw["tile_slots"], kw["context"], kw["hidden"], kw.get("options"))


def test_the_scorer_puts_each_slots_scores_on_its_tiles_actions():
    """Put out, Swap and One more of tile t come from t's slot (one shared network), empty
    slots score nothing, the option rows' actions from the option scorer
    (test_board_option_features.py), the other actions from the context."""
    import torch as th
    game = make_game("board", players=4, variant="pro")
    _, views = random_positions("pro", 4, 2, seed=5, turns=1)
    layout = game.layout("tile-features")
    obs = th.tensor(layout.encode(views[0]))
    net = _scorer(N_ACTIONS, layout)
    with th.no_grad():
        for out in (net.slot_out[-1], net.other):
            th.nn.init.normal_(out.weight)
        logits = net(obs)
        ctx = net.context(obs)
        slots = th.as_tensor(layout.decode(obs.numpy())["hand_slots"])
        scores = net.slot_out(net.slot_in(slots) + net.slot_ctx(ctx)[:, None, :])
    for e in range(obs.shape[0]):
        held = [int(t) for t in views[0].hand[e] if t > 0]
        for j, tile in enumerate(sorted(held)):
            for b, start in enumerate((0, SWAP_ACTION, ONE_MORE_ACTION)):
                assert logits[e, start + tile - 1] == pytest.approx(float(scores[e, j, b]), abs=1e-5)
        not_held = [t for t in range(1, 101) if t not in held]
        assert (logits[e, [t - 1 for t in not_held]] == 0).all()
        options = set(option_actions(game.rules.board.kind.shape[0]).tolist())  # their own scorer
        others = [a for a in range(N_ACTIONS)
                  if not (a < 100 or SWAP_ACTION <= a < ONE_MORE_ACTION + 100 or a in options)]
        assert th.allclose(logits[e, others], net.other(ctx[e:e + 1])[0])


def test_the_scorer_learns_the_greedy_rule_from_the_features_quickly():
    """Fitted to "put out the tile with the most points now" on 2,000 positions, it picks
    that tile on held-out positions (a flat network over the basic observation has to
    learn where each of the 100 tiles lands first)."""
    import torch as th
    game, views = random_positions("basic", 4, 128, seed=7, turns=4)
    layout = game.layout("tile-features")
    obs = np.concatenate([layout.encode(v) for v in views])
    mask = np.concatenate([v.action_mask() for v in views])
    slots = layout.decode(obs)["hand_slots"]
    keep = (slots[:, :, F["valid"]].sum(axis=1) > 1) & mask[:, :100].any(axis=1)
    obs, mask, slots = obs[keep], mask[keep], slots[keep]
    points = np.where(slots[:, :, F["valid"]] > 0, slots[:, :, F["points"]] + 1e-3 * slots[:, :, F["id"]], -np.inf)
    best = np.round(slots[np.arange(len(obs)), points.argmax(axis=1), F["id"]] * 100).astype(int) - 1
    assert len(obs) > 1500
    net = _scorer(game.info.n_actions, layout)
    x, m, y = th.tensor(obs), th.tensor(mask), th.tensor(best)
    train, test = slice(0, len(obs) - 300), slice(len(obs) - 300, None)
    opt = th.optim.Adam(net.parameters(), lr=3e-3)
    for _ in range(300):
        logits = net(x[train]).masked_fill(~m[train], -1e9)
        loss = th.nn.functional.cross_entropy(logits, y[train])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with th.no_grad():
        picked = net(x[test]).masked_fill(~m[test], -1e9).argmax(dim=1)
    assert (picked == y[test]).float().mean() > 0.85


@pytest.mark.parametrize("observation", ["tile-features", "tile-answers"])
def test_a_tile_scorer_model_reads_back_weights_only_and_its_options_are_checked(tmp_path, observation):
    """A saved tile-scorer model loads through the weights-only reader with the same
    logits (with tile-answers, the luck rows' scorer too); a file whose slots point past
    the observation is refused with one line."""
    import torch as th

    from agents.model_file import read_model
    from training.config import TrainConfig
    from training.train import new_model
    cfg = TrainConfig.load(None, ["game=board", "variant=luck", "players=4", "policy=tile-scorer",
                                  f"observation={observation}", "net_arch=[32]", "scorer_context=[32]",
                                  "scorer_hidden=[16]", "num_games=2"])
    model = new_model(cfg)
    assert ("luck_options" in model.policy_kwargs) == (observation == "tile-answers")
    path = tmp_path / "m.zip"
    model.save(path)
    loaded = read_model(path)
    x = th.rand(3, model.observation_space.shape[0])
    with th.no_grad():
        assert th.allclose(model.policy.action_net(x), loaded.policy.action_net(x))
    bad = with_data_edit(path, tmp_path / "bad.zip", lambda meta: meta["policy_kwargs"].update(
        tile_slots=[model.observation_space.shape[0] - 10, 12]))
    with pytest.raises(ConfigError, match="tile-scorer slots past the observation's end"):
        read_model(bad)


@pytest.mark.parametrize("options,message", [
    ({"game": "board", "policy": "tile-scorer", "observation": "basic"}, "tile-scorer needs observation tile-features"),
    ({"game": "cards", "policy": "tile-scorer", "observation": "card-features"}, "scores the board game's tiles"),
    ({"game": "board", "policy": "card-scorer", "observation": "tile-features"}, "card-scorer scores cards"),
    ({"game": "cards", "policy": "mlp", "observation": "tile-features"}, "observation"),
])
def test_network_options_that_do_not_fit_the_game_are_refused(options, message):
    from training.config import TrainConfig
    with pytest.raises(ConfigError, match=message):
        TrainConfig.load(None, ["players=4", *(f"{k}={v}" for k, v in options.items())])
