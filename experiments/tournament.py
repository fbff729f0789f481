"""`sixnimmt tournament`: many agents, tables of P seats, duplicate deals, parallel workers.

Line-ups: every combination of P of the listed agents (round robin); with fewer agents
than seats, one line-up repeating them in order. Each line-up plays the same deals (the
deal seeds depend only on the tournament seed, P and the deal's index), each deal once
per seat rotation, so luck cancels out. Work is cut into units — one line-up, a chunk
of deals — whose randomness depends only on (seed, P, line-up, chunk): the games come
out the same serially, with any number of workers, or after a resume.

Results are appended to DIR/results.jsonl as each unit finishes (one JSON line per
game); `--resume DIR` skips the units already complete there and recomputes any unit a
crash cut short, so nothing is lost or counted twice. The report is rebuilt from the
results alone (`sixnimmt report DIR`).

Any game: DIR/tournament.json names the game kind (`game`) and the rule options given
(`rule_options`, passed to `make_game` for every seat count; an option left out is the
game's default). Directories written before there were other games hold the card
options as keys of their own (`row_choice`, `end_score`, `max_rounds`, `variant`);
`TournamentConfig` still reads them, so those tournaments resume as they were.
"""

from __future__ import annotations

import itertools
import json
import os
import time
from dataclasses import InitVar, asdict, dataclass, field
from pathlib import Path

import numpy as np

from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.game import Game, make_game
from sixnimmt_env.core.rng import game_seeds

CHUNK_DEALS = 5  # deals per work unit
# The card options older tournament.json files (and callers) give as keys of their own.
LEGACY_RULE_KEYS = ("row_choice", "end_score", "max_rounds", "variant")
_UNSET = object()  # a legacy key not given (None is a value: end_score None means unused)


@dataclass
class TournamentConfig:
    """What a tournament plays: agents, seat counts, deals, and the game with its rule
    options (`rule_options`: make_game keywords besides players; those left out are the
    game's defaults). The legacy keywords row_choice, end_score, max_rounds and variant
    are folded into `rule_options` (a tournament.json of before there were other games)."""

    agents: list[str]
    players: list[int]
    games: int  # deals per line-up (each played in all P rotations)
    seed: int = 0
    game: str = "cards"
    rule_options: dict = field(default_factory=dict)
    records: bool = False
    chunk_deals: int = CHUNK_DEALS
    extra: dict = field(default_factory=dict)
    row_choice: InitVar[object] = _UNSET
    end_score: InitVar[object] = _UNSET
    max_rounds: InitVar[object] = _UNSET
    variant: InitVar[object] = _UNSET

    def __post_init__(self, row_choice, end_score, max_rounds, variant) -> None:
        legacy = dict(zip(LEGACY_RULE_KEYS, (row_choice, end_score, max_rounds, variant)))
        given = {k: v for k, v in legacy.items() if v is not _UNSET}
        clash = sorted(k for k in given if k in self.rule_options and self.rule_options[k] != given[k])
        if clash:
            raise ConfigError(f"tournament option(s) {', '.join(clash)} given twice, differently")
        self.rule_options = {**self.rule_options, **given}
        if "players" in self.rule_options:
            raise ConfigError("give the seat counts as players, not as a rule option")

    def rules(self, players: int) -> Game:
        """The game at a table of `players` seats."""
        return make_game(self.game, players=players, **self.rule_options)

    def validate(self) -> None:
        from agents.registry import make_agent
        if len(self.agents) < 2:
            raise ConfigError("a tournament needs at least two agents")
        if len(set(self.agents)) != len(self.agents):
            raise ConfigError("list each agent once")
        if self.games < 1:
            raise ConfigError("--games must be at least 1")
        if not self.players:
            raise ConfigError("a tournament needs at least one seat count")
        for p in self.players:
            self.rules(p)
        for spec in self.agents:
            make_agent(spec, self.game)  # fails early, with the valid names, on a bad spec


def lineups(agents: list[str], players: int) -> list[tuple[str, ...]]:
    """Round robin over line-ups of `players` seats."""
    if len(agents) >= players:
        return list(itertools.combinations(agents, players))
    return [tuple(agents[i % len(agents)] for i in range(players))]


def units(cfg: TournamentConfig) -> list[tuple[int, int, int]]:
    """Every work unit: (players, line-up index, chunk index)."""
    chunks = (cfg.games + cfg.chunk_deals - 1) // cfg.chunk_deals
    return [(p, l, c) for p in cfg.players for l in range(len(lineups(cfg.agents, p))) for c in range(chunks)]


def unit_key(p: int, l: int, c: int) -> str:
    return f"{p}/{l}/{c}"


_AGENT_CACHE: dict = {}


