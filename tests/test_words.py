"""No engine identifier reaches a player (issue #12): every line, panel, reply, control label and
board description (alt text) the service produces over random games, rendered in English and
Japanese, names game things in words.
Notation may appear only inside code spans (what a player types in /play)."""

from __future__ import annotations

import re

import pytest

from bot import i18n
from bot.i18n import Text, render
from bot.service import MOST_ACTION_BUTTONS, GameHost
from bot.service.words import position_words
from bot.storage.sqlite import Store
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


# ---- Monster Hunter (issue #31): cards, monsters and hunters by their names ------------------------
# What Monster Hunter's engine names things by, and the compact abbreviations of its images: none
# may reach a player outside a code span. A card id may follow a card's name in parentheses
# ("Bramble Boar (M05)"), never stand alone.
MH_LEAKS = {
    "hunter or monster actor (s0, m14)": re.compile(r"(?<![\w`#])[sm]\d+(?![\w`])"),
    "bare card id": re.compile(r"(?<![\w`(（])[MAWHI]\d\d(?![\w`])"),
    "weapon type code": re.compile(r"(?<![\w`])(?:gs|ls|sns|db|hm|lc|lbg|hbg)(?![\w`])"),
    "effect or policy id": re.compile(r"(?<![\w`])(?:attack_up|defence_up|weak_hit|atk|disc|def)(?![\w`:])"),
    "stat abbreviation (A4 R2 HP5 mat2)": re.compile(r"(?<![\w`])(?:[AMRD]\d|HP\d+|mat\d+|★\d)(?![\w`])"),
}
# Japanese text with an English word in it (outside code spans) was not translated.
UNTRANSLATED_JA = re.compile(r"(?<![\w`@#<])[a-z]{2,}(?![\w`])")
MH_ACTIONS = 150


def mh_leaks(lang: str, text: str) -> list[str]:
    outside = CODE_SPAN.sub(" ", text)
    found = [what for what, pattern in MH_LEAKS.items() if pattern.search(outside)]
    if lang == "ja" and UNTRANSLATED_JA.search(outside):
        found.append("untranslated: " + UNTRANSLATED_JA.search(outside)[0])
    return found


def keys_of(value) -> list[str]:
    """Every catalogue key a Text uses, nested params included."""
    if isinstance(value, Text):
        return [value.key] + [k for v in value.params.values() for k in keys_of(v)]
    if isinstance(value, (list, tuple)):
        return [k for v in value for k in keys_of(v)]
    return []


def replay_texts(outbox) -> list:
    viewer = outbox.reply_viewer
    return list(outbox.reply) + [label for _, label in viewer.povs] + [
        label for menu in viewer.jumps for _, label in menu]


async def mh_game_texts(host, store, players: int, seed: int) -> list:
    """Everything a seeded Monster Hunter game shows its players, from the lobby to after it was
    abandoned (when history and replays name every action): posts and their alt text, panels,
    replies, every menu level on the way to each action, history pages, replay steps and menus."""
    game = get_game("monsterhunter")
    rng = Rng(seed)
    users = [100 + i for i in range(players)]
    row, outbox = await host.create("monsterhunter", None, guild_id=1, channel_id=5, user_id=users[0], locale="en")
    seen = shown_texts(outbox)
    for u in users[1:]:
        seen += shown_texts(await host.join(row.id, u))
    seen += shown_texts(await host.start(row.id, users[0]))
    for _ in range(MH_ACTIONS):
        row = await store.load(row.id)
        if row.status != "active":
            break
        seat = sorted(game.to_act(row.state))[0]
        legal = game.legal_actions(row.state, seat)
        action = legal[rng.below(len(legal))] if rng.below(3) == 0 else "go"
        path = game.action_path(action)
        for depth in range(1, len(path)):  # every menu on the way, as a player opens them
            seen += shown_texts(await host.drill(row.id, row.user_of(seat), row.version, path[:depth]))
        out = await host.act(row.id, row.user_of(seat), action, seen_version=row.version)
        seen += shown_texts(out) + [t for post in out.posts for t in post.alt_lines]
    seen += await host.history(row.id)
    if (await store.load(row.id)).status == "active":
        seen += shown_texts(await host.abandon(row.id, users[0]))
    count = await store.action_count(row.id)
    for page in range(1, -(-count // 40) + 1):
        seen += await host.history(row.id, page)
    for step in sorted({1, count // 3, count // 2, count - 1, count}):
        seen += replay_texts(await host.replay(row.id, users[0], step))
    return seen


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_monster_hunter_names_cards_monsters_and_hunters(tmp_path, players):
    """Seeded Monster Hunter games, read in English and Japanese: no hunter or monster by its
    engine id (s0, m14), no bare card id, no weapon type code, effect or policy id, no stat
    abbreviation of the images, and no English left in the Japanese, outside code spans."""
    store = await Store.open(str(tmp_path / "mh-words.sqlite3"))
    host = GameHost(store, clock=lambda: "2026-11-21T00:00:00+00:00", seed_source=iter(range(31, 10**6)).__next__,
                    render=lambda name, view, **kw: b"PNG")
    try:
        seen = await mh_game_texts(host, store, players, seed=players)
        await host.deck_save(100, "mine", get_game("monsterhunter").ready_decks()["ready-h03"])
        seen += (await host.deck_list(100)).reply + (await host.deck_show(100, "mine")).reply
        # The rules' notation line explains the notation itself; every other line is read as words.
        seen += [t for t in (await host.rules("monsterhunter")).reply if t.key != "rules.monsterhunter.notation"]
    finally:
        await store.close()
    assert len(seen) > 300
    missing = {k for text in seen for k in keys_of(text) if not i18n.has(k)}
    assert not missing, missing  # a missing line would show its key, an identifier of its own
    found = {}
    for lang in ("en", "ja"):
        for text in seen:
            shown = render(lang, text)
            for what in mh_leaks(lang, shown):
                found.setdefault((lang, what), shown)
    assert not found, "\n".join(f"{lang} {what}: {shown}" for (lang, what), shown in found.items())


def test_the_identifier_check_tells_names_from_ids():
    """The check itself: ids and codes are caught, names with a card number and notation in code
    spans are not."""
    assert mh_leaks("en", "🐉 m14 (M08) attacks for 4: s0.") == ["hunter or monster actor (s0, m14)"]
    assert mh_leaks("en", "🃏 A turns #14 face up: M08.") == ["bare card id"]
    assert mh_leaks("en", "weak hm hbg, W05: A5 R1") == ["bare card id", "weapon type code",
                                                      "stat abbreviation (A4 R2 HP5 mat2)"]
    assert mh_leaks("en", "Bramble Boar (M05) #7 attacks; type `hit m7 W05`") == []
    assert mh_leaks("ja", "イバラジシ（M05）#7 のアタック") == []
    assert mh_leaks("ja", "ターン 4(hunt)") == ["untranslated: hunt"]
