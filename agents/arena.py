"""The arena: agents at one table over many duplicate deals (`sixnimmt match`, training's
evaluations, tournaments and studies all play through it). Any game, through the game
interface.

Every deal is played once per seat rotation: agent j sits at seat (j + k) mod P in
rotation k, and all rotations of a deal see the same cards in every round (they share
the game seed). Luck of the deal then cancels out of the comparison. All games run in
one batch; each agent decides for all its seats at once.

Per agent (agents listed twice are pooled): mean points per round (bullheads in the
card games; the board game is one long round, so per game), win share (ties split, so
the fair share is 1/P), 95% confidence intervals over deals, and the time per decision.
Tables rank by the game's `info.utility`: fewest points first when points are penalties
(the card games), most points first when they are won (the board game), and name the
points by `info.score_unit`.
"""

from __future__ import annotations

import time
from collections import defaultdict
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sixnimmt_env.core.errors import ConfigError, IllegalActionError, writing
from sixnimmt_env.core.game import as_game
from sixnimmt_env.core.records import write_record
from sixnimmt_env.core.rng import game_seeds

Z95 = 1.959964


@dataclass
class AgentResult:
    """One agent's figures over a match. `penalty_per_round` is the game's points per
    round whatever they mean (penalties in the card games, won points in the board game:
    see `ranked`)."""

    name: str
    seats: int  # seats it held at the table
    penalty_per_round: float
    penalty_ci: float
    win_share: float
    win_ci: float
    ms_per_decision: float
    decisions: int

    def as_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class MatchResult:
    agents: list[AgentResult]
    deals: int
    games: int
    rounds: int
    rules: dict
    seed: int
    seconds: float
    game: str = "cards"  # the game kind (GameInfo.game), its variant, and how its points count
    variant: str = "classic"
    score_unit: str = "bullheads"
    utility: int = -1
    notes: list = field(default_factory=list)  # lines shown under the table (forfeits of external bots)

    def __str__(self) -> str:
        return format_table(self)

    def as_dict(self) -> dict:
        return {"game": self.game, "variant": self.variant, "rules": self.rules, "seed": self.seed,
                "deals": self.deals, "games": self.games, "rounds": self.rounds,
                "seconds": round(self.seconds, 2), "score_unit": self.score_unit, "utility": self.utility,
                "agents": [a.as_dict() for a in self.agents], "notes": list(self.notes)}


def ranked(results: list[AgentResult], utility: int = -1) -> list[AgentResult]:
    """Best first: fewest points per round when points are penalties (utility -1), most
    when they are won (+1). Ties keep their order."""
    return sorted(results, key=lambda a: -utility * a.penalty_per_round)


def better(mine: float, theirs: float, utility: int = -1) -> bool:
    """Whether a total `mine` beats `theirs` under the game's utility."""
    return (mine - theirs) * utility > 0


