"""Distillation: a student network learns a teacher network's play (issue 59).

`sixnimmt distill --config FILE` plays games in which the teacher (a saved model) holds
every seat and samples its own moves, and fits the student, batch after batch, to the
teacher's move distribution over the legal actions (soft targets: the KL divergence from
the teacher's to the student's) and to the teacher's value. Forced decisions (one legal
action) are skipped. Every batch is measured before the student learns from it — so the
agreement and KL figures are on positions it has not seen. Then PPO fine-tunes the
student at a low rate: the command `finetune_command` prints when the run ends (a
fine-tune config of training/configs/ that fits the student, `--set init_model=...`).

Why (take5bot's notes, docs/ARCHITECTURE.md there, public): a larger network trained by
PPO from scratch, or from a weaker start, did not reach the champion; distilled from it
to parity, then fine-tuned at a low rate, it climbed. Outputs in runs/<name>/:
config.json, versions.json, model.zip and model.json (the student), distill.csv (one row
per batch: samples, KL, agreement, value error).
"""

from __future__ import annotations

import csv
import shlex
import time
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import torch as th
from torch.nn import functional as F

from sixnimmt_env.core.errors import ConfigError

from .config import NETWORK_KEYS, RunConfig, TrainConfig, check_types, option_text
from .game_rules import RULE_KEYS
from .lab_ppo import _forward, masked_log_probs
from .runs import new_run

MAX_GAMES = 1 << 14
FINETUNE_CONFIGS = ("finetune-4p.toml", "finetune-4p-b.toml")
"""The PPO fine-tunes of distilled students (training/configs/): a low rate, each for one
student network (the attention student of distill-4p.toml; the wider MLP one of -b/-c)."""
FINETUNE_MATCH_KEYS = (*NETWORK_KEYS, *RULE_KEYS, "game", "players", "episode", "reward")
"""What a fine-tune must share with the student: its network and the games it was taught."""
CSV_COLUMNS = ("samples", "wall_s", "kl", "agreement", "value_mse", "play_s", "fit_s")


@dataclass(frozen=True)
class DistillConfig(RunConfig):
    """A distillation run: the student's network (NetworkConfig's options), the games'
    rules, the teacher and the fit's settings (checked on construction: ConfigError)."""

    KIND: ClassVar[str] = "distillation"

    name: str = "distill"
    """Run name: outputs go to runs/<name>/."""
    teacher: str = "agents/models/ppo-4p.zip"
    """The saved model whose play is learnt (it plays every seat)."""
    players: int = 4
    """Seats at the table."""
    episode: str = "round"
    """round or game: the teacher's games."""
    policy: str = "card-scorer"
    observation: str = "card-features"
    scorer_attention: tuple[int, ...] = (2, 4)
    """The student's transformer over hand and rows ([layers, heads]; [] for none)."""
    scorer_hidden: tuple[int, ...] = (128, 64)
    num_games: int = 512
    """Games played at once (every seat a sample)."""
    n_steps: int = 16
    """Steps per game between fits (a batch is num_games * players * n_steps samples)."""
    n_epochs: int = 2
    """Passes over each batch."""
    batch_size: int = 8192  # FitOptions' field: a distillation batch holds every seat's samples
    value_weight: float = 0.05
    """Weight of the value loss (squared bullheads) against the KL."""
    init_from_teacher: bool = False
    """Start the student as the teacher's function (its weights inside the student's wider
    layers, widen.grown): the student must be the teacher's network, each layer as wide or
    wider, no attention added."""
    eval_samples: int = 4096
    """Decisions of each new batch the student is measured on before it learns the batch."""
    minutes: float = 20.0
    """Wall time of the run."""
    total_samples: int = 20_000_000
    """Stop after this many teacher decisions (whichever comes first)."""

    def __post_init__(self) -> None:
        check_types(self)
        self.check_game()
        self.game_rules(self.players)
        self.check_network()
        self.check_fit()
        if not Path(self.teacher).is_file():
            raise ConfigError(f"teacher {self.teacher!r}: no such model file")
        for field, lo, hi in (("num_games", 1, MAX_GAMES), ("n_steps", 1, 1024), ("n_epochs", 1, 100),
                              ("total_samples", 1, 10**12), ("eval_samples", 1, 10**7)):
            if not lo <= getattr(self, field) <= hi:
                raise ConfigError(f"{field} must be in {lo}..{hi}, got {getattr(self, field)}")
        if not (self.minutes > 0 and self.value_weight >= 0):
            raise ConfigError("minutes must be > 0, value_weight >= 0")

    def train_config(self):
        """The TrainConfig of the student's network and rules (to build and describe it)."""
        from .config import NETWORK_KEYS, TrainConfig
        from .game_rules import RULE_KEYS
        keep = {k: getattr(self, k) for k in (*NETWORK_KEYS, *RULE_KEYS, "game", "players", "episode", "seed")}
        # the CPU: the teacher plays there and the fit reads its tensors (a GPU fit: not yet)
        return TrainConfig(name=self.name, reward="penalty" if self.game == "cards" else "points", device="cpu", **keep)


