"""Learning from search: label positions with a search teacher, fit the network to it.

`sixnimmt imitate --config FILE` runs two stages into runs/<name>/:

1. **Labels** (`training/labels.py`, `training/label_runs.py`): units of duplicate games
   under the configured rules (classic or Die Sechste, ...), at the configured table
   sizes in turn, the teacher (`mcs`) in most seats; every decision with a choice is
   stored with the teacher's estimate of each legal action. Units run on `workers`
   processes (or a Ray cluster: `--backend ray`) and are written one file each
   (labels/unit-NNNNN.npz), so a killed run resumes where it stopped. The stage ends after `label_minutes` of labelling in all
   (a resumed run gets what its earlier sessions left) or `units` units.
2. **Fit**: a MaskablePPO policy of the configured shape (the card scorer on the
   card-features observation, as `sixnimmt train` builds it) is fitted by least squares:
   its logits, centred over the legal actions, to the teacher's estimates as -q / tau,
   centred the same way (so the argmax of the network is the argmin of the teacher's
   expectation); its value head to minus the bullheads the seat took to the game's end.
   For `fit_minutes`; a held-out share of the units measures agreement with the teacher.

With `game = "board"` the labels are the board search's (training/board_labels.py: every
decision kind with a choice, the board's points stored as costs) and the network the
board's (mlp, tile-scorer or tile-set); the fit is the same.

The fitted model (model.zip with its model.json) plays as `ppo:path=runs/<name>/model.zip`
at every table size it saw, and is the starting point of `sixnimmt train` with
`init_model` (PPO self-play under the full rules).
"""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np

from sixnimmt_env.cards.rules import MAX_PLAYERS, MIN_PLAYERS
from sixnimmt_env.core.checks import is_int
from sixnimmt_env.core.errors import ConfigError, writing
from sixnimmt_env.core.strict_json import json_text

from .board_labels import BOARD_IMITATION_DEFAULTS, fitted_meta
from .config import RunConfig, TrainConfig, check_types, option_text
from .label_runs import label, unit_files, unit_path  # noqa: F401 (unit_path: the stage's files, by index)
from .labels import LabelBatch
from .runs import new_run, resume_run, write_json

MAX_SIZES = {"deal_seats": 1 << 16, "units": 10**7, "workers": 256}
"""The largest value of each size in an imitate config (docs/robustness.md): `workers =
100000` was accepted and spawned processes on demand."""


