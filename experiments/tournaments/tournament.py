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
game's default). Older directories hold the card options as keys of their own
(`row_choice`, `end_score`, `max_rounds`, `variant`); `TournamentConfig` still reads them,
so those tournaments resume as they were.
"""

from __future__ import annotations

import itertools
import os
import time
from dataclasses import InitVar, asdict, dataclass, field
from pathlib import Path

import numpy as np

from sixnimmt_env.core.errors import ConfigError, writing
from sixnimmt_env.core.game import Game, make_game
from sixnimmt_env.core.rng import game_seeds
from sixnimmt_env.core.strict_json import json_text
from sixnimmt_env.core.untrusted import loads_json, read_json, read_text

CHUNK_DEALS = 5  # deals per work unit
MAX_RESULTS_BYTES = 1 << 30  # results.jsonl: ~400 bytes a game row, so 2.5 million games
MAX_CONFIG_BYTES = 1 << 20  # tournament.json is under 1 kB
# The card options older tournament.json files (and callers) give as keys of their own.
LEGACY_RULE_KEYS = ("row_choice", "end_score", "max_rounds", "variant")
_UNSET = object()  # a legacy key not given (None is a value: end_score None means unused)


@dataclass
class TournamentConfig:
    """What a tournament plays: agents, seat counts, deals, and the game with its rule
    options (`rule_options`: make_game keywords besides players; those left out are the
    game's defaults). The legacy keywords row_choice, end_score, max_rounds and variant
    (an older tournament.json's card options) are folded into `rule_options`."""

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

    def validate(self, build: bool = True) -> None:
        """ConfigError unless it can be played; `build`: also build every agent (which
        checks parameter values too, and loads models), else check specs only."""
        from agents.registry import check_spec, make_agent
        if not (isinstance(self.agents, list) and all(isinstance(a, str) for a in self.agents)):
            raise ConfigError("agents must be a list of agent specs")
        if not (isinstance(self.players, list) and all(type(p) is int for p in self.players)):
            raise ConfigError("players must be a list of seat counts")
        for name in ("games", "seed", "chunk_deals"):
            if type(getattr(self, name)) is not int:
                raise ConfigError(f"{name} must be an integer")
        if not isinstance(self.game, str) or not isinstance(self.rule_options, dict):
            raise ConfigError("game must be a game's name and rule_options a JSON object")
        if self.chunk_deals < 1:
            raise ConfigError("chunk_deals must be at least 1")
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
            if build:  # fails early, with the valid names, on a bad spec, and on a table the agent
                self._check_tables(make_agent(spec, self.game))  # cannot take (a network's seat count)
            else:
                check_spec(spec, self.game)

    def _check_tables(self, agent) -> None:
        """ConfigError unless `agent` takes a table of every seat count, before any game is
        played: a network trained for 4 players used to be refused only at its first line-up
        of 3, after other line-ups had filled the directory (a retry then needed --resume)."""
        check = getattr(agent, "check", None)
        if check is None:
            return
        try:
            for p in self.players:
                check(self.rules(p))
        finally:
            close = getattr(agent, "close", None)  # an external bot started by its check
            if close is not None:
                close()


def lineups(agents: list[str], players: int) -> list[tuple[str, ...]]:
    """Round robin over line-ups of `players` seats."""
    if len(agents) >= players:
        return list(itertools.combinations(agents, players))
    return [tuple(agents[i % len(agents)] for i in range(players))]


def units(cfg: TournamentConfig) -> list[tuple[int, int, int]]:
    """Every work unit: (players, line-up index, chunk index)."""
    chunks = (cfg.games + cfg.chunk_deals - 1) // cfg.chunk_deals
    return [(p, i, c) for p in cfg.players for i in range(len(lineups(cfg.agents, p))) for c in range(chunks)]


def unit_key(p: int, i: int, c: int) -> str:
    return f"{p}/{i}/{c}"


def play_unit(cfg_dict: dict, unit: tuple[int, int, int]) -> tuple[str, list[dict], list[dict]]:
    """Play one work unit; returns (key, game rows, records)."""
    from agents.arena import build_agents, play_duplicate
    from agents.results import ms_per_decision

    cfg = TournamentConfig(**cfg_dict)
    p, i, c = unit
    lineup = lineups(cfg.agents, p)[i]
    first = c * cfg.chunk_deals
    last = min(first + cfg.chunk_deals, cfg.games)
    deal_seeds = game_seeds(cfg.seed * 1000 + p, last - first, start=first)
    names, agents = build_agents(list(lineup), shared=True)  # one object per process: models load once
    rng = np.random.default_rng([cfg.seed, p, i, c])
    rows, act_time, decisions, recs = play_duplicate(names, agents, cfg.rules(p), deal_seeds, rng,
                                                     records=cfg.records)
    key = unit_key(p, i, c)
    for row in rows:
        row.update({"unit": key, "players": p, "lineup": i, "deal": first + row["deal"]})
        row["ms"] = {n: round(ms_per_decision(act_time[n], decisions[n]), 3) for n in act_time}
    return key, rows, recs


ROW_FIELDS = {"unit": str, "players": int, "lineup": int, "deal": int, "rotation": int, "seats": list,
              "totals": list, "rounds": int, "winners": list}
"""The fields of a results.jsonl row and their types (`ms`, the timing, is optional)."""


def _is_row(row) -> bool:
    return isinstance(row, dict) and all(isinstance(row.get(k), t) for k, t in ROW_FIELDS.items())


def _read_results(path: Path, expected: dict[str, int]) -> tuple[list[dict], set[str]]:
    """Rows of complete units in results.jsonl, and those units' keys (torn lines and
    units cut short are dropped, to be played again; so are rows of units this
    tournament does not have). A unit counts once even if a crash wrote it twice."""
    rows: dict[str, dict[tuple, dict]] = {}
    if path.exists():
        text = read_text(path, limit=MAX_RESULTS_BYTES)
        for line in text.splitlines():
            try:
                row = loads_json(line, depth=4)
            except ConfigError:  # a torn line (or a foreign one): its unit is played again
                continue
            if _is_row(row) and row["unit"] in expected:  # one row per (deal, rotation) of a unit
                rows.setdefault(row["unit"], {})[(row["deal"], row["rotation"])] = row
    complete = {k for k, r in rows.items() if len(r) == expected[k]}
    return [r for k in sorted(complete) for _, r in sorted(rows[k].items())], complete


def read_config(out: Path) -> TournamentConfig:
    """The TournamentConfig of DIR/tournament.json (ConfigError naming the file for one
    that is missing, not JSON or not a tournament's)."""
    config_file = out / "tournament.json"
    if not config_file.exists():
        raise ConfigError(f"{out} holds no tournament to resume (no tournament.json)")
    data = read_json(config_file, limit=MAX_CONFIG_BYTES, what=f"{config_file} is not a tournament's config")
    try:
        if not isinstance(data, dict):
            raise TypeError("not a JSON object")
        cfg = TournamentConfig(**data)
        cfg.validate(build=False)
    except TypeError as e:
        raise ConfigError(f"{config_file} is not a tournament's config ({e})") from None
    except ConfigError as e:
        raise ConfigError(f"{config_file}: {e}") from None
    return cfg


class DirectoryLock:
    """An exclusive lock on a tournament directory (DIR/.lock, flock): a second process
    pointed at the same directory gets a ConfigError instead of writing into it. The
    kernel drops the lock when the holder dies, so a killed run leaves no stale lock."""

    def __init__(self, out: Path):
        self.path = out / ".lock"
        self.file = None

    def __enter__(self) -> "DirectoryLock":
        import fcntl
        with writing(self.path):
            self.file = open(self.path, "a+")
        try:
            fcntl.flock(self.file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.file.seek(0)
            holder = self.file.read().strip() or "?"
            self.file.close()
            raise ConfigError(f"{self.path.parent} is in use by another sixnimmt process (pid {holder}); "
                              "wait for it to finish, or use another --out") from None
        self.file.seek(0)
        self.file.truncate()
        self.file.write(str(os.getpid()))
        self.file.flush()
        return self

    def __exit__(self, *exc) -> None:
        self.file.close()  # releases the lock


def _append(path: Path, text: str) -> None:
    """Append text to a file and force it to disk (the commit point of a unit)."""
    with path.open("a") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())


def _replace_text(path: Path, text: str) -> None:
    """Write a file whole or not at all: a temporary file, fsync, then a rename."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with tmp.open("w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


def run_tournament(cfg: TournamentConfig, out: str | Path, *, workers: int = 1, resume: bool = False,
                   progress: bool = True, backend=None, then=None) -> Path:
    """Play (or finish) a tournament into `out`; returns the directory. `backend`: where
    the units run (experiments.backends; default a LocalBackend of `workers` processes). The directory is
    locked while it runs (DirectoryLock), and while `then(out)` runs after it (e.g. the
    report); writes that fail (disk full, read-only) raise an OutputError and leave the
    complete units already written as they were."""
    out = Path(out)
    if resume:
        if not out.is_dir():
            raise ConfigError(f"{out} holds no tournament to resume (not a directory)")
        read_config(out)  # a foreign or broken directory is refused before it is locked
    else:
        if (out / "tournament.json").exists():
            raise ConfigError(f"{out} already holds a tournament: --resume {out}, or another --out")
        if out.exists() and not out.is_dir():
            raise ConfigError(f"--out {out} is a file, not a directory")
        cfg.validate()
        with writing(out):
            out.mkdir(parents=True, exist_ok=True)
    with DirectoryLock(out):
        _run_locked(cfg, out, workers, resume, progress, backend)
        if then is not None:
            then(out)
    return out


def _run_locked(cfg: TournamentConfig | None, out: Path, workers: int, resume: bool, progress: bool,
                backend=None) -> Path:
    """run_tournament, holding the directory's lock."""
    from tqdm import tqdm

    from experiments.backends import LocalBackend

    config_file = out / "tournament.json"
    if resume:
        cfg = read_config(out)
    else:
        if config_file.exists():  # another process made it while this one waited
            raise ConfigError(f"{out} already holds a tournament: --resume {out}, or another --out")
        with writing(config_file):
            _replace_text(config_file, json_text(asdict(cfg), indent=1) + "\n")
    all_units = units(cfg)
    expected = {}
    for p, i, c in all_units:
        deals = min(cfg.chunk_deals, cfg.games - c * cfg.chunk_deals)
        expected[unit_key(p, i, c)] = deals * p
    results = out / "results.jsonl"
    kept, complete = _read_results(results, expected)
    with writing(results):  # without torn lines or partial units; the old file stays until the new one is whole
        _replace_text(results, "".join(json_text(row) + "\n" for row in kept))
    todo = [u for u in all_units if unit_key(*u) not in complete]
    total_games = sum(expected.values())
    bar = tqdm(total=total_games, initial=len(kept), unit="game", desc="tournament",
               disable=not progress, smoothing=0.1)
    cfg_dict = asdict(cfg)
    records_dir = out / "records"
    if cfg.records:
        with writing(records_dir):
            records_dir.mkdir(exist_ok=True)

    def save(key, rows, recs):
        # records first: the unit's lines in results.jsonl are its commit point, so a
        # kill in between leaves an incomplete unit that a resume plays again
        for row, rec in zip(rows, recs):
            name = f"P{row['players']}-L{row['lineup']}-D{row['deal']}-R{row['rotation']}.json"
            with writing(records_dir / name):
                _replace_text(records_dir / name, json_text(rec) + "\n")
        with writing(results):
            _append(results, "".join(json_text(r) + "\n" for r in rows))
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
    with writing(out / "timing.json"):
        _replace_text(out / "timing.json", json_text({"seconds": round(seconds, 2), "games_played": played,
                                                      "games_per_s": round(played / max(seconds, 1e-9), 2),
                                                      "workers": workers, "backend": backend.name,
                                                      "backend_start_s": round(t0 - t_start, 2)}) + "\n")
    return out
