"""What the web table refuses, as a person meets it in the browser: an expired link, another
game's session, a move made on a position that has moved on (stale) and a move whose CSRF token is
forged. Each is a clear sentence on the page, and changes nothing stored."""

from __future__ import annotations

import json
import time

import pytest

from bot.web.links import Signer
from tests.browser.conftest import ALICE, BOB, CHANNEL, GUILD
from tests.browser.tapping import tap_action, wait_until


def stored_version(table, game_id: int) -> int:
    return table.run(table.host.store.load(game_id)).version


def expired_link(table, user_id: int, game_id: int) -> str:
    from bot.service import Where

    past = Signer(table.settings.secret, link_seconds=table.settings.link_seconds,
                  clock=lambda: time.time() - table.settings.link_seconds - 60)
    return f"{table.base}/t/{past.link_token(user_id, game_id, Where(GUILD, CHANNEL))}"


def test_an_expired_link_opens_nothing_and_says_why(table, people) -> None:
    game = table.new_game("squares", [ALICE, BOB])
    alice = people(ALICE)
    response = alice.page.goto(expired_link(table, ALICE, game))
    assert response.status == 403
    assert "expired" in alice.text()
    assert not alice.context.cookies()  # no session was opened
    alice.page.goto(f"{table.base}/game/{game}")
    assert "link" in alice.text().lower() and not alice.page.locator("#board img").count()


def test_another_games_session_opens_nothing_of_this_one(table, people) -> None:
    game, other = table.new_game("squares", [ALICE, BOB]), table.new_game("squares", [ALICE, BOB])
    alice = people(ALICE)
    alice.open(game)
    (cookie,) = alice.context.cookies()
    alice.context.add_cookies([dict(cookie, name=f"tt_{other}")])  # this game's session under the other's name
    response = alice.page.goto(f"{table.base}/game/{other}")
    assert response.status == 403 and "another game" in alice.text()


@pytest.mark.parametrize("spoil", ["stale", "forged_csrf"])
def test_a_stale_or_forged_move_is_refused_on_the_page_and_changes_nothing(table, people, spoil: str) -> None:
    game = table.new_game("squares", [ALICE, BOB])
    players = {ALICE: people(ALICE), BOB: people(BOB)}
    for p in players.values():
        p.open(game)
    (mover,) = [p for p in players.values() if p.state()["your_turn"]]
    state = mover.state()

    def spoiled(route) -> None:
        body = json.loads(route.request.post_data)
        if spoil == "stale":
            body["version"] -= 1  # the position this move was made on is not the current one
        else:
            body["csrf"] = body["csrf"][::-1]  # as a page of another site would have to guess it
        route.continue_(post_data=json.dumps(body))

    mover.page.route("**/move", spoiled)
    before = stored_version(table, game)
    tap_action(mover.page, next(a for a in state["actions"] if "@" in a["action"]))
    error = wait_until(lambda: mover.page.inner_text("#error").strip(), "the refusal on the page")
    assert "error." not in error and "web." not in error  # a sentence from the catalogue, not a key
    assert stored_version(table, game) == before
    # the page is still usable: the same move, unspoiled, is played
    mover.page.unroute("**/move")
    tap_action(mover.page, next(a for a in mover.state()["actions"] if "@" in a["action"]))
    wait_until(lambda: stored_version(table, game) > before, "the honest move to be saved")
