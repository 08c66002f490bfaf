"""Every game's table at a phone's 400×800 and a desktop's 1280×800: no horizontal scrolling, every
tap target at least 44 px, text at least 16 px (in the DOM, and on screenshots: a full-page
screenshot is no wider than the screen), and axe-core (the vendored, pinned file) finds no serious
or critical accessibility violation on any page, the error page and the Activity's included."""

from __future__ import annotations

import pytest

from games import registry
from tests.browser.conftest import ALICE, BOB
from tests.browser.harness import DESKTOP, PHONE, inject_axe
from tests.browser.tapping import wait_until

GAMES = [g.name for g in registry.all_games()]
VIEWPORTS = {"phone": PHONE, "desktop": DESKTOP}
MIN_TARGET = 44
MIN_TEXT = 16

# What a person can tap, and every element whose own text is shown (its font size is what is read).
TARGETS_JS = """() => [...document.querySelectorAll('button, a[href], input, select, textarea, summary, [role=button]')]
  .filter(e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
                 return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !e.closest('[hidden]'); })
  .map(e => { const r = e.getBoundingClientRect();
              return {what: e.outerHTML.slice(0, 120), width: r.width, height: r.height}; })"""
TEXT_JS = """() => [...document.querySelectorAll('body *')]
  .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
  .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && !e.closest('[hidden]'); })
  .map(e => ({what: e.outerHTML.slice(0, 120), size: parseFloat(getComputedStyle(e).fontSize)}))"""
OVERFLOW_JS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def check_page(page, where: str, viewport: dict, screenshot_path) -> list[str]:
    """Everything wrong with the page as shown: the layout rules, then axe's serious findings."""
    problems = []
    if page.evaluate(OVERFLOW_JS) > 0:
        problems.append(f"{where}: scrolls sideways by {page.evaluate(OVERFLOW_JS)} px")
    for t in page.evaluate(TARGETS_JS):
        if t["width"] < MIN_TARGET or t["height"] < MIN_TARGET:
            problems.append(f"{where}: tap target {t['width']:.0f}×{t['height']:.0f} px: {t['what']}")
    for t in page.evaluate(TEXT_JS):
        if t["size"] < MIN_TEXT:
            problems.append(f"{where}: text at {t['size']:.0f} px: {t['what']}")
    shot = page.screenshot(path=str(screenshot_path), full_page=True)
    width = int.from_bytes(shot[16:20], "big")  # the PNG's own width
    if width > viewport["width"]:
        problems.append(f"{where}: the full-page screenshot is {width} px wide on a {viewport['width']} px screen")
    for v in inject_axe(page):
        problems.append(f"{where}: axe {v['impact']} {v['id']}: {v['help']} ({len(v['nodes'])} nodes, "
                        f"first {v['nodes'][0]['html'][:100] if v['nodes'] else ''})")
    return problems


@pytest.mark.parametrize("name", GAMES)
def test_every_games_table_fits_phones_and_desktops(table, people, name: str, tmp_path) -> None:
    game = table.new_game(name, [ALICE, BOB])
    problems = []
    for label, viewport in VIEWPORTS.items():
        for user in (ALICE, BOB):  # whoever is to act sees choices, the other their waiting page
            person = people(user, viewport)
            person.open(game)
            wait_until(lambda: person.page.evaluate("document.querySelectorAll('button.region').length") > 0,
                       "the board's tap regions")
            problems += check_page(person.page, f"{name} {label} user {user}", viewport,
                                   tmp_path / f"{name}-{label}-{user}.png")
    assert not problems, "\n".join(problems[:40])


@pytest.mark.parametrize("label", list(VIEWPORTS))
def test_the_error_page_fits_and_is_accessible(table, people, label: str, tmp_path) -> None:
    person = people(ALICE, VIEWPORTS[label])
    person.page.goto(f"{table.base}/t/not-a-link")
    problems = check_page(person.page, f"error page {label}", VIEWPORTS[label], tmp_path / "error.png")
    assert not problems, "\n".join(problems)