def mean_ci(samples) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal confidence interval."""
    samples = np.asarray(samples, dtype=np.float64)
    if len(samples) < 2:
        return float(samples.mean()), float("nan")
    return float(samples.mean()), float(Z95 * samples.std(ddof=1) / np.sqrt(len(samples)))


def build_agents(specs: list, game: str | None = None) -> tuple[list[str], dict]:
    """Names by position, and one agent object per distinct name (specs or objects).
    `game`: the game kind they will play, when known (specs then build that game's
    implementation, and an agent that cannot play it is refused)."""
    from .registry import make_agent

    built: dict[str, object] = {}
    names = []
    for item in specs:  # spec strings, or agent objects (named by their .name)
        name = item if isinstance(item, str) else item.name
        if name not in built:
            built[name] = make_agent(item, game) if isinstance(item, str) else item
        names.append(name)
    return names, built


def check_agents(names: list[str], agents: dict, game) -> None:
    """Let every agent with a `check(game)` method refuse the table before any turn (e.g. a
    model trained for another game or seat count: ConfigError)."""
    for name in dict.fromkeys(names):
        check = getattr(agents[name], "check", None)
        if check is not None:
            check(game)


def play_duplicate(names: list[str], agents: dict, game, deal_seeds, rng, *,
                   records: bool = False, progress=None, observers=()) -> tuple[list[dict], dict, dict, list]:
    """Every deal seed in every seat rotation, one batch.

    `game`: a Game, or a game's rules (e.g. a card RuleConfig). `observers`: objects with
    observe(before, actions, after, events), called after every step with the encoded
    actions (like a game's recorder), e.g. to count how often a rule fires. `progress`:
    called after every step as progress(decisions, fraction) with the decisions made in
    that step and the share of the batch played so far (`Game.fraction_done`), e.g.
    `TurnBar.update` (all games run in one batch and end together, so counting finished
    games would show nothing until the end).

    Returns (one row per game, seconds acting per agent, decisions per agent, records
    or []). Row: deal (index into deal_seeds), rotation, seats (agent name per seat),
    totals, rounds, winners.
    """
    game = as_game(game)
    P = game.info.players
    if len(names) != P:
        raise ConfigError(f"{len(names)} agents for {P} seats: list one agent per seat")
    check_agents(names, agents, game)
    deal_seeds = np.asarray(deal_seeds, dtype=np.uint64)
    D = len(deal_seeds)
    B = D * P
    rotation = np.tile(np.arange(P), D)  # game g = deal g // P, rotation g % P
    seeds = np.repeat(deal_seeds, P)
    st = game.new_games(seeds)
    position = (np.arange(P)[:, None] - rotation[None, :]) % P  # agent position at seat s, game g
    distinct = list(dict.fromkeys(names))
    where = {n: np.nonzero(np.isin(position, [i for i, m in enumerate(names) if m == n])) for n in distinct}
    recorder = game.recorder(st, seeds=[int(s) for s in seeds]) if records else None
    observers = list(observers) + ([recorder] if recorder is not None else [])
    act_time = dict.fromkeys(distinct, 0.0)
    decisions = dict.fromkeys(distinct, 0)
    fraction_done = getattr(game, "fraction_done", None)
    from .checks import blame_illegal, checked_actions
    while not game.game_over(st).all():
        made = 0
        asked = {}
        actions = np.zeros((P, B), dtype=np.int64)  # encoded; entries of seats not asked are ignored
        over = game.game_over(st)
        for name in distinct:
            seats, games = where[name]
            live = ~over[games]
            seats, games = seats[live], games[live]
            view = game.view(st, seats, games)
            t0 = time.perf_counter()
            chosen = checked_actions(name, agents[name].act(view, rng), len(games))
            act_time[name] += time.perf_counter() - t0
            asked[name] = (seats, games, chosen)
            decisions[name] += int(view.must_act.sum())
            made += int(view.must_act.sum())
            actions[seats, games] = chosen
        try:
            after, events = game.step(st, actions, report=bool(observers))
        except IllegalActionError as e:
            raise blame_illegal(game, st, asked, e) from None
        for observer in observers:
            observer.observe(st, actions, after, events)
        st = after
        if progress is not None:
            over = game.game_over(st)
            share = float(fraction_done(st).mean()) if fraction_done is not None else float(over.mean())
            progress(made, share)
    totals = game.totals(st)
    winners = game.winners(st)
    rows = []
    for g in range(B):
        rows.append({"deal": int(g // P), "rotation": int(rotation[g]),
                     "seats": [names[position[s, g]] for s in range(P)],
                     "totals": totals[:, g].astype(int).tolist(),
                     "rounds": game.progress(st, g)["round"] + 1,
                     "winners": np.flatnonzero(winners[:, g]).tolist()})
    for name in distinct:  # external bots: the decisions played for them (agents.external)
        take = getattr(agents[name], "take_forfeits", None)
        for g, n in (take() if take is not None else {}).items():
            rows[g].setdefault("forfeits", {})[name] = n
    recs = []
    if recorder is not None:
        recs = recorder.records(st)
        for rec, row in zip(recs, rows):
            rec["seats"] = row["seats"]
    return rows, act_time, decisions, recs


class TurnBar:
    """A progress bar over the decisions of a batch of games, with the time left.

    It counts decisions as they are made; its total is re-estimated after every step
    from how far the games are (decisions so far / share played), so the bar moves and
    the estimate of the time left holds while every game of the batch is still running.
    """

    def __init__(self, desc: str, enabled: bool = True, file=None):
        from tqdm import tqdm
        self.bar = tqdm(total=None, unit="decision", unit_scale=True, desc=desc, disable=not enabled,
                        leave=False, smoothing=0.3, file=file,
                        bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} decisions "
                                   "[{elapsed}<{remaining}, {rate_fmt}]")
        self.n = 0
        self.share = 0.0

    def update(self, decisions: int, share: float) -> None:
        """`decisions` more were made; `share` of the batch is played (0..1)."""
        self.n += decisions
        self.share = share
        if share > 0:
            self.bar.total = max(round(self.n / share), self.n)
        self.bar.update(decisions)

    def close(self) -> None:
        self.bar.close()


def summarize(rows: list[dict], act_time: dict | None = None, decisions: dict | None = None,
              unit=lambda row: row["deal"]) -> list[AgentResult]:
    """Per agent figures from game rows; `unit(row)` groups games into independent samples
    (a deal with all its rotations), over which the confidence intervals are taken."""
    pen = defaultdict(lambda: defaultdict(list))
    win = defaultdict(lambda: defaultdict(list))
    seats: dict[str, int] = {}
    for row in rows:
        winners = set(row["winners"])
        for s, name in enumerate(row["seats"]):
            pen[name][unit(row)].append(row["totals"][s] / row["rounds"])
            win[name][unit(row)].append((1 / len(winners)) if s in winners else 0.0)
            seats[name] = max(seats.get(name, 0), row["seats"].count(name))
    results = []
    for name in pen:
        per_unit_pen = [np.mean(v) for v in pen[name].values()]
        per_unit_win = [np.mean(v) for v in win[name].values()]
        p, p_ci = mean_ci(per_unit_pen)
        w, w_ci = mean_ci(per_unit_win)
        n_seats = seats[name]
        t = (act_time or {}).get(name, 0.0)
        d = (decisions or {}).get(name, 0)
        results.append(AgentResult(name, n_seats, p, p_ci, w, w_ci, 1000 * t / max(d, 1), d))
    return results


def match_units(deals: int, chunk_deals: int = 0) -> list[tuple[int, int, int]]:
    """The work units of a match: (chunk, first deal, end deal). chunk_deals 0 (or at
    least `deals`): the whole match as one unit."""
    if chunk_deals <= 0 or chunk_deals >= deals:
        return [(0, 0, deals)]
    return [(c, f, min(f + chunk_deals, deals)) for c, f in enumerate(range(0, deals, chunk_deals))]


_UNIT_AGENTS: dict = {}  # one agent object per spec and game per process (models load once)


def play_match_unit(specs: list, game, seed: int, unit: tuple[int, int, int], single: bool,
                    records: bool = False) -> tuple[int, list[dict], dict, dict, list]:
    """One unit of a match: deals first..end-1 of the match seeded `seed`, in every seat
    rotation. Its randomness depends only on (seed, chunk): the deals are the match's own
    (game_seeds(seed, deals)[first:end]); the agents draw from default_rng(seed) when the
    match is one unit (`single`: the same games as ever) and from default_rng([seed,
    chunk]) otherwise. Returns (chunk, rows with deal indices of the whole match, seconds
    acting per agent, decisions per agent, records or [])."""
    chunk, first, end = unit
    game = as_game(game)
    names, agents = [], {}
    for item in specs:
        name = item if isinstance(item, str) else item.name
        key = (name, game.info.game)
        if name not in agents:
            if not isinstance(item, str):
                agents[name] = item
            else:
                if key not in _UNIT_AGENTS:
                    _UNIT_AGENTS[key] = build_agents([item], game.info.game)[1][name]
                agents[name] = _UNIT_AGENTS[key]
        names.append(name)
    rng = np.random.default_rng(seed if single else [seed, chunk])
    rows, act_time, decisions, recs = play_duplicate(names, agents, game, game_seeds(seed, end - first, start=first),
                                                     rng, records=records)
    for row in rows:
        row["deal"] += first
    return chunk, rows, act_time, decisions, recs


def run_match(specs: list, game, deals: int, seed: int, *,
              records_dir: str | Path | None = None, progress: bool = True,
              chunk_deals: int = 0, backend=None) -> MatchResult:
    """Play `deals` duplicate deals, each in every seat rotation; see the module doc.

    `specs`: agent spec strings or agent objects, one per seat; `game`: a Game or a
    game's rules. `chunk_deals` > 0 cuts the match into units of that many deals
    (`play_match_unit`), run by `backend` (an object with map_unordered(fn, items), e.g.
    experiments.backends; default: one after the other here) — the same results on any
    backend. One unit (the default) plays all games in one batch, as ever; several units
    give the same deals, but agents that draw random numbers (random, bayes, mcs) draw
    other ones, since their streams follow the batch they play in."""
    if deals < 1:
        raise ConfigError("the number of games must be at least 1")
    game = as_game(game)
    P = game.info.players
    names, agents = build_agents(specs, game.info.game)
    try:
        return _run_built(specs, names, agents, game, deals, seed, records_dir, progress, chunk_deals, backend)
    finally:  # agents built here from specs are closed here (external bots: their processes end)
        for item in dict.fromkeys(s for s in specs if isinstance(s, str)):
            close = getattr(agents.get(item), "close", None)
            if close is not None:
                close()


def _run_built(specs, names, agents, game, deals, seed, records_dir, progress, chunk_deals, backend) -> MatchResult:
    P = game.info.players
    if len(names) != P:
        raise ConfigError(f"{len(names)} agents for {P} seats: list one agent per seat")
    check_agents(names, agents, game)
    seeds = game_seeds(seed, deals)
    if records_dir is not None:  # a directory that cannot be made fails before the games
        out = Path(records_dir)
        with writing(f"the records to {out}"):
            out.mkdir(parents=True, exist_ok=True)
    units = match_units(deals, chunk_deals)
    single = len(units) == 1 and backend is None
    if single:  # one batch: its games end together, so the bar counts decisions
        bar = TurnBar("match", enabled=progress)
    else:
        from tqdm import tqdm
        bar = tqdm(total=deals * P, unit="game", desc="match", disable=not progress, leave=False)
    t0 = time.perf_counter()
    try:
        if single:
            rows, act_time, decisions, recs = play_duplicate(
                names, agents, game, seeds, np.random.default_rng(seed),
                records=records_dir is not None, progress=bar.update)
        else:
            rows, recs = [], []
            act_time, decisions = dict.fromkeys(agents, 0.0), dict.fromkeys(agents, 0)
            # elsewhere the workers build the agents from their specs; here, those built above
            unit_specs = list(specs) if backend is not None else [agents[n] for n in names]
            items = [(unit_specs, game, seed, u, len(units) == 1, records_dir is not None) for u in units]
            parts = {}
            mapper = backend.map_unordered if backend is not None else _serial_map
            with backend if backend is not None else nullcontext():  # a cluster started for it stops here
                for chunk, unit_rows, unit_time, unit_decisions, unit_recs in mapper(play_match_unit, items):
                    parts[chunk] = (unit_rows, unit_recs)
                    for n in unit_time:
                        act_time[n] += unit_time[n]
                        decisions[n] += unit_decisions[n]
                    bar.update(len(unit_rows))
            for chunk in sorted(parts):  # deal order, as one batch would give them
                rows += parts[chunk][0]
                recs += parts[chunk][1]
    finally:
        bar.close()
    seconds = time.perf_counter() - t0
    if records_dir is not None:
        for g, rec in enumerate(recs):
            write_record(rec, out / f"game-{g:05d}.json")
    results = summarize(rows, act_time, decisions)
    rounds = sum(r["rounds"] for r in rows)
    info = game.info
    return MatchResult(results, deals, len(rows), rounds, game.rules.to_dict(), seed, seconds,
                       game=info.game, variant=info.variant, score_unit=info.score_unit, utility=info.utility,
                       notes=forfeit_notes(rows, results, agents))


def _serial_map(fn, items):
    for item in items:
        yield fn(*item)


def format_table(result: MatchResult) -> str:
    """The match result as a plain-text table, best agent first (by the game's utility)."""
    P = result.rules["players"]
    # a game of one round (the board game; one-round card games): its points are per game
    per = "game" if result.rounds == result.games else "round"
    w = max([32] + [len(a.name) for a in result.agents])  # long specs (py:, cmd:) stay aligned
    lines = [f"{result.deals} deals x {P} seat rotations = {result.games} games, "
             + (f"{result.rounds} rounds, " if per == "round" else "") + f"{result.seconds:.1f} s",
             f"{'agent':{w}} {'seats':>5} {result.score_unit + '/' + per:>20} "
             f"{'win share (fair ' + format(1 / P, '.3f') + ')':>28} {'ms/decision':>12}"]
    for a in ranked(result.agents, result.utility):
        lines.append(f"{a.name:{w}} {a.seats:>5} {a.penalty_per_round:>11.3f} ± {a.penalty_ci:<6.3f} "
                     f"{a.win_share:>19.3f} ± {a.win_ci:<6.3f} {a.ms_per_decision:>12.2f}")
    return "\n".join(lines + list(getattr(result, "notes", [])))


def forfeit_notes(rows: list[dict], results: list[AgentResult], agents: dict | None = None) -> list[str]:
    """One line per agent with forfeited decisions (rows' "forfeits"; agents.external has
    the rule), with the reason its agent object gives, if at hand."""
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        for name, n in row.get("forfeits", {}).items():
            counts[name] += n
    decisions = {a.name: a.decisions for a in results}
    notes = []
    for name, n in counts.items():
        why = getattr((agents or {}).get(name), "fault_text", lambda: None)()
        notes.append(f"FORFEITS {name}: {n} of {decisions.get(name, n)} decisions played as its lowest legal "
                     f"action" + (f" ({why})" if why else ""))
    return notes
