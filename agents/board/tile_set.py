"""The tile-set policy: the board game's network at a cost per sample that follows the
tiles a seat holds, not the width of its observation (issue 59).

The tile scorer (policy.py) reads the whole `tile-features` observation (4,751 numbers on
the pro side) through a context MLP, a value MLP of the same width, and scores all 100
hand slots and 42 option rows whatever a seat holds: about 4.2M multiply-adds a sample,
nine tenths of them on slots and rows that are empty. This network reads the same
observation (the same layout, so the same envs, agents and files) as three parts:

- **the table**: the fields before the hand slots (rows, scores, action cards, the
  multi-hots of tiles) through one linear layer, less the printed board (`kinds`,
  `values`: 700 numbers, the same in every observation of a layout; what a tile meets
  there reaches the network through its slot's features and the rows' `next_kind`);
- **the hand**: only the slots that hold a tile (they come first: tiles ascending, empty
  slots last and 0), each through one small MLP shared by every tile (`hidden`), then
  pooled (mean) into the context;
- **the answers** (pro): only the option rows that are filled in (a seat asked an offer or
  a free row; luck rows with `tile-answers`), each through its own shared MLP, pooled.

The context (`context` layers over table + pooled hand + pooled answers) conditions each
tile's score, as in the tile scorer: a tile's score is a shared function of its
embedding plus a projection of the context, one output per per-tile action block (put
out, Swap, One more); each filled-in answer row is scored likewise onto its action; every
other action gets a logit from a linear head over the context. The actor and the critic
each have such an encoder (SB3's separate actor and critic networks), the critic with
`net_arch` layers over its context. Rows and slots are packed (only the filled-in ones go
through the MLPs), so a sample costs ~0.2-0.4M multiply-adds at the default widths.

Built on SB3's MaskableActorCriticPolicy the way every caller reads a policy: the feature
extractor passes the observation through, `mlp_extractor.forward_actor` is the identity,
`forward_critic` the critic's encoder, `action_net` the actor's encoder and scorers.
"""

from __future__ import annotations

import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn

from agents.networks import mlp as _mlp
from agents.networks import near_uniform
from sixnimmt_env.board.luck_features import LUCK_ANSWERS, luck_option_actions
from sixnimmt_env.board.option_features import ANSWERS, option_actions
from sixnimmt_env.board.rules import N_TILES
from sixnimmt_env.board.tile_features import ID_FEATURE

from .policy import KL, KO, K, tile_blocks

PRINTED = ("kinds", "values")
"""The layout's printed board: fields the table leaves out (the same in every observation of a layout)."""
ENCODER = "tile-set"
"""The `encoder` policy option that marks this network in a model file (model_file.py)."""


def _rows(obs: th.Tensor, offset: int, rows: int, width: int, flags: int) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
    """The filled-in rows of a (rows, width) block at `offset`: (N, width) their features,
    (N,) their sample and (N,) their row index. A row is filled in when one of its first
    `flags` features (a hand slot's `valid`, an option row's one-hot answer) is set: an
    empty hand slot and an option row of a question not asked are all 0, and a filled-in
    row always has its flag (reading those columns alone, not the whole block, was a
    tenth of a training step's time)."""
    block = obs[:, offset:offset + rows * width].reshape(obs.shape[0], rows, width)
    filled = block[:, :, :flags].ne(0).any(-1) if flags > 1 else block[:, :, 0].ne(0)
    sample, row = filled.nonzero(as_tuple=True)
    return block[sample, row], sample, row


def _mean_pool(values: th.Tensor, sample: th.Tensor, n: int) -> th.Tensor:
    """(n, E) the mean of `values` (N, E) over each sample's rows (0 with none)."""
    total = values.new_zeros(n, values.shape[1]).index_add(0, sample, values)
    count = values.new_zeros(n).index_add(0, sample, values.new_ones(len(sample)))
    return total / count.clamp(min=1.0)[:, None]


