"""`sixnimmt serve` end to end in a real headless Chromium (Debian's, driven by Playwright).

The server is the real command (`python -m experiments.cli serve` on a free port). One
test plays a whole one-round game by clicking — cards, a row choice, a reload in the
middle — and checks the scores on the page against `sixnimmt replay` of the record it
downloads; one watches agents play; one sends garbage over the page's own socket.

Playwright's browser download is not used: `executable_path` is Debian's chromium
(the Makefile installs it). Without it the tests skip, except under CI, where a browser
that cannot start fails the run. SIXNIMMT_FIGURES=1 writes the README's screenshot
(docs/figures/serve.png).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from experiments.serve.bench import served

CHROMIUM = os.environ.get("SIXNIMMT_CHROMIUM", "/usr/bin/chromium")
# Without these the browser waits on a network this machine does not have.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[1]
FIGURE = ROOT / "docs" / "figures" / "serve.png"
TIMEOUT = 30_000  # ms for any one thing to appear on the page


def _no_browser(why: str):
    if os.environ.get("CI"):
        pytest.fail(f"CI: the browser tests need a browser: {why}")
    pytest.skip(why)


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as e:
        _no_browser(f"playwright is not installed ({e})")
    if not Path(CHROMIUM).exists():
        _no_browser(f"no chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        try:  # a fresh profile directory every run
            context = p.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, headless=True,
                                                           args=ARGS, accept_downloads=True,
                                                           viewport={"width": 1200, "height": 900})
        except Exception as e:  # noqa: BLE001 - any failure to start is "no browser"
            _no_browser(f"chromium did not start: {e}")
        yield context
        context.close()


@pytest.fixture(scope="module")
def server():
    with served() as url:
        yield url


@pytest.fixture()
def page(browser, server):
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.wait_for_selector("#setup:not([hidden])")
    page.wait_for_selector("#f-opponents input")
    yield page
    page.close()
    assert not errors, errors  # no JavaScript error on the page


def _start(page, *, players: int, seed: int, rounds: int, watch: bool = False, game: str = "cards"):
    page.select_option("#f-game", game)
    page.fill("#f-players", str(players))
    page.dispatch_event("#f-players", "change")
    if watch:
        page.check("#f-watch")
    page.wait_for_function(f"document.querySelectorAll('#f-opponents input').length === {players - (not watch)}")
    page.fill("#f-seed", str(seed))
    if rounds:
        page.fill("#o-max_rounds", str(rounds))
    page.click("#start")
    page.wait_for_selector("#game:not([hidden])")


def _wait_decision(page) -> str:
    page.wait_for_selector('#prompt[data-state="turn"], #prompt[data-state="over"]')
    return page.get_attribute("#prompt", "data-state")


def _hand(page) -> list[str]:
    return page.locator("#hand .card .t").all_inner_texts()


def test_a_whole_game_by_clicking_matches_its_replayed_record(page, tmp_path):
    _start(page, players=4, seed=1, rounds=1)  # the default agents: the shipped model and mcs
    names = page.locator("#scores tr td:first-child").all_inner_texts()
    assert names[1:] == ["seat 1 (ppo)", "seat 2 (mcs)", "seat 3 (mcs)"]
    page.fill("#speed", "0")  # placements at once: the test does not read at a human pace
    row_choices = moves = 0
    shot = False
    while _wait_decision(page) == "turn":
        pickable = page.locator("#rows .row.pickable")
        if pickable.count():
            row_choices += 1
            assert "choose a row" in page.inner_text("#prompt")
            if not shot:  # the README's picture: a row choice, the log of the turn so far
                page.screenshot(path=str(tmp_path / "serve.png"), full_page=True)
                if os.environ.get("SIXNIMMT_FIGURES"):
                    page.screenshot(path=str(FIGURE), full_page=True)
                shot = True
            pickable.first.click()
        else:
            hand = _hand(page)
            page.locator("#hand .card.playable").last.click()  # the highest card: low ones stay to be too low
        moves += 1
        if moves == 3:  # a reload in the middle resumes the game
            page.wait_for_selector('#prompt[data-state="turn"]')
            before = _hand(page)
            page.reload()
            page.wait_for_selector('#prompt[data-state="turn"]')
            assert _hand(page) == before and page.locator("#log li").count() > 0
    assert row_choices >= 1 and moves >= 10 and hand
    assert page.is_visible("#summary") and "Game over" in page.inner_text("#summary")
    totals = [int(t) for t in page.locator("#scores td.total").all_inner_texts()]
    with page.expect_download() as download:
        page.click("#record")
    path = tmp_path / "game.json"
    download.value.save_as(path)
    replay = subprocess.run([sys.executable, "-m", "experiments.cli", "replay", str(path), "--json"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert replay.returncode == 0, replay.stderr
    assert json.loads(replay.stdout)["totals"] == totals
    assert (tmp_path / "serve.png").stat().st_size > 10_000


def test_watch_mode_plays_to_the_end_with_a_speed_control(page):
    _start(page, players=3, seed=2, rounds=1, watch=True)
    assert page.is_hidden("#hand-wrap") and page.is_visible("#pause")
    page.fill("#speed", "100")
    page.wait_for_function("document.querySelectorAll('#log li[data-kind=place]').length >= 3")
    page.click("#pause")  # paused: no new turn is asked for
    page.wait_for_timeout(600)
    shown = page.locator("#log li").count()
    page.wait_for_timeout(800)
    assert page.locator("#log li").count() == shown
    page.click("#pause")
    page.fill("#speed", "0")
    page.wait_for_selector('#prompt[data-state="over"]')
    assert page.locator("#log li[data-kind=round]").count() == 1
    assert page.locator("#summary li").count() == 3 and page.is_visible("#record")


def test_garbage_on_the_socket_shows_an_error_and_the_game_goes_on(page):
    _start(page, players=3, seed=5, rounds=1)
    assert _wait_decision(page) == "turn"
    for bad in ("'not json'", "JSON.stringify({type: 'act', id: S.id, action: 9999, decision: S.decision})",
                "JSON.stringify({type: 'act', id: 'stale-id', action: 0, decision: 0})",
                "JSON.stringify({type: 'act', id: S.id, action: 0, decision: S.decision + 7})"):
        page.evaluate("document.getElementById('error').hidden = true")
        page.evaluate(f"S.ws.send({bad})")
        page.wait_for_selector("#error:not([hidden])")
        assert page.inner_text("#error")
    hand = _hand(page)
    page.locator("#hand .card.playable").first.click()
    page.wait_for_function(f"document.querySelectorAll('#hand .card').length === {len(hand) - 1}")
    assert _wait_decision(page) == "turn"
