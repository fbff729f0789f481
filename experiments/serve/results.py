"""How the agents fare against people: the finished games of a server's database.

Only games with at least one person count (a watched game has none). For each game kind
(its points differ: bullheads, points) and each agent spec: the games it played against
people, its points a round and the people's at those games (95% intervals over games),
its win share and theirs, and a rating on the tournament's scale (the same PlacketLuce
ratings as `sixnimmt report`, experiments/tournaments/report.py, over every game with
people, each person rated by the name they typed). Per person the same figures.
Nothing identifies a person beyond that name.
"""

from __future__ import annotations

import json

from agents.results import summarize

from .db import Database

try:  # the tournament's ratings, where experiments/ keeps its report (moving into tournaments/ in issue 62's session)
    from experiments.tournaments.report import ratings
except ImportError:  # pragma: no cover - the layout before the move
    from experiments.tournaments.report import ratings

PEOPLE = "people"  # the label of every person's seat when an agent's opponents are pooled
PERSON = "person:"  # a person's label in the ratings: the prefix keeps a name from passing for an agent


def game_rows(db: Database) -> dict[str, list[dict]]:
    """Per game kind, one row per finished game with a person: the tournament's row
    fields (`seats` labels, `totals`, `winners`, `rounds`, `deal`: the game id) plus
    `people` (the seats people held)."""
    seats: dict[str, dict[int, tuple[str, str]]] = {}
    for table_id, seat, kind, name in db.read("SELECT table_id, seat, kind, name FROM seats"):
        seats.setdefault(table_id, {})[seat] = (kind, name)
    rows: dict[str, list[dict]] = {}
    query = ("SELECT r.table_id, t.game, r.totals, r.winners, r.record FROM records r "
             "JOIN tables t ON t.id = r.table_id ORDER BY r.finished, r.table_id")
    for table_id, game, totals, winners, record in db.read(query):
        at = seats.get(table_id, {})
        people = [s for s, (kind, _) in at.items() if kind == "person"]
        if not people or totals is None:
            continue
        totals = json.loads(totals)
        labels = [(PERSON + at[s][1]) if at.get(s, ("agent",))[0] == "person" else at.get(s, ("agent", "?"))[1]
                  for s in range(len(totals))]
        rounds = len(json.loads(record).get("rounds") or [None])
        rows.setdefault(game, []).append({"deal": table_id, "seats": labels, "totals": totals,
                                          "winners": json.loads(winners), "rounds": rounds, "people": people})
    return rows


def _figures(result) -> dict:
    """An AgentResult's figures; an interval of one game (nan) is None (JSON has no nan)."""
    def number(x: float):
        return None if x != x else float(x)
    return {"points_per_round": number(result.points_per_round), "points_ci": number(result.points_ci),
            "win_share": number(result.win_share), "win_ci": number(result.win_ci)}


def results(db: Database) -> dict:
    """Per game kind: `agents` (spec -> games against people, its figures, the people's at
    those games, its rating) and `people` (name -> games, figures, rating)."""
    from sixnimmt_env.core.game import make_game

    out = {}
    for game, rows in game_rows(db).items():
        info = make_game(game).info
        rating = ratings(rows, info.utility)
        agents, people = {}, {}
        for spec in sorted({s for r in rows for s in r["seats"] if not s.startswith(PERSON)}):
            theirs = [r for r in rows if spec in r["seats"]]
            pooled = [dict(r, seats=[PEOPLE if s.startswith(PERSON) else s for s in r["seats"]]) for r in theirs]
            by_name = {a.name: a for a in summarize(pooled)}
            agents[spec] = {"games": len(theirs), **_figures(by_name[spec]),
                            "people": _figures(by_name[PEOPLE]), "rating": rating[spec]}
        for result in summarize(rows):
            if result.name.startswith(PERSON):
                name = result.name[len(PERSON):]
                games = sum(result.name in r["seats"] for r in rows)
                people[name] = {"games": games, **_figures(result), "rating": rating[result.name]}
        out[game] = {"unit": info.score_unit, "utility": info.utility, "games": len(rows),
                     "agents": agents, "people": people}
    return out


def _ci(value: float, ci: float | None) -> str:
    return f"{value:.2f}" if ci is None else f"{value:.2f} ± {ci:.2f}"  # None: one game, no interval


def results_table(summary: dict) -> str:
    """The results as plain text tables, one per game kind."""
    if not summary:
        return "no finished game with a person in this database yet"
    lines = []
    for game, part in summary.items():
        unit = part["unit"]
        lines.append(f"{game}: {part['games']} finished games with people ({unit} a round, 95% intervals; "
                     f"{'fewer' if part['utility'] < 0 else 'more'} is better; rating: the tournament's ordinal)")
        lines.append(f"{'agent':<28}{'games':>6}  {'agent ' + unit:>18}  {'people ' + unit:>18}  "
                     f"{'agent wins':>12}  {'people wins':>12}  {'rating':>7}")
        for spec, a in part["agents"].items():
            lines.append(f"{spec[:27]:<28}{a['games']:>6}  {_ci(a['points_per_round'], a['points_ci']):>18}  "
                         f"{_ci(a['people']['points_per_round'], a['people']['points_ci']):>18}  "
                         f"{a['win_share']:>12.2f}  {a['people']['win_share']:>12.2f}  {a['rating']['ordinal']:>7.2f}")
        lines.append(f"{'person':<28}{'games':>6}  {unit:>18}  {'':>18}  {'wins':>12}  {'':>12}  {'rating':>7}")
        for name, p in part["people"].items():
            lines.append(f"{name[:27]:<28}{p['games']:>6}  {_ci(p['points_per_round'], p['points_ci']):>18}  "
                         f"{'':>18}  {p['win_share']:>12.2f}  {'':>12}  {p['rating']['ordinal']:>7.2f}")
        lines.append("")
    return "\n".join(lines).rstrip()
