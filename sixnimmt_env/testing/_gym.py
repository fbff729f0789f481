"""The checks of a Gymnasium env: its API (Gymnasium's own checker), seeds, copies,
observations, infos and the learner's reward sums."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._shared import Found, api_and_seeds, copies, copy_failed, difference, expected, legal, library_check, outside


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
        out = env.step(legal(_gym_mask(env, info), rng))
        trace.append(out)
        info = out[4]
        if out[2] or out[3]:
            info = env.reset()[1]
            trace.append(info)
    return trace, info


def gym_problems(env, base, steps: int, seed: int, skip) -> list[str]:
    def check():
        from gymnasium.utils.env_checker import check_env
        return library_check("Gymnasium's check_env", check_env, env, skip_render_check=True)

    stop, problems = api_and_seeds(skip, seed, check, lambda: _gym_play(env, np.random.default_rng(seed), steps, seed=seed)[0])
    if stop:
        return problems
    if "copies" not in skip:
        for how, copier in copies().items():
            start = env.reset(seed=seed)
            _, info = _gym_play(env, np.random.default_rng(seed), steps // 3, start=start)
            try:
                twin = copier(env)
            except Exception as e:  # noqa: BLE001
                problems.append(copy_failed(how, e))
                continue
            diff = difference(_gym_play(env, np.random.default_rng(seed + 1), steps, start=(None, info))[0],
                               _gym_play(twin, np.random.default_rng(seed + 1), steps, start=(None, info))[0])
            if diff:
                problems.append(f"copies: a {how} copy made mid-game plays on differently ({diff})")
    found = Found()
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
        why = None if "observations" in skip else outside(env.observation_space, obs, getattr(games, "layout", None))
        if why:
            found.add("obs", f"observations: step {step - 1} (episode {episode}): {why}")
        obs, reward, done, truncated, info = env.step(legal(_gym_mask(env, info), rng))
        got += float(reward)
        if "infos" not in skip and set(info) != keys:
            found.add("info keys", f"infos: step {step}: keys {sorted(info)}, at reset {sorted(keys)}")
        if done or truncated or step == steps:
            if scores:
                seat = int(games.slot_seats[0])
                want = expected(games.reward, start, totals(), bool(done), games.game.info.utility)[seat]
                if not np.isclose(got, want, rtol=1e-6, atol=1e-5):
                    found.add("rewards", f"rewards: the learner's rewards sum to {got:.6g} over episode {episode}, "
                              f"its score change gives {want:.6g} under reward mode {games.reward!r}")
            if done or truncated:
                obs, info = env.reset()
                start, got, episode = (totals() if scores else None), 0.0, episode + 1
    return problems + found.lines()
