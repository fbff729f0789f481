"""The card-scorer policy: one shared function scores every card in hand.

A flat MLP policy has to learn, for each of the 104 card actions separately, what makes
that card a good play; the facts that matter (which row the card joins, the gap, whether
it is the sixth card, how many unseen cards could land in front of it) are the same for
every card. With the `card-features` observation each hand slot carries those facts and
its card id, so this policy scores all slots with one small network, conditioned on a
context vector computed from the whole observation, and places each score on its card's
action (a permutation-equivariant head: it generalises across cards from the start).
Row actions (row phase, `row_choice="player"`) are scored the same way from each row's
fields; pass gets a constant logit (it is only ever legal alone).

With `attention=(layers, heads)` the hand's cards and the rows, each already embedded
with the context, are one set of 14 tokens that a small transformer encoder (pre-norm, no
dropout; empty hand slots masked out) mixes before they are scored: a card's score may then
depend on the other cards held and on every row directly, not only through the context
vector (issue 47: "attention ... encoders over hand, rows"). Without it the network is the
plain scorer, unchanged, and saved models of it load as before.

The value function is a plain MLP over the observation (`net_arch`'s `vf` part).
"""

from __future__ import annotations

import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn

from agents.networks import mlp as _mlp
from agents.networks import near_uniform
from sixnimmt_env.cards.encoding import CARD_SCORER_OBSERVATIONS, HAND_SLOT_FEATURES
from sixnimmt_env.cards.rules import HAND_SIZE, N_ROWS
from sixnimmt_env.core.layout import ObsLayout

ROW_INPUTS = ("row_count", "row_bulls", "row_last", "choice_rows")  # per row, by row index
ID_FEATURE = 1  # index of the "id" feature in a hand slot (see HAND_SLOT_FIELDS)


class CardScorer(nn.Module):
    """Observation (B, D) -> action logits (B, A): a score per hand card and per row."""

    def __init__(self, obs_dim: int, n_ids: int, offsets: dict[str, int],
                 context: tuple[int, ...], hidden: tuple[int, ...], attention: tuple[int, ...] = ()):
        """`obs_dim` observation width; `n_ids` card ids (actions); `offsets` where the
        hand slots and the row fields start (`scorer_kwargs`); `context` and `hidden` the
        layer sizes of the context MLP and of the shared card/row scorers; `attention`
        (layers, heads) of the encoder over the card and row tokens, or () for none."""
        super().__init__()
        self.n_ids, self.offsets = n_ids, dict(offsets)
        self.context = _mlp([obs_dim, *context])
        self.card_in = nn.Linear(HAND_SLOT_FEATURES, hidden[0])
        self.card_ctx = nn.Linear(context[-1], hidden[0], bias=False)
        self.card_out = nn.Sequential(nn.ReLU(), _mlp(list(hidden)), nn.Linear(hidden[-1], 1))
        self.row_in = nn.Linear(len(ROW_INPUTS), hidden[0])
        self.row_ctx = nn.Linear(context[-1], hidden[0], bias=False)
        self.row_out = nn.Sequential(nn.ReLU(), _mlp(list(hidden)), nn.Linear(hidden[-1], 1))
        self.encoder = None
        if attention:
            layers, heads = attention
            width = hidden[0]
            # which token is a card and which a row: the two share the encoder
            self.kind = nn.Parameter(th.zeros(2, width))
            block = nn.TransformerEncoderLayer(width, heads, dim_feedforward=2 * width, dropout=0.0,
                                               batch_first=True, norm_first=True)
            self.encoder = nn.TransformerEncoder(block, layers, enable_nested_tensor=False)
        near_uniform(self.card_out[-1], self.row_out[-1])

    def forward(self, obs: th.Tensor) -> th.Tensor:
        """Logits laid out as the actions: the `n_ids` cards by id - 1, then the rows, then pass."""
        B = obs.shape[0]
        ctx = self.context(obs)
        at = self.offsets["hand_slots"]
        slots = obs[:, at:at + HAND_SIZE * HAND_SLOT_FEATURES].reshape(B, HAND_SIZE, HAND_SLOT_FEATURES)
        ids = th.round(slots[:, :, ID_FEATURE] * self.n_ids).long()
        card_tokens = self.card_in(slots) + self.card_ctx(ctx)[:, None, :]
        rows = th.stack([obs[:, self.offsets[name]:self.offsets[name] + N_ROWS] for name in ROW_INPUTS], dim=-1)
        row_tokens = self.row_in(rows) + self.row_ctx(ctx)[:, None, :]
        if self.encoder is not None:
            tokens = th.cat([card_tokens + self.kind[0], row_tokens + self.kind[1]], dim=1)
            empty = th.cat([ids == 0, th.zeros_like(ids[:, :N_ROWS], dtype=th.bool)], dim=1)
            tokens = self.encoder(tokens, src_key_padding_mask=empty)
            card_tokens, row_tokens = tokens[:, :HAND_SIZE], tokens[:, HAND_SIZE:]
        card_score = self.card_out(card_tokens).squeeze(-1)
        # empty slots (id 0) go to a spare last column that is dropped
        target = th.where(ids > 0, ids - 1, th.full_like(ids, self.n_ids))
        cards = obs.new_zeros(B, self.n_ids + 1).scatter(1, target, card_score)[:, :self.n_ids]
        row_score = self.row_out(row_tokens).squeeze(-1)
        return th.cat([cards, row_score, obs.new_zeros(B, 1)], dim=1)


