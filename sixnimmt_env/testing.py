"""Checks that an environment keeps the lab's promises, for anyone who wraps or extends one.

As pgx ships `api_test` and PettingZoo `parallel_api_test`: run these on one of our
environments, on a wrapper around one, or on the environments of a new game kind
registered in `sixnimmt_env.core.game.GAMES`. Our own tests run them on every game,
variant and table size (tests/envs/test_env_contracts.py).

```python
from sixnimmt_env import parallel_env, make_game
from sixnimmt_env.testing import check_env, check_game
check_env(MyWrapper(parallel_env(4)))               # a ParallelEnv, Gymnasium env or SB3 VecEnv
check_game(make_game("board", players=3, variant="pro"))   # every adapter of a game
```

What is checked (each a name for `skip=`):

- `api`: PettingZoo's `parallel_api_test`, Gymnasium's `check_env`, or the VecEnv's shapes.
- `seeds`: the same seed plays the same games (same actions: same observations, rewards,
  infos); another seed deals another game.
- `copies`: a copy (pickle, cloudpickle, `copy.deepcopy`), fresh or mid-game, plays on
  exactly as the original.
- `rewards`: a seat's rewards over an episode sum to what the env's reward mode makes of
  the seat's score change (`core.rewards.step_rewards` of the totals at the episode's
  start and end). A wrapper that shapes or scales rewards fails this by design.
- `observations`: every observation lies inside the declared observation space.
- `infos`: the same keys at every step; in the ParallelEnv numbers only (TorchRL makes
  tensors of them).
- `hidden`: at reset, exchanging the other seats' hands (the reset option `deal`, built
  from the game's own record of the deal) changes no seat's observation or mask: a seat
  sees only what it may know. ParallelEnv only, 3 or more seats (with 2 the one other
  hand has nothing to be exchanged with); the Gymnasium and VecEnv forms encode through
  the same game layout.

A VecEnv's copies are checked on the lab VecEnv inside it (SB3's VecEnv wrappers cannot
be copied, and nothing copies them).

The reward and hidden-information checks read the score and the deal from our env inside
the wrapper (found through `unwrapped`, `env`, `venv`, `par_env`); the others use only
the public API. Problems are reported one a line: `check_env` raises `EnvCheckError`
listing them, `env_problems` returns them. Steps are random legal actions drawn from the
action masks, so a check is bounded by `steps`, not by time.
"""

from __future__ import annotations

import contextlib
import copy
import io
import pickle
import re
import warnings
from typing import Any, Callable

import numpy as np

from .core.checks import is_number
from .core.game import Game, make_game
from .core.rewards import step_rewards
from .core.rng import game_seeds

CHECKS = ("api", "seeds", "copies", "rewards", "observations", "infos", "hidden")


