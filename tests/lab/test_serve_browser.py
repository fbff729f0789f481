"""`sixnimmt serve` end to end in a real headless Chromium (Debian's, driven by Playwright).

The server is the real command (`python -m experiments.cli serve` on a free port). One
test plays a whole one-round game by clicking — cards, a row choice, a reload in the
middle — and checks the scores on the page against `sixnimmt replay` of the record it
downloads; one watches agents play; one sends garbage over the page's own socket. The
board game's layout keeps the hand and the question on screen (a laptop and a phone),
placements show on the rows as the log reports them, action cards played are named in
the log, a pro turn fits a 1366x768 screen with the log's latest entry in view, the setup
form is built from the server's allow-list (agents chosen from a list, each variant's
rules), and a whole game is played by keyboard alone, with an accessibility scan
(axe-core, tests/data/axe.min.js, injected by the test: the page never loads it).

The browser is Debian's chromium (tests/support/browser.py: without it the tests skip,
except under CI). SIXNIMMT_FIGURES=1 writes the README's screenshot
(docs/figures/serve.png) and one of each game (docs/figures/serve-*.png).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from experiments.serve.bench import served
from tests.support.browser import DESKTOP, FIRST_LOAD, LAPTOP, PHONE, TIMEOUT, chromium, open_page  # noqa: F401 (chromium: the fixture)

ROOT = Path(__file__).resolve().parents[2]
FIGURE = ROOT / "docs" / "figures" / "serve.png"
AXE = ROOT / "tests" / "data" / "axe.min.js"  # axe-core 4.14.1 (MPL-2.0), from `npm pack axe-core`


@pytest.fixture(scope="module")
def browser(chromium):  # noqa: F811 (the fixture of tests/support/browser.py)
    """One fresh browser context for the module's pages (downloads accepted)."""
    context = chromium.new_context(accept_downloads=True, viewport=DESKTOP)
    yield context
    context.close()


@pytest.fixture(scope="module")
def server():
    with served() as url:
        yield url


@pytest.fixture()
def page(browser, server):
    errors: list = []
    page = open_page(browser, errors, url=server + "/")
    page.wait_for_selector("#setup:not([hidden])")
    page.wait_for_selector("#f-opponents select", timeout=FIRST_LOAD)
    yield page
    page.close()
    assert not errors, errors  # no JavaScript error on the page


def _figure(page, name: str) -> None:
    if os.environ.get("SIXNIMMT_FIGURES"):
        page.screenshot(path=str(FIGURE.with_name(f"serve-{name}.png")))


def _start(page, *, players: int, seed: int, rounds: int, watch: bool = False, game: str = "cards",
           variant: str | None = None, opponents: str | None = None, submit=None):
    page.select_option("#f-game", game)
    if variant:
        page.select_option("#f-variant", variant)
        page.dispatch_event("#f-variant", "change")
    page.fill("#f-players", str(players))
    page.dispatch_event("#f-players", "change")
    # Leave the box now: its own change event comes on blur, and if that came later (when the
    # seed box takes the focus) it would ask for the seats again - the start button disabled
    # and the opponents chosen below redrawn while Enter is pressed (CI saw the game not start).
    page.locator("#f-players").blur()
    if watch:
        page.check("#f-watch")
    page.wait_for_function(f"document.querySelectorAll('#f-opponents select').length === {players - (not watch)}")
    page.wait_for_function("!document.getElementById('start').disabled")
    if opponents:
        for box in page.locator("#f-opponents select.opponent").all():
            box.select_option(opponents)
    page.fill("#f-seed", str(seed))
    if rounds:
        page.fill("#o-max_rounds", str(rounds))
    page.wait_for_function("!document.getElementById('start').disabled")  # Enter does nothing while it is
    if submit:
        submit()
    else:
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
    assert names[1:] == ["seat 2 (ppo)", "seat 3 (mcs)", "seat 4 (mcs)"]
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
                _figure(page, "classic")
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
    assert row_choices >= 1 and moves >= 9 and hand  # the last card plays itself
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


