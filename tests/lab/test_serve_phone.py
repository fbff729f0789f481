"""`sixnimmt serve`'s setup form on a phone: 390x844, touch, in Debian's Chromium.

Issue 62's regression: on a phone the agent lists took their longest option's width, the
form ran past the screen's right edge, and a seat's description lay over Start, so a tap
on Start hit the text and no game started. Here the form must fit the screen's width and
a tap on Start must start a game. Skips without a browser (tests/support/browser.py).
"""

from __future__ import annotations

import pytest

from experiments.serve.bench import served
from tests.support.browser import FIRST_LOAD, PHONE, chromium, open_page  # noqa: F401 (chromium: the fixture)


@pytest.fixture(scope="module")
def phone(chromium):  # noqa: F811 (the fixture of tests/support/browser.py)
    """A touch phone's page (390x844, mobile viewport) on a fresh server."""
    errors: list = []
    with served() as url:
        yield open_page(chromium, errors, url=url + "/", viewport=PHONE, is_mobile=True, has_touch=True,
                        device_scale_factor=3)
    assert not errors, errors


def test_the_setup_form_fits_a_phone_and_a_tap_on_start_starts_a_game(phone):
    phone.wait_for_selector("#f-opponents select", timeout=FIRST_LOAD)
    phone.wait_for_function("!document.getElementById('start').disabled")
    width = phone.evaluate("document.documentElement.scrollWidth")
    past = phone.evaluate("[...document.querySelectorAll('#setup *')].filter((e) => "
                          "e.getBoundingClientRect().right > window.innerWidth + 0.5).map((e) => e.outerHTML.slice(0, 80))")
    assert width <= PHONE["width"] and not past, (width, past)
    phone.tap("#start")  # Playwright refuses a tap whose point another element covers
    phone.wait_for_selector("#game:not([hidden])")
    phone.wait_for_selector('#prompt[data-state="turn"]')
    assert phone.locator("#hand .card.playable").count() > 0