class EnvCheckError(AssertionError):
    """What a check found wrong, one problem a line (also in `problems`)."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__(f"{len(self.problems)} problem(s):\n" + "\n".join(self.problems))


def check_env(env, *, steps: int = 40, seed: int = 0, skip: tuple[str, ...] = ()) -> None:
    """Check a ParallelEnv, Gymnasium env or SB3 VecEnv (ours, or a wrapper around ours)
    over `steps` steps of random legal actions from `seed`; EnvCheckError on any problem.
    `skip` names checks not to run (see CHECKS)."""
    problems = env_problems(env, steps=steps, seed=seed, skip=skip)
    if problems:
        raise EnvCheckError(problems)


def env_problems(env, *, steps: int = 40, seed: int = 0, skip: tuple[str, ...] = ()) -> list[str]:
    """The problems `check_env` would raise, one line each ([] when there are none)."""
    unknown = sorted(set(skip) - set(CHECKS))
    if unknown:
        raise ValueError(f"unknown check(s) {', '.join(unknown)}; the checks: {', '.join(CHECKS)}")
    from .adapters.pettingzoo_env import SixNimmtParallelEnv  # the adapters load gymnasium etc.
    if hasattr(env, "num_envs") and hasattr(env, "step_async"):
        from .adapters.vec_env import SixNimmtVecEnv
        return _vec_problems(env, _inner(env, SixNimmtVecEnv), steps, seed, skip)
    if hasattr(env, "possible_agents") and not hasattr(env, "agent_selection"):
        return _parallel_problems(env, _inner(env, SixNimmtParallelEnv), steps, seed, skip)
    if hasattr(env, "observation_space") and hasattr(env, "step") and not hasattr(env, "agent_selection"):
        from .adapters.gym_env import SixNimmtEnv
        return _gym_problems(env, _inner(env, SixNimmtEnv), steps, seed, skip)
    return [f"env: {type(env).__name__} is not a ParallelEnv, Gymnasium env or SB3 VecEnv "
            f"(for the AEC form, check the ParallelEnv it wraps)"]


def check_game(game: str | Game = "cards", *, steps: int = 24, seed: int = 0, games: int = 8,
               rewards: tuple[str, ...] = ("points",), skip: tuple[str, ...] = (), **rule_options) -> None:
    """Check every adapter of a game (a Game, or a kind's name and its rule options): the
    observation bounds over `games` whole random games per observation variant, then the
    ParallelEnv under each reward mode of `rewards` (under the other observation
    variants, hidden information only),
    the Gymnasium env and the VecEnv. EnvCheckError lists what is wrong, each line naming
    the env it is about."""
    from .adapters.gym_env import SixNimmtEnv
    from .adapters.pettingzoo_env import SixNimmtParallelEnv
    from .adapters.vec_env import SixNimmtVecEnv
    game = make_game(game, **rule_options)
    name = f"{game.info.game} {game.info.variant} {game.info.players}p"
    problems = [] if "observations" in skip else bounds_problems(game, games=games, seed=seed)
    for i, observation in enumerate(game.info.observations):
        # every check under the default observation; under the others, what the whole
        # random games above do not cover: hidden information
        others = skip if i == 0 else tuple(set(skip) | set(CHECKS) - {"hidden"})
        for reward in rewards if i == 0 else rewards[:1]:
            env = SixNimmtParallelEnv(game=game, observation=observation, reward=reward)
            problems += [f"[{name} ParallelEnv {observation} {reward}] {p}"
                         for p in env_problems(env, steps=steps, seed=seed, skip=others)]
    for label, env in (("Gymnasium env", SixNimmtEnv(game=game, reward=rewards[0])),
                       ("VecEnv", SixNimmtVecEnv(2, game=game, learners=min(2, game.info.players),
                                                 reward=rewards[0], seed=seed))):
        problems += [f"[{name} {label}] {p}" for p in env_problems(env, steps=steps, seed=seed, skip=skip)]
    if problems:
        raise EnvCheckError(problems)


def bounds_problems(game: Game, *, games: int = 8, seed: int = 0) -> list[str]:
    """Plays `games` random games of `game` to their end, all at once through the game
    interface; every seat's observation at every step, under every observation variant,
    must lie inside its layout's bounds. One line per variant that leaves them."""
    problems, seen = [], []
    P = game.info.players
    for observation in game.info.observations:
        layout = game.layout(observation)
        if layout.fields in seen:  # a variant that is another's under a second name
            continue
        seen.append(layout.fields)
        low, high = layout.low(), layout.high()
        st = game.new_games(game_seeds(seed, games))
        seats, cols = np.repeat(np.arange(P), games), np.tile(np.arange(games), P)
        rng = np.random.default_rng(seed)
        for step in range(100_000):  # a bound on a game that never ends
            view = game.view(st, seats, cols)
            obs = layout.encode(view)
            bad = (obs < low) | (obs > high) | ~np.isfinite(obs)
            if bad.any():
                fields = [f for f, part in layout.decode(bad).items() if part.any()]
                problems.append(f"observations: {observation}, step {step} of a random game: outside the "
                                f"layout's bounds in {', '.join(fields)}")
                break
            live = ~game.game_over(st)
            if not live.any():
                break
            game.step(st, view.random_legal_actions(rng).reshape(P, games), inplace=True, games=live)
        else:
            problems.append(f"observations: {observation}: random games did not end in 100000 steps")
    return problems


# ---------------------------------------------------------------------------- shared helpers

def _inner(env, cls):
    """Our env of class `cls` inside `env` (env itself, or down a wrapper chain), or None."""
    seen = set()
    while env is not None and id(env) not in seen:
        if isinstance(env, cls):
            return env
        seen.add(id(env))
        env = next((getattr(env, a) for a in ("env", "venv", "par_env", "aec_env", "unwrapped")
                    if getattr(env, a, None) is not None and getattr(env, a) is not env), None)
    return None


class _Found:
    """The problems of one check: the first of each kind in full, then how many more."""

    def __init__(self):
        self.first: dict[str, str] = {}
        self.more: dict[str, int] = {}

    def add(self, kind: str, message: str) -> None:
        if kind in self.first:
            self.more[kind] = self.more.get(kind, 0) + 1
        else:
            self.first[kind] = message

    def lines(self) -> list[str]:
        return [m + (f" (and {self.more[k]} more like it)" if k in self.more else "") for k, m in self.first.items()]


def _difference(a, b, where: str = "") -> str | None:
    """Where two nested dicts/lists/arrays/numbers first differ (arrays bit for bit), or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return f"{where or 'keys'}: keys {sorted(map(str, a))} vs {sorted(map(str, b))}"
        return next((d for k in a if (d := _difference(a[k], b[k], f"{where}[{k!r}]"))), None)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            return f"{where}: {len(a)} vs {len(b)} items"
        return next((d for i, (x, y) in enumerate(zip(a, b)) if (d := _difference(x, y, f"{where}[{i}]"))), None)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        same = a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
        return None if same else f"{where}: arrays differ"
    return None if a == b or (a != a and b != b) else f"{where}: {a!r} vs {b!r}"


def _outside(space, obs, layout=None) -> str | None:
    """Why `obs` is not in `space` (naming the layout's fields where it can), or None."""
    import gymnasium
    if space.contains(obs):
        return None
    if isinstance(space, gymnasium.spaces.Dict) and isinstance(obs, dict):
        for key, sub in space.spaces.items():
            if key not in obs:
                return f"no {key!r} key"
            why = _outside(sub, obs[key], layout)
            if why:
                return f"{key!r} {why}"
        return f"keys {sorted(obs)} are not the space's {sorted(space.spaces)}"
    if isinstance(space, gymnasium.spaces.Box):
        x = np.asarray(obs)
        if x.shape != space.shape or x.dtype != space.dtype:
            return f"has shape {x.shape} dtype {x.dtype}, the space {space.shape} {space.dtype}"
        bad = (x < space.low) | (x > space.high) | ~np.isfinite(x)
        if layout is not None and x.shape == (layout.size,):
            return "outside its bounds in " + ", ".join(f for f, part in layout.decode(bad).items() if part.any())
        return f"outside its bounds at indices {np.flatnonzero(bad)[:5].tolist()}"
    return "is not in the space"


def _legal(mask, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(np.asarray(mask))))


def _parallel_actions(env, obs, rng: np.random.Generator) -> dict:
    """A random legal action of every live agent: from its observation's action mask, else
    any action of its (Discrete) action space."""
    return {a: _legal(obs[a]["action_mask"], rng) if isinstance(obs[a], dict) and "action_mask" in obs[a]
            else int(rng.integers(env.action_space(a).n)) for a in env.agents}


def _copies() -> dict[str, Callable]:
    ways: dict[str, Callable] = {"pickle": lambda e: pickle.loads(pickle.dumps(e)), "deepcopy": copy.deepcopy}
    try:
        import cloudpickle
        ways["cloudpickle"] = lambda e: pickle.loads(cloudpickle.dumps(e))
    except ImportError:
        pass
    return ways


def _expected(kind: str, start, end, over: bool, utility: int) -> np.ndarray:
    """(P,) a seat's rewards summed over an episode from its (P,) totals at start and end:
    the reward modes are sums of per-step terms linear in the totals (rank: only at the end)."""
    start, end = np.asarray(start, np.float64)[:, None], np.asarray(end, np.float64)[:, None]
    return step_rewards(kind, start, end, np.array([over]), utility)[:, 0]


def _plain(message) -> str:
    """A warning as one plain line (no colour codes)."""
    return " ".join(re.sub(r"\x1b\[[0-9;]*m", "", str(message)).split()).removeprefix("WARN: ")[:300]


def _quiet(fn: Callable, *args, **kwargs) -> tuple[bool, list[str]]:
    """Run a library's checker: (whether it failed, its failure and its own warnings as
    lines); its printing is swallowed."""
    found, failed = [], False
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("always")
        try:
            fn(*args, **kwargs)
        except Exception as e:  # noqa: BLE001 (any failure of the checker is the env's problem)
            failed = True
            found.append(f"{type(e).__name__}: {_plain(e) or 'failed'}")
    top = (getattr(fn, "__module__", "") or "").split(".")[0]
    # Only the checker's own warnings; the checkers reset with options of their own, which
    # our envs accept with a warning of theirs (adapters/checks.reset_options).
    # Gymnasium's note that a wrapped env is not the raw one is what a wrapper check expects.
    found += [text for w in caught if top and f"/{top}/" in w.filename.replace("\\", "/")
              and not (text := _plain(w.message)).startswith(("unknown reset option", "render"))
              and "different from the unwrapped version" not in text]
    return failed, found


def _library_check(name: str, fn: Callable, *args, **kwargs) -> tuple[bool, list[str]]:
    """A library's own checker (`name`) as api problems: (whether it failed, the lines)."""
    failed, lines = _quiet(fn, *args, **kwargs)
    return failed, [f"api: {name}: {m}" for m in lines]


def _api_and_seeds(skip, seed: int, check: Callable[[], tuple[bool, list[str]]],
                   play: Callable[[], list]) -> tuple[bool, list[str]]:
    """A library's checker (`check`: stop when it fails, the checks after it rely on the
    API), then `play()` (the same seed, the same actions) twice: the same trace."""
    problems: list[str] = []
    if "api" not in skip:
        failed, problems = check()
        if failed:
            return True, problems
    if "seeds" not in skip:
        diff = _difference(play(), play())
        if diff:
            problems.append(f"seeds: seed {seed} twice with the same actions plays differently ({diff})")
    return False, problems


def _copy_failed(how: str, error: Exception) -> str:
    return f"copies: a {how} copy fails: {type(error).__name__}: {_plain(error)[:200]}"


# ---------------------------------------------------------------------------- ParallelEnv

def _parallel_play(env, rng, steps: int, obs=None, seed=None) -> tuple[list, Any]:
    """`steps` steps of random legal actions (a reset where an episode ends); the trace of
    every reset and step, and the last observations."""
    trace = []
    if obs is None:
        obs, infos = env.reset(seed=seed)
        trace.append((obs, infos))
    for _ in range(steps):
        if not env.agents:
            obs, infos = env.reset()
            trace.append((obs, infos))
        out = env.step(_parallel_actions(env, obs, rng))
        obs = out[0]
        trace.append(out)
    return trace, obs


def _parallel_problems(env, base, steps: int, seed: int, skip) -> list[str]:
    from pettingzoo.test import parallel_api_test
    stop, problems = _api_and_seeds(
        skip, seed, lambda: _library_check("PettingZoo's parallel_api_test", parallel_api_test, env, num_cycles=steps),
        lambda: _parallel_play(env, np.random.default_rng(seed), steps, seed=seed)[0])
    if stop:
        return problems
    if "seeds" not in skip:
        if not _difference(env.reset(seed=seed)[0], env.reset(seed=seed + 1)[0]):
            problems.append(f"seeds: reset(seed={seed}) and reset(seed={seed + 1}) deal the same game")
    if "copies" not in skip:
        problems += _parallel_copies(env, steps, seed)
    problems += _parallel_pass(env, base, steps, seed, skip)
    if "hidden" not in skip:
        problems += _hidden(env, base, seed)
    return problems


def _parallel_copies(env, steps: int, seed: int) -> list[str]:
    problems = []
    for how, copier in _copies().items():
        try:
            fresh = copier(env)  # as SuperSuit's vector envs copy an env before its reset
            diff = _difference(env.reset(seed=seed), fresh.reset(seed=seed))
            if diff:
                problems.append(f"copies: a {how} copy made before reset resets differently ({diff})")
                continue
            _, obs = _parallel_play(env, np.random.default_rng(seed), steps // 3, obs=env.reset(seed=seed)[0])
            twin = copier(env)  # mid-game
            ours, _ = _parallel_play(env, np.random.default_rng(seed + 1), steps, obs=obs)
            theirs, _ = _parallel_play(twin, np.random.default_rng(seed + 1), steps, obs=obs)
        except Exception as e:  # noqa: BLE001 (a copy that fails is the problem reported)
            problems.append(_copy_failed(how, e))
            continue
        diff = _difference(ours, theirs)
        if diff:
            problems.append(f"copies: a {how} copy made mid-game plays on differently ({diff})")
    return problems


def _parallel_pass(env, base, steps: int, seed: int, skip) -> list[str]:
    """One play: observations, infos and reward sums at every step."""
    found = _Found()
    agents = list(env.possible_agents)
    rng = np.random.default_rng(seed)
    layout = getattr(base, "layout", None)
    scores = base is not None and "rewards" not in skip
    if base is None and "rewards" not in skip:
        found.add("base", "rewards: no lab env inside this one (looked through unwrapped, env, par_env): "
                          "the scores cannot be read")
    keys: dict = {}
    episode = 0

    def look(obs, infos, step):
        if "observations" not in skip:
            for a, o in obs.items():
                why = _outside(env.observation_space(a), o, layout)
                if why:
                    found.add("obs", f"observations: step {step} (episode {episode}), {a}: {why}")
        if "infos" not in skip:
            for a, info in infos.items():
                keys.setdefault(a, set(info))
                if set(info) != keys[a]:
                    found.add("info keys", f"infos: step {step}, {a}: keys {sorted(info)}, at reset {sorted(keys[a])}")
                odd = [k for k, v in info.items() if not is_number(v)]
                if odd:
                    found.add("info values", f"infos: step {step}, {a}: {', '.join(map(str, odd))} not a number")

    def totals():
        return base.game.totals(base.state_)[:, 0].copy()

    def sums(got, start, over, step):
        want = _expected(base.reward_kind, start, totals(), over, base.info.utility)
        for i, a in enumerate(agents):
            if not np.isclose(got[i], want[i], rtol=1e-6, atol=1e-6):
                found.add("rewards", f"rewards: {a}'s rewards sum to {got[i]:.6g} over episode {episode} "
                          f"(to step {step}), its score change gives {want[i]:.6g} under reward mode "
                          f"{base.reward_kind!r}")

    obs, infos = env.reset(seed=seed)
    look(obs, infos, 0)
    start, got = (totals(), np.zeros(len(agents))) if scores else (None, None)
    for step in range(1, steps + 1):
        if not env.agents:
            if scores:
                sums(got, start, True, step - 1)
            episode += 1
            obs, infos = env.reset()
            look(obs, infos, step - 1)
            if scores:
                start, got = totals(), np.zeros(len(agents))
        obs, rew, _, _, infos = env.step(_parallel_actions(env, obs, rng))
        look(obs, infos, step)
        if scores:
            got += [float(rew.get(a, 0.0)) for a in agents]
    if scores:
        sums(got, start, not env.agents, steps)
    return found.lines()


def _deal_of(base) -> dict | None:
    """The deal option that deals again the game `base` holds: the part of the game's own
    record that has the hands (the record itself, or its first round)."""
    state = base.state_
    record = base.game.recorder(state).records(state)[0]
    deal = record["rounds"][0] if isinstance(record.get("rounds"), list) and record["rounds"] else record
    return deal if isinstance(deal, dict) and isinstance(deal.get("hands"), list) else None


def _hidden(env, base, seed: int) -> list[str]:
    """Each seat's observation at reset is the same when the other seats' hands are exchanged."""
    if base is None:
        return ["hidden: no lab env inside this one (looked through unwrapped, env, par_env): the deal "
                "cannot be read"]
    env.reset(seed=seed)
    deal = _deal_of(base)
    P = len(env.possible_agents)
    if deal is None or P < 3:
        return []  # no deal option to exchange hands in, or one other hand only (see the module doc)
    problems = []
    for seat, agent in enumerate(env.possible_agents):
        # Every other hand moves one seat on, among the seats before this one and among
        # those after it: the deal option names cards by value, and where the deck holds
        # two copies of a value (Die Sechste) which copy a seat gets depends on whether a
        # seat before it holds the other.
        hands = list(deal["hands"])
        for group in (list(range(seat)), list(range(seat + 1, P))):
            for s, t in zip(group, group[1:] + group[:1]):
                hands[s] = deal["hands"][t]
        mine, _ = env.reset(seed=seed, options={"deal": deal})
        moved, _ = env.reset(seed=seed, options={"deal": {**deal, "hands": hands}})
        diff = _difference(mine[agent], moved[agent])
        if diff:
            problems.append(f"hidden: {agent}'s observation at reset changes when the other seats' hands are "
                            f"exchanged ({diff}): it shows what the seat may not know")
            break
    return problems


# ---------------------------------------------------------------------------- Gymnasium env

def _gym_mask(env, info):
    mask = info.get("action_mask") if isinstance(info, dict) else None
    return mask if mask is not None else env.unwrapped.action_masks()


def _gym_play(env, rng, steps: int, seed=None, start=None) -> tuple[list, Any]:
    trace = []
    if start is None:
        start = env.reset(seed=seed)
        trace.append(start)
    info = start[1]
    for _ in range(steps):
        out = env.step(_legal(_gym_mask(env, info), rng))
        trace.append(out)
        info = out[4]
        if out[2] or out[3]:
            info = env.reset()[1]
            trace.append(info)
    return trace, info


def _gym_problems(env, base, steps: int, seed: int, skip) -> list[str]:
    def check():
        from gymnasium.utils.env_checker import check_env
        return _library_check("Gymnasium's check_env", check_env, env, skip_render_check=True)

    stop, problems = _api_and_seeds(skip, seed, check, lambda: _gym_play(env, np.random.default_rng(seed), steps, seed=seed)[0])
    if stop:
        return problems
    if "copies" not in skip:
        for how, copier in _copies().items():
            start = env.reset(seed=seed)
            _, info = _gym_play(env, np.random.default_rng(seed), steps // 3, start=start)
            try:
                twin = copier(env)
            except Exception as e:  # noqa: BLE001
                problems.append(_copy_failed(how, e))
                continue
            diff = _difference(_gym_play(env, np.random.default_rng(seed + 1), steps, start=(None, info))[0],
                               _gym_play(twin, np.random.default_rng(seed + 1), steps, start=(None, info))[0])
            if diff:
                problems.append(f"copies: a {how} copy made mid-game plays on differently ({diff})")
    found = _Found()
    games = getattr(base, "games", None)
    scores = games is not None and "rewards" not in skip
    if games is None and "rewards" not in skip:
        found.add("base", "rewards: no lab env inside this one (looked through unwrapped, env): the scores cannot be read")
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    keys = set(info)

    def totals():
        return games.game.totals(games.state)[:, 0].copy()

    start, got, episode = (totals() if scores else None), 0.0, 0
    for step in range(1, steps + 1):
        why = None if "observations" in skip else _outside(env.observation_space, obs, getattr(games, "layout", None))
        if why:
            found.add("obs", f"observations: step {step - 1} (episode {episode}): {why}")
        obs, reward, done, truncated, info = env.step(_legal(_gym_mask(env, info), rng))
        got += float(reward)
        if "infos" not in skip and set(info) != keys:
            found.add("info keys", f"infos: step {step}: keys {sorted(info)}, at reset {sorted(keys)}")
        if done or truncated or step == steps:
            if scores:
                seat = int(games.slot_seats[0])
                want = _expected(games.reward, start, totals(), bool(done), games.game.info.utility)[seat]
                if not np.isclose(got, want, rtol=1e-6, atol=1e-5):
                    found.add("rewards", f"rewards: the learner's rewards sum to {got:.6g} over episode {episode}, "
                              f"its score change gives {want:.6g} under reward mode {games.reward!r}")
            if done or truncated:
                obs, info = env.reset()
                start, got, episode = (totals() if scores else None), 0.0, episode + 1
    return problems + found.lines()


# ---------------------------------------------------------------------------- SB3 VecEnv

def _vec_play(venv, rng, steps: int) -> list:
    trace = []
    for _ in range(steps):
        mask = np.asarray(venv.action_masks())
        obs, rewards, dones, infos = venv.step((rng.random(mask.shape) * mask).argmax(axis=1))
        # VecMonitor's "episode" info holds wall-clock times: not part of the game
        trace.append((obs, rewards, dones, [{k: v for k, v in i.items() if k != "episode"} for i in infos]))
    return trace


def _vec_copies(venv, steps: int, seed: int) -> list[str]:
    """Copies of the lab VecEnv itself: SB3's VecEnv wrappers are not copyable, and SB3
    never copies a VecEnv (SuperSuit copies the ParallelEnv inside)."""
    problems = []
    for how, copier in _copies().items():
        venv.seed(seed)
        venv.reset()
        _vec_play(venv, np.random.default_rng(seed), steps // 3)
        try:
            twin = copier(venv)
        except Exception as e:  # noqa: BLE001
            problems.append(_copy_failed(how, e))
            continue
        diff = _difference(_vec_play(venv, np.random.default_rng(seed + 1), steps),
                           _vec_play(twin, np.random.default_rng(seed + 1), steps))
        if diff:
            problems.append(f"copies: a {how} copy made mid-run plays on differently ({diff})")
    return problems


def _vec_problems(venv, base, steps: int, seed: int, skip) -> list[str]:
    n = venv.num_envs

    def play():
        venv.seed(seed)
        return [venv.reset()] + _vec_play(venv, np.random.default_rng(seed), steps)

    _, problems = _api_and_seeds(tuple(skip) + ("api",), seed, lambda: (False, []), play)  # its api: the pass below
    if "copies" not in skip and base is not None:
        problems += _vec_copies(base, steps, seed)
    found = _Found()
    games = getattr(base, "games", None)
    scores = games is not None and "rewards" not in skip
    if games is None and "rewards" not in skip:
        found.add("base", "rewards: no lab VecEnv inside this one (looked through venv, unwrapped): "
                          "the scores cannot be read")
    layout = getattr(games, "layout", None)
    space = venv.observation_space
    venv.seed(seed)
    obs = venv.reset()
    rng = np.random.default_rng(seed)
    start = games.game.totals(games.state).copy() if scores else None  # (P, B) at each game's start
    got = np.zeros(n)
    for step in range(1, steps + 1):
        if "api" not in skip and (np.shape(obs) != (n, *space.shape)):
            found.add("api obs", f"api: step {step - 1}: observations of shape {np.shape(obs)}, want {(n, *space.shape)}")
        elif "observations" not in skip:
            for i in range(n):
                why = _outside(space, obs[i], layout)
                if why:
                    found.add("obs", f"observations: step {step - 1}, slot {i}: {why}")
        mask = np.asarray(venv.action_masks())
        if "api" not in skip and mask.shape != (n, venv.action_space.n):
            found.add("api mask", f"api: action_masks() has shape {mask.shape}, want {(n, venv.action_space.n)}")
            break
        seats, slot_games = (games.slot_seats.copy(), games.slot_games.copy()) if scores else (None, None)
        obs, rewards, dones, infos = venv.step((rng.random(mask.shape) * mask).argmax(axis=1))
        if "api" not in skip and (np.shape(rewards) != (n,) or np.shape(dones) != (n,) or len(infos) != n):
            found.add("api step", f"api: step {step}: rewards {np.shape(rewards)}, dones {np.shape(dones)}, "
                                  f"{len(infos)} infos; want {n} each")
            break
        got += rewards
        for i in np.flatnonzero(dones):
            info = infos[i]
            if "api" not in skip and "terminal_observation" not in info:
                found.add("api terminal", f"api: step {step}, slot {i}: an episode ended without terminal_observation")
            elif "observations" not in skip and (why := _outside(space, info["terminal_observation"], layout)):
                found.add("obs", f"observations: step {step}, slot {i}: the terminal observation {why}")
            if scores and "final_totals" in info:
                g = slot_games[i]
                want = _expected(games.reward, start[:, g], info["final_totals"], True, games.game.info.utility)
                if not np.isclose(got[i], want[seats[i]], rtol=1e-5, atol=1e-4):
                    found.add("rewards", f"rewards: slot {i}'s rewards sum to {got[i]:.6g} over its episode, its "
                                         f"score change gives {want[seats[i]]:.6g} under reward mode {games.reward!r}")
            got[i] = 0.0
        if scores and dones.any():
            restarted = np.unique(slot_games[dones])
            start[:, restarted] = games.game.totals(games.state)[:, restarted]
    if scores:  # the episodes still running: their rewards so far
        now = games.game.totals(games.state)
        for i in range(n):
            g, seat = games.slot_games[i], games.slot_seats[i]
            want = _expected(games.reward, start[:, g], now[:, g], False, games.game.info.utility)[seat]
            if not np.isclose(got[i], want, rtol=1e-5, atol=1e-4):
                found.add("rewards", f"rewards: slot {i}'s rewards sum to {got[i]:.6g} so far in its episode, its "
                                     f"score change gives {want:.6g} under reward mode {games.reward!r}")
    return problems + found.lines()


__all__ = ["CHECKS", "EnvCheckError", "bounds_problems", "check_env", "check_game", "env_problems"]