@dataclass(frozen=True)
class ImitationConfig(RunConfig):
    """Everything an imitation run is made of (checked on construction: ConfigError).
    The network options are NetworkConfig's, for the card scorer on card-features; the
    rules of the labelled games are CardRules' (variant, deck, row_choice, end_score,
    max_rounds)."""

    KIND: ClassVar[str] = "imitation"
    BOARD_DEFAULTS: ClassVar[dict] = BOARD_IMITATION_DEFAULTS  # game=board (training/board_labels.py)

    policy: str = "card-scorer"
    """The network fitted: the card scorer (the board game's: mlp, its board default, the
    tile scorer or the tile-set network, the quick board recipe's: agents/board/tile_set.py)."""
    observation: str = "card-features"
    """Observation variant the network reads."""

    name: str = "imitate"
    """Run name: outputs go to runs/<name>/."""
    players: tuple[int, ...] = (4,)
    """Table sizes of the label units, taken in turn (list one several times to weight it)."""
    teacher: str = "mcs:rollouts=100"
    """The search whose estimates are learnt: an mcs spec, or (the card game) a guided one,
    whose estimates are each card's paired difference to its network's card
    (agents/cards/guided.py `batched_estimates`)."""
    field: tuple[str, ...] = ("random", "greedy", "safe-high", "min-gap")
    """Agents for the seats the teacher does not hold."""
    field_seats: int = 1
    """Seats per table given to a field agent (the rest are the teacher's; at most P - 1)."""
    explore: float = 0.1
    """Share of the teacher's decisions played at random (the positions of weaker play)."""
    deal_seats: int = 64
    """Seats per label unit: deals = deal_seats // players, each in every seat rotation."""
    label_minutes: float = 25.0
    """Wall time of the label stage."""
    units: int = 100_000
    """At most this many label units."""
    workers: int = 2
    """Processes labelling at once."""
    fit_minutes: float = 5.0
    """Wall time of the fit stage (its bound whatever `fit_epochs` says)."""
    fit_epochs: float = 0.0
    """Passes over the fitted labels after which the fit stops (0: none, the fit runs for
    `fit_minutes`). A wall-time bound gives a fit on a busy machine fewer steps; with this
    bound a fit takes the same steps, in the same order, on any machine, so fits compare
    (the step size then halves after two thirds of the steps, not of the minutes)."""
    holdout: float = 0.03
    """Share of the units kept out of the fit to measure it."""
    tau: float = 1.0
    """Bullheads per unit of logit: the policy's softmax is the teacher's at this temperature."""
    value_weight: float = 0.02
    """Weight of the value loss (bullheads squared) against the policy loss."""
    learning_rate: float = 1e-3  # FitOptions' field: labels take a larger step than PPO
    init_model: str = ""
    """A saved model of the same network shape whose weights the fit starts from (e.g. the
    network a guided teacher searched with: one step of search distillation); empty: a
    fresh network."""

    def __post_init__(self) -> None:
        from agents.registry import check_spec
        check_types(self)
        self.check_fit()
        if not self.players or any(not is_int(p) or not MIN_PLAYERS <= p <= MAX_PLAYERS for p in self.players):
            raise ConfigError(f"players must list table sizes {MIN_PLAYERS}..{MAX_PLAYERS}, got {list(self.players)}")
        self.check_game()
        fitted = ("mlp", "tile-scorer", "tile-set") if self.game == "board" else ("card-scorer",)
        if self.policy not in fitted:
            raise ConfigError(f"policy must be {' or '.join(fitted)} (the networks imitation fits for the "
                              f"{self.game} game), got {self.policy!r}")
        self.check_network()
        teachers = ("mcs",) if self.game == "board" else ("mcs", "guided")
        if check_spec(self.teacher, self.game) not in teachers:
            raise ConfigError(f"teacher must be an {' or '.join(teachers)} spec (mcs:rollouts=N"
                              f"{', guided:...' if len(teachers) > 1 else ''}), got {self.teacher!r}")
        if self.init_model and not Path(self.init_model).is_file():
            raise ConfigError(f"init_model {self.init_model!r}: no such file")
        for spec in self.field:
            check_spec(spec, self.game)
        if not self.field and self.field_seats:
            raise ConfigError("field_seats > 0 needs agents in field")
        for name, most in MAX_SIZES.items():
            if not 1 <= getattr(self, name) <= most:
                raise ConfigError(f"{name} must be 1..{most}, got {getattr(self, name)}")
        if self.field_seats < 0:
            raise ConfigError(f"field_seats must be >= 0, got {self.field_seats}")
        for name in ("label_minutes", "fit_minutes", "tau"):
            if not (math.isfinite(getattr(self, name)) and getattr(self, name) > 0):
                raise ConfigError(f"{name} must be a positive number, got {getattr(self, name)}")
        if not 0 <= self.explore <= 1 or not 0 <= self.holdout < 0.5 or self.value_weight < 0:
            raise ConfigError("explore must be in [0, 1], holdout in [0, 0.5), value_weight >= 0")
        if not (math.isfinite(self.fit_epochs) and self.fit_epochs >= 0):
            raise ConfigError(f"fit_epochs must be a number >= 0 (0: no bound), got {self.fit_epochs}")
        for players in sorted(set(self.players)):
            self.game_rules(players)  # the rules at every table size, checked by the game's rules
        self.train_config()  # what training would make of it, checked as training checks it

    def train_config(self, players: int | None = None):
        """The TrainConfig of the network this run fits (what `sixnimmt train` would build)."""
        return TrainConfig.from_dict(dict(  # from_dict: a board run's defaults for the rest
            name=self.name, players=players or self.players[0], **self.game_fields(),
            **(self.rule_fields() if self.game == "cards" else {"variant": self.variant}),
            episode="game", **dataclasses.asdict(self.network), seed=self.seed,
            learning_rate=self.learning_rate, torch_threads=self.torch_threads))

    def unit_players(self, index: int) -> int:
        return self.players[index % len(self.players)]


def _tensors(batch: LabelBatch, tau: float):
    """(obs, rated, target, ret) tensors of `batch`. The observations stay float16 as the
    label files store them (made float32 a minibatch at a time: `_minibatch`), so the fit
    holds a few million board records (1.5M of the board's 1,807 features: 5.4 GB, not 11)."""
    import torch as th
    rated = ~np.isnan(batch.q)
    target = th.from_numpy(np.where(rated, -batch.q / tau, 0.0).astype(np.float32))
    return th.from_numpy(batch.obs), th.from_numpy(rated), target, th.from_numpy(batch.ret)


