"""The arena: agents at one table over many duplicate deals (`sixnimmt match`, training's
evaluations, tournaments and studies all play through it). Any game, through the game
interface.

Every deal is played once per seat rotation: agent j sits at seat (j + k) mod P in
rotation k, and all rotations of a deal see the same cards in every round (they share
the game seed). Luck of the deal then cancels out of the comparison. All games run in
one batch; each agent decides for all its seats at once. What a match comes to (per-agent
points, win shares, confidence intervals, the table) is `agents.results`.
"""

from __future__ import annotations

import threading
import time
from contextlib import nullcontext
from pathlib import Path

import numpy as np

from sixnimmt_env.core.errors import ConfigError, IllegalActionError, writing
from sixnimmt_env.core.game import as_game
from sixnimmt_env.core.records import write_record
from sixnimmt_env.core.rng import game_seeds

from .checks import blame_illegal, checked_actions
from .results import MatchResult, agent_labels, budget_figures, budget_notes, forfeit_notes, summarize

# (spec, game kind) -> agent: the agents this process's work units play with (match and
# tournament units, `shared=True`): a model loads once per process, a cmd: bot runs once. A
# run's units name the agents of its lineups, so the map holds no more than its agent list.
# (The web server, which runs for days, keeps its own bounded cache: experiments/serve/agents.py.)
_UNIT_AGENTS: dict[tuple[str, str | None], object] = {}
_UNIT_LOCK = threading.Lock()


def build_agents(specs: list, game: str | None = None, *, shared: bool = False, make=None) -> tuple[list[str], dict]:
    """Names by position, and one agent object per distinct name (specs or objects).

    Args:
        specs: agent spec strings, or agent objects (named by their `.name`).
        game: the game kind they will play, when known (specs then build that game's
            implementation, and an agent that cannot play it is refused).
        shared: build each spec once per process and game kind and hand out that object
            from then on (`unit_agent`), for work units of matches and tournaments. Agents
            keep no state between calls, so sharing one changes no game.
        make: how an agent is made from (spec, game), e.g. a cache's `get` (default: a new
            one, `registry.make_agent`; with `shared`, `unit_agent`).
    """
    from .registry import make_agent

    make = make or (unit_agent if shared else make_agent)
    built: dict[str, object] = {}
    names = []
    for item in specs:
        name = item if isinstance(item, str) else item.name
        if name not in built:
            built[name] = make(item, game) if isinstance(item, str) else item
        names.append(name)
    return names, built


def unit_agent(spec: str, game: str | None):
    """This process's agent for (spec, game) in work units, built on first use."""
    from .registry import make_agent

    with _UNIT_LOCK:
        key = (spec, game)
        if key not in _UNIT_AGENTS:
            _UNIT_AGENTS[key] = make_agent(spec, game)
        return _UNIT_AGENTS[key]


def check_agents(names: list[str], agents: dict, game) -> None:
    """Let every agent with a `check(game)` method refuse the table before any turn (e.g. a
    model trained for another game or seat count: ConfigError)."""
    for name in dict.fromkeys(names):
        check = getattr(agents[name], "check", None)
        if check is not None:
            check(game)


def check_table(names: list[str], agents: dict, game) -> None:
    """ConfigError unless there is one agent per seat of `game` (a Game) and every agent
    takes the table (`check_agents`)."""
    P = game.info.players
    if len(names) != P:
        raise ConfigError(f"{len(names)} agents for {P} seats: list one agent per seat")
    check_agents(names, agents, game)


def play_duplicate(names: list[str], agents: dict, game, deal_seeds, rng, *,
                   records: bool = False, progress=None, observers=()) -> tuple[list[dict], dict, dict, list]:
    """Every deal seed in every seat rotation, one batch.

    `game`: a Game, or a game's rules (e.g. a card RuleConfig). `observers`: objects with
    observe(before, actions, after, events), called after every step with the encoded
    actions (like a game's recorder), e.g. to count how often a rule fires. `progress`:
    called after every step as progress(decisions, share) with the decisions made in
    that step and the share of the batch played so far (`Game.fraction_done`), e.g.
    a progress bar's update (all games run in one batch and end together, so counting
    finished games would show nothing until the end).

    Returns (one row per game, seconds acting per agent, decisions per agent, records
    or []). Row: deal (index into deal_seeds), rotation, seats (agent name per seat),
    totals, rounds, winners.
    """
    game = as_game(game)
    check_table(names, agents, game)
    return _play(names, agents, game, deal_seeds, rng, records=records, progress=progress, observers=observers)


