"""The Japanese catalogue reads as written by one person: docs/japanese.md, held by checks on
every message as a player reads it (rendered with sample parameters, since names such as
``AI 1（ふつう）`` come from other messages) and on its source."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot import i18n
from bot.i18n import T
from tests import japanese_style as J

ROOT = Path(__file__).resolve().parents[1]
JA = i18n.catalogue("ja")
AI_NAME = T("player.ai_level", n=1, level=T("ai.level.normal"))  # 「AI 1（ふつう）」
SAMPLES = (1, 2, "P1", AI_NAME)  # every parameter of a message at once: numbers, a Latin name, an AI's name


def rendered(key: str, samples=SAMPLES) -> list[str]:
    names = i18n.placeholders(JA[key])
    return [i18n.t("ja", key, **{name: value for name in names}) for value in samples]


def problems(check, keys=JA, samples=SAMPLES) -> dict[str, list[str]]:
    found = {}
    for key in keys:
        hits = sorted({hit for text in rendered(key, samples) for hit in check(text)})
        if hits:
            found[key] = hits
    return found


def test_the_checks_catch_what_the_issue_found():
    """Issue #43's examples, each caught by its check (and their fixed forms pass)."""
    assert J.half_width_punctuation("HR +1(計 2)") and J.half_width_punctuation("割り込む!")
    assert J.unpaired_brackets("（ホスタイル (HOSTILE)）") or J.half_width_punctuation("（ホスタイル (HOSTILE)）")
    assert J.half_width_punctuation("ターン 0（事前準備(ハンター・シート・デッキ)）")
    assert J.unpaired_brackets("ホスタイル（HOSTILE)")
    assert J.spaces_before_particles("AI 1（ふつう） がE3に移動しました。")
    assert J.plain_endings("準備が終わりました。6枚引いた。")
    assert J.polite_forms("1. P1：E3に移動します")
    assert not J.half_width_punctuation("割り込む！")
    for fine in ("HR +1（計2）", "ホスタイル（HOSTILE）", "AI 1（ふつう）がE3に移動しました。",
                 "準備が終わりました。6枚引きました。", "`take C4`（ジェムタイル）を選んでください。"):
        assert not (J.half_width_punctuation(fine) or J.spaces_before_particles(fine) or J.plain_endings(fine)
                    or J.unpaired_brackets(fine)), fine


def test_full_width_punctuation_inside_japanese_text():
    assert problems(J.half_width_punctuation) == {}
    assert problems(J.unpaired_brackets) == {}


def test_no_space_before_a_particle():
    assert problems(J.spaces_before_particles) == {}


def test_no_space_between_japanese_and_what_touches_it():
    """On the source (a parameter as ``J.NAME``): ``{ $seat } が { $square } で`` → ``{ $seat }が{ $square }で``."""
    found = {}
    for key, source in JA.items():
        hits = J.spaces_beside_japanese(re.sub(r"\{\s*\$\w+\s*\}", J.NAME, source))
        if hits:
            found[key] = hits
    assert found == {}


def test_one_register_per_kind_of_message():
    """です/ます in everything said to a player (events, errors, panels, prompts); the plain form in
    log lines and image descriptions; labels (buttons, terms, options) are words, not sentences."""
    polite = [k for k in JA if J.kind(k) == "polite"]
    plain = [k for k in JA if J.kind(k) == "plain"]
    assert len(polite) > 600 and len(plain) > 50
    neutral = (1, 2, "P1")  # names whose own last letter is not a sentence's end
    assert problems(J.plain_endings, polite, neutral) == {}
    assert problems(J.polite_forms, plain, neutral) == {}


def test_each_game_says_a_move_with_its_own_verb():
    """Issue #43: 指しました (shogi's and go's verb) for every game; each game's verb is its rulebook's,
    as docs/japanese.md's table says."""
    # 指し示す (a tile "points" somewhere) is not a verb of play.
    assert not [k for k, v in JA.items() if re.search(r"(?<!目)指[しす](?!示)", v)]
    guide = (ROOT / "docs" / "japanese.md").read_text(encoding="utf-8")
    from games import all_games

    for game in all_games():
        line = i18n.t("ja", f"turn.played.{game.name}", player="P1", action="x")
        verb = re.search(rf"^\| [^|]*`{game.name}`[^|]* \| ([^|]+) \|", guide, re.M)
        assert verb, f"docs/japanese.md names no verb for {game.name}"
        assert verb[1].strip() in line, (game.name, line)


@pytest.mark.parametrize("key, wrong", [
    ("term.monsterhunter.disc_ask", "手札の捨て札"),  # the hand's discard pile, not the hand phase's discards
    ("term.monsterhunter.disc_none", "手札の捨て札"),
    ("game.hostile.title", "(HOSTILE)"),
])
def test_words_the_issue_found_wrong(key, wrong):
    assert wrong not in JA[key]


def test_the_fair_play_line_says_the_commands_output_matches():
    line = i18n.t("ja", "game.reveal", seed=1, salt="s")
    assert "`の出力が" in line and "コミットと一致" in line


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_fair_play_command_exists(lang):
    """The reveal line named ``python -m bot.fairplay``, a module that does not exist."""
    import importlib.util

    module = re.search(r"python -m ([\w.]+)", i18n.t(lang, "game.reveal", seed=1, salt="s"))[1]
    assert importlib.util.find_spec(module) is not None, module
