"""Playing by tapping, as a person would: the regions of the board and the panel, and the choice
buttons under the board for the steps that have no place on it."""

from __future__ import annotations

import time

from tests.browser.harness import HANG_BOUND


def wait_until(condition, what: str, bound: float = HANG_BOUND):
    """Wait for a condition (a hang bound only: the verdict is the condition, never the time)."""
    deadline = time.monotonic() + bound
    while True:
        found = condition()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"still waiting, after {bound:.0f} s, for {what}")
        time.sleep(0.25)  # a condition may ask the server: well inside a person's request rate


def board_version(page) -> int | None:
    """The version the page's board picture was drawn at (its ``?v=``), as the page shows it."""
    src = page.evaluate("() => { const i = document.querySelector('#board img'); return i ? i.getAttribute('src') : null }")
    if not src or "v=" not in src:
        return None
    return int(src.split("v=")[1].split("&")[0])


def tap_action(page, action: dict) -> None:
    """Make ``action`` (one of the page's ``actions``) by tapping its targets in order."""
    for depth, target in enumerate(action["targets"]):
        if target.startswith("button:"):
            click_choice(page, action, depth, target[len("button:"):])
        else:
            tap_region(page, target)


def tap_region(page, key: str) -> None:
    """A tap on the region: the element's own click (the finger on it), not a point on the screen,
    which a line of text appearing above the board at that moment would move onto its neighbour."""
    region = page.locator(f'button.region[data-key="{key}"]').first
    region.scroll_into_view_if_needed()
    region.dispatch_event("click")


def click_choice(page, action: dict, depth: int, step: str) -> None:
    """The choice buttons down to a step: by what a button means where the page says so
    (``data-step`` / ``data-action``), else by its exact words. The page's drill-down may ask for the
    steps of the action's path first (a move's kind, then its facing), and a button bearing the
    action's own words may still be a group (other actions begin the same way): it is done when the
    page posts the move."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    def exact(label: str):
        return page.locator("#choices").get_by_role("button", name=label, exact=True)

    for _ in range(len(action["steps"]) + 3):
        button = page.locator(f'#choices button[data-step="{step}"], #choices button[data-action="{action["action"]}"]')
        if not button.count():
            button = next((b for b in [exact(action["words"])] + [exact(label) for label in action["steps"]]
                           if b.count()), None)
        if button is None:
            break
        try:
            with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/move"), timeout=2000):
                button.first.click()
            return
        except PlaywrightTimeout:  # a step on the way (no move posted yet): the next level is drawn
            continue
    raise AssertionError(f"no choice button for step {step!r} of {action['action']!r}")
