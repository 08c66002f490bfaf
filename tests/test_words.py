"""No engine identifier reaches a player (issue #12): every line, panel, reply, control label and
board description (alt text) the service produces over random games, rendered in English and
Japanese, names game things in words.
Notation may appear only inside code spans (what a player types in /play)."""

from __future__ import annotations

import re

import pytest

from bot.i18n import render
from bot.service import MOST_ACTION_BUTTONS, GameHost
from bot.service.words import position_words
from bot.store import Store
from games import all_games, get_game
from games.rng import Rng

CODE_SPAN = re.compile(r"`[^`]*`")
ACTIONS_PER_GAME = 60


def shown_texts(outbox) -> list:
    """Everything of an outbox a player reads, as Texts or strings (control labels included)."""
    texts = list(outbox.reply)
    for post in outbox.posts:
        texts += post.lines + post.status_lines
        texts += [label for _, label in post.lobby_seats]
    for private in outbox.privates:
        texts += private.lines
    for controls in [outbox.reply_controls] + [p.controls for p in outbox.posts + outbox.privates]:
        if controls is None:
            continue
        texts += [controls.labels.get(key, key) for key in list(controls.choices)]
        few = len(controls.actions) <= MOST_ACTION_BUTTONS  # buttons; else menus name a step's only action
        texts += [controls.labels.get(a, a) for under in controls.choices.values() for a in under
                  if few or len(under) == 1]
        texts += [controls.labels.get(a, a) for a in controls.pinned]
        texts += [controls.question] if controls.question is not None else []
    return texts


def leaks(text: str, identifiers: frozenset[str]) -> list[str]:
    outside = CODE_SPAN.sub(" ", text)
    return [word for word in identifiers if re.search(rf"(?<![\w`]){re.escape(word)}(?![\w`])", outside)]


@pytest.mark.parametrize("game_name", [g.name for g in all_games() if g.identifiers()])
async def test_no_engine_identifier_in_anything_a_player_reads(tmp_path, game_name):
    game = get_game(game_name)
    store = await Store.open(str(tmp_path / "words.sqlite3"))
    host = GameHost(store, clock=lambda: "2026-11-21T00:00:00+00:00", seed_source=iter(range(1, 10**6)).__next__,
                    render=lambda name, view: b"PNG")
    rng = Rng(11)
    seen: list = []
    try:
        for players in game.player_counts():
            users = [100 + i for i in range(players)]
            row, outbox = await host.create(game_name, None, guild_id=1, channel_id=5, user_id=users[0], locale="en")
            seen += shown_texts(outbox)
            for u in users[1:]:
                seen += shown_texts(await host.join(row.id, u))
            seen += shown_texts(await host.start(row.id, users[0]))
            for _ in range(ACTIONS_PER_GAME):
                row = await store.load(row.id)
                if row.status != "active":
                    break
                seat = sorted(game.to_act(row.state))[0]
                legal = game.legal_actions(row.state, seat)
                action = legal[rng.below(len(legal))]
                path = game.action_path(action)
                if len(path) > 1:  # open the menus one step at a time, as a player does
                    seen += shown_texts(await host.drill(row.id, row.user_of(seat), row.version, path[:1]))
                seen += shown_texts(await host.act(row.id, row.user_of(seat), action, seen_version=row.version))
                row = await store.load(row.id)  # the board's alt text, public and from each seat
                seen += [t for viewer in [None, *range(players)] for t in position_words(game, game.view(row.state, viewer))]
            seen += await host.history(row.id)
    finally:
        await store.close()
    assert len(seen) > 50
    found = {}
    for lang in ("en", "ja"):
        for text in seen:
            shown = render(lang, text)
            for word in leaks(shown, game.identifiers()):
                found.setdefault((lang, word), shown)
    assert not found, found
