"""Train a belief model (agents/cards/belief.py) on games of our agents: the labels are free.

Agents play one-round games (duplicate deals, every seat rotation: the arena's
`play_duplicate`); before every card turn, every seat's view gives the belief inputs of
each card it has not seen (sixnimmt_env/cards/belief_features.py), and the true deal
the label: which other seat holds the card, or that it was not dealt. Two small MLPs are
fitted to those labels by cross-entropy (torch, on the CPU); their weights go into the
numpy model. `evaluate_belief` gives the held-out log-loss, per unseen card, of a model
and of the uniform deal on games not trained on.

    python -m training.belief --agents ppo,ppo,ppo,ppo --games 300 --out agents/models/belief-4p.npz
"""

from __future__ import annotations

import argparse
import dataclasses
import time

import numpy as np

from agents.cards.belief import LAYERS, BeliefModel
from sixnimmt_env.cards.belief_features import BeliefInputs, belief_inputs
from sixnimmt_env.cards.seat_view import SeatView
from sixnimmt_env.cards.state import PHASE_CARDS
from sixnimmt_env.core.rng import game_seeds


def holders(st, view: SeatView) -> np.ndarray:
    """(n, N+1) for each entry of `view` and card id: the relative seat - 1 holding it
    (0..P-2), P-1 when no other seat holds it (not dealt, or not unseen: masked later)."""
    P = view.players
    N = view.config.variant_data.n_ids
    out = np.full((view.n, N + 1), P - 1, np.int64)
    entry = np.arange(view.n)[:, None]
    for j in range(1, P):
        seat = (view.seats + j) % P
        hand = st.hands[seat, :, view.games]  # (n, H)
        out[entry, hand] = np.where(hand > 0, j - 1, out[entry, hand])
    out[:, 0] = P - 1
    return out


class _Collector:
    """An arena observer: before every card turn, each seat's belief inputs and labels."""

    def __init__(self, on_view):
        self.on_view = on_view

    def observe(self, before, actions, after, events) -> None:
        games = np.flatnonzero((before.phase == PHASE_CARDS) & ~before.game_over())
        if len(games) == 0:
            return
        P = before.players
        view = SeatView(before, np.repeat(np.arange(P), len(games)), np.tile(games, P))
        self.on_view(belief_inputs(view), holders(before, view))


def play_for_beliefs(specs: list[str], rules, games: int, seed: int, on_view) -> None:
    """Play `games` duplicate deals (every seat rotation) of `specs`, calling on_view(inputs,
    labels) before every card turn."""
    from agents.arena import build_agents, play_duplicate
    names, agents = build_agents(specs, "cards")
    play_duplicate(names, agents, rules, game_seeds(seed, games), np.random.default_rng(seed),
                   observers=[_Collector(on_view)])