class SetEncoder(nn.Module):
    """Observation (B, D) -> context (B, C) and the embeddings of its filled-in rows."""

    def __init__(self, table: list[tuple[int, int]], groups: list[tuple[int, int, int, int]], context: tuple[int, ...],
                 hidden: tuple[int, ...]):
        """`table`: (offset, width) of the observation's parts read as a whole; `groups`: (offset, rows,
        features, flags) of the hand slots, then of each kind of option row; `context` the
        context MLP's layers, `hidden` each group's shared row MLP's."""
        super().__init__()
        self.table, self.groups = [(int(a), int(b)) for a, b in table], [tuple(int(v) for v in g) for g in groups]
        self.table_in = nn.Linear(sum(width for _, width in self.table), context[0])
        self.rows_in = nn.ModuleList(_mlp([g[2], *hidden]) for g in self.groups)
        self.context = nn.Sequential(nn.ReLU(), _mlp([context[0] + len(groups) * hidden[-1], *context]))

    def forward(self, obs: th.Tensor) -> tuple[th.Tensor, list[tuple[th.Tensor, th.Tensor, th.Tensor, th.Tensor]]]:
        """(context (B, C), per group: (rows' features (N, F), embeddings (N, E), sample (N,), row (N,)))."""
        n = obs.shape[0]
        packed, pooled = [], []
        for (offset, rows, width, flags), embed in zip(self.groups, self.rows_in):
            features, sample, row = _rows(obs, offset, rows, width, flags)
            emb = embed(features)
            packed.append((features, emb, sample, row))
            pooled.append(_mean_pool(emb, sample, n))
        table = self.table_in(th.cat([obs[:, at:at + width] for at, width in self.table], dim=1))
        return self.context(th.cat([table, *pooled], dim=1)), packed


class TileSetActor(nn.Module):
    """Observation (B, D) -> action logits (B, A), scored per filled-in row."""

    def __init__(self, n_actions: int, table: list[tuple[int, int]], groups: list[tuple[int, int, int, int]], row_actions: list,
                 context: tuple[int, ...], hidden: tuple[int, ...]):
        """`groups`: (offset, rows, features, flags) of the hand slots, then of each kind of option
        row; `row_actions`: for each kind of option row, the action of each of its rows."""
        super().__init__()
        self.encoder = SetEncoder(table, groups, context, hidden)
        self.n_actions, self.blocks = n_actions, tile_blocks(n_actions)
        for k, actions in enumerate(row_actions):
            self.register_buffer(f"row_actions_{k}", th.as_tensor(actions, dtype=th.long), persistent=False)
        taken = {start + i for start in self.blocks for i in range(N_TILES)}
        taken |= {int(a) for actions in row_actions for a in actions}
        others = [a for a in range(n_actions) if a not in taken]
        self.register_buffer("others", th.tensor(others, dtype=th.long), persistent=False)
        self.register_buffer("block_starts", th.tensor(self.blocks, dtype=th.long), persistent=False)
        outs = [len(self.blocks)] + [1] * len(row_actions)
        self.row_ctx = nn.ModuleList(nn.Linear(context[-1], hidden[-1], bias=False) for _ in outs)
        self.row_out = nn.ModuleList(nn.Sequential(nn.ReLU(), _mlp([hidden[-1], hidden[-1]]), nn.Linear(hidden[-1], k))
                                     for k in outs)
        self.other = nn.Linear(context[-1], len(others))
        near_uniform(*(o[-1] for o in self.row_out), self.other)

    def forward(self, obs: th.Tensor) -> th.Tensor:
        ctx, packed = self.encoder(obs)
        B, A = obs.shape[0], self.n_actions
        logits = obs.new_zeros(B, A).index_copy(1, self.others, self.other(ctx))
        flat, values = [], []
        for k, (features, emb, sample, row) in enumerate(packed):
            scores = self.row_out[k](emb + self.row_ctx[k](ctx)[sample])  # (N, outputs)
            if k == 0:  # hand slots: each block's action of the slot's tile
                tile = th.round(features[:, ID_FEATURE] * N_TILES).long() - 1
                actions = self.block_starts[None, :] + tile[:, None]  # (N, blocks)
                flat.append((sample[:, None] * A + actions).reshape(-1))
                values.append(scores.reshape(-1))
            else:
                flat.append(sample * A + getattr(self, f"row_actions_{k - 1}")[row])
                values.append(scores[:, 0])
        return logits.reshape(-1).scatter(0, th.cat(flat), th.cat(values)).reshape(B, A)


class TileSetCritic(nn.Module):
    """The critic's side of the extractor: observation (B, D) -> latent (B, net_arch[-1])."""

    def __init__(self, table: list[tuple[int, int]], groups, context: tuple[int, ...], hidden: tuple[int, ...],
                 net_arch: tuple[int, ...]):
        super().__init__()
        self.encoder = SetEncoder(table, groups, context, hidden)
        self.head = _mlp([context[-1], *net_arch])
        self.latent_dim = net_arch[-1] if net_arch else context[-1]

    def forward(self, obs: th.Tensor) -> th.Tensor:
        return self.head(self.encoder(obs)[0])