def _minibatch(tensors, idx):
    """The records `idx` of `tensors`, the observations as float32."""
    obs, rated, target, ret = tensors
    return obs[idx].float(), rated[idx], target[idx], ret[idx]


def losses(policy, obs, rated, target, ret):
    """(policy loss, value loss, agreement) of a minibatch: centred least squares of the
    logits on the rated actions, squared error of the value on -ret, and the share of
    decisions where the network's best rated action is the teacher's."""
    import torch as th
    features = policy.extract_features(obs, policy.pi_features_extractor)
    latent_pi, latent_vf = policy.mlp_extractor(features)
    logits = policy.action_net(latent_pi)
    value = policy.value_net(latent_vf).squeeze(-1)
    w = rated.float()
    count = w.sum(dim=1, keepdim=True).clamp(min=1)
    centred = logits - (logits * w).sum(dim=1, keepdim=True) / count
    goal = target - (target * w).sum(dim=1, keepdim=True) / count
    policy_loss = (((centred - goal) ** 2) * w).sum() / w.sum()
    value_loss = ((value + ret) ** 2).mean()  # rewards are minus the bullheads
    neg = th.finfo(logits.dtype).min
    agree = (th.where(rated, logits, neg).argmax(1) == th.where(rated, target, neg).argmax(1)).float().mean()
    return policy_loss, value_loss, agree


def _split_units(files: list[Path], cfg: ImitationConfig):
    """(fitted, held-out) LabelBatches: a `holdout` share of the units is held out, one unit
    at least when there are several; a single unit is fitted and measured on itself (tiny runs)."""
    rng = np.random.default_rng(cfg.seed)
    held = rng.random(len(files)) < cfg.holdout
    if held.all() or not held.any():
        held[:] = False
        held[rng.integers(len(files))] = len(files) > 1
    return (LabelBatch.load([f for f, h in zip(files, held) if not h]),
            LabelBatch.load([f for f, h in zip(files, held) if h] or files[:1]))


def _held_out_losses(policy, tensors) -> dict:
    """The fitted policy's mean losses and agreement on the held-out labels, in chunks."""
    import torch as th

    chunks = th.arange(len(tensors[3])).split(8192)
    with th.no_grad():
        parts = [losses(policy, *_minibatch(tensors, i)) for i in chunks]
    weights = [len(i) for i in chunks]
    return {k: float(sum(p[j].item() * w for p, w in zip(parts, weights)) / sum(weights))
            for j, k in enumerate(("policy_loss", "value_loss", "agreement"))}


def start_model(cfg: ImitationConfig):
    """A fresh model of the network `cfg` fits, holding `init_model`'s weights when one is
    given (a ConfigError when that network is of another shape, game or variant)."""
    from .train import new_model, start_from
    model = new_model(cfg.train_config(), num_games=8)
    if cfg.init_model:
        start_from(model, cfg.init_model, cfg.train_config())
    return model


def fit(cfg: ImitationConfig, run: Path, progress: bool = True) -> dict:
    """The fit stage: the model fitted to every label unit on disk; writes model.zip/.json."""
    import torch as th

    from .train import model_meta

    th.manual_seed(cfg.seed)
    th.set_num_threads(cfg.torch_threads)
    files = unit_files(run)
    if not files:
        raise ConfigError(f"{run / 'labels'} holds no label units: run the label stage first")
    train_b, test_b = _split_units(files, cfg)
    model = start_model(cfg)
    policy = model.policy
    train_t, test_t = _tensors(train_b, cfg.tau), _tensors(test_b, cfg.tau)
    N, held_out = len(train_b), len(test_b)
    del train_b, test_b  # their q: the targets hold what the fit needs of it
    policy.set_training_mode(True)
    steps = _descend(policy, train_t, N, cfg, progress)
    policy.set_training_mode(False)
    test = _held_out_losses(policy, test_t)
    summary = {"records": N, "held_out": held_out, "steps": steps, "epochs": round(steps * cfg.batch_size / N, 2),
               **{f"test_{k}": round(v, 4) for k, v in test.items()}}
    with writing(run / "model.zip"):
        model.save(run / "model.zip")
        meta = fitted_meta(cfg, model_meta(cfg.train_config(), 0), summary)
        (run / "model.json").write_text(json_text(meta, indent=1) + "\n")
    return summary