def _play(names: list[str], agents: dict, game, deal_seeds, rng, *, records: bool, progress,
          observers) -> tuple[list[dict], dict, dict, list]:
    """play_duplicate on a checked table (`game` a Game)."""
    P = game.info.players
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
    first_call: dict[str, tuple[float, int]] = {}  # each agent's first act: (seconds, decisions)
    fraction_done = getattr(game, "fraction_done", None)
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
            first_call.setdefault(name, (time.perf_counter() - t0, int(view.must_act.sum())))
            act_time[name] += time.perf_counter() - t0
            asked[name] = (seats, games, chosen)
            decisions[name] += int(view.must_act.sum())
            made += int(view.must_act.sum())
            actions[seats, games] = chosen
        try:
            after, events = game.step(st, actions, report=bool(observers))
        except IllegalActionError as e:  # name the agent that played it
            raise blame_illegal(game, st, asked, e) from None
        for observer in observers:
            observer.observe(st, actions, after, events)
        st = after
        if progress:
            over = game.game_over(st)
            share = float(fraction_done(st).mean()) if fraction_done is not None else float(over.mean())
            progress(made, share)
    act_time = {name: warm_seconds(act_time[name], decisions[name], *first_call.get(name, (0.0, 0)))
                for name in distinct}
    rows = _rows(game, st, names, position, rotation)
    _add_forfeits(rows, {name: agents[name] for name in distinct})
    recs = []
    if recorder is not None:
        recs = recorder.records(st)
        for rec, row in zip(recs, rows):
            rec["seats"] = row["seats"]
    return rows, act_time, decisions, recs


def warm_seconds(seconds: float, decisions: int, first_seconds: float, first_decisions: int) -> float:
    """An agent's acting time with its first call (loading a network, compiling kernels: once
    per process) counted at the rate of its other calls: the one way the lab times a
    decision, so a short `match`, a `tournament`'s units and the docs' tables agree
    (agents.results.ms_per_decision divides it by the decisions). The time as measured
    when the first call was the only one that decided."""
    rest = decisions - first_decisions
    if rest <= 0 or seconds <= first_seconds:
        return seconds
    return (seconds - first_seconds) * decisions / rest


def _add_forfeits(rows: list[dict], agents: dict) -> None:
    """External bots: the decisions played for them in each game (agents.external), and
    why, into the game's row (`forfeits`, `forfeit_reasons`)."""
    for name, agent in agents.items():
        take = getattr(agent, "take_forfeits", None)
        taken = take() if take is not None else {}
        why = agent.fault_text() if taken and hasattr(agent, "fault_text") else None
        for g, n in taken.items():
            rows[g].setdefault("forfeits", {})[name] = n
            if why:
                rows[g].setdefault("forfeit_reasons", {})[name] = why


