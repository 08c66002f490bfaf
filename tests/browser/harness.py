"""What the browser tests share: Debian's Chromium through Playwright (one browser process per test
module, a context per person), and the web table served in-process from an event loop of its own
thread (Playwright's synchronous API owns the test's thread).

Chromium is ``/usr/bin/chromium`` (``apt-get install -y chromium``; a browser download of
Playwright's own cannot work here). Where it or Playwright is missing the tests skip with one line
saying how to enable them, except in CI (``CI=true``), where that is a failure: CI installs both.
"""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path
from typing import Any, Awaitable, Callable

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
HOW_TO_ENABLE = ("browser tests skipped: install Chromium (apt-get install -y chromium) and Playwright "
                 "(pip install -e '.[test]') to run them")
HANG_BOUND = 60.0  # seconds: a hang bound only, never a verdict
WAIT_MS = 30_000  # Playwright's waits, the same bound in milliseconds
PHONE = {"width": 400, "height": 800}
DESKTOP = {"width": 1280, "height": 800}
VENDOR = Path(__file__).with_name("vendor")


def browser_problem() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed"
    if not os.access(CHROMIUM, os.X_OK):
        return f"Chromium is missing ({CHROMIUM})"
    return None


def require_browser() -> None:
    """Skip (outside CI) or fail (in CI) when the browser cannot run."""
    problem = browser_problem()
    if problem is None:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"browser tests cannot run in CI: {problem}; .ci/run installs Chromium", pytrace=False)
    pytest.skip(HOW_TO_ENABLE)


class LoopThread:
    """An event loop in a thread of its own: the server and the service run there, and the test's
    thread hands it coroutines (``run``) and waits for their results within a hang bound."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="browser-test-loop", daemon=True)
        self.thread.start()

    def run(self, coro: Awaitable[Any], timeout: float = HANG_BOUND) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def call(self, fn: Callable[[], Any]) -> Any:
        async def wrapped():
            return fn()
        return self.run(wrapped())

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


def launch_chromium(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


def inject_axe(page) -> list[dict]:
    """axe-core (vendored, pinned) run on the page as it is: the serious and critical violations."""
    # Evaluated through the DevTools protocol: the page's own Content-Security-Policy (script-src
    # 'self') would rightly refuse an injected <script>, and stays as it is.
    page.evaluate((VENDOR / "axe.min.js").read_text(encoding="utf-8") + "\n;0")
    result = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [v for v in result if v.get("impact") in ("serious", "critical")]