def _descend(policy, train_t, N: int, cfg: ImitationConfig, progress: bool) -> int:
    """Adam over shuffled minibatches of the N training records until the fit's bound (its
    epochs, else its minutes), the step size halved for the last third; returns the steps."""
    import torch as th
    from tqdm import tqdm

    opt = th.optim.Adam(policy.parameters(), lr=cfg.learning_rate)
    start = time.monotonic()
    deadline = start + cfg.fit_minutes * 60
    # with an epoch bound, the minibatches of one pass are ceil(N / batch_size), the last one short
    max_steps = math.ceil(cfg.fit_epochs * math.ceil(N / cfg.batch_size)) if cfg.fit_epochs else 0
    steps, lowered = 0, False
    # the bar counts toward the bound that ends the fit: its steps, else its seconds
    bar = tqdm(total=max_steps or round(cfg.fit_minutes * 60), desc="fit", disable=not progress,
               bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} "
                          + ("steps" if max_steps else "s") + " {postfix}")

    def position(now: float) -> int:
        return min(steps if max_steps else round(now - start), bar.total)

    done = False
    while not done:
        for idx in th.randperm(N).split(cfg.batch_size):
            p_loss, v_loss, agree = losses(policy, *_minibatch(train_t, idx))
            opt.zero_grad()
            (p_loss + cfg.value_weight * v_loss).backward()
            opt.step()
            steps += 1
            now = time.monotonic()
            late = 3 * steps >= 2 * max_steps if max_steps else now - start > cfg.fit_minutes * 40
            if not lowered and late:
                for group in opt.param_groups:
                    group["lr"] = cfg.learning_rate / 2
                lowered = True
            if steps % 50 == 0:
                bar.n = position(now)
                bar.set_postfix(loss=f"{p_loss.item():.3f}", agree=f"{agree.item():.3f}")
                bar.refresh()
            done = now >= deadline or 0 < max_steps <= steps
            if done:
                break
    bar.n = position(time.monotonic())  # where it ended
    bar.close()
    return steps


def imitate(cfg: ImitationConfig | None = None, *, resume: str | Path | None = None, runs_dir: str | Path = "runs",
            progress: bool = True, backend=None) -> Path:
    """Both stages into runs/<name>/ (or continue the run directory `resume`); returns it.
    `backend`: where the label units run (training/label_runs.py; default `workers`
    processes here), e.g. experiments.backends.RayBackend."""
    if resume is not None:
        run, cfg = resume_run(resume, ImitationConfig, "imitation")
    else:
        assert cfg is not None
        run = new_run(Path(runs_dir) / cfg.name, cfg)
    if cfg.init_model:  # a network the fit cannot start from is refused now, not after the label stage
        start_model(cfg)
    t0 = time.perf_counter()
    labelled = label(cfg, run, progress, backend)
    t1 = time.perf_counter()
    fitted = fit(cfg, run, progress)
    report = {"label": labelled, "fit": fitted, "label_seconds": round(t1 - t0, 1),
              "fit_seconds": round(time.perf_counter() - t1, 1)}
    write_json(run / "report.json", report)
    return run


HINT_SKIPS = frozenset({"name", "seed", "learning_rate", "torch_threads", "minutes", "total_timesteps", "init_model"})
"""TrainConfig fields a PPO stage chooses for itself, left out of `train_command`."""


def train_command(run: str | Path) -> str:
    """The `sixnimmt train` command that goes on with PPO from the imitation run `run`'s
    network: `init_model` and every option (game, variant, players, observation, network)
    where the network differs from what `train` would build by default for that game, so
    the command works for every game (a board network needs `--set game=board`)."""
    run = Path(run)
    _, cfg = resume_run(run, ImitationConfig, "imitation")
    fitted = cfg.train_config().to_dict()
    default = TrainConfig.from_dict({"game": cfg.game}).to_dict()
    sets = [f"game={cfg.game}"] if cfg.game != "cards" else []
    sets += [f"{k}={option_text(v)}" for k, v in fitted.items()
             if k not in HINT_SKIPS and k != "game" and v != default.get(k)]
    return " ".join(["sixnimmt train", *(f"--set {s}" for s in sets), f"--set init_model={run}/model.zip"])
