"""A table for two people and two agents, in Chromium: two browser contexts and a spectator.

Ada ticks a seat for a person on the setup form and starts; Bob opens the link she is
shown and takes the free seat; Eve opens it and watches. The WebSocket frames each page
receives are collected: at the first turn neither person's frames hold a card of the
other's hand, and the spectator's hold no hand at all. Bob's page cannot act for Ada's
seat (a forged token is refused on his page), and the two play the game to its end by
clicking, each on their own page. Skips without a browser (tests/support/browser.py).
"""

from __future__ import annotations

from experiments.serve.bench import served
from tests.support.browser import DESKTOP, FIRST_LOAD, chromium, open_page  # noqa: F401 (chromium: the fixture)
from tests.support.served import cards_shown

MAX_CLICKS = 200  # a one-round game of two people asks each at most ~15 times


def _first_hand(frames: list) -> set:
    turn = next(f for f in frames if f.get("type") == "turn")
    return {c["card"] for c in turn["table"]["hand"]}


def _click_any(page) -> bool:
    """Play the first thing the page offers now (a card, a row, an answer); False: nothing."""
    if page.get_attribute("#prompt", "data-state") != "turn":
        return False
    option = page.locator("#choices button[data-action], #rows .row.pickable, #hand .card.playable").first
    if not option.count():
        return False
    option.click()
    return True


def test_two_people_and_a_spectator_at_one_table(chromium):  # noqa: F811 (the fixture of tests/support/browser.py)
    frames = {"ada": [], "bob": [], "eve": []}
    errors: list = []
    with served() as url:
        ada, bob, eve = (open_page(chromium, errors, frames[n], viewport=DESKTOP) for n in ("ada", "bob", "eve"))
        ada.goto(url + "/")
        ada.wait_for_selector("#f-opponents .person-seat", timeout=FIRST_LOAD)
        ada.wait_for_function("!document.getElementById('start').disabled")
        ada.fill("#o-max_rounds", "1")
        ada.fill("#f-seed", "3")
        ada.fill("#f-name", "Ada")
        for box in ada.locator("#f-opponents select.opponent").all():
            box.select_option("random")
        ada.locator(".person-seat").first.check()  # seat 2: a person
        ada.click("#start")
        ada.wait_for_selector("#share-link")
        link = ada.input_value("#share-link")
        assert "waiting for seat 2 to join" in ada.inner_text("#prompt")
        bob.goto(link)
        bob.fill("#j-name", "Bob", timeout=FIRST_LOAD)  # a fresh page of a loaded server: as its first load
        bob.click("#j-join")
        eve.goto(link)
        eve.click("#j-watch", timeout=FIRST_LOAD)
        for page in (ada, bob):
            page.wait_for_selector('#prompt[data-state="turn"]')
            page.fill("#speed", "0")
        eve.wait_for_selector("#game:not([hidden])")
        eve.fill("#speed", "0")
        assert eve.locator("#hand-wrap").is_hidden()
        names = bob.locator("#scores tr td:first-child").all_inner_texts()
        assert names == ["Ada", "you (Bob)", "seat 3 (random)", "seat 4 (random)"]
        hand_ada, hand_bob = _first_hand(frames["ada"]), _first_hand(frames["bob"])
        assert len(hand_ada) == len(hand_bob) == 10 and not hand_ada & hand_bob
        assert not any(cards_shown(f) & hand_bob for f in frames["ada"]), "Bob's hand reached Ada's page"
        assert not any(cards_shown(f) & hand_ada for f in frames["bob"]), "Ada's hand reached Bob's page"
        assert not any(cards_shown(f) & (hand_ada | hand_bob) for f in frames["eve"])
        assert all(not (f.get("table") or {}).get("hand") for f in frames["eve"] if isinstance(f.get("table"), dict))
        bob.evaluate("S.ws.send(JSON.stringify({type: 'act', id: S.id, token: 'forged', action: 0, decision: S.decision}))")
        bob.wait_for_selector("#error:not([hidden])")
        assert "not a seat token of this table" in bob.inner_text("#error")
        for _ in range(MAX_CLICKS):
            states = [page.get_attribute("#prompt", "data-state") for page in (ada, bob)]
            if states == ["over", "over"]:
                break
            if not (_click_any(ada) | _click_any(bob)):
                ada.wait_for_timeout(100)
        for page in (ada, bob, eve):
            page.wait_for_selector("#summary:not([hidden])")
        assert not errors, errors


def test_a_shared_link_offers_the_join_form_when_tables_js_comes_late(chromium):  # noqa: F811
    """The socket may open before the last script has run (a busy server serves tables.js
    late): the page must still start only once every script is in, or a shared link falls
    back to the plain setup form (the CI failure of 2026-12-07)."""
    errors: list = []
    with served() as url:
        page = open_page(chromium, errors, viewport=DESKTOP)

        def late(route):
            page.wait_for_timeout(1500)  # keeps the parser waiting while the socket opens
            route.continue_()

        page.route("**/static/tables.js", late)
        page.goto(url + "/?table=abc123")
        page.wait_for_selector("#j-watch", state="visible")
        assert page.locator("#setup").is_hidden()
    assert not errors, errors
