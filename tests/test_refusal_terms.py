"""Every game term a refusal uses is defined on that game's rules page (issue #43), in both
languages. bot/i18n/terms.json lists, per game, the terms its refusals (the ``error.*`` messages of
its catalogue file) use, each as the refusal says it in English and in Japanese; the rest of a
refusal's words must be plain words (the file's ``plain`` lists). So a refusal that starts using a
new word fails here until the word is either listed as a term, and defined on the rules page, or
judged a plain word.

Words are found as a reader sees them: code in backticks and parameters are left out; in English
each word, in Japanese each run of kanji and katakana (particles and verb endings in hiragana
separate them), once the listed terms are taken out.
"""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from bot import i18n
from bot.common.rules_doc import rules_text
from games import all_games

TERMS = json.loads((resources.files("bot.i18n") / "terms.json").read_text(encoding="utf-8"))
GAMES = {game.name: game for game in all_games()}
LANGS = i18n.LANGUAGES
EN_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]")
JA_RUN = re.compile(r"[\u4e00-\u9fff\u30a1-\u30fa\u30fcー]+")  # kanji, katakana and the long-vowel mark


def refusals(game: str, lang: str) -> dict[str, str]:
    """A game's refusals as a player reads them, code and parameters left out."""
    own = i18n.catalogue_files(lang)[game]
    out = {}
    for key in own:
        if key.startswith("error."):
            text = i18n.t(lang, key, **{name: 1 for name in i18n.placeholders(own[key])})
            out[key] = re.sub(r"`[^`]*`", " ", text)
    return out


def term_pattern(form: str, lang: str) -> re.Pattern:
    """Where a term stands in a text: in English a whole word or phrase, in any case, also as a
    plural or possessive; in Japanese as it is written."""
    if lang == "ja":
        return re.compile(re.escape(form))
    return re.compile(r"(?<![\w-])" + re.escape(form) + r"(?:s|es)?(?:'s)?(?![\w-])", re.IGNORECASE)


def forms(term: dict, lang: str) -> list[str]:
    return term[lang] if isinstance(term[lang], list) else [term[lang]]


def strange_words(text: str, lang: str, terms: list[dict], plain: set[str]) -> set[str]:
    """The words of a text that are neither a listed term nor a plain word."""
    for form in sorted((f for term in terms for f in forms(term, lang)), key=len, reverse=True):
        text = term_pattern(form, lang).sub(" ", text)  # longest first: `weapon icon` before `icon`
    if lang == "ja":
        return {run for run in JA_RUN.findall(text) if run not in plain}
    words = {w.lower().removesuffix("'s") for w in EN_WORD.findall(text)}
    return {w for w in words if w not in plain}


def test_the_terms_file_has_its_shape():
    assert set(TERMS) == {"plain", "games"}
    assert set(TERMS["plain"]) == set(LANGS)
    for lang in LANGS:
        words = TERMS["plain"][lang]
        assert words == sorted(set(words)), f"plain {lang}: sorted, each once"
        assert all(isinstance(w, str) and w.strip() == w and w for w in words)
    assert set(TERMS["games"]) == set(GAMES), "one entry per registered game"
    for game, terms in TERMS["games"].items():
        assert terms, game
        for term in terms:
            assert set(term) == set(LANGS), f"{game}: {term}"
            for lang in LANGS:
                assert forms(term, lang) and all(isinstance(f, str) and f.strip() == f and f
                                                 for f in forms(term, lang)), f"{game}: {term}"
        for lang in LANGS:
            all_forms = [f.lower() for term in terms for f in forms(term, lang)]
            assert len(all_forms) == len(set(all_forms)), f"{game} {lang}: a term listed twice"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_listed_term_is_defined_on_the_rules_page(game, lang):
    rules = rules_text(GAMES[game], lang)
    undefined = [forms(term, lang)[0] for term in TERMS["games"][game]
                 if not any(term_pattern(f, lang).search(rules) for f in forms(term, lang))]
    assert not undefined, f"{game}'s rules page ({lang}) does not define: {undefined}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_listed_term_is_one_a_refusal_uses(game, lang):
    texts = refusals(game, lang).values()
    unused = [forms(term, lang)[0] for term in TERMS["games"][game]
              if not any(term_pattern(f, lang).search(t) for f in forms(term, lang) for t in texts)]
    assert not unused, f"{game} ({lang}): no refusal says {unused}: drop them or fix their wording"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_refusals_use_no_term_the_list_leaves_out(game, lang):
    plain = set(TERMS["plain"][lang])
    found = {}
    for key, text in refusals(game, lang).items():
        strange = strange_words(text, lang, TERMS["games"][game], plain)
        if strange:
            found[key] = sorted(strange)
    assert not found, (f"{game} ({lang}): words that are neither a listed term of bot/i18n/terms.json "
                       f"nor a plain word: {found}")


def test_the_check_catches_what_the_issue_found():
    """Issue #43's refusals: with weapon icon and trade-in unlisted, their words stand out; listed,
    they pass (and must then be defined on the rules page, checked above)."""
    plain = {lang: set(TERMS["plain"][lang]) for lang in LANGS}
    listed = [t for t in TERMS["games"]["monsterhunter"] if forms(t, "en")[0] not in ("weapon icon", "trade-in")]
    en = "Not enough material points (with the trade-in) for that card."
    ja = "素材ポイント（下取りを含む）が足りません。"
    assert strange_words(en, "en", listed, plain["en"]) == {"trade-in"}
    assert "下取" in strange_words(ja, "ja", listed, plain["ja"])
    assert not strange_words(en, "en", TERMS["games"]["monsterhunter"], plain["en"])
    assert not strange_words(ja, "ja", TERMS["games"]["monsterhunter"], plain["ja"])
    weapon = "W03 (`W03`) has another weapon icon than your equipped weapon."
    assert "icon" in strange_words(weapon, "en", listed, plain["en"])
