"""`sixnimmt results` and the results page on a database of known games.

Four finished card games, three with people (Ada twice, Bob once, one of two rounds) and
one watched (no person: it must not count), give figures worked out by hand: each agent's
games against people, its and the people's bullheads a round, win shares, and the
ratings of the tournament's report (experiments/tournaments/report.py) over the same games.
"""

from __future__ import annotations

import json
import time
import warnings

import pytest
from typer.testing import CliRunner

from experiments.cli import app as cli
from experiments.serve.db import Database
from experiments.serve.results import results, results_table

try:
    from experiments.tournaments.report import ratings
except ImportError:  # the layout before experiments/ was split into folders
    from experiments.tournaments.report import ratings

GAMES = [  # (id, seats as (kind, name), totals, winners, rounds)
    ("g1", [("person", "Ada"), ("agent", "mcs"), ("agent", "random"), ("agent", "random")], [10, 4, 20, 6], [1], 1),
    ("g2", [("person", "Ada"), ("agent", "mcs"), ("agent", "random"), ("agent", "random")], [2, 8, 12, 16], [0], 1),
    ("g3", [("person", "Bob"), ("agent", "mcs"), ("agent", "ppo"), ("agent", "random")], [6, 6, 3, 9], [2], 2),
    ("g4", [("agent", "mcs"), ("agent", "mcs"), ("agent", "ppo"), ("agent", "random")], [1, 2, 3, 4], [0], 1),
]


@pytest.fixture()
def data(tmp_path):
    db = Database(tmp_path)

    def fill(conn):
        for n, (gid, seats, totals, winners, rounds) in enumerate(GAMES):
            conn.execute("INSERT INTO tables (id, created, updated, game, variant, players, params, status) "
                         "VALUES (?, ?, ?, 'cards', 'classic', 4, '{}', 'over')", (gid, n, n))
            conn.executemany("INSERT INTO seats (table_id, seat, kind, name) VALUES (?, ?, ?, ?)",
                             [(gid, s, kind, name) for s, (kind, name) in enumerate(seats)])
            record = {"rounds": [{}] * rounds, "totals": totals}
            conn.execute("INSERT INTO records (table_id, finished, record, totals, winners) VALUES (?, ?, ?, ?, ?)",
                         (gid, time.time() + n, json.dumps(record), json.dumps(totals), json.dumps(winners)))
    db.write(fill)
    yield db
    db.close()


def test_results_per_agent_and_per_person_on_known_games(data):
    cards = results(data)["cards"]
    assert cards["games"] == 3 and cards["unit"] == "bullheads"  # the watched game left out
    mcs = cards["agents"]["mcs"]
    assert mcs["games"] == 3
    assert mcs["points_per_round"] == pytest.approx((4 + 8 + 3) / 3)
    assert mcs["people"]["points_per_round"] == pytest.approx((10 + 2 + 3) / 3)
    assert mcs["win_share"] == pytest.approx(1 / 3) and mcs["people"]["win_share"] == pytest.approx(1 / 3)
    assert mcs["points_ci"] > 0
    ppo = cards["agents"]["ppo"]
    assert (ppo["games"], ppo["points_per_round"], ppo["win_share"], ppo["points_ci"]) == (1, 1.5, 1.0, None)
    assert cards["agents"]["random"]["games"] == 3
    ada, bob = cards["people"]["Ada"], cards["people"]["Bob"]
    assert (ada["games"], ada["points_per_round"], ada["win_share"]) == (2, 6.0, 0.5)
    assert (bob["games"], bob["points_per_round"], bob["win_share"]) == (1, 3.0, 0.0)
    rows = [{"seats": ["person:Ada", "mcs", "random", "random"], "totals": [10, 4, 20, 6]},
            {"seats": ["person:Ada", "mcs", "random", "random"], "totals": [2, 8, 12, 16]},
            {"seats": ["person:Bob", "mcs", "ppo", "random"], "totals": [6, 6, 3, 9]}]
    expected = ratings(rows, -1)  # the tournament's scale, the same games in the same order
    assert mcs["rating"] == expected["mcs"] and ada["rating"] == expected["person:Ada"]
    assert ppo["rating"]["mu"] > 25 > bob["rating"]["mu"]  # ppo won its game, Bob came last
    text = results_table(results(data))
    assert "mcs" in text and "5.00 ±" in text and "Ada" in text and "1.50 " in text


def test_the_results_command_and_page(data, tmp_path):
    runner = CliRunner()
    run = runner.invoke(cli, ["results", "--data", str(data.folder)])
    assert run.exit_code == 0 and "3 finished games with people" in run.stdout, run.output
    run = runner.invoke(cli, ["results", "--data", str(data.folder), "--json"])
    assert run.exit_code == 0 and json.loads(run.stdout)["cards"]["people"]["Bob"]["games"] == 1
    run = runner.invoke(cli, ["results", "--data", str(tmp_path / "none")])
    assert run.exit_code == 2 and run.stderr.count("\n") == 1 and "no sixnimmt serve database" in run.stderr
    with warnings.catch_warnings():  # starlette's note on its httpx dependency, not ours to act on
        warnings.simplefilter("ignore", DeprecationWarning)
        from fastapi.testclient import TestClient

    from experiments.serve.app import create_app
    with TestClient(create_app(origins=["http://testserver"], db=data)) as client:
        assert client.get("/api/results").json()["cards"]["agents"]["mcs"]["games"] == 3
        assert "results.js" in client.get("/results").text
    with TestClient(create_app(origins=["http://testserver"])) as client:
        assert client.get("/api/results").status_code == 404
