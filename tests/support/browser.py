"""The browser tests' Chromium and pages (tests/lab/test_serve_*browser*.py, test_serve_phone.py).

Playwright's browser download is not used: `CHROMIUM` is Debian's chromium (the Makefile
installs it). Without it the tests skip, except under CI, where a browser that cannot
start fails the run. `started_chromium()` starts it, and the module fixture `chromium`
(imported by each browser test module) holds it for a module; `open_page` opens a page in a context of its own (its own
sessionStorage: another person), or in a given context, with the tests' timeout, the
page's JavaScript errors collected and, when asked, every WebSocket frame it receives.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from tests.support.served import messages_of

CHROMIUM = os.environ.get("SIXNIMMT_CHROMIUM", "/usr/bin/chromium")
# Without these the browser waits on a network this machine does not have.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LAPTOP, PHONE = {"width": 1366, "height": 768}, {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}
TIMEOUT = 30_000  # ms for any one thing to appear on the page
FIRST_LOAD = 180_000  # ms: a fresh server's first seat defaults load the shipped model (a minute when the machine is busy)


def no_browser(why: str):
    """Skip the test (fail it under CI, where the browser must be there)."""
    if os.environ.get("CI"):
        pytest.fail(f"CI: the browser tests need a browser: {why}")
    pytest.skip(why)


@contextlib.contextmanager
def started_chromium():
    """A headless Chromium (playwright's Browser), closed afterwards; skips without one."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as e:
        no_browser(f"playwright is not installed ({e})")
    if not Path(CHROMIUM).exists():
        no_browser(f"no chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as p:
        try:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        except Exception as e:  # noqa: BLE001 - any failure to start is "no browser"
            no_browser(f"chromium did not start: {e}")
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def chromium():
    """A headless Chromium for the module's tests (skips without one, fails under CI)."""
    with started_chromium() as browser:
        yield browser


def open_page(where, errors: list, frames: list | None = None, url: str | None = None, **context):
    """A page of `where` (a Browser: in a new context made with `context`'s options; a
    BrowserContext: in it), with the tests' timeout; its JavaScript errors go to `errors`,
    the messages of its WebSocket frames (parsed; a frame holds one, or several as a JSON
    array) to `frames` when given; at `url` when given."""
    page = (where.new_context(**context) if hasattr(where, "new_context") else where).new_page()
    page.set_default_timeout(TIMEOUT)
    page.on("pageerror", lambda e: errors.append(str(e)))
    if frames is not None:
        page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.extend(messages_of(f))))
    if url is not None:
        page.goto(url)
    return page
