"""Both catalogues are complete, and every key the code can produce exists in both."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot import i18n
from bot.discord_app.custom_ids import LOBBY_OPS
from games import all_games

ROOT = Path(__file__).resolve().parents[1]
EN, JA = i18n.catalogue("en"), i18n.catalogue("ja")


def sources(folder: str) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / folder).rglob("*.py"))


def test_catalogues_have_the_same_files_keys_and_placeholders():
    assert i18n.catalogue_files("en").keys() == i18n.catalogue_files("ja").keys()
    for name, part in i18n.catalogue_files("en").items():
        assert part.keys() == i18n.catalogue_files("ja")[name].keys(), name
    assert set(EN) == set(JA)
    for key in EN:
        assert i18n.placeholders(EN[key]) == i18n.placeholders(JA[key]), key
        assert EN[key].strip() and JA[key].strip(), key


def test_japanese_is_really_japanese():
    japanese = [k for k in JA if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", JA[k])]
    assert len(japanese) > 0.8 * len(JA)


def test_every_literal_key_in_bot_exists():
    code = sources("bot")
    keys = set(re.findall(r"\bT\(\s*\"([a-z_.]+)\"", code))
    keys |= set(re.findall(r"\bt\(\s*lang,\s*\"([a-z_.]+)\"", code))
    keys |= set(re.findall(r"\bL\(\s*\"([a-z_.]+)\"", code))
    assert keys, "the scan found nothing: the pattern is broken"
    missing = sorted(k for k in keys if k not in EN)
    assert not missing


def test_every_error_key_exists():
    code = sources("games") + sources("bot")
    keys = set(re.findall(r"(?:_Refused|GameError|IllegalAction|NotationError|NotYourTurn|GameOver|ServiceError)"
                          r"\(\s*\"([a-z_.]+)\"", code))
    keys |= set(re.findall(r"return \"([a-z_]+\.[a-z_]+)\"", sources("games")))  # why_illegal keys
    keys |= {f"game_{status}" for status in ("finished", "abandoned", "active")}
    keys |= {"stale", "game_not_found", "corrupt_game", "future_game", "store_error"}
    assert len(keys) > 20
    missing = sorted(k for k in keys if f"error.{k}" not in EN)
    assert not missing


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_every_game_has_titles_rules_events_and_reasons(game):
    code = "\n".join(p.read_text(encoding="utf-8")
                     for p in (ROOT / "games" / game.__module__.split(".")[1]).rglob("*.py"))
    for key in (f"game.{game.name}.title", f"rules.{game.name}.summary", f"rules.{game.name}.notation"):
        assert key in EN
    events = set(re.findall(r"\"type\":\s*\"([a-z_]+)\"", code)) | set(
        re.findall(r"\"type\": \"([a-z_]+)\" if", code)) | set(re.findall(r"else \"([a-z_]+)\"", code))
    assert events
    missing = [e for e in events if f"event.{game.name}.{e}" not in EN and f"event.{e}" not in EN]
    assert not missing
    reasons = set(re.findall(r"Outcome\([^)]*\"([a-z_]+)\"", code)) | {"resign"}
    assert not [r for r in reasons if f"reason.{r}" not in EN]


def test_dynamic_key_families_exist():
    for status in ("lobby", "active", "finished", "abandoned"):
        assert f"status.{status}" in EN
    for op in LOBBY_OPS:
        assert f"lobby.button.{op}" in EN or op in ("ai", "invite", "remove")  # those are menus
    from bot.service import AI_LEVELS

    for level in AI_LEVELS:
        assert f"ai.level.{level}" in EN and f"ai.level.{level}.desc" in EN


NAME = re.compile(r"^[-_\w]{1,32}$")


def test_command_names_and_descriptions_fit_discord():
    for lang in ("en", "ja"):
        cat = i18n.catalogue(lang)
        for key in cat:
            if not key.startswith("cmd."):
                continue
            value = i18n.t(lang, key)
            if key.endswith(".name"):
                assert NAME.match(value) and value == value.lower(), (lang, key, value)
            else:
                assert 1 <= len(value) <= 100, (lang, key)


def test_missing_parameters_do_not_crash_and_texts_nest():
    assert "{id}" in i18n.t("en", "error.game_not_found")
    nested = i18n.T("outcome.draw", reason=i18n.T("reason.turn_limit"))
    assert i18n.render("ja", nested) == "🤝 引き分け（手数の上限）"
    assert i18n.language_of("ja") == "ja" and i18n.language_of("en-GB") == "en" and i18n.language_of(None) == "en"


def assert_event_renders(game_name: str, event: dict) -> None:
    """An event's line exists in both languages and its parameters fill every placeholder (params
    in words and seats filled with names, as the service does)."""
    from bot.service.present import SEAT_PARAMS
    from bot.service.words import termed
    from games import get_game

    params = termed(get_game(game_name), {k: v for k, v in event.items() if k not in ("type", "to")},
                    seat_words=lambda s: f"P{s}")
    params = {k: (f"P{v}" if k in SEAT_PARAMS and isinstance(v, int) else v) for k, v in params.items()}
    key = f"event.{game_name}.{event['type']}"
    key = key if i18n.has(key) else f"event.{event['type']}"
    for lang in ("en", "ja"):
        line = i18n.render(lang, i18n.T(key, **params))
        assert "{" not in line and not line.startswith("event."), (lang, line)


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_every_event_of_random_play_renders_in_both_languages(game):
    from tests.test_contract import playout

    for seed in range(6):
        for _, _, _, _, events in playout(game, seed):
            for event in events:
                assert_event_renders(game.name, event)


def test_each_games_page_carries_its_rules_as_players_read_them():
    from bot.common import rules_doc

    assert {g.name for g in rules_doc.documented_games()} == {g.name for g in all_games()}
    for game in all_games():
        text = rules_doc.page(game).read_text(encoding="utf-8")
        assert "../shared" not in text  # a clone has no shared/ folder beside it
        assert rules_doc.rewritten(text, game) == text, "run: python -m bot.common.rules_doc"
        for lang in ("en", "ja"):
            assert i18n.t(lang, f"rules.{game.name}.summary") in text


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_help_names_every_command(lang):
    """Issue #31: `/help` left out `/deck` (and `/game replay`, `/game export`)."""
    from bot.discord_app.commands import DeckCommands, GameCommands
    from bot.i18n import t

    text = t(lang, "help.commands")
    for group in (GameCommands(None, None), DeckCommands(None, None)):
        prefix = t(lang, group._locale_name.extras["key"])
        for command in group.walk_commands():
            name = t(lang, command._locale_name.extras["key"])
            assert f"/{prefix} {name}`" in text, f"/{prefix} {name}"