def distill(cfg: DistillConfig, runs_dir: str | Path = "runs", progress: bool = True) -> Path:
    """Run the distillation of `cfg`; returns the run directory (see the module docstring)."""
    from agents.ppo import load_model, write_model_meta
    from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv

    from .bookkeeping import model_meta
    from .train import new_model

    teacher, meta = load_model(cfg.teacher)
    if meta.get("observation", "basic") != cfg.observation or meta.get("game", "cards") != cfg.game:
        raise ConfigError(f"teacher {cfg.teacher}: a model of {meta.get('game', 'cards')} on observation "
                          f"{meta.get('observation', 'basic')!r}; the student reads {cfg.game} {cfg.observation!r}")
    run = new_run(Path(runs_dir) / cfg.name, cfg)
    th.set_num_threads(cfg.torch_threads)
    th.manual_seed(cfg.seed)
    tcfg = cfg.train_config()
    env = SixNimmtVecEnv(cfg.num_games, game=cfg.game, rules=cfg.game_rules(cfg.players), learners=cfg.players,
                         reward=tcfg.reward, episode=cfg.episode, seed=cfg.seed, observation=cfg.observation)
    student = new_model(tcfg, env)
    policy, optimizer = student.policy, student.policy.optimizer
    if cfg.init_from_teacher:
        _start_from(policy, teacher.policy, cfg.teacher)
    for group in optimizer.param_groups:
        group["lr"] = cfg.learning_rate
    rng = th.Generator().manual_seed(cfg.seed)
    obs, samples, t0 = env.reset(), 0, time.perf_counter()
    log = (run / "distill.csv").open("w", newline="")
    writer = csv.writer(log)
    writer.writerow(CSV_COLUMNS)
    try:
        while samples < cfg.total_samples and time.perf_counter() - t0 < cfg.minutes * 60:
            t_play = time.perf_counter()
            data, obs = _teacher_batch(teacher.policy, env, obs, cfg.n_steps, rng)
            samples += cfg.n_steps * env.num_envs
            t_fit = time.perf_counter()
            kl, agree, vmse = _fit(policy, optimizer, data, cfg)
            now = time.perf_counter()
            writer.writerow([samples, round(now - t0, 1), round(kl, 5), round(agree, 4), round(vmse, 3),
                             round(t_fit - t_play, 2), round(now - t_fit, 2)])
            log.flush()
            if progress:
                print(f"{samples:>12,} samples  KL {kl:.4f}  agreement {agree:.3f}  value MSE {vmse:.2f}  "
                      f"(play {t_fit - t_play:.1f}s, fit {now - t_fit:.1f}s)", flush=True)
    finally:
        log.close()
    student.save(run / "model.zip")
    write_model_meta(run / "model.zip", {**model_meta(tcfg, 0), "distilled_from": cfg.teacher,
                                         "distill_samples": samples})
    return run


def finetune_command(cfg: DistillConfig, run: str | Path, configs: Path = Path(__file__).parent / "configs") -> str:
    """The `sixnimmt train` command that fine-tunes run `run`'s student (distilled by `cfg`)
    with PPO: the config of FINETUNE_CONFIGS (in `configs`) whose network and games differ
    least from the student's, `--set` for whatever still differs (so the command builds
    this student's network, whichever it is), and `--set init_model=<run>/model.zip`."""
    student = cfg.train_config().to_dict()
    bases = [configs / name for name in FINETUNE_CONFIGS if (configs / name).is_file()]

    def differing(base: Path | None) -> list[str]:
        fields = TrainConfig.load(base).to_dict()
        return [k for k in FINETUNE_MATCH_KEYS if student[k] != fields[k]]

    base = min(bases, key=lambda b: len(differing(b)), default=None)  # None: the configs are not here
    sets = [f"{k}={option_text(student[k])}" for k in differing(base)] + [f"init_model={Path(run) / 'model.zip'}"]
    shown = [] if base is None else ["--config", _relative(base)]
    return " ".join(["sixnimmt train", *shown, *(f"--set {shlex.quote(s)}" for s in sets)])


