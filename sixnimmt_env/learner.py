"""Learning seats among opponents, for many games at once: the core of the single-agent
Gymnasium env and the SB3 VecEnv.

Each game seats `learners` learning seats (1..P) next to each other; the other seats are
opponents that act inside, through the batched agent interface. A *slot* is one learning
seat of one game: slot i is game i // learners. Steps advance until every game waits for
a learner again: opponents' row choices are played out inside the step, so with one
learner per game it is only ever asked when it has a decision. With several learners per
game, a learner that has nothing to decide while another chooses a row gets a step whose
only legal action is pass.
"""

from __future__ import annotations

import numpy as np

from . import rng as rng_mod
from .engine import new_games, restart, step
from .errors import ConfigError
from .observation import ObsLayout, SeatView, action_size, describe_action, engine_actions
from .opponents import OpponentTable, opponent_actions
from .pettingzoo_env import REWARDS, step_rewards
from .rng import game_seeds
from .rules import RuleConfig
from .state import PHASE_CARDS, PHASE_ROW

_TAG_SEATS = np.uint64(0xA54FF53A5F1D36F1)


class LearnerGames:
    """B games, each with `learners` learning seats and opponents for the rest."""

    def __init__(self, config: RuleConfig, num_games: int, *, learners: int = 1, opponents=None,
                 reward: str = "penalty", seed: int = 0, observation: str = "basic"):
        P = config.players
        if not 1 <= learners <= P:
            raise ConfigError(f"learners per game must be 1..{P}, got {learners}")
        if reward not in REWARDS:
            raise ConfigError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
        if num_games < 1:
            raise ConfigError(f"num_games must be >= 1, got {num_games}")
        self.config, self.num_games, self.learners, self.reward = config, num_games, learners, reward
        self.opponents = OpponentTable(opponents, P) if learners < P else None
        self.layout = ObsLayout(config, observation)  # observation: a variant of observation.py
        self.n_actions = action_size(config)
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
        self.state = new_games(self.config, game_seeds(seed, self.num_games))
        self._draw_seats(np.arange(self.num_games))
        if self.opponents is not None:
            self.opponent_index = self.opponents.assign(self.num_games, self.rng)
        self._advance()

    def _draw_seats(self, games: np.ndarray) -> None:
        """Where the learners sit in `games`: drawn from each game's seed."""
        draw = rng_mod.round_keys(self.state.seed[games], _TAG_SEATS, np.zeros(len(games)))
        self.first_seat[games] = (draw % np.uint64(self.config.players)).astype(np.int64)
        self._seat_slots()

    def _seat_slots(self) -> None:
        """The slots' seats from `first_seat`: kept, not derived on each use, since every
        view, step and reward reads them."""
        self.slot_seats = (self.first_seat[self.slot_games] + self.slot_offset) % self.config.players
        self._slot_at = self.slot_seats * self.num_games + self.slot_games  # flat index into (P, B)
        P = self.config.players
        self._opponent_seat = (np.arange(P)[:, None] - self.first_seat[None, :]) % P >= self.learners  # (P, B)

    def seat_learners(self, first_seat) -> None:
        """Put the first learner of every game at seat `first_seat` (scalar or (B,)),
        then let opponents choose rows until a learner is asked."""
        self.first_seat[:] = first_seat
        self._seat_slots()
        self._advance()

    def restart(self, games: np.ndarray) -> None:
        """Replace finished `games` by the next games of the run's seed sequence."""
        if len(games) == 0:
            return
        seeds = game_seeds(self.seed, len(games), start=self._next_game)
        self._next_game += len(games)
        restart(self.state, games, seeds)
        self._draw_seats(games)
        if self.opponents is not None:
            self.opponent_index[games] = self.opponents.assign(len(games), self.rng)
        self._advance()

    def view(self, slots: np.ndarray | None = None) -> SeatView:
        """What each slot's seat (or only `slots`') may know."""
        if slots is None:
            return SeatView(self.state, self.slot_seats, self.slot_games)
        return SeatView(self.state, self.slot_seats[slots], self.slot_games[slots])

    def observe(self) -> tuple[np.ndarray, np.ndarray]:
        """(num_slots, D) observations and (num_slots, A) action masks."""
        view = self.view()
        return view.encode(self.layout), view.action_mask()

    # ------------------------------------------------------------------ stepping

    def _is_learner(self, seats: np.ndarray, games: np.ndarray) -> np.ndarray:
        return (seats - self.first_seat[games]) % self.config.players < self.learners

    def _opponents_act(self, seats: np.ndarray, games: np.ndarray) -> np.ndarray:
        """Engine actions (card ids or rows) of the opponents at (seats, games)."""
        agents = self.opponents.agents
        which = None
        if len(agents) > 1:  # which agent plays each (seat, game)
            position = (seats - self.first_seat[games]) % self.config.players - self.learners
            which = self.opponent_index[games, position]
        actions = opponent_actions(agents, self.state, seats, games, which, self.rng)
        return self._engine_actions(actions, games)

    def _engine_actions(self, actions: np.ndarray, games: np.ndarray) -> np.ndarray:
        return engine_actions(self.config, self.state.phase[games], actions)

    def check(self, actions: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """(num_slots,) whether each slot's action is legal under `mask`."""
        inside = (actions >= 0) & (actions < self.n_actions)
        legal = np.zeros(len(actions), dtype=bool)
        legal[inside] = mask[np.flatnonzero(inside), actions[inside]]
        return legal

    def illegal_message(self, slot: int, action: int, mask: np.ndarray) -> str:
        """Names the slot's game, seat, the action and the legal actions."""
        g, s = int(self.slot_games[slot]), int(self.slot_seats[slot])
        legal = np.flatnonzero(mask[slot]).tolist()
        shown = ", ".join(f"{a} ({describe_action(self.config, a)})" for a in legal[:12])
        more = f", ... ({len(legal)} in all)" if len(legal) > 12 else ""
        return (f"slot {slot} (game {g}, seat {s}), round {int(self.state.round[g])}, "
                f"turn {int(self.state.turn[g])}: action {action} "
                f"({describe_action(self.config, action)}) is illegal; legal actions: {shown}{more}")

    def apply(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Play the slots' (legal) actions, then the opponents until learners are asked again.

        Returns (num_slots,) rewards and (num_slots,) episode-over flags. Finished games
        stay finished until `restart`.
        """
        st, P, B = self.state, self.config.players, self.num_games
        before = st.total()
        engine = np.zeros((P, B), dtype=np.int64)
        live = ~st.game_over()
        cards = (st.phase == PHASE_CARDS) & live
        if cards.any():
            seats, games = np.nonzero(self._opponent_seat & cards[None, :])
            if len(seats):
                engine[seats, games] = self._opponents_act(seats, games)
        engine.reshape(-1)[self._slot_at] = self._engine_actions(actions, self.slot_games)
        # Two engine calls, not three: first the cards phase; then, in one call, the rows
        # the learners chose and the rows the opponents choose in the games the cards
        # phase stopped (the opponents draw in the same order as one step after another).
        choosing = (st.phase == PHASE_ROW) & live  # a learner's row: opponents' were played out
        step(st, engine, inplace=True, games=cards)
        stopped = np.flatnonzero((st.phase == PHASE_ROW) & cards)
        choosers = st.chooser[stopped].astype(np.int64)
        theirs = ~self._is_learner(choosers, stopped)
        if theirs.any():
            games, choosers = stopped[theirs], choosers[theirs]
            engine[choosers, games] = self._opponents_act(choosers, games)
            choosing[games] = True
        if choosing.any():
            step(st, engine, inplace=True, games=choosing)
        self._advance()  # a turn may ask again (Die Sechste: a twin-row choice after a too-low one)
        over = st.game_over()
        rewards = step_rewards(self.reward, before, st.total(), over)
        return rewards.reshape(-1).take(self._slot_at).astype(np.float32), over[self.slot_games]

    def _advance(self) -> None:
        """Let opponents pick their rows until every live game waits for a learner."""
        st = self.state
        while True:
            waiting = st.phase == PHASE_ROW
            games = np.flatnonzero(waiting)
            if len(games) == 0:
                return
            choosers = st.chooser[games].astype(np.int64)
            theirs = ~self._is_learner(choosers, games)
            if not theirs.any():
                return
            games, choosers = games[theirs], choosers[theirs]
            engine = np.zeros((self.config.players, self.num_games), dtype=np.int64)
            engine[choosers, games] = self._opponents_act(choosers, games)
            mask = np.zeros(self.num_games, dtype=bool)
            mask[games] = True
            step(st, engine, inplace=True, games=mask)