def _inside(page, selector: str) -> None:
    """Every element matching `selector` lies wholly inside the viewport, unscrolled."""
    size = page.viewport_size
    boxes = [n.bounding_box() for n in page.locator(selector).all()]
    assert boxes, f"nothing matches {selector}"
    for b in boxes:
        assert b and b["x"] >= 0 and b["y"] >= 0 and b["x"] + b["width"] <= size["width"] + 0.5 \
            and b["y"] + b["height"] <= size["height"] + 0.5, (selector, b, size)


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_board_game_keeps_the_hand_and_the_question_on_screen(page, viewport):
    page.set_viewport_size(viewport)
    _start(page, players=4, seed=3, rounds=0, game="board", variant="basic", opponents="random")
    assert _wait_decision(page) == "turn"
    _inside(page, "#prompt")
    _inside(page, "#hand .card.playable")
    if viewport is LAPTOP:
        _figure(page, "board-basic")
    page.click("#new-game")
    _start(page, players=4, seed=3, rounds=0, game="board", variant="pro", opponents="random")
    page.fill("#speed", "0")
    for _ in range(12):  # put out tiles until an action card is offered
        assert _wait_decision(page) == "turn"
        if page.locator("#choices button").count():
            break
        _inside(page, "#hand .card.playable")
        page.locator("#hand .card.playable").first.click()
    assert page.locator("#choices button").count() >= 2, "no question in 12 turns: pick another seed"
    _inside(page, "#prompt")
    _inside(page, "#choices button")
    assert page.locator("#choice-help li").count() >= 1 and page.get_attribute("#choices button >> nth=1", "title")
    assert not _axe_serious(page)  # the board's fields, the answers, the legend
    if viewport is LAPTOP:
        _figure(page, "board-pro")


def test_placements_show_on_the_rows_during_the_reveal(page):
    _start(page, players=4, seed=6, rounds=0, game="board", variant="basic", opponents="random")
    page.fill("#speed", "400")
    assert _wait_decision(page) == "turn"
    page.locator("#hand .card.playable").first.click()
    # Mid-reveal: fewer tiles placed than revealed, and the last one placed already lies on its row.
    page.wait_for_function("""() => {
        const log = [...document.querySelectorAll('#log li')];
        const reveal = log.map((li) => li.dataset.kind).lastIndexOf('reveal');
        if (reveal < 0) return false;
        const shown = log[reveal].querySelectorAll('.mini').length;
        const placed = log.slice(reveal + 1).filter((li) => li.dataset.kind === 'place');
        if (!placed.length || placed.length >= shown) return false;
        const tile = placed[placed.length - 1].querySelector('.mini').textContent;
        const flash = document.querySelector('#rows .row.flash');  // highlighted: a border only it has
        return document.querySelector(`#rows .cell[data-card="${tile}"]`) !== null && flash !== null
            && getComputedStyle(flash).borderTopColor !== 'rgba(0, 0, 0, 0)'
            && document.getElementById('prompt').dataset.state === 'busy';
    }""", timeout=TIMEOUT)


def test_action_cards_played_are_named_in_the_log(page):
    _start(page, players=3, seed=4, rounds=0, watch=True, game="board", variant="pro", opponents="random")
    page.fill("#speed", "0")
    page.wait_for_selector("#log li[data-kind=action]")
    text = page.inner_text("#log li[data-kind=action] >> nth=0")
    assert any(f"plays {name}" in text for name in ("Stop", "Swap", "Skip", "Front", "Ascending", "One more")), text
    assert page.get_attribute("#log li[data-kind=action] >> nth=0", "title")  # what the card does
    assert "Ascending" in page.inner_text("#legend")


def _axe_serious(page) -> list:
    """axe-core's critical and serious findings on the page as it stands."""
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = page.evaluate("async () => (await axe.run(document)).violations"
                          ".map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 3)}))")
    return [v for v in found if v["impact"] in ("critical", "serious")]


def test_a_whole_game_by_keyboard_alone_and_no_serious_accessibility_issue(page):
    _start(page, players=3, seed=8, rounds=1, variant="die-sechste", opponents="random",
           submit=lambda: page.press("#f-seed", "Enter"))  # Enter in the form starts the game
    page.evaluate("document.getElementById('speed').value = 0")
    assert _wait_decision(page) == "turn"
    assert all(t[-1] in "♣♦♥♠" for t in _hand(page))  # Die Sechste's suits as symbols
    assert not _axe_serious(page)
    turns = 0
    while _wait_decision(page) == "turn":
        focused = page.evaluate("document.activeElement.dataset.action")
        assert focused is not None  # the first choice has the focus: Enter plays it
        page.keyboard.press("ArrowRight" if turns % 2 else "ArrowLeft")
        if turns == 0:
            _figure(page, "die-sechste")
        decision = page.evaluate("S.decision")
        page.keyboard.press("Enter")
        turns += 1
        page.wait_for_function(f"S.decision !== {decision} || "
                               "document.getElementById('prompt').dataset.state === 'over'")
    assert turns >= 8 and page.is_visible("#summary")
    assert not _axe_serious(page)
    first = page.evaluate("S.id")
    page.keyboard.press("r")  # a rematch: the same table, a new deal
    page.wait_for_function(f"S.id !== {first!r}")
    assert _wait_decision(page) == "turn"


