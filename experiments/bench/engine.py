"""Speed benchmarks: the engine's random-play work unit, against the C speed limit.

The work unit (docs/bench.md) is the one the C speed limit times: classic rules, P
players, uniformly random cards from the hand, a too-low card takes the cheapest row,
whole rounds (a fresh deal every ten turns). Speed is reported as rounds/s and
decisions/s; the ratio to the C program is measured in the same run because absolute
timings here are noisy. The C program is not part of this repository: it is looked for
beside the checkout (DEFAULT_LIMIT_SCRIPT), or wherever `--limit-script` says.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import numpy as np

from sixnimmt_env import RuleConfig, game_seeds, new_games, play_slots
from sixnimmt_env.cards.rules import HAND_SIZE
from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.perf import tune_allocator

# The team's shared material sits beside the checkout; the script is optional.
DEFAULT_LIMIT_SCRIPT = Path(__file__).resolve().parents[2].parent / "shared" / "bench" / "limit.sh"


def bench_engine(players: int = 4, batch: int = 4096, seconds: float = 5.0, seed: int = 0,
                 repeats: int = 3) -> dict:
    """Time random play on the batched engine; the median of `repeats` windows counts."""
    tuned = tune_allocator()
    # No end condition in reach: the batch keeps dealing new rounds, as the C loop does.
    cfg = RuleConfig(players=players, row_choice="cheapest", end_score=None, max_rounds=2**30)
    st = new_games(cfg, game_seeds(seed, batch))
    rng = np.random.default_rng(seed)

    def rounds(n: int) -> None:
        for _ in range(n):
            for turn in range(HAND_SIZE):
                slots = (rng.random((players, batch), dtype=np.float32) * (HAND_SIZE - turn))
                play_slots(st, slots.astype(np.intp))

    rounds(2)  # warm-up: caches, allocator
    rates = []
    for _ in range(repeats):
        n, t0 = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - t0) < seconds / repeats:
            rounds(1)
            n += batch
        rates.append(n / elapsed)
    rate = float(np.median(rates))
    played = int(st.round.sum()) + batch  # rounds dealt so far, the current ones included
    return {
        "impl": "sixnimmt_env (NumPy)", "P": players, "B": batch, "rates": [round(r, 1) for r in rates],
        "rounds_per_s": round(rate, 1), "decisions_per_s": round(rate * players * HAND_SIZE, 1),
        "pen_per_player_round": round(float(st.score.sum()) / (players * max(played - batch, 1)), 4),
        "allocator_tuned": tuned,
    }


def run_limit(players: int, script: Path = DEFAULT_LIMIT_SCRIPT, seconds: float = 5.0) -> dict:
    """Run the C speed limit for `players` and return its JSON result."""
    env = {"PERF_MIN_TIME": str(max(seconds / 3, 0.5)), "PERF_REPEATS": "3", "PATH": "/usr/bin:/bin"}
    try:
        out = subprocess.run(["bash", str(script), str(players)], capture_output=True, text=True,
                             env=env, check=True, timeout=600)
        return json.loads(out.stdout.strip().splitlines()[-1])
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, json.JSONDecodeError, IndexError) as e:
        detail = (getattr(e, "stderr", "") or "").strip().splitlines()[-1:] or [type(e).__name__]
        raise ConfigError(f"the C speed limit {script} did not run: {detail[0]} "
                          "(it needs bash and gcc; --no-limit skips it)") from None


def bench_parallel_env(players: int = 4, seconds: float = 5.0, seed: int = 0,
                       row_choice: str = "player") -> dict:
    """Random legal play through the PettingZoo ParallelEnv, one-round episodes.

    Two figures from one run: `rounds_per_s` / `env_steps_per_s` count only the time spent
    inside `reset()` and `step()` (the env's own cost, what the speed target is about);
    `with_sampler_rounds_per_s` is the whole loop's wall time, which adds drawing each
    agent's random legal action from its mask (`mask.nonzero()` and a pre-drawn uniform:
    about the cheapest sampler a user could write; NumPy's `rng.choice` costs ~5 µs more
    per agent).
    """
    from sixnimmt_env import parallel_env

    tune_allocator()
    env = parallel_env(players, row_choice=row_choice, episode="round")
    rng = np.random.default_rng(seed)
    uniform = rng.random(1 << 16).tolist()
    obs, _ = env.reset(seed=seed)
    rounds = steps = draw = 0
    in_env = 0.0
    clock = time.perf_counter
    t0 = clock()
    while (elapsed := clock() - t0) < seconds:
        actions = {}
        for agent, o in obs.items():
            legal = o["action_mask"].nonzero()[0]
            actions[agent] = int(legal[int(uniform[draw] * len(legal))])
            draw = (draw + 1) & 0xFFFF
        t = clock()
        obs, _, _, _, _ = env.step(actions)
        steps += 1
        if not env.agents:
            rounds += 1
            obs, _ = env.reset()
        in_env += clock() - t
    return {"impl": "ParallelEnv", "P": players, "row_choice": row_choice,
            "fast_path": env.fast_path,
            "rounds_per_s": round(rounds / in_env, 1), "env_steps_per_s": round(steps / in_env, 1),
            "with_sampler_rounds_per_s": round(rounds / elapsed, 1),
            "env_share_of_loop": round(in_env / elapsed, 3)}


def bench_vec_env(players: int = 4, batch: int = 4096, seconds: float = 5.0, seed: int = 0,
                  row_choice: str = "player") -> dict:
    """Random legal learner actions through the SB3 VecEnv (random opponents): steps/s.

    The learner's actions are drawn from its observation's legal set with the same cheap
    sampler the random opponents use, so the figure is the env's cost, not the sampler's.
    """
    from sixnimmt_env.adapters.vec_env import SixNimmtVecEnv

    env = SixNimmtVecEnv(batch, players, row_choice=row_choice, seed=seed)
    env.reset()
    rng = np.random.default_rng(seed)
    steps = episodes = 0
    returns = 0.0
    t0 = time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < seconds:
        actions = env.games.view().random_legal_actions(rng)
        _, rewards, dones, _ = env.step(actions)
        steps += env.num_envs
        returns += float(rewards.sum())
        episodes += int(dones.sum())
    return {"impl": "SixNimmtVecEnv", "P": players, "B": batch, "row_choice": row_choice,
            "learner_steps_per_s": round(steps / elapsed, 1),
            "mean_return_per_episode": round(returns / max(episodes, 1), 3)}


ANSWERS_PER_CALL = 8  # questions a game answers in one play_random call of the kernel-only figure


def bench_public_step(game_name: str = "board", players: int = 4, batch: int = 4096, seconds: float = 5.0,
                      seed: int = 0, variant: str | None = None, repeats: int = 3) -> dict:
    """Whole random games through the public game API, as an environment or agent drives
    it: `make_game`, then per decision step every seat's `view(...).random_legal_actions`
    and `Game.step` (with its checks), until every game of the batch is over; a finished
    batch is dealt anew. turns/s counts the turns the games played (a card turn is every
    seat's card of a round's ten turns; a board turn every seat's tile, or two under
    play-two); the median of `repeats` windows counts. Works for either game, so the
    two are timed the same way."""
    from sixnimmt_env.core.game import make_game

    tune_allocator()
    game = make_game(game_name, players=players, **({"variant": variant} if variant else {}))
    rng = np.random.default_rng(seed)
    seats = [np.full(batch, p) for p in range(players)]
    run = [0]

    def one_batch() -> int:
        st = game.new_games(game_seeds(seed + run[0], batch))
        run[0] += 1
        while not game.game_over(st).all():
            game.step(st, np.stack([game.view(st, seats[p]).random_legal_actions(rng) for p in range(players)]),
                      inplace=True)
        if game_name == "board":
            return int(st.turn.sum())
        return int((st.round.astype(np.int64) * HAND_SIZE + st.turn).sum())  # the last round's turns included

    games_per_s, turns_per_s = _median_rates(one_batch, batch, seconds, repeats)
    return {"impl": f"{game_name} through the game API", "P": players, "B": batch, "variant": game.rules.variant,
            "games_per_s": round(games_per_s, 1), "turns_per_s": round(turns_per_s, 1)}


def bench_board_engine(players: int = 4, batch: int = 4096, seconds: float = 5.0, seed: int = 0,
                       variant: str = "basic", repeats: int = 3, threads: int | None = None) -> dict:
    """The kernel-only figure: random play of whole board games through `engine.play_random`,
    a turn in one compiled call (nothing checked, random numbers drawn in NumPy), in which
    every seat puts out a uniformly random tile of its hand and every question the rules
    ask while placing is answered with a uniformly random legal answer (the legal answers
    the seat views' masks hold, `board/_kernel/answers.py`); a game asked more than
    `ANSWERS_PER_CALL` questions in a turn goes on in the next call. games/s and turns/s,
    the median of `repeats` windows. `threads`: the games split over that many threads
    (None: all cores)."""
    from sixnimmt_env.board.engine import play_random, thread_count
    from sixnimmt_env.board.rules import HAND_SIZE as HAND_SIZE_BOARD
    from sixnimmt_env.core.game import make_game

    tune_allocator()
    game = make_game("board", players=players, variant=variant)
    rng = np.random.default_rng(seed)
    run = [0]
    # random numbers a call: a tile per seat, and answers where the variant asks questions
    draws = players + (ANSWERS_PER_CALL if game.rules.luck or game.rules.pro else 0)

    def engine_batch() -> int:
        st = game.new_games(game_seeds(seed + run[0], batch))
        run[0] += 1
        while live := int(np.count_nonzero(~game.game_over(st))):  # numbers only for the games still on
            play_random(st, rng.random((live, draws), dtype=np.float32), threads)
        return int(st.turn.sum())

    games_per_s, turns_per_s = _median_rates(engine_batch, batch, seconds, repeats)
    tiles_per_game = players * HAND_SIZE_BOARD * (2 if game.rules.refill else 1)
    return {"impl": "board engine (numba kernel)", "P": players, "B": batch, "variant": variant,
            "threads": thread_count(batch, threads),
            "games_per_s": round(games_per_s, 1), "turns_per_s": round(turns_per_s, 1),
            "tiles_per_s": round(games_per_s * tiles_per_game, 1)}


def _median_rates(one_batch, batch: int, seconds: float, repeats: int) -> tuple[float, float]:
    """Games/s and turns/s of `one_batch` (plays `batch` whole games, returns their turns):
    the median of `repeats` windows of `seconds / repeats`, after one batch to warm up."""
    one_batch()
    games_rates, turn_rates = [], []
    for _ in range(repeats):
        games = turns = 0
        t0 = time.perf_counter()
        while (elapsed := time.perf_counter() - t0) < seconds / repeats or games == 0:
            turns += one_batch()
            games += batch
        games_rates.append(games / elapsed)
        turn_rates.append(turns / elapsed)
    return float(np.median(games_rates)), float(np.median(turn_rates))


BOARD_PAIRS = 5  # interleaved windows of each game in bench_board_against_cards


def bench_board_against_cards(players: int = 4, batch: int = 4096, seconds: float = 5.0, seed: int = 0,
                              variant: str = "basic", pairs: int = BOARD_PAIRS, kernel: bool = True) -> dict:
    """The board game next to the card game (P = 4) in the same run, through the same
    public API (`bench_public_step`: random legal actions through make_game / view /
    step): the headline. The two take turns, window by window (`seconds / pairs` each),
    and each pair gives a ratio: on a shared machine the load drifts, and a drift between
    two long runs would show up as a speed difference. The median pair counts.

    Keys: the board's public figures of the median pair (`games_per_s`, `turns_per_s`),
    `card_turns_per_s`, `ratio_to_card_turns` and `ratios` (every pair's); with `kernel`,
    also the kernel-only figure (`bench_board_engine`, all cores) beside the card
    engine's own fast path (`bench_engine`, `play_slots`) in a second pair of windows:
    `kernel_turns_per_s`, `engine_card_turns_per_s`, `kernel_ratio_to_card_engine`.
    """
    if batch < 1 or not 0 < seconds < float("inf") or pairs < 1:
        raise ConfigError("batch must be >= 1 and seconds > 0")
    window = seconds / pairs
    runs = []
    for _ in range(pairs):
        board = bench_public_step("board", players, batch, window, seed, variant, repeats=1)
        cards = bench_public_step("cards", 4, batch, window, seed, repeats=1)
        if kernel:
            board["kernel"] = bench_board_engine(players, batch, window, seed, variant, repeats=1)
            board["card_engine"] = bench_engine(4, batch, window, seed, repeats=1)
        runs.append((board, cards))
    ratios = [b["turns_per_s"] / c["turns_per_s"] for b, c in runs]
    out = dict(runs[int(np.argsort(ratios)[len(ratios) // 2])][0])
    out.pop("kernel", None)
    out.pop("card_engine", None)
    out["impl"] = "board through the game API"
    out["card_turns_per_s"] = round(float(np.median([c["turns_per_s"] for _, c in runs])), 1)
    out["ratio_to_card_turns"] = round(float(np.median(ratios)), 3)
    out["ratios"] = [round(r, 3) for r in ratios]
    if kernel:
        engine_card = [b["card_engine"]["rounds_per_s"] * HAND_SIZE for b, _ in runs]
        kernel_ratios = [b["kernel"]["turns_per_s"] / t for (b, _), t in zip(runs, engine_card)]
        out["kernel_turns_per_s"] = round(float(np.median([b["kernel"]["turns_per_s"] for b, _ in runs])), 1)
        out["engine_card_turns_per_s"] = round(float(np.median(engine_card)), 1)
        out["kernel_ratio_to_card_engine"] = round(float(np.median(kernel_ratios)), 3)
    return out
