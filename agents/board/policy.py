"""The tile-scorer policy: one shared function scores every tile in hand (the board game's
counterpart of agents/cards/policy.py's card scorer).

With the `tile-features` observation each hand slot carries where its tile would land
and what that field does (sixnimmt_env/board/tile_features.py). This policy scores all
slots with one small network, conditioned on a context vector computed from the whole
observation, and places each slot's scores on its tile's actions: putting the tile out,
and on the pro side swapping it in ("Swap") and adding it ("One more"), one output each.
On the pro side the observation also has one row per answer to an action-card offer or a
free-row question (sixnimmt_env/board/option_features.py: where the tile would land and
what that does); a second shared network scores those rows onto their actions, as the
first scores the hand slots: what Front into row 3 is worth is the same function of row
3's facts as of row 7's. With the `tile-answers` observation the luck questions have rows
of their own too (sixnimmt_env/board/luck_features.py: what "+5" or "2x" now, or taking
either card, would score and gain), scored by a third shared network onto no, yes and the
two luck cards. Every other action (pass, Swap and One more's own offers, and the luck
answers under `tile-features`) gets a logit from a linear head over the context.

The value function is a plain MLP over the observation (`net_arch`'s `vf` part).
"""

from __future__ import annotations

import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn

from agents.networks import mlp as _mlp
from agents.networks import near_uniform
from sixnimmt_env.board.actions import ONE_MORE_ACTION, SWAP_ACTION
from sixnimmt_env.board.luck_features import LUCK_FEATURES, LUCK_ROWS, luck_option_actions
from sixnimmt_env.board.option_features import OPTION_FEATURES, option_actions
from sixnimmt_env.board.rules import N_TILES
from sixnimmt_env.board.tile_features import ID_FEATURE, SLOT_FEATURES
from sixnimmt_env.core.layout import ObsLayout

K = len(SLOT_FEATURES)
KO = len(OPTION_FEATURES)
KL = len(LUCK_FEATURES)