def test_rows_shown_placement_by_placement_end_as_the_table_drawn_after_the_step(page):
    # Before each step's table is drawn, the rows as the placements left them must be its rows
    # (Front shifts, Skip gaps, takes, moves): except a tile waiting on its take field for a question.
    page.evaluate("""() => {
        window.MISMATCH = [];
        const draw = drawTable;
        drawTable = function (t, legal) {
            const shown = [...document.querySelectorAll('#rows .row')].map((r) =>
                [...r.querySelectorAll('.cell')].map((c) => c.dataset.card || '').join(','));
            const want = t.rows.map((r) => r.cells.map((c) => (c.card ? String(c.card) : '')).join(','));
            const waiting = (t.events || []).some((e) => e.text.includes('after the question'));
            if (t.events && shown.length && !waiting && JSON.stringify(shown) !== JSON.stringify(want)) MISMATCH.push({shown, want});
            return draw(t, legal);
        };
    }""")
    _start(page, players=4, seed=3, rounds=0, watch=True, game="board", variant="pro", opponents="random")
    page.fill("#speed", "0")
    page.wait_for_selector('#prompt[data-state="over"]', timeout=90_000)
    assert page.locator("#log li[data-kind=place]").count() > 20
    assert page.evaluate("MISMATCH") == []


def test_the_setup_form_offers_the_allowed_agents_and_each_variants_rules(page, server):
    import urllib.request

    from experiments.serve.allowed import AllowList

    allowed = AllowList()  # the server's list: `sixnimmt serve` without --allow
    seat = page.locator("#f-opponents select.opponent").first
    assert seat.locator("option").evaluate_all("os => os.map((o) => o.value)") == allowed.names("cards")
    texts = seat.locator("option").all_inner_texts()
    assert all(" — " in t and len(t.split(" — ")[1]) > 5 for t in texts), texts  # a short description each
    assert page.locator("#f-opponents .about").first.inner_text()  # the chosen one's summary in full
    seat.select_option("mcs")  # the list opens mcs's rollouts as a number box with its range
    assert page.get_attribute("#f-opponents label.agent >> nth=0 >> input[name=rollouts]", "max") == "400"
    assert page.locator("#o-row_choice option").all_inner_texts() == ["player (default)", "cheapest"]
    rules = json.loads(urllib.request.urlopen(server + "/api/options").read())["games"]
    board = next(g for g in rules if g["name"] == "board")
    page.select_option("#f-game", "board")
    for variant, luck in (("basic", False), ("luck", True), ("pro", False), ("pro-luck", True)):
        page.select_option("#f-variant", variant)
        shown = page.locator("#f-options [name]").evaluate_all("xs => xs.map((x) => x.name)")
        assert shown == [o["name"] for o in board["rules"][variant]]
        assert ("plus5_cards" in shown) == luck and "row_choice" not in shown, (variant, shown)  # pro: no luck cards
    page.wait_for_function("!document.getElementById('start').disabled")
    enabled = page.eval_on_selector("#start", "b => getComputedStyle(b).backgroundColor")
    page.evaluate("document.getElementById('start').disabled = true")
    assert page.eval_on_selector("#start", "b => getComputedStyle(b).backgroundColor") != enabled
    assert page.evaluate("document.querySelector('link[rel=icon]').href").endswith("/static/favicon.svg")
    assert urllib.request.urlopen(server + "/static/favicon.svg").status == 200


def test_a_pro_turn_fits_a_laptop_screen_with_the_latest_log_entry(page):
    page.set_viewport_size(LAPTOP)  # 1366x768: board, hand, question and the turn's log, unscrolled
    _start(page, players=4, seed=3, rounds=0, game="board", variant="pro", opponents="random")
    page.fill("#speed", "0")
    for _ in range(12):
        assert _wait_decision(page) == "turn"
        if page.locator("#choices button").count():
            break
        page.locator("#hand .card.playable").first.click()
    assert page.locator("#choices button").count() >= 2, "no question in 12 turns: pick another seed"
    assert page.evaluate("window.scrollY") == 0
    for selector in ("#rows .row", "#hand .card", "#prompt", "#choices button", "#log li:last-child", "#scores"):
        _inside(page, selector)
    assert page.locator("#log li[data-kind=reveal]").count() >= 1
