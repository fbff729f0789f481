"""# 6 nimmt! — PettingZoo environments: `sixnimmt_v0`, and what every one shares

Each game is an environment with a versioned name, defined with its spec sheet
(observation indices, actions, rewards, options, version history) in its module:

| name | game | create |
| --- | --- | --- |
| `sixnimmt_cards_v1` | the card games: classic, Die Sechste | `sixnimmt_env.sixnimmt_cards_v1.parallel_env(players=4, ...)` |
| `sixnimmt_board_v1` | the board game: basic, luck, pro, pro-luck | `sixnimmt_env.sixnimmt_board_v1.parallel_env(players=4, ...)` |
| `sixnimmt_v0` | either, by `game=` (`"cards"` default) | `sixnimmt_env.parallel_env(game=..., ...)`, `sixnimmt_env.env(...)` |

`sixnimmt_v0` is the older name, kept: `parallel_env(game="cards", ...)` is the
environment `sixnimmt_cards_v1.parallel_env(...)` makes, and `game="board"` the board's
(only `metadata["name"]` differs). Each module has `parallel_env(...)` and `env(...)`, the
AEC form through `parallel_to_aec`. What follows holds for all of them.

## Steps
Every step, every live agent submits one action: all seats at once when each picks a
card or tile, one seat when a question is asked of it (the others pass). The action
mask is never all zeros.

## Rewards
- `"points"` (default; `"penalty"` is an alias): the points the seat got in this step,
  signed so that more is better: minus the bullheads taken in the card games, the
  points won in the board game.
- `"relative"`: own points in this step (signed as above) − the mean of the other seats'.
- `"rank"`: 0 until the episode ends, then (seats with more points − seats with fewer)
  / (P − 1): +1 for a lone winner, −1 for a lone loser, ties share.

## Episode
`episode="game"` (default): until the game ends (cards: 66 points or `max_rounds`).
`episode="round"`: one round of the card games (the board game is one deal). All agents
terminate together; there is no truncation.

## Infos
Numbers only, the same keys for every agent at every step (TorchRL turns infos into
tensors): `{"phase": int, "round": int, "turn": int, "illegal_action": 0 or 1}`.
`phase` indexes `env.info.phases` (cards: `cards`, `row`, `over`; board: `pick`,
`pick_second`, `ask`, `over`); the board game has no rounds (0).

## Illegal actions
`illegal_action="raise"` (default) raises `IllegalActionError` naming the seat, the action
and the legal actions. `illegal_action="penalize"`: the offending seat gets
`illegal_reward` (default -10), the others 0, the episode ends, the seat's info has
`illegal_action=1` and `env.illegal_message` says what was wrong.

## Conventions for RL libraries
The mask travels in the observation, as in PettingZoo's classic envs: a Dict of the flat
vector (`"observation"`) and `"action_mask"` (int8, 1 = legal); it is never all zeros.
Copies (`pickle`, `cloudpickle`, `copy.deepcopy`; SuperSuit's vector envs make them) play
on exactly as the original.
- SuperSuit / SB3: `pettingzoo_env_to_vec_env_v1` + `concat_vec_envs_v1` on the ParallelEnv.
- TorchRL: `PettingZooWrapper(parallel_env(...))`, or `PettingZooWrapper(env(...), use_mask=True)`
  for the AEC form; it moves the mask into the action spec.
- Tianshou: `PettingZooEnv(env())` on the AEC form reads `"observation"`/`"action_mask"`.
- RLlib: its action-masking module reads `"observations"`: `observation_key="observations"`
  renames the vector's key. Its env pre-check steps once with unmasked random actions: use
  `illegal_action="penalize"` there (or `disable_env_checking`).
Runnable scripts: `docs/examples/`, described in `docs/environments.md`.

## Reset
`reset(seed=S)` deals from S (then each later `reset()` deals the next game of that seed's
sequence). `reset(options={"deal": ...})` starts from a given deal — e.g. a round of a
game record — so agents can be compared on the same cards: the card games take
`{"hands": [[...], ...], "rows": [c0, c1, c2, c3], "dealer": d}`, the board game
`{"hands": [...], "start": [...], "draws": [...]}`.

## Speed
Classic games with the basic observation run, unless rendered, on a pure-Python
single-game path (`cards/single_game.SingleGame`) tested to give exactly what the batched
engine gives; other games run on the batched engine. `env.fast_path` says which.

## Version history
- v1 (2026-12): a name and sheet per game, `sixnimmt_cards_v1` and `sixnimmt_board_v1`;
  `sixnimmt_v0` stays, the same environments under one name.
- v0: first release. Later in v0: the game interface (`game=`), `observation=`, observation
  bounds from the rules, infos say `"over"` once the game has ended; infos are numbers
  (`phase` a code, `illegal_action` a flag), `observation_key=`.
"""

from __future__ import annotations

import functools

import gymnasium
import numpy as np
from pettingzoo import ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec

from ..core.errors import ConfigError, IllegalActionError
from ..core.game import Game, make_game
from ..core.rewards import ILLEGAL_POLICIES, REWARDS, check_option, step_rewards, step_rewards_one
from ..core.rng import game_seed_int, game_seeds
from .checks import action_dict, finite_number, legal_list, reset_options, seed_int

RESET_OPTIONS = ("deal",)  # reset(options=...) keys; others are a ConfigError


def game_of_kind(game: str | Game | None, kind: str | None, name: str) -> str | Game:
    """The game an environment plays: `game` (default "cards"), which must be `kind` or a
    Game of that kind when the environment is one game's (ConfigError naming it otherwise)."""
    if kind is None or game is None:
        return game or kind or "cards"
    if game == kind or (isinstance(game, Game) and game.info.game == kind):
        return game
    shown = f"a {game.info.game} Game" if isinstance(game, Game) else f"game={game!r}"
    raise ConfigError(f"{name} plays the {kind} game, got {shown} (sixnimmt_env.parallel_env takes any game)")


class SixNimmtParallelEnv(ParallelEnv):
    """A game of the lab as a PettingZoo ParallelEnv, one game (see the module docstring).

    Args:
        players: seats (a rule option; with `rules` or a Game object, taken from them).
        game: a game kind's name (default "cards") or a Game object; in a versioned
            environment (a subclass with `kind` set) only that kind's.
        rules: the kind's rule configuration (default: built from `rule_options`).
        observation: the observation variant (the game's `info.observations`).
        reward, episode, illegal_action, illegal_reward, render_mode: see the module docstring.
        observation_key: the observation Dict's key of the flat vector ("observations"
            for RLlib's action-masking module).
        rule_options: the game's rule options, e.g. variant="die-sechste", row_choice="cheapest".
    """

    metadata = {"name": "sixnimmt_v0", "is_parallelizable": True,
                "render_modes": ["ansi", "human"], "render_fps": 1}

    kind: str | None = None  # the one game kind of a versioned env (sixnimmt_cards_v1, ...); None: any

    def __init__(self, players: int | None = None, *, game: str | Game | None = None, rules=None,
                 observation: str | None = None, reward: str = "points", episode: str = "game",
                 illegal_action: str = "raise", illegal_reward: float = -10.0,
                 render_mode: str | None = None, observation_key: str = "observation", **rule_options):
        if players is not None:
            rule_options["players"] = players
        base = make_game(game_of_kind(game, self.kind, self.metadata["name"]), rules, **rule_options)
        check_option("reward", reward, REWARDS)
        check_option("illegal_action", illegal_action, ILLEGAL_POLICIES)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        if not isinstance(observation_key, str) or not observation_key or observation_key == "action_mask":
            raise ConfigError(f"observation_key must be a name other than 'action_mask', got {observation_key!r}")
        self.observation_key = observation_key
        self.illegal_message: str | None = None  # the last illegal action's message (penalize)
        self.rules = base.rules
        self.game = base.episode(episode)
        self.config = self.game.rules  # the rules the episodes are played by
        self.info = self.game.info
        self.reward_kind, self.episode = reward, episode
        self.illegal_action, self.illegal_reward = illegal_action, finite_number("illegal_reward", illegal_reward)
        self.render_mode = render_mode
        self.layout = self.game.layout(observation)
        self.n_actions = self.info.n_actions
        self.possible_agents = [f"player_{i}" for i in range(self.info.players)]
        self.agents: list[str] = []
        # Two ways to run the one game: the game's single-game fast path (only for rules
        # and observations it is proven equal on, and without rendering, which needs the
        # engine's events), or the batched engine with a batch of one.
        self._single = self.game.single_game(self.layout.name) if render_mode is None else None
        self._state = None
        self._seed_rng = np.random.default_rng()
        self._last_lines: list[str] = []

    # ------------------------------------------------------------------ spaces

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        return gymnasium.spaces.Dict({
            self.observation_key: self.layout.space(),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.n_actions,), np.int8),
        })

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        return gymnasium.spaces.Discrete(self.n_actions)

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict | None = None):
        seed = seed_int(seed)
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        game_seed = int(self._seed_rng.integers(2**63))
        deal = reset_options(options, RESET_OPTIONS).get("deal")
        if deal is not None:
            self._state = self.game.position(deal, game_seed)
            if self._single is not None:
                self._single.load(self._state)
        elif self._single is not None:
            self._single.new_game(game_seed_int(game_seed))  # the seed new_games would get
            self._state = None
        else:
            self._state = self.game.new_games(game_seeds(game_seed, 1))
        self.agents = self.possible_agents[:]
        self.illegal_message = None
        self._last_lines = []
        if self.render_mode == "human":
            self.render()
        return self._observations(), self._infos()

    def step(self, actions: dict[str, int]):
        if not self.agents:
            raise IllegalActionError("the episode is over: call reset()")
        given = action_dict(actions, self.possible_agents, self.agents)
        if self._single is not None:
            return self._step_single(given)
        st, game = self._state, self.game
        acts = np.array(given)
        mask = self._mask  # the masks handed out with the last observations
        bad = [s for s in range(len(acts)) if not (0 <= acts[s] < self.n_actions and mask[s, acts[s]])]
        if bad:
            return self._illegal(bad[0], int(acts[bad[0]]), mask[bad[0]])
        before = game.totals(st)
        rendering = self.render_mode is not None
        before_step = st.copy() if rendering else None
        # The env owns its state: stepping in place saves a copy per step.
        _, events = game.step(st, acts[:, None], report=rendering, inplace=True)
        over = game.game_over(st)
        rewards = step_rewards(self.reward_kind, before, game.totals(st), over, self.info.utility)[:, 0]
        if rendering:
            self._last_lines = game.render_step(before_step, events, st)
        return self._finish(rewards.tolist(), bool(over[0]))

    def _step_single(self, acts: list[int]):
        """`step` on the fast path: the same checks, results and dicts."""
        fast = self._single
        bad = fast.illegal_seat(acts)
        if bad >= 0:
            return self._illegal(bad, acts[bad], fast.observations()[1][bad])
        before = fast.totals()
        fast.step(acts)
        self._state = None  # the engine view is rebuilt when asked for
        done = fast.over
        return self._finish(step_rewards_one(self.reward_kind, before, fast.totals(), done, self.info.utility),
                            done)

    def _finish(self, rewards: list[float], done: bool):
        """The step's five dicts."""
        obs, infos = self._observations(), self._infos()
        rew = {a: float(r) for a, r in zip(self.possible_agents, rewards)}
        term = dict.fromkeys(self.possible_agents, done)
        trunc = dict.fromkeys(self.possible_agents, False)
        if done:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rew, term, trunc, infos

    def _illegal(self, seat: int, action: int, legal_mask: np.ndarray):
        """An illegal action: raise, or penalise the seat and end the episode."""
        where = self.game.progress(self.state_)
        message = (f"seat {seat} (player_{seat}), round {where['round']}, turn {where['turn']}: "
                   f"action {action} ({self.game.describe_action(action)}) is illegal; "
                   f"legal actions: {legal_list(self.game, legal_mask)}")
        if self.illegal_action == "raise":
            raise IllegalActionError(message)
        rew = {a: (self.illegal_reward if i == seat else 0.0) for i, a in enumerate(self.possible_agents)}
        term = {a: True for a in self.possible_agents}
        trunc = {a: False for a in self.possible_agents}
        obs, infos = self._observations(), self._infos()
        infos[f"player_{seat}"]["illegal_action"] = 1
        self.illegal_message = message
        self.agents = []
        return obs, rew, term, trunc, infos

    # ------------------------------------------------------------------ views

    @property
    def state_(self):
        """The game as the game's state of one game (None before the first reset).

        On the fast path a copy rebuilt from it: for reading (renderers, records,
        tests); changing it does not change the game."""
        if self._state is None and self._single is not None and self._single.seed is not None:
            self._state = self._single.to_state()
        return self._state

    @property
    def fast_path(self) -> bool:
        """Whether steps run on the pure-Python single-game path rather than the batched engine."""
        return self._single is not None

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        if self._single is not None:  # the fast path checks actions itself
            vectors, masks = self._single.observations()
        else:
            P = self.info.players
            view = self.game.view(self.state_, np.arange(P), np.zeros(P, dtype=np.intp))
            self._mask = view.action_mask()
            vectors, masks = self.layout.encode(view), self._mask.astype(np.int8)
        key = self.observation_key
        return {a: {key: v, "action_mask": m}
                for a, v, m in zip(self.possible_agents, vectors, masks)}

    def _infos(self) -> dict[str, dict[str, int]]:
        """Numbers only, the same keys at every step (TorchRL makes tensors of them)."""
        where = self._single.progress() if self._single is not None else self.game.progress(self._state)
        info = {"phase": self.info.phases.index(where["phase"]), "round": where["round"],
                "turn": where["turn"], "illegal_action": 0}
        return {a: dict(info) for a in self.possible_agents}

    # ------------------------------------------------------------------ rendering

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        if self.state_ is None:
            text = "(no game: call reset())"
        else:
            text = "\n".join(self._last_lines + self.game.render(self.state_))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env_functions(cls: type[SixNimmtParallelEnv]):
    """`parallel_env` and `env` of an environment class, PettingZoo's two constructors."""
    def parallel_env(players: int | None = None, **kwargs) -> SixNimmtParallelEnv:
        """The ParallelEnv (the options: the environment's sheet, its module docstring)."""
        return cls(players, **kwargs)

    def env(players: int | None = None, **kwargs):
        """The AEC form: parallel_to_aec(parallel_env(...)), order-enforced."""
        return parallel_to_aec(cls(players, **kwargs))

    return parallel_env, env


parallel_env, env = env_functions(SixNimmtParallelEnv)