def option_rows_ok(rows: int, n_actions: int) -> bool:
    """Whether `rows` option rows (4R + 2) name actions inside an action space of `n_actions`."""
    return rows >= 6 and (rows - 2) % 4 == 0 and int(option_actions((rows - 2) // 4).max()) < n_actions


def luck_rows_ok(rows: int, n_actions: int) -> bool:
    """Whether `rows` luck option rows are the LUCK_ROWS whose actions an action space of
    `n_actions` holds."""
    return rows == LUCK_ROWS and int(luck_option_actions().max()) < n_actions


def tile_blocks(n_actions: int) -> list[int]:
    """Where each block of per-tile actions starts (put out, Swap, One more), those the
    action space holds."""
    return [start for start in (0, SWAP_ACTION, ONE_MORE_ACTION) if start + N_TILES <= n_actions]


class TileScorer(nn.Module):
    """Observation (B, D) -> action logits (B, A): scores per hand tile, the rest from the context."""

    def __init__(self, obs_dim: int, n_actions: int, tile_slots: tuple[int, int],
                 context: tuple[int, ...], hidden: tuple[int, ...], options: tuple[int, int] | None = None,
                 luck_options: tuple[int, int] | None = None):
        """`tile_slots` (offset, slots): where the hand slots start and how many; `options`
        (offset, rows): where the option rows start and how many (None: no option rows);
        `luck_options` (offset, LUCK_ROWS) likewise for the luck questions' rows; `context`
        and `hidden` the layer sizes of the context MLP and of the shared scorers."""
        super().__init__()
        self.offset, self.slots = int(tile_slots[0]), int(tile_slots[1])
        self.options = None if options is None else (int(options[0]), int(options[1]))
        self.blocks = tile_blocks(n_actions)
        scored = [start + i for start in self.blocks for i in range(N_TILES)]
        if self.options is not None:
            scored += option_actions((self.options[1] - 2) // 4).tolist()
        self.luck_options = None if luck_options is None else (int(luck_options[0]), int(luck_options[1]))
        if self.luck_options is not None:
            assert self.luck_options[1] == LUCK_ROWS
            scored += luck_option_actions().tolist()
        taken = set(scored)
        others = [a for a in range(n_actions) if a not in taken]
        position = [0] * n_actions
        for at, action in enumerate(scored + others):
            position[action] = at
        self.register_buffer("position", th.tensor(position, dtype=th.long), persistent=False)
        self.context = _mlp([obs_dim, *context])
        self.slot_in = nn.Linear(K, hidden[0])
        self.slot_ctx = nn.Linear(context[-1], hidden[0], bias=False)
        self.slot_out = nn.Sequential(nn.ReLU(), _mlp(list(hidden)), nn.Linear(hidden[-1], len(self.blocks)))
        heads = [self.slot_out[-1]]
        if self.options is not None:
            self.option_in, self.option_ctx, self.option_out = _row_scorer(KO, context, hidden)
            heads.append(self.option_out[-1])
        if self.luck_options is not None:
            self.luck_in, self.luck_ctx, self.luck_out = _row_scorer(KL, context, hidden)
            heads.append(self.luck_out[-1])
        self.other = nn.Linear(context[-1], len(others))
        near_uniform(*heads, self.other)

    def forward(self, obs: th.Tensor) -> th.Tensor:
        B = obs.shape[0]
        ctx = self.context(obs)
        slots = obs[:, self.offset:self.offset + self.slots * K].reshape(B, self.slots, K)
        scores = self.slot_out(self.slot_in(slots) + self.slot_ctx(ctx)[:, None, :])  # (B, S, blocks)
        ids = th.round(slots[:, :, ID_FEATURE] * N_TILES).long()
        target = th.where(ids > 0, ids - 1, th.full_like(ids, N_TILES))  # empty slots: a spare column
        parts = [obs.new_zeros(B, N_TILES + 1).scatter(1, target, scores[..., b])[:, :N_TILES]
                 for b in range(len(self.blocks))]
        if self.options is not None:
            at, rows = self.options
            opts = obs[:, at:at + rows * KO].reshape(B, rows, KO)
            parts.append(self.option_out(self.option_in(opts) + self.option_ctx(ctx)[:, None, :])[..., 0])
        if self.luck_options is not None:
            at, rows = self.luck_options
            opts = obs[:, at:at + rows * KL].reshape(B, rows, KL)
            parts.append(self.luck_out(self.luck_in(opts) + self.luck_ctx(ctx)[:, None, :])[..., 0])
        return th.cat([*parts, self.other(ctx)], dim=1)[:, self.position]


def _row_scorer(features: int, context, hidden) -> tuple[nn.Module, nn.Module, nn.Module]:
    """(input, context, output) layers of one shared row scorer: a row's features and the
    context, added after one linear layer each, then `hidden` to one score."""
    return (nn.Linear(features, hidden[0]), nn.Linear(context[-1], hidden[0], bias=False),
            nn.Sequential(nn.ReLU(), _mlp(list(hidden)), nn.Linear(hidden[-1], 1)))


class TileScorerPolicy(MaskableActorCriticPolicy):
    """MaskablePPO policy whose actor is a `TileScorer` (needs the tile-features observation).

    Extra keyword arguments: `tile_slots` (offset, slots: see `tile_scorer_kwargs`),
    `options` and `luck_options` (offset, rows, or None), `context` and `hidden`. Pass
    `net_arch=dict(pi=[], vf=[...])`."""

    def __init__(self, *args, tile_slots, context=(256, 128), hidden=(128, 64), options=None, luck_options=None,
                 **kwargs):
        self.scorer_args = (tuple(int(v) for v in tile_slots), tuple(context), tuple(hidden),
                            None if options is None else tuple(int(v) for v in options),
                            None if luck_options is None else tuple(int(v) for v in luck_options))
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        self.action_net = TileScorer(self.features_dim, int(self.action_space.n), *self.scorer_args)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict:
        tile_slots, context, hidden, options, luck_options = self.scorer_args
        extra = {name: list(rows) for name, rows in (("options", options), ("luck_options", luck_options))
                 if rows is not None}
        return {**super()._get_constructor_parameters(), "tile_slots": list(tile_slots), "context": context,
                "hidden": hidden, **extra}


def tile_scorer_kwargs(layout: ObsLayout, context, hidden) -> dict:
    """The policy_kwargs a TileScorerPolicy needs for observations laid out by `layout`
    (with `options` when the layout has the pro side's option rows, `luck_options` when it
    has the luck questions')."""
    if "hand_slots" not in layout.offsets or layout.field("hand_slots").shape[1:] != (K,):
        raise ValueError("the tile-scorer policy needs the board's tile-features observation")
    kwargs = {"tile_slots": [layout.offsets["hand_slots"], layout.field("hand_slots").shape[0]],
              "context": tuple(context), "hidden": tuple(hidden)}
    for name in ("options", "luck_options"):
        if name in layout.offsets:
            kwargs[name] = [layout.offsets[name], layout.field(name).shape[0]]
    return kwargs