def _rows(game, st, names: list[str], position, rotation) -> list[dict]:
    """One row per finished game g: deal g // P, its rotation, the agent per seat, totals,
    rounds played, winners."""
    P = game.info.players
    totals, winners = game.totals(st), game.winners(st)
    return [{"deal": int(g // P), "rotation": int(rotation[g]), "seats": [names[position[s, g]] for s in range(P)],
             "totals": totals[:, g].astype(int).tolist(), "rounds": game.progress(st, g)["round"] + 1,
             "winners": np.flatnonzero(winners[:, g]).tolist()} for g in range(len(rotation))]


def match_units(deals: int, chunk_deals: int = 0) -> list[tuple[int, int, int]]:
    """The work units of a match: (chunk, first deal, end deal). chunk_deals 0 (or at
    least `deals`): the whole match as one unit."""
    if chunk_deals <= 0 or chunk_deals >= deals:
        return [(0, 0, deals)]
    return [(c, f, min(f + chunk_deals, deals)) for c, f in enumerate(range(0, deals, chunk_deals))]


def play_match_unit(specs: list, game, seed: int, unit: tuple[int, int, int], whole_match: bool,
                    records: bool = False) -> tuple[int, list[dict], dict, dict, list]:
    """One unit of a match: deals first..end-1 of the match seeded `seed`, in every seat
    rotation. Its randomness depends only on (seed, chunk): the deals are the match's own
    (game_seeds(seed, deals)[first:end]); the agents draw from default_rng(seed) when the
    unit is the `whole_match` (so a match plays the same games in one unit as in one batch)
    and from default_rng([seed, chunk]) otherwise. Returns (chunk, rows with deal indices
    of the whole match, seconds acting per agent, decisions per agent, records or [])."""
    chunk, first, end = unit
    game = as_game(game)
    names, agents = build_agents(specs, game.info.game, shared=True)
    rng = np.random.default_rng(seed if whole_match else [seed, chunk])
    rows, act_time, decisions, recs = play_duplicate(names, agents, game, game_seeds(seed, end - first, start=first),
                                                     rng, records=records)
    for row in rows:
        row["deal"] += first
    return chunk, rows, act_time, decisions, recs


def run_match(specs: list, game, deals: int, seed: int, *,
              records_dir: str | Path | None = None, progress=None,
              chunk_deals: int = 0, backend=None) -> MatchResult:
    """Play `deals` duplicate deals, each in every seat rotation; see the module doc.

    `specs`: agent spec strings or agent objects, one per seat; `game`: a Game or a
    game's rules. `progress`: called as progress(decisions, share) with the decisions
    made since the last call and the share of the match played (0..1): after every step
    of one batch, after every unit of several; None (or False) for none.
    `chunk_deals` > 0 cuts the match into units of that many deals (`play_match_unit`),
    run by `backend` (an object with map_unordered(fn, items), e.g.
    experiments.backends; default: one after the other here) — the same results on any
    backend. One unit (the default) plays all games in one batch; several units give
    the same deals, but agents that draw random numbers (random, bayes, mcs) draw other
    ones, since their streams follow the batch they play in."""
    if deals < 1:
        raise ConfigError("the number of games must be at least 1")
    game = as_game(game)
    names, agents = build_agents(specs, game.info.game)
    try:
        return _run_built(specs, names, agents, game, deals, seed, records_dir, progress, chunk_deals, backend)
    finally:  # agents built here from specs are closed here (external bots: their processes end)
        for item in dict.fromkeys(s for s in specs if isinstance(s, str)):
            close = getattr(agents.get(item), "close", None)
            if close is not None:
                close()


def _run_built(specs, names, agents, game, deals, seed, records_dir, progress, chunk_deals, backend) -> MatchResult:
    """run_match once its agents are built."""
    check_table(names, agents, game)  # here, before a records directory or a cluster is made
    seeds = game_seeds(seed, deals)
    records = records_dir is not None
    if records:  # a directory that cannot be made fails before the games
        out = Path(records_dir)
        with writing(f"the records to {out}"):
            out.mkdir(parents=True, exist_ok=True)
    units = match_units(deals, chunk_deals)
    t0 = time.perf_counter()
    if len(units) == 1 and backend is None:
        rows, act_time, decisions, recs = _play(names, agents, game, seeds, np.random.default_rng(seed),
                                                records=records, progress=progress, observers=())
    else:
        # elsewhere the workers build the agents from their specs; here, those built above
        unit_specs = list(specs) if backend is not None else [agents[n] for n in names]
        items = [(unit_specs, game, seed, u, len(units) == 1, records) for u in units]
        rows, act_time, decisions, recs = _run_units(items, backend, agents, deals * game.info.players, progress)
    seconds = time.perf_counter() - t0
    if records:
        for g, rec in enumerate(recs):
            write_record(rec, out / f"game-{g:05d}.json")
    info = game.info
    results = summarize(rows, act_time, decisions)
    labels = agent_labels(names, agents, shipped_names())
    budgets = budget_figures(agents, labels)  # (time-budgeted agents: their CPU a decision)
    return MatchResult(results, deals, len(rows), sum(r["rounds"] for r in rows), game.rules.to_dict(), seed, seconds,
                       game=info.game, variant=info.variant, score_unit=info.score_unit, utility=info.utility,
                       notes=forfeit_notes(rows, results, agents) + budget_notes(budgets), labels=labels,
                       budgets=budgets)


def shipped_names() -> frozenset[str]:
    """The registry's own agent names, plug-ins left out (a table names a plug-in by its `name`)."""
    from .plugins import plugin_entries
    from .registry import available

    return frozenset(available()) - frozenset(plugin_entries())


def _run_units(items: list[tuple], backend, agents: dict, games: int, progress) -> tuple[list, dict, dict, list]:
    """play_match_unit over `items` on `backend` (None: here, one after the other); the
    rows and records in deal order, as one batch would give them."""
    act_time, decisions = dict.fromkeys(agents, 0.0), dict.fromkeys(agents, 0)
    parts, done = {}, 0
    mapper = backend.map_unordered if backend is not None else _serial_map
    with backend if backend is not None else nullcontext():  # a cluster started for it stops here
        for chunk, unit_rows, unit_time, unit_decisions, unit_recs in mapper(play_match_unit, items):
            parts[chunk] = (unit_rows, unit_recs)
            for n in unit_time:
                act_time[n] += unit_time[n]
                decisions[n] += unit_decisions[n]
            done += len(unit_rows)
            if progress:
                progress(sum(unit_decisions.values()), done / games)
    rows = [row for chunk in sorted(parts) for row in parts[chunk][0]]
    recs = [rec for chunk in sorted(parts) for rec in parts[chunk][1]]
    return rows, act_time, decisions, recs


def _serial_map(fn, items):
    for item in items:
        yield fn(*item)