def play_unit(cfg_dict: dict, unit: tuple[int, int, int]) -> tuple[str, list[dict], list[dict]]:
    """Play one work unit; returns (key, game rows, records)."""
    from agents.arena import build_agents, play_duplicate

    cfg = TournamentConfig(**cfg_dict)
    p, l, c = unit
    lineup = lineups(cfg.agents, p)[l]
    first = c * cfg.chunk_deals
    last = min(first + cfg.chunk_deals, cfg.games)
    deal_seeds = game_seeds(cfg.seed * 1000 + p, last - first, start=first)
    names = list(lineup)
    agents = {}
    for name in dict.fromkeys(names):
        if name not in _AGENT_CACHE:  # one agent object per process (models load once)
            _AGENT_CACHE[name] = build_agents([name])[1][name]
        agents[name] = _AGENT_CACHE[name]
    rng = np.random.default_rng([cfg.seed, p, l, c])
    rows, act_time, decisions, recs = play_duplicate(names, agents, cfg.rules(p), deal_seeds, rng,
                                                     records=cfg.records)
    key = unit_key(p, l, c)
    for row in rows:
        row.update({"unit": key, "players": p, "lineup": l, "deal": first + row["deal"]})
        row["ms"] = {n: round(1000 * act_time[n] / max(decisions[n], 1), 3) for n in act_time}
    return key, rows, recs


def _read_results(path: Path, expected: dict[str, int]) -> tuple[list[dict], set[str]]:
    """Rows of complete units in results.jsonl, and those units' keys (torn lines and
    units cut short are dropped, to be played again)."""
    rows: dict[str, list[dict]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            rows.setdefault(row["unit"], []).append(row)
    complete = {k for k, r in rows.items() if len(r) == expected.get(k, -1)}
    return [r for k in sorted(complete) for r in rows[k]], complete


def run_tournament(cfg: TournamentConfig, out: str | Path, *, workers: int = 1, resume: bool = False,
                   progress: bool = True, backend=None) -> Path:
    """Play (or finish) a tournament into `out`; returns the directory. `backend`: where
    the units run (experiments.backends; default a LocalBackend of `workers` processes)."""
    from .backends import LocalBackend
    from tqdm import tqdm

    out = Path(out)
    config_file = out / "tournament.json"
    if resume:
        if not config_file.exists():
            raise ConfigError(f"{out} holds no tournament to resume")
        cfg = TournamentConfig(**json.loads(config_file.read_text()))
    else:
        if config_file.exists():
            raise ConfigError(f"{out} already holds a tournament: --resume {out}, or another --out")
        cfg.validate()
        out.mkdir(parents=True, exist_ok=True)
        config_file.write_text(json.dumps(asdict(cfg), indent=1) + "\n")
    all_units = units(cfg)
    expected = {}
    for p, l, c in all_units:
        deals = min(cfg.chunk_deals, cfg.games - c * cfg.chunk_deals)
        expected[unit_key(p, l, c)] = deals * p
    results = out / "results.jsonl"
    kept, complete = _read_results(results, expected)
    with results.open("w") as f:  # rewrite without torn lines or partial units
        for row in kept:
            f.write(json.dumps(row) + "\n")
    todo = [u for u in all_units if unit_key(*u) not in complete]
    total_games = sum(expected.values())
    bar = tqdm(total=total_games, initial=len(kept), unit="game", desc="tournament",
               disable=not progress, smoothing=0.1)
    cfg_dict = asdict(cfg)
    records_dir = out / "records"
    if cfg.records:
        records_dir.mkdir(exist_ok=True)

    def save(key, rows, recs):
        with results.open("a") as f:
            f.write("".join(json.dumps(r) + "\n" for r in rows))
            f.flush()
            os.fsync(f.fileno())
        for row, rec in zip(rows, recs):
            name = f"P{row['players']}-L{row['lineup']}-D{row['deal']}-R{row['rotation']}.json"
            (records_dir / name).write_text(json.dumps(rec) + "\n")
        bar.update(len(rows))

    backend = backend or LocalBackend(workers)
    t_start = time.perf_counter()
    with backend:  # a Ray cluster started here is shut down however this ends
        t0 = time.perf_counter()  # the games' time: a cluster's start is timed apart
        for key, rows, recs in backend.map_unordered(play_unit, [(cfg_dict, u) for u in todo]):
            save(key, rows, recs)
        seconds = time.perf_counter() - t0
    bar.close()
    played = sum(expected[unit_key(*u)] for u in todo)
    (out / "timing.json").write_text(json.dumps({"seconds": round(seconds, 2), "games_played": played,
                                                 "games_per_s": round(played / max(seconds, 1e-9), 2),
                                                 "workers": workers, "backend": backend.name,
                                                 "backend_start_s": round(t0 - t_start, 2)}) + "\n")
    return out
