"""One learning seat against opponents, as a Gymnasium env (`SixNimmt-v0`).

`gymnasium.make("SixNimmt-v0", players=4, opponents=None, ...)` or `SixNimmtEnv(...)`;
`game=` picks the game (default "cards"), further keywords are its rule options.
Observations are the flat vector of the PettingZoo env (same encoder, `observation=`
picks the variant); actions the same Discrete encoding; `action_masks()` gives the legal actions for sb3-contrib's
MaskablePPO, and `info["action_mask"]` carries them too. The learner's seat is drawn
from each game's seed (or fixed with `learner_seat`); opponents act inside `step`, so the
learner is only asked when it has a decision.

Unmasked algorithms (and the env checkers) send illegal actions: by default
(`illegal_action="penalize"`) that ends the episode with `illegal_reward`;
`illegal_action="raise"` raises IllegalActionError instead.
"""

from __future__ import annotations

import gymnasium
import numpy as np

from ..core.errors import ConfigError, IllegalActionError
from ..core.game import Game, make_game
from ..core.rewards import ILLEGAL_POLICIES, check_option
from .checks import action_int, finite_number, reset_options, seed_int
from .learner import LearnerGames


class SixNimmtEnv(gymnasium.Env):
    """One learning seat of a game; opponents (agent objects, None: random) play the others."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, players: int | None = None, *, game: str | Game = "cards", rules=None,
                 opponents=None, learner_seat: int | None = None, reward: str = "points",
                 episode: str = "round", observation: str | None = None,
                 illegal_action: str = "penalize", illegal_reward: float = -10.0,
                 render_mode: str | None = None, **rule_options):
        if players is not None:
            rule_options["players"] = players
        base = make_game(game, rules, **rule_options)
        players = base.info.players
        check_option("illegal_action", illegal_action, ILLEGAL_POLICIES)
        if learner_seat is not None and not 0 <= learner_seat < players:
            raise ConfigError(f"learner_seat must be 0..{players - 1} or None")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.games = LearnerGames(base.episode(episode), 1, opponents=opponents,
                                  reward=reward, seed=0, observation=observation)
        self.learner_seat = learner_seat
        self.illegal_action, self.illegal_reward = illegal_action, finite_number("illegal_reward", illegal_reward)
        self.render_mode = render_mode
        self.observation_space = self.games.layout.space()
        self.action_space = gymnasium.spaces.Discrete(self.games.n_actions)
        self._mask = np.zeros(self.games.n_actions, dtype=bool)
        self._done = True

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        reset_options(options, ())
        super().reset(seed=seed_int(seed))
        self.games.reset(int(self.np_random.integers(2**63)))
        if self.learner_seat is not None:
            self.games.seat_learners(self.learner_seat)
        self._done = False
        obs, info = self._observe()
        if self.render_mode == "human":
            self.render()
        return obs, info

    def _observe(self):
        obs, mask = self.games.observe()
        self._mask = mask[0]
        return obs[0], {"action_mask": self._mask.copy(), "seat": int(self.games.slot_seats[0])}

    def step(self, action):
        if self._done:
            raise IllegalActionError("the episode is over: call reset()")
        action = action_int(action, "action")
        if not self.games.check(np.array([action]), self._mask[None, :])[0]:
            message = self.games.illegal_message(0, action, self._mask[None, :])
            if self.illegal_action == "raise":
                raise IllegalActionError(message)
            self._done = True
            obs, info = self._observe()
            info["illegal_action"] = message
            return obs, self.illegal_reward, True, False, info
        rewards, over = self.games.apply(np.array([action]))
        self._done = bool(over[0])
        obs, info = self._observe()
        if self.render_mode == "human":
            self.render()
        return obs, float(rewards[0]), self._done, False, info

    def action_masks(self) -> np.ndarray:
        """(A,) bool, the legal actions now."""
        return self._mask.copy()

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        text = "\n".join([f"you are seat {int(self.games.slot_seats[0])}"]
                         + self.games.game.render(self.games.state))
        if self.render_mode == "human":
            print(text)
            return None
        return text


def register() -> None:
    """Register SixNimmt-v0 with Gymnasium (done when this module is imported)."""
    if "SixNimmt-v0" not in gymnasium.registry:
        gymnasium.register(id="SixNimmt-v0", entry_point="sixnimmt_env.adapters.gym_env:SixNimmtEnv")


register()
