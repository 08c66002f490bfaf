"""The web table speaks to each person in their own language (#42): the Discord locale the bot has
stored for them first (as the Discord way in keeps it), else the browser's, for the page and for every
refusal, even of a session or link that has expired; and it names the seats as the board marks them,
"you" for the viewer, in the history and the replay as well as the table."""

from __future__ import annotations

import re

from bot.i18n import T
from bot.web import table_link
from bot.web.words import say
from bot.service.present import seat_mark
from tests.test_web import (ALICE, BOB, CAROL, HERE, browsers, host, move_body, now, server,  # noqa: F401 (fixtures)
                            settings, signed_in, squares_game, stored, to_act)

ENGLISH = {"Accept-Language": "en-US,en;q=0.9"}
JAPANESE_TEXT = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


async def japanese_player(host, settings, browsers):
    """A game whose player to move has Japanese stored as their Discord locale, in an English browser."""
    game_id = await squares_game(host)
    _, user, _ = to_act(await host.store.load(game_id))
    await host.store.set_user_locale(user, "ja")
    return game_id, user, await signed_in(browsers, settings, user, game_id)


async def test_refusals_speak_the_stored_discord_locale_before_the_browsers(host, settings, browsers):
    game_id, user, b = await japanese_player(host, settings, browsers)
    page = await b.get(f"/game/{game_id}", headers=ENGLISH)
    assert '<html lang="ja"' in await page.text()
    state, body = await move_body(b, game_id)
    assert state["lang"] == "ja"
    before = await stored(host, game_id)
    forged = await b.post(f"/api/game/{game_id}/move", {**body, "csrf": "x"}, headers=ENGLISH)
    assert forged.status == 403
    assert (await forged.json())["error"] == say("ja", T("web.error.csrf"))
    stale = await b.post(f"/api/game/{game_id}/move", {**body, "version": body["version"] - 1}, headers=ENGLISH)
    assert stale.status == 409 and JAPANESE_TEXT.search((await stale.json())["error"])
    history = await (await b.get(f"/api/game/{game_id}/history", headers=ENGLISH)).json()
    assert all(JAPANESE_TEXT.search(line) for line in history["lines"][:1])
    assert await stored(host, game_id) == before


async def test_an_expired_session_and_link_are_refused_in_the_stored_locale(host, settings, browsers, now):
    game_id, user, b = await japanese_player(host, settings, browsers)
    link = table_link(settings, user, game_id, HERE)
    now.now += settings.session_seconds + 1
    answer = await b.get(f"/api/game/{game_id}", headers=ENGLISH)
    assert answer.status == 401 and (await answer.json())["error"] == say("ja", T("web.error.expired_session"))
    page = await b.get(f"/game/{game_id}", headers=ENGLISH)
    assert page.status == 401 and say("ja", T("web.error.expired_session")) in await page.text()
    late = browsers()
    opened = await late.client.get(link.split("table.example", 1)[1], headers=ENGLISH, allow_redirects=False)
    assert opened.status == 403 and not late.cookies
    assert say("ja", T("web.error.expired_link")) in await opened.text()


async def test_without_a_stored_locale_the_browsers_language_is_used(host, settings, browsers):
    game_id = await squares_game(host)
    _, user, _ = to_act(await host.store.load(game_id))
    b = await signed_in(browsers, settings, user, game_id)
    _, body = await move_body(b, game_id)
    spoilt = {**body, "csrf": "x"}
    english = await b.post(f"/api/game/{game_id}/move", spoilt, headers=ENGLISH)
    assert (await english.json())["error"] == say("en", T("web.error.csrf"))
    japanese = await b.post(f"/api/game/{game_id}/move", spoilt, headers={"Accept-Language": "ja-JP,ja;q=0.9"})
    assert (await japanese.json())["error"] == say("ja", T("web.error.csrf"))


async def test_a_forged_token_gets_no_one_elses_language(host, settings, browsers):
    """Only a token we signed names who asks: a made-up one is answered in the browser's language."""
    game_id, user, b = await japanese_player(host, settings, browsers)
    b.cookies[f"tt_{game_id}"] = b.cookies[f"tt_{game_id}"][:-4] + "AAAA"
    answer = await b.get(f"/api/game/{game_id}", headers=ENGLISH)
    assert answer.status == 401 and (await answer.json())["error"] == say("en", T("web.error.bad_link"))


def mark(lang: str, seat: int) -> str:
    return say(lang, seat_mark(seat))


async def test_the_seats_are_named_by_their_marks_and_the_viewer_is_you(host, settings, browsers):
    game_id = await squares_game(host)
    row = await host.store.load(game_id)
    seat, user, legal = to_act(row)
    await host.act(game_id, user, legal[0], seen_version=row.version, where=HERE)
    other = 1 - seat
    for lang in ("en", "ja"):
        someone, you = say(lang, T("web.someone")), say(lang, T("web.you_mark"))
        mover = await signed_in(browsers, settings, user, game_id)
        watcher = await signed_in(browsers, settings, CAROL, game_id)
        headers = {"Accept-Language": lang}
        for b, mover_is in ((mover, you), (watcher, mark(lang, seat))):
            history = (await (await b.get(f"/api/game/{game_id}/history", headers=headers)).json())["lines"]
            replay = (await (await b.get(f"/api/game/{game_id}/replay", headers=headers)).json())["lines"]
            state = await (await b.get(f"/api/game/{game_id}", headers=headers)).json()
            said = "\n".join(history + replay + state["history"] + state["lines"] + [state["summary"]])
            assert someone not in said and "<@" not in said
            for s in (0, 1):  # a mark put before a player said as that mark is said once
                short = say(lang, seat_mark(s, short=True))
                assert f"{short} {short}" not in said, said
            assert history[-1].split(". ", 1)[1].startswith(mover_is), history
            names = {p["seat"]: p["name"] for p in state["players"]}
            assert names[seat] == mover_is
            assert names[other] == (mark(lang, other) if b is mover or row.user_of(other) != CAROL else you)
