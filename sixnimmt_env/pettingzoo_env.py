"""# 6 nimmt! — PettingZoo environment (`sixnimmt_v0`)

| | |
| --- | --- |
| import | `from sixnimmt_env import parallel_env, env` |
| agents | `player_0` .. `player_{P-1}`, P = 2..10 (seat s+1 sits left of seat s) |
| actions | `Discrete(N + 5)`: N card ids, 4 rows, pass (N = 104 in the classic game) |
| observations | `{"observation": Box(0, 2, (D,), float32), "action_mask": Box(0, 1, (N+5,), int8)}` |
| parallel | yes (`is_parallelizable`); `env()` is the AEC form via `parallel_to_aec` |

## Steps and phases
Every step, every live agent submits one action. In the **cards phase** all seats play a
card at once. When the turn's lowest card is lower than every row and
`row_choice="player"`, the next step is a **row phase**: its owner picks the row to take
(actions N..N+3) with the turn's revealed cards visible in its observation, while every
other seat must pass (action N+4); then the turn's cards are placed. With
`row_choice="cheapest"` that step never happens. The action mask is never all zeros.

## Actions
| action | meaning |
| --- | --- |
| 0 .. N-1 | play card id `action + 1` |
| N .. N+3 | take row `action - N` |
| N+4 | pass (nothing to decide this step) |

## Observation
What the seat may know and nothing else: own hand, the rows, the cards seen this round,
the cards revealed this turn during a row choice, all scores, phase, number of players.
Seats are relative (index 0 is the observer, 1 the seat to its left). Layout (classic, D = <<SIZE>>):

<<LAYOUT>>

## Rewards
- `"penalty"` (default): minus the bullheads the seat took in this step.
- `"relative"`: minus (own bullheads in this step − the mean of the other seats').
- `"rank"`: 0 until the episode ends, then (seats with more points − seats with fewer)
  / (P − 1): +1 for a lone winner, −1 for a lone loser, ties share.

## Episode
`episode="game"` (default): until the game ends (66 points or `max_rounds`).
`episode="round"`: one round. All agents terminate together; there is no truncation.

## Illegal actions
`illegal_action="raise"` (default) raises `IllegalActionError` naming the seat, the action
and the legal actions. `illegal_action="penalize"`: the offending seat gets
`illegal_reward` (default -10), the others 0, and the episode ends.

## Reset
`reset(seed=S)` deals from S (then each later `reset()` deals the next game of that seed's
sequence). `reset(options={"deal": {"hands": [[...], ...], "rows": [c0, c1, c2, c3], "dealer": d}})`
starts from a given deal — e.g. a round of a game record — so agents can be compared on
the same cards.

## Speed
Games whose cards are one copy each (no twins) run, unless rendered, on a pure-Python
single-game path (`single_game.SingleGame`) tested to give exactly what the batched engine
gives; other games run on the batched engine. `env.fast_path` says which.

## Version history
- v0: first release.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec

from .engine import from_deal, new_games, step
from .errors import ConfigError, IllegalActionError
from .observation import ObsLayout, SeatView, action_size, describe_action, engine_actions
from .render import scores_line, step_lines, table_lines
from .rng import game_seed_int, game_seeds
from .rules import RuleConfig
from .single_game import SingleGame
from .state import PHASE_OVER, PHASE_ROW

REWARDS = ("penalty", "relative", "rank")
EPISODES = ("game", "round")
ILLEGAL_POLICIES = ("raise", "penalize")

_CLASSIC_LAYOUT = ObsLayout(RuleConfig())
# The spec sheet's observation table is generated from the one layout table.
__doc__ = __doc__.replace("<<SIZE>>", str(_CLASSIC_LAYOUT.size)).replace("<<LAYOUT>>", _CLASSIC_LAYOUT.markdown())


def episode_config(config: RuleConfig, episode: str) -> RuleConfig:
    """The engine rules for an episode kind: a one-round episode is a game of one round."""
    if episode not in EPISODES:
        raise ConfigError(f"episode must be one of {', '.join(EPISODES)}, got {episode!r}")
    return dataclasses.replace(config, max_rounds=1) if episode == "round" else config


def rank_rewards(totals: np.ndarray) -> np.ndarray:
    """(P, ...) totals -> (P, ...) rank rewards in [-1, 1]: (#worse - #better) / (P - 1)."""
    P = totals.shape[0]
    worse = (totals[None, :] > totals[:, None]).sum(axis=1)   # seats with more points
    better = (totals[None, :] < totals[:, None]).sum(axis=1)
    return (worse - better) / (P - 1)


def step_rewards(kind: str, before: np.ndarray, after: np.ndarray, over: np.ndarray) -> np.ndarray:
    """(P, B) rewards of one step from the (P, B) totals before and after it."""
    taken = (after - before).astype(np.float64)
    if kind == "penalty":
        return -taken
    if kind == "relative":
        P = taken.shape[0]
        others = (taken.sum(axis=0, keepdims=True) - taken) / (P - 1)
        return -(taken - others)
    return rank_rewards(after) * over[None, :]


def step_rewards_one(kind: str, before: list[int], after: list[int], over: bool) -> list[float]:
    """`step_rewards` of one game on Python numbers, with the same float64 arithmetic."""
    taken = [float(a - b) for a, b in zip(after, before)]
    if kind == "penalty":
        return [-t for t in taken]
    P = len(taken)
    if kind == "relative":
        total = sum(taken)
        return [-(t - (total - t) / (P - 1)) for t in taken]
    won = 1.0 if over else 0.0
    return [(sum(o > a for o in after) - sum(o < a for o in after)) / (P - 1) * won for a in after]


class SixNimmtParallelEnv(ParallelEnv):
    """6 nimmt! as a PettingZoo ParallelEnv, one game (see the module docstring)."""

    metadata = {"name": "sixnimmt_v0", "is_parallelizable": True,
                "render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, players: int = 4, *, row_choice: str = "player", end_score: int | None = 66,
                 max_rounds: int | None = None, deck: str = "full", variant: str = "classic",
                 reward: str = "penalty", episode: str = "game", illegal_action: str = "raise",
                 illegal_reward: float = -10.0, render_mode: str | None = None):
        self.rules = RuleConfig(players=players, row_choice=row_choice, end_score=end_score,
                                max_rounds=max_rounds, deck=deck, variant=variant)
        if reward not in REWARDS:
            raise ConfigError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
        if illegal_action not in ILLEGAL_POLICIES:
            raise ConfigError(f"illegal_action must be one of {', '.join(ILLEGAL_POLICIES)}, "
                              f"got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.config = episode_config(self.rules, episode)
        self.reward_kind, self.episode = reward, episode
        self.illegal_action, self.illegal_reward = illegal_action, float(illegal_reward)
        self.render_mode = render_mode
        self.layout = ObsLayout(self.config)
        self.n_actions = action_size(self.config)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents: list[str] = []
        # Two ways to run the one game: the pure-Python SingleGame (fast; only for rules
        # it is proven equal on, and without rendering, which needs the engine's events),
        # or the batched engine with a batch of one.
        self._single = SingleGame(self.config, self.layout) \
            if render_mode is None and SingleGame.supports(self.config) else None
        self._state = None
        self._seed_rng = np.random.default_rng()
        self._last_lines: list[str] = []

    # ------------------------------------------------------------------ spaces

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        return gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, 2.0, (self.layout.size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.n_actions,), np.int8),
        })

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        return gymnasium.spaces.Discrete(self.n_actions)

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        game_seed = int(self._seed_rng.integers(2**63))
        deal = (options or {}).get("deal")
        if deal is not None:
            self._state = self._from_deal(deal, game_seed)
            if self._single is not None:
                self._single.load(self._state)
        elif self._single is not None:
            self._single.new_game(game_seed_int(game_seed))
            self._state = None
        else:
            self._state = new_games(self.config, game_seeds(game_seed, 1))
        self.agents = self.possible_agents[:]
        self._last_lines = []
        if self.render_mode == "human":
            self.render()
        return self._observations(), self._infos()

    def _from_deal(self, deal: dict, game_seed: int):
        """A game starting from given hands and row starters (validated)."""
        from .errors import InvalidRecordError
        from .records import _check_deal  # the record reader's checks, one place

        try:
            hands, rows = _check_deal(self.config, deal, "deal", self.config.variant_data.parse_card)
        except InvalidRecordError as e:  # for the caller, a bad option
            raise ConfigError(f"invalid deal option: {e}") from None
        dealer = deal.get("dealer", 0)
        if not isinstance(dealer, int) or not 0 <= dealer < self.config.players:
            raise ConfigError(f"invalid deal option: dealer must be a seat 0..{self.config.players - 1}")
        return from_deal(self.config, [hands], [rows], dealer=dealer, seeds=game_seeds(game_seed, 1))

    def step(self, actions: dict[str, int]):
        if not self.agents:
            raise IllegalActionError("the episode is over: call reset()")
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise IllegalActionError(f"no action for {', '.join(missing)}; every live agent acts each step")
        if self._single is not None:
            return self._step_single([int(actions[a]) for a in self.possible_agents])
        st = self._state
        acts = np.array([int(actions[a]) for a in self.possible_agents])
        mask = self._mask  # the masks handed out with the last observations
        bad = [s for s in range(st.players) if not (0 <= acts[s] < self.n_actions and mask[s, acts[s]])]
        if bad:
            return self._illegal(bad[0], int(acts[bad[0]]), mask[bad[0]])
        before = st.total()
        to_engine = engine_actions(self.config, st.phase[0], acts)  # card ids or rows
        rendering = self.render_mode is not None
        before_step = st.copy() if rendering else None
        # The env owns its state: stepping in place saves a copy per step.
        _, events = step(st, to_engine[:, None], report=rendering, inplace=True)
        over = st.game_over()
        rewards = step_rewards(self.reward_kind, before, st.total(), over)[:, 0]
        if rendering:
            self._last_lines = step_lines(before_step, events, after=st)
        obs, infos = self._observations(), self._infos()
        done = bool(over[0])
        rew = {a: float(rewards[i]) for i, a in enumerate(self.possible_agents)}
        term = {a: done for a in self.possible_agents}
        trunc = {a: False for a in self.possible_agents}
        if done:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rew, term, trunc, infos

    def _step_single(self, acts: list[int]):
        """`step` on the SingleGame path: the same checks, results and dicts."""
        game = self._single
        bad = game.illegal_seat(acts)
        if bad >= 0:
            return self._illegal(bad, acts[bad], game.observations()[1][bad])
        before = game.totals()
        game.step(acts)
        self._state = None  # the engine view is rebuilt when asked for
        done = game.phase == PHASE_OVER
        rewards = step_rewards_one(self.reward_kind, before, game.totals(), done)
        obs, infos = self._observations(), self._infos()
        rew = dict(zip(self.possible_agents, rewards))
        term = dict.fromkeys(self.possible_agents, done)
        trunc = dict.fromkeys(self.possible_agents, False)
        if done:
            self.agents = []
        return obs, rew, term, trunc, infos

    def _illegal(self, seat: int, action: int, legal_mask: np.ndarray):
        """An illegal action: raise, or penalise the seat and end the episode."""
        legal = np.flatnonzero(legal_mask).tolist()
        described = ", ".join(f"{a} ({describe_action(self.config, a)})" for a in legal[:12])
        more = f", ... ({len(legal)} in all)" if len(legal) > 12 else ""
        st = self.state_
        message = (f"seat {seat} (player_{seat}), round {int(st.round[0])}, turn {int(st.turn[0])}: "
                   f"action {action} ({describe_action(self.config, action)}) is illegal; "
                   f"legal actions: {described}{more}")
        if self.illegal_action == "raise":
            raise IllegalActionError(message)
        rew = {a: (self.illegal_reward if i == seat else 0.0) for i, a in enumerate(self.possible_agents)}
        term = {a: True for a in self.possible_agents}
        trunc = {a: False for a in self.possible_agents}
        obs, infos = self._observations(), self._infos()
        infos[f"player_{seat}"]["illegal_action"] = message
        self.agents = []
        return obs, rew, term, trunc, infos

    # ------------------------------------------------------------------ views

    @property
    def state_(self):
        """The game as an engine State of one game (None before the first reset).

        On the fast path a copy rebuilt from the SingleGame: for reading (renderers,
        records, tests); changing it does not change the game."""
        if self._state is None and self._single is not None and self._single.seed is not None:
            self._state = self._single.to_state()
        return self._state

    @property
    def fast_path(self) -> bool:
        """Whether steps run on the pure-Python SingleGame rather than the batched engine."""
        return self._single is not None

    def _view(self) -> SeatView:
        """All seats of the one game, as P entries."""
        P = self.config.players
        return SeatView(self.state_, np.arange(P), np.zeros(P, dtype=np.intp))

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        if self._single is not None:  # SingleGame checks actions itself
            vectors, masks = self._single.observations()
        else:
            view = self._view()
            self._mask = view.action_mask()
            vectors, masks = view.encode(self.layout), self._mask.astype(np.int8)
        return {a: {"observation": v, "action_mask": m}
                for a, v, m in zip(self.possible_agents, vectors, masks)}

    def _infos(self) -> dict[str, dict[str, Any]]:
        game = self._single
        if game is not None:
            phase, round_, turn = game.phase, game.round, game.turn
        else:
            st = self._state
            phase, round_, turn = st.phase[0], int(st.round[0]), int(st.turn[0])
        phase = "row" if phase == PHASE_ROW else "cards"
        return {a: {"phase": phase, "round": round_, "turn": turn} for a in self.possible_agents}

    # ------------------------------------------------------------------ rendering

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        if self.state_ is None:
            text = "(no game: call reset())"
        else:
            st = self.state_
            head = f"round {int(st.round[0]) + 1}, turn {int(st.turn[0]) + 1}, dealer seat {int(st.dealer[0])}"
            text = "\n".join(self._last_lines + [head] + table_lines(st) + [scores_line(st)])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def parallel_env(players: int = 4, **kwargs) -> SixNimmtParallelEnv:
    """The ParallelEnv (see SixNimmtParallelEnv for the options)."""
    return SixNimmtParallelEnv(players, **kwargs)


def env(players: int = 4, **kwargs):
    """The AEC form: parallel_to_aec(parallel_env(...)), order-enforced."""
    return parallel_to_aec(parallel_env(players, **kwargs))
