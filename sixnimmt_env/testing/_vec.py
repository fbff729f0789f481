"""The checks of an SB3 VecEnv: shapes, seeds, copies of the lab VecEnv inside, observations
(terminal ones too) and each slot's reward sums."""

from __future__ import annotations

import numpy as np

from ._shared import Found, api_and_seeds, copies, copy_failed, difference, expected, outside


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
    for how, copier in copies().items():
        venv.seed(seed)
        venv.reset()
        _vec_play(venv, np.random.default_rng(seed), steps // 3)
        try:
            twin = copier(venv)
        except Exception as e:  # noqa: BLE001
            problems.append(copy_failed(how, e))
            continue
        diff = difference(_vec_play(venv, np.random.default_rng(seed + 1), steps),
                           _vec_play(twin, np.random.default_rng(seed + 1), steps))
        if diff:
            problems.append(f"copies: a {how} copy made mid-run plays on differently ({diff})")
    return problems


def vec_problems(venv, base, steps: int, seed: int, skip) -> list[str]:
    n = venv.num_envs

    def play():
        venv.seed(seed)
        return [venv.reset()] + _vec_play(venv, np.random.default_rng(seed), steps)

    _, problems = api_and_seeds(tuple(skip) + ("api",), seed, lambda: (False, []), play)  # its api: the pass below
    if "copies" not in skip and base is not None:
        problems += _vec_copies(base, steps, seed)
    found = Found()
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
        _look(found, skip, venv, obs, layout, step - 1)
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
            elif "observations" not in skip and (why := outside(space, info["terminal_observation"], layout)):
                found.add("obs", f"observations: step {step}, slot {i}: the terminal observation {why}")
            if scores and "final_totals" in info:
                g = slot_games[i]
                want = expected(games.reward, start[:, g], info["final_totals"], True, games.game.info.utility)
                if not np.isclose(got[i], want[seats[i]], rtol=1e-5, atol=1e-4):
                    found.add("rewards", f"rewards: slot {i}'s rewards sum to {got[i]:.6g} over its episode, its "
                                         f"score change gives {want[seats[i]]:.6g} under reward mode {games.reward!r}")
            got[i] = 0.0
        if scores and dones.any():
            restarted = np.unique(slot_games[dones])
            start[:, restarted] = games.game.totals(games.state)[:, restarted]
    if scores:
        _running_sums(found, games, start, got)
    return problems + found.lines()


def _look(found: Found, skip, venv, obs, layout, step: int) -> None:
    """The observations of every slot at `step`: their shape, then each inside the space."""
    n, space = venv.num_envs, venv.observation_space
    if "api" not in skip and (np.shape(obs) != (n, *space.shape)):
        found.add("api obs", f"api: step {step}: observations of shape {np.shape(obs)}, want {(n, *space.shape)}")
    elif "observations" not in skip:
        for i in range(n):
            why = outside(space, obs[i], layout)
            if why:
                found.add("obs", f"observations: step {step}, slot {i}: {why}")


def _running_sums(found: Found, games, start, got) -> None:
    """The episodes still running at the check's end: each slot's rewards so far against
    its game's score change so far."""
    now = games.game.totals(games.state)
    for i in range(len(got)):
        g, seat = games.slot_games[i], games.slot_seats[i]
        want = expected(games.reward, start[:, g], now[:, g], False, games.game.info.utility)[seat]
        if not np.isclose(got[i], want, rtol=1e-5, atol=1e-4):
            found.add("rewards", f"rewards: slot {i}'s rewards sum to {got[i]:.6g} so far in its episode, its "
                                 f"score change gives {want:.6g} under reward mode {games.reward!r}")