@pytest.mark.parametrize("key, params, one, many", [
    ("vacation.granted", {"id": 3, "until": "x"}, "pause for 1 day,", "pause for 2 days,"),
    ("stats.header", {}, "(1 player)", "(2 players)"),
    ("deck.check_bad", {}, "(1 problem)", "(2 problems)"),
    ("lobby.header", {"game": "G", "id": 1, "options": "-"}, None, None),
])
def test_counts_read_right_in_english(key, params, one, many):
    """Issue #31: "(1 problems)", "2 day(s)", "(2/4 players)" read as "2 of 4"."""
    from bot.i18n import t
    from bot.service.present import player_counts
    from games import get_game

    if key == "lobby.header":
        assert "1 player so far (2 or 4 can play)" in t("en", key, counts=player_counts(get_game("osu")), seated=1,
                                                          **params)
        assert "2 players so far (2 to 4 can play)" in t("en", key, counts=player_counts(get_game("hostile")),
                                                         seated=2, **params)
        assert "いま2人（2〜4人で遊べます）" in t("ja", key, counts=player_counts(get_game("hostile")), seated=2, **params)
        # issue #43: a started 2-player OSU game said "(2 or 4 players)"
        assert "game #1, 2 players." in t("en", "lobby.header_started", seated=2, **params)
        return
    assert one in t("en", key, count=1, **params) and many in t("en", key, count=2, **params)
    assert "(s)" not in t("en", key, count=2, **params)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_messages_of_text_and_variables_read_as_fluent_reads_them(lang):
    """``t`` joins the messages that are only text and variables itself (fast: they are most of
    them); Fluent, the reference, must print every one of them the same, whatever the values."""
    from bot.i18n import T, _by_fluent, _plain, catalogue, placeholders, t

    values = [0, 1, 7, 12345, -3, "**Alice**", "<@42>", T("list.separator"), ["A", "B"], [], 2.5]
    plain = 0
    for key, source in catalogue(lang).items():
        if _plain(source) is None:
            continue
        plain += 1
        names = sorted(placeholders(source))
        for shift in range(len(values)):
            params = {name: values[(shift + i) % len(values)] for i, name in enumerate(names)}
            assert t(lang, key, **params) == _by_fluent(lang, source, params), (key, params)
        if names:  # a parameter missing shows as {name} both ways
            assert t(lang, key) == _by_fluent(lang, source, {}), key
    assert plain > 0.9 * len(catalogue(lang))
