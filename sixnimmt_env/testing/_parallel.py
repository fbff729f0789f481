"""The checks of a PettingZoo ParallelEnv: its API, seeds, copies, one play's observations,
infos and reward sums, and hidden information at reset."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.checks import is_number
from ._shared import Found, api_and_seeds, copies, copy_failed, difference, expected, legal, library_check, outside


def _parallel_actions(env, obs, rng: np.random.Generator) -> dict:
    """A random legal action of every live agent: from its observation's action mask, else
    any action of its (Discrete) action space."""
    return {a: legal(obs[a]["action_mask"], rng) if isinstance(obs[a], dict) and "action_mask" in obs[a]
            else int(rng.integers(env.action_space(a).n)) for a in env.agents}



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


def parallel_problems(env, base, steps: int, seed: int, skip) -> list[str]:
    from pettingzoo.test import parallel_api_test
    stop, problems = api_and_seeds(
        skip, seed, lambda: library_check("PettingZoo's parallel_api_test", parallel_api_test, env, num_cycles=steps),
        lambda: _parallel_play(env, np.random.default_rng(seed), steps, seed=seed)[0])
    if stop:
        return problems
    if "seeds" not in skip:
        if not difference(env.reset(seed=seed)[0], env.reset(seed=seed + 1)[0]):
            problems.append(f"seeds: reset(seed={seed}) and reset(seed={seed + 1}) deal the same game")
    if "copies" not in skip:
        problems += _parallel_copies(env, steps, seed)
    problems += _parallel_pass(env, base, steps, seed, skip)
    if "hidden" not in skip:
        problems += _hidden(env, base, seed)
    return problems


def _parallel_copies(env, steps: int, seed: int) -> list[str]:
    problems = []
    for how, copier in copies().items():
        try:
            fresh = copier(env)  # as SuperSuit's vector envs copy an env before its reset
            diff = difference(env.reset(seed=seed), fresh.reset(seed=seed))
            if diff:
                problems.append(f"copies: a {how} copy made before reset resets differently ({diff})")
                continue
            _, obs = _parallel_play(env, np.random.default_rng(seed), steps // 3, obs=env.reset(seed=seed)[0])
            twin = copier(env)  # mid-game
            ours, _ = _parallel_play(env, np.random.default_rng(seed + 1), steps, obs=obs)
            theirs, _ = _parallel_play(twin, np.random.default_rng(seed + 1), steps, obs=obs)
        except Exception as e:  # noqa: BLE001 (a copy that fails is the problem reported)
            problems.append(copy_failed(how, e))
            continue
        diff = difference(ours, theirs)
        if diff:
            problems.append(f"copies: a {how} copy made mid-game plays on differently ({diff})")
    return problems


def _parallel_pass(env, base, steps: int, seed: int, skip) -> list[str]:
    """One play: observations, infos and reward sums at every step."""
    found = Found()
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
                why = outside(env.observation_space(a), o, layout)
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
        want = expected(base.reward_kind, start, totals(), over, base.info.utility)
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
        diff = difference(mine[agent], moved[agent])
        if diff:
            problems.append(f"hidden: {agent}'s observation at reset changes when the other seats' hands are "
                            f"exchanged ({diff}): it shows what the seat may not know")
            break
    return problems