class CardScorerPolicy(MaskableActorCriticPolicy):
    """MaskablePPO policy whose actor is a `CardScorer` (needs the card-features observation).

    Extra keyword arguments: `n_ids` and `offsets` (where the layout's fields start, see
    `scorer_kwargs`), `context` and `hidden` (layer sizes of the context MLP and of the
    shared card/row scorer), `attention` ((layers, heads) of the encoder over the card and
    row tokens; default none). Pass `net_arch=dict(pi=[], vf=[...])`: the actor's latent
    is then the observation itself.
    """

    def __init__(self, *args, n_ids: int, offsets: dict[str, int], context=(256, 128), hidden=(128, 64),
                 attention=(), **kwargs):
        self.scorer_args = (n_ids, dict(offsets), tuple(context), tuple(hidden), tuple(attention))
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule) -> None:
        """SB3's networks, with the actor head replaced by the scorer (and the optimizer
        rebuilt so that it holds the scorer's parameters)."""
        super()._build(lr_schedule)
        self.action_net = CardScorer(self.features_dim, *self.scorer_args)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict:
        """SB3's saved constructor arguments plus the scorer's, so a saved model loads."""
        n_ids, offsets, context, hidden, attention = self.scorer_args
        extra = {"attention": attention} if attention else {}  # a plain scorer's file as before
        return {**super()._get_constructor_parameters(), "n_ids": n_ids, "offsets": offsets,
                "context": context, "hidden": hidden, **extra}


def attention_ok(attention, hidden) -> bool:
    """Whether `attention` is () or (layers, heads) the scorer can build on `hidden`: 1..8
    layers, 1..16 heads that divide the tokens' width (hidden[0])."""
    if not attention:
        return True
    return (len(attention) == 2 and all(isinstance(n, int) and not isinstance(n, bool) for n in attention)
            and 1 <= attention[0] <= 8 and 1 <= attention[1] <= 16 and hidden[0] % attention[1] == 0)


def scorer_kwargs(layout: ObsLayout, context, hidden, attention=()) -> dict:
    """The policy_kwargs a CardScorerPolicy needs for observations laid out by `layout`."""
    if layout.name not in CARD_SCORER_OBSERVATIONS:
        raise ValueError(f"the card-scorer policy needs the {' or '.join(CARD_SCORER_OBSERVATIONS)} observation")
    names = ("hand_slots", *ROW_INPUTS)
    n_ids = layout.field("hand").size - 1  # the hand field is indexed by id, 0 unused
    if layout.field("hand_slots").shape != (HAND_SIZE, HAND_SLOT_FEATURES):
        raise ValueError(f"hand_slots of shape {layout.field('hand_slots').shape}, the scorer reads "
                         f"{(HAND_SIZE, HAND_SLOT_FEATURES)}")
    if not attention_ok(tuple(attention), tuple(hidden)):
        raise ValueError(f"attention {list(attention)}: (layers 1..8, heads 1..16 dividing {hidden[0]}) or none")
    extra = {"attention": tuple(attention)} if attention else {}
    return {"n_ids": n_ids, "offsets": {k: layout.offsets[k] for k in names},
            "context": tuple(context), "hidden": tuple(hidden), **extra}
