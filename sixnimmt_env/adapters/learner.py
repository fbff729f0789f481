"""Learning seats among opponents, for many games at once: the core of the single-agent
Gymnasium env and the SB3 VecEnv. Written against the game interface (core.game.Game).

Each game seats `learners` learning seats (1..P) next to each other; the other seats are
opponents that act inside, through the batched agent interface. A *slot* is one learning
seat of one game: slot i is game i // learners. Steps advance until every game waits for
a learner again: decisions that only opponents are asked for (a too-low card's row, say)
are played out inside the step, so with one learner per game it is only ever asked when
it has a decision. With several learners per game, a learner that has nothing to decide
while another does gets a step whose only legal action is pass.
"""

from __future__ import annotations

import numpy as np

from ..core import rng as rng_mod
from ..core.errors import ConfigError
from ..core.game import Game
from ..core.rewards import REWARDS, check_option, step_rewards
from ..core.rng import game_seeds
from .opponents import OpponentTable, opponent_actions
from .pettingzoo_env import legal_list

_TAG_SEATS = np.uint64(0xA54FF53A5F1D36F1)


class LearnerGames:
    """B games, each with `learners` learning seats and opponents for the rest."""

    def __init__(self, game: Game, num_games: int, *, learners: int = 1, opponents=None,
                 reward: str = "points", seed: int = 0, observation: str | None = None):
        P = game.info.players
        if not 1 <= learners <= P:
            raise ConfigError(f"learners per game must be 1..{P}, got {learners}")
        check_option("reward", reward, REWARDS)
        if num_games < 1:
            raise ConfigError(f"num_games must be >= 1, got {num_games}")
        self.game, self.players = game, P
        self.config = game.rules
        self.num_games, self.learners, self.reward = num_games, learners, reward
        self.opponents = OpponentTable(opponents, P) if learners < P else None
        self.layout = game.layout(observation)
        self.n_actions = game.info.n_actions
        self.num_slots = num_games * learners
        self.slot_games = np.repeat(np.arange(num_games), learners)
        self.slot_offset = np.tile(np.arange(learners), num_games)
        self.first_seat = np.zeros(num_games, dtype=np.int64)  # the first learner's seat per game
        self.slot_seats = np.zeros(self.num_slots, dtype=np.int64)  # (num_slots,) the seat of each slot
        self.reset(seed)

    # ------------------------------------------------------------------ games

    def reset(self, seed: int) -> None:
        """Start all games afresh from `seed` (game k of the run has seed game_seeds(seed)[k])."""
        self.seed = seed
        self._next_game = self.num_games
        self.rng = np.random.default_rng([seed, 0x5EA7])  # the opponents' randomness
        self.seeds = game_seeds(seed, self.num_games)  # (B,) each game's seed
        self.state = self.game.new_games(self.seeds)
        self._draw_seats(np.arange(self.num_games))
        if self.opponents is not None:
            self.opponent_index = self.opponents.assign(self.num_games, self.rng)
        self._advance()

    def _draw_seats(self, games: np.ndarray) -> None:
        """Where the learners sit in `games`: drawn from each game's seed."""
        draw = rng_mod.round_keys(self.seeds[games], _TAG_SEATS, np.zeros(len(games)))
        self.first_seat[games] = (draw % np.uint64(self.players)).astype(np.int64)
        self._seat_slots()

    def _seat_slots(self) -> None:
        """The slots' seats from `first_seat`: kept, not derived on each use, since every
        view, step and reward reads them."""
        P = self.players
        self.slot_seats = (self.first_seat[self.slot_games] + self.slot_offset) % P
        self._slot_at = self.slot_seats * self.num_games + self.slot_games  # flat index into (P, B)
        self._opponent_seat = (np.arange(P)[:, None] - self.first_seat[None, :]) % P >= self.learners  # (P, B)

    def seat_learners(self, first_seat) -> None:
        """Put the first learner of every game at seat `first_seat` (scalar or (B,)),
        then let opponents decide until a learner is asked."""
        self.first_seat[:] = first_seat
        self._seat_slots()
        self._advance()

    def restart(self, games: np.ndarray) -> None:
        """Replace finished `games` by the next games of the run's seed sequence."""
        if len(games) == 0:
            return
        seeds = game_seeds(self.seed, len(games), start=self._next_game)
        self._next_game += len(games)
        self.seeds[games] = seeds
        self.game.restart(self.state, games, seeds)
        self._draw_seats(games)
        if self.opponents is not None:
            self.opponent_index[games] = self.opponents.assign(len(games), self.rng)
        self._advance()

    def view(self, slots: np.ndarray | None = None):
        """What each slot's seat (or only `slots`') may know."""
        if slots is None:
            return self.game.view(self.state, self.slot_seats, self.slot_games)
        return self.game.view(self.state, self.slot_seats[slots], self.slot_games[slots])

    def observe(self) -> tuple[np.ndarray, np.ndarray]:
        """(num_slots, D) observations and (num_slots, A) action masks."""
        view = self.view()
        return self.layout.encode(view), view.action_mask()

    # ------------------------------------------------------------------ stepping

    def _opponents_act(self, seats: np.ndarray, games: np.ndarray) -> np.ndarray:
        """Encoded actions of the opponents at (seats, games)."""
        agents = self.opponents.agents
        which = None
        if len(agents) > 1:  # which agent plays each (seat, game)
            position = (seats - self.first_seat[games]) % self.players - self.learners
            which = self.opponent_index[games, position]
        return opponent_actions(agents, self.game, self.state, seats, games, which, self.rng)

    def _only_opponents(self, live: np.ndarray) -> np.ndarray:
        """(P, B) the opponent seats that must decide in live games where no learner must."""
        to_act = self.game.to_act(self.state) & live[None, :]
        learner_asked = (to_act & ~self._opponent_seat).any(axis=0)
        return to_act & self._opponent_seat & ~learner_asked[None, :]

    def check(self, actions: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """(num_slots,) whether each slot's action is legal under `mask`."""
        inside = (actions >= 0) & (actions < self.n_actions)
        legal = np.zeros(len(actions), dtype=bool)
        legal[inside] = mask[np.flatnonzero(inside), actions[inside]]
        return legal

    def illegal_message(self, slot: int, action: int, mask: np.ndarray) -> str:
        """Names the slot's game, seat, the action and the legal actions."""
        g, s = int(self.slot_games[slot]), int(self.slot_seats[slot])
        where = self.game.progress(self.state, g)
        return (f"slot {slot} (game {g}, seat {s}), round {where['round']}, turn {where['turn']}: "
                f"action {action} ({self.game.describe_action(action)}) is illegal; "
                f"legal actions: {legal_list(self.game, mask[slot])}")

    def apply(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Play the slots' (legal) actions, then the opponents until learners are asked again.

        Returns (num_slots,) rewards and (num_slots,) episode-over flags. Finished games
        stay finished until `restart`.
        """
        st, game, P, B = self.state, self.game, self.players, self.num_games
        before = game.totals(st)
        live = ~game.game_over(st)
        encoded = np.zeros((P, B), dtype=np.int64)  # entries of seats that do not act are ignored
        # Opponents who decide alongside the learners (simultaneous moves: the cards).
        together_seats = game.to_act(st) & live[None, :] & self._opponent_seat
        together = together_seats.any(axis=0)
        seats, games = np.nonzero(together_seats)
        if len(seats):
            encoded[seats, games] = self._opponents_act(seats, games)
        encoded.reshape(-1)[self._slot_at] = actions
        # Two engine calls where a plain loop takes three: first the simultaneous moves;
        # then, in one call, the games where only learners decided and the games the
        # first call stopped for an opponent's decision (the opponents draw in the same
        # order as one step after another).
        alone = live & ~together
        if together.any():
            game.step(st, encoded, inplace=True, games=together)
        asked = self._only_opponents(together)
        if asked.any():
            games, seats = np.nonzero(asked.T)  # game by game
            encoded[seats, games] = self._opponents_act(seats, games)
            alone |= asked.any(axis=0)
        if alone.any():
            game.step(st, encoded, inplace=True, games=alone)
        self._advance()  # a turn may ask again (Die Sechste: a twin-row choice after a too-low one)
        over = game.game_over(st)
        rewards = step_rewards(self.reward, before, game.totals(st), over, game.info.utility)
        return rewards.reshape(-1).take(self._slot_at).astype(np.float32), over[self.slot_games]

    def _advance(self) -> None:
        """Let opponents decide until every live game waits for a learner."""
        st = self.state
        while True:
            asked = self._only_opponents(~self.game.game_over(st))
            if not asked.any():
                return
            games, seats = np.nonzero(asked.T)  # game by game
            encoded = np.zeros((self.players, self.num_games), dtype=np.int64)
            encoded[seats, games] = self._opponents_act(seats, games)
            self.game.step(st, encoded, inplace=True, games=asked.any(axis=0))