def _relative(path: Path) -> str:
    """`path` from the working directory when it is under it (training/configs/...), else whole."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)

def _start_from(policy, teacher, name: str) -> None:
    """Load `teacher`'s weights into the wider `policy` (the same function; ConfigError if
    the shapes do not allow it)."""
    from .widen import grown

    weights = grown(teacher.state_dict(), policy.state_dict())
    if weights is None:
        raise ConfigError(f"init_from_teacher: the student must be {name}'s network with every layer as wide "
                          "or wider (same policy and layers, no attention added)")
    policy.load_state_dict(weights)


def _teacher_batch(teacher, env, obs, n_steps: int, rng) -> tuple[dict, object]:
    """The teacher plays `n_steps` steps of every game of `env` from `obs`, all seats in one
    batched forward a step; returns its decisions with a choice (obs, mask, log-probs,
    value; forced ones are played without the network and not kept) and the next obs."""
    batch = {k: [] for k in ("obs", "mask", "logp", "value")}
    for _ in range(n_steps):
        mask = th.as_tensor(env.action_masks())
        actions = mask.float().argmax(1)  # a forced decision's one legal action
        choice = mask.sum(1) > 1
        if choice.any():
            x, m = th.as_tensor(obs)[choice], mask[choice]
            with th.inference_mode():
                logits, value = _forward(teacher, x)
                logp = masked_log_probs(logits, m)
                actions[choice] = th.multinomial(logp.exp(), 1, generator=rng).squeeze(-1)
            for k, v in (("obs", x), ("mask", m), ("logp", logp), ("value", value)):
                batch[k].append(v)
        obs, _, _, _ = env.step(actions.numpy())
    return {k: th.cat(v) for k, v in batch.items()}, obs


def _fit(policy, optimizer, data: dict, cfg: DistillConfig) -> tuple[float, float, float]:
    """Measure the student on (at most `cfg.eval_samples` of) `data`, unseen, then fit it
    for `cfg.n_epochs` in minibatches of `cfg.batch_size`; returns the measured KL, argmax
    agreement and value MSE."""
    n = len(data["obs"])
    policy.set_training_mode(False)
    with th.no_grad():
        seen = th.randperm(n)[:cfg.eval_samples]
        logits, value = _forward(policy, data["obs"][seen])
        logq = masked_log_probs(logits, data["mask"][seen])
        kl = _kl(data["logp"][seen], logq, data["mask"][seen]).mean().item()
        agree = (logq.argmax(1) == data["logp"][seen].argmax(1)).float().mean().item()
        vmse = F.mse_loss(value, data["value"][seen]).item()
    policy.set_training_mode(True)
    groups = _clip_groups(policy)
    for _ in range(cfg.n_epochs):
        order = th.randperm(n)
        for start in range(0, n, cfg.batch_size):
            idx = order[start:start + cfg.batch_size]
            logits, value = _forward(policy, data["obs"][idx])
            logq = masked_log_probs(logits, data["mask"][idx])
            loss = _kl(data["logp"][idx], logq, data["mask"][idx]).mean() \
                + cfg.value_weight * F.mse_loss(value, data["value"][idx])
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            for params in groups:
                th.nn.utils.clip_grad_norm_(params, 1.0)
            optimizer.step()
    return kl, agree, vmse


def _clip_groups(policy) -> list[list]:
    """The policy's and the value's parameters, clipped apart: the value loss (squared
    bullheads, ~1,000 at the start) would otherwise own one shared norm (Adam's per-weight
    scaling undoes most of that; the few Adam steps of big minibatches were the slow
    climb's cause)."""
    value = [p for n, p in policy.named_parameters() if n.startswith(("value_net", "mlp_extractor.value_net"))]
    ids = {id(p) for p in value}
    return [g for g in ([p for p in policy.parameters() if id(p) not in ids], value) if g]


def _kl(logp, logq, mask):
    """(N,) KL(p || q) over the legal actions of each row."""
    p = logp.exp() * mask
    return (p * (logp - logq).masked_fill(~mask, 0.0)).sum(-1)