def collect(specs: list[str], rules, games: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(pair (M, P-1, F), card (M, Fc), label (M,)): one row per unseen card of every view."""
    pairs, cards, labels = [], [], []

    def keep(inputs: BeliefInputs, label: np.ndarray) -> None:
        m = inputs.possible
        pairs.append(inputs.pair[m])
        cards.append(inputs.card[m])
        labels.append(label[m])

    play_for_beliefs(specs, rules, games, seed, keep)
    return np.concatenate(pairs), np.concatenate(cards), np.concatenate(labels)


def fit(pair: np.ndarray, card: np.ndarray, label: np.ndarray, hidden: int = 32, epochs: int = 4,
        batch: int = 4096, lr: float = 3e-3, seed: int = 0, threads: int = 1) -> BeliefModel:
    """Fit the two MLPs by cross-entropy over (other seats, not dealt)."""
    import torch as th
    th.manual_seed(seed)
    th.set_num_threads(threads)
    F, Fc = pair.shape[-1], card.shape[-1]
    pair_net = th.nn.Sequential(th.nn.Linear(F, hidden), th.nn.ReLU(), th.nn.Linear(hidden, hidden), th.nn.ReLU(),
                                th.nn.Linear(hidden, 1))
    out_net = th.nn.Sequential(th.nn.Linear(Fc, hidden), th.nn.ReLU(), th.nn.Linear(hidden, 1))
    params = [*pair_net.parameters(), *out_net.parameters()]
    opt = th.optim.Adam(params, lr=lr)
    P_, C_, Y = th.as_tensor(pair), th.as_tensor(card), th.as_tensor(label)
    rng = np.random.default_rng(seed)
    for _ in range(epochs):
        for idx in np.array_split(rng.permutation(len(Y)), max(1, len(Y) // batch)):
            i = th.as_tensor(idx)
            logits = th.cat([pair_net(P_[i])[..., 0], out_net(C_[i])], dim=1)
            loss = th.nn.functional.cross_entropy(logits, Y[i])
            opt.zero_grad()
            loss.backward()
            opt.step()
    layers = [m for m in (*pair_net, *out_net) if isinstance(m, th.nn.Linear)]
    weights = {}
    for k, layer in enumerate(layers):
        weights[LAYERS[2 * k]] = layer.weight.detach().numpy().T.astype(np.float32).copy()
        weights[LAYERS[2 * k + 1]] = layer.bias.detach().numpy().astype(np.float32).copy()
    return BeliefModel(weights)


def evaluate_belief(model: BeliefModel, specs: list[str], rules, games: int, seed: int) -> dict:
    """Held-out nats per unseen card of `model` and of the uniform deal (lower is better),
    and the mean probability each gives the true holder."""
    uniform = BeliefModel(None)
    sums = {"model": 0.0, "uniform": 0.0, "model_p": 0.0, "uniform_p": 0.0, "cards": 0}

    def score(inputs: BeliefInputs, label: np.ndarray) -> None:
        m = inputs.possible
        for name, belief in (("model", model), ("uniform", uniform)):
            p = np.take_along_axis(belief.probabilities(inputs), label[:, :, None], axis=2)[:, :, 0][m]
            sums[name] -= float(np.log(np.maximum(p, 1e-12)).sum())
            sums[name + "_p"] += float(p.sum())
        sums["cards"] += int(m.sum())

    play_for_beliefs(specs, rules, games, seed, score)
    n = max(sums["cards"], 1)
    return {"nats_model": sums["model"] / n, "nats_uniform": sums["uniform"] / n,
            "p_true_model": sums["model_p"] / n, "p_true_uniform": sums["uniform_p"] / n, "cards": sums["cards"]}


def train_belief(specs: list[str], games: int, out: str, seed: int = 0, held_out: int = 40, epochs: int = 4,
                 hidden: int = 32, variant: str = "classic") -> dict:
    """Collect, fit, evaluate on held-out deals, save to `out` (.npz and .json); the meta."""
    from sixnimmt_env import RuleConfig
    rules = RuleConfig(players=len(specs), variant=variant, row_choice="player", end_score=None, max_rounds=1)
    t0 = time.perf_counter()
    pair, card, label = collect(specs, rules, games, seed)
    t1 = time.perf_counter()
    model = fit(pair, card, label, hidden=hidden, epochs=epochs, seed=seed)
    t2 = time.perf_counter()
    figures = evaluate_belief(model, specs, rules, held_out, seed + 1_000_003)
    meta = {"game": "cards", "variant": variant, "players": len(specs), "agents": specs, "games": games,
            "seed": seed, "cards": int(len(label)), "hidden": hidden, "epochs": epochs,
            "collect_s": round(t1 - t0, 1), "fit_s": round(t2 - t1, 1), "held_out_games": held_out,
            "held_out": {k: round(v, 4) if isinstance(v, float) else v for k, v in figures.items()},
            "rules": {k: v for k, v in dataclasses.asdict(rules).items() if isinstance(v, (int, str, type(None)))}}
    model.save(out, meta)
    return meta


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description="Train a belief model on games of our agents.")
    parser.add_argument("--agents", default="ppo,ppo,ppo,ppo", help="one agent spec per seat")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--held-out", type=int, default=40)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    meta = train_belief(args.agents.split(","), args.games, args.out, args.seed, args.held_out, args.epochs)
    print(meta)


if __name__ == "__main__":
    main()