class TileSetExtractor(nn.Module):
    """SB3's `mlp_extractor` contract: the actor's latent is the observation itself (the
    actor's encoder is `action_net`), the critic's its own encoder's."""

    def __init__(self, obs_dim: int, critic: TileSetCritic):
        super().__init__()
        self.policy_net = nn.Identity()  # what bookkeeping freezes with action_net: nothing of its own
        self.value_net = critic
        self.latent_dim_pi, self.latent_dim_vf = obs_dim, critic.latent_dim

    def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        return features, self.value_net(features)

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        return features

    def forward_critic(self, features: th.Tensor) -> th.Tensor:
        return self.value_net(features)


def _groups(tile_slots, options, luck_options) -> tuple[list[tuple[int, int, int, int]], list]:
    """(offset, rows, features, flags) of the hand slots and of each kind of option row the
    observation has, and the actions of each kind of option row's rows."""
    groups, row_actions = [(int(tile_slots[0]), int(tile_slots[1]), K, 1)], []  # flag: `valid`
    if options is not None:
        groups.append((int(options[0]), int(options[1]), KO, len(ANSWERS)))
        row_actions.append(option_actions((int(options[1]) - 2) // 4))
    if luck_options is not None:
        groups.append((int(luck_options[0]), int(luck_options[1]), KL, len(LUCK_ANSWERS)))
        row_actions.append(luck_option_actions())
    return groups, row_actions


class TileSetPolicy(MaskableActorCriticPolicy):
    """MaskablePPO policy of a tile-set network (needs the tile-features or tile-answers
    observation). Extra keyword arguments: `tile_slots`, `options`, `luck_options` (offset,
    rows, or None: as the tile scorer's), `table` ([offset, width] of each part of the
    observation read as a whole), `context`, `hidden`, and `encoder` = "tile-set".
    `net_arch` (a list, or {"vf": [...]}) is the critic's head over its context."""

    def __init__(self, *args, tile_slots, table, context=(128,), hidden=(64, 64), options=None, luck_options=None,
                 encoder=ENCODER, net_arch=None, **kwargs):
        assert encoder == ENCODER
        groups, row_actions = _groups(tile_slots, options, luck_options)
        vf = net_arch.get("vf", []) if isinstance(net_arch, dict) else list(net_arch or [])
        table = [(int(a), int(b)) for a, b in table]
        self.set_args = {"table": table, "groups": groups, "row_actions": row_actions,
                         "context": tuple(int(v) for v in context), "hidden": tuple(int(v) for v in hidden),
                         "net_arch": tuple(int(v) for v in vf)}
        self.saved = {"tile_slots": [int(v) for v in tile_slots], "table": [list(t) for t in table],
                      "context": list(context), "hidden": list(hidden), "encoder": encoder,
                      **{name: [int(v) for v in rows] for name, rows in
                         (("options", options), ("luck_options", luck_options)) if rows is not None}}
        super().__init__(*args, net_arch={"pi": [], "vf": list(vf)}, **kwargs)

    def _build_mlp_extractor(self) -> None:
        a = self.set_args
        critic = TileSetCritic(a["table"], a["groups"], a["context"], a["hidden"], a["net_arch"])
        self.mlp_extractor = TileSetExtractor(self.features_dim, critic)

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        a = self.set_args
        self.action_net = TileSetActor(int(self.action_space.n), a["table"], a["groups"], a["row_actions"],
                                       a["context"], a["hidden"])
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict:
        return {**super()._get_constructor_parameters(), **self.saved}


def tile_set_kwargs(layout, context, hidden) -> dict:
    """The policy_kwargs a TileSetPolicy needs for observations laid out by `layout`: the
    tile scorer's, and the table's parts (the fields before the hand slots but PRINTED)."""
    from .policy import tile_scorer_kwargs
    kwargs = tile_scorer_kwargs(layout, context, hidden)
    table: list[list[int]] = []
    for f in layout.fields:
        at = layout.offsets[f.name]
        if at >= kwargs["tile_slots"][0] or f.name in PRINTED:
            continue
        if table and table[-1][0] + table[-1][1] == at:
            table[-1][1] += f.size
        else:
            table.append([at, f.size])
    return {**kwargs, "table": table, "encoder": ENCODER}
