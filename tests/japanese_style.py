"""The Japanese style guide (docs/japanese.md) as checks on a line of Japanese text.

Each check takes text as a player reads it (a rendered message, parameters filled in) and returns
what breaks the guide, so a test can name the key and the place. Code spans, mentions and links
are not Japanese text: they are left out before checking.
"""

from __future__ import annotations

import re

# Hiragana, katakana, kanji and the full-width forms (、。「」（）！？： ・〜 ...).
JAPANESE = r"\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
_IS_JAPANESE = re.compile(f"[{JAPANESE}]")
_NOT_TEXT = re.compile(r"`[^`]*`|<[@#][!&]?\d+>|<t:\d+(?::\w)?>|https?://\S+")
HALF_WIDTH = "()!?,:"

# Particles (and the counters a number takes) that follow a word without a space.
PARTICLES = ("からの", "までの", "には", "では", "とは", "への", "との", "での", "にも", "でも", "とも", "から", "まで",
             "より", "が", "は", "を", "に", "で", "と", "へ", "も", "の", "や", "枚", "個", "人", "回", "点")
_SPACE_BEFORE_PARTICLE = re.compile(r"(?<=\S) +(" + "|".join(PARTICLES) + r")(?![\u3041-\u3096])")

# The ends of a sentence: polite (です/ます), and plain forms that polite text must not end with.
_POLITE_END = re.compile(r"(ます|です|ました|でした|ません|ましょう|ください|でしょう|ませんか|ですか|ますか)$")
_PLAIN_END = re.compile(r"(る|た|だ|ない|[^さ]い|く|す|う|つ|む|ぶ|ぐ|ぬ|だろう|である)$")
_POLITE_ANYWHERE = re.compile(r"です|ます|ました|でした|ません|ください")
_SENTENCE = re.compile(r"[^。！？\n]+")
_TRAILING = re.compile(r"[\s）」』】…・:：\-—*_~]+$")


def prose(text: str) -> str:
    """The text with what is not Japanese prose (code spans, mentions, times, links) left out."""
    return _NOT_TEXT.sub("X", text).replace("**", "")


def half_width_punctuation(text: str) -> list[str]:
    """Half-width ( ) ! ? , : next to Japanese text (the nearest letter on either side)."""
    text = prose(text)
    found = []
    for i, ch in enumerate(text):
        if ch not in HALF_WIDTH:
            continue
        before = text[:i].rstrip()[-1:]
        after = text[i + 1:].lstrip()[:1]
        if _IS_JAPANESE.match(before or " ") or _IS_JAPANESE.match(after or " "):
            found.append(text[max(0, i - 8): i + 8])
    return found


def spaces_before_particles(text: str) -> list[str]:
    """A space between a word and the particle (or counter) that follows it: ``AI 1（ふつう） が``."""
    return [m.group(0) for m in _SPACE_BEFORE_PARTICLE.finditer(prose(text))]


NAME = "\ue000"  # where a message's source has a parameter
_NEXT_TO_JAPANESE = re.compile(f"[A-Za-z0-9{NAME}]")


def spaces_beside_japanese(source: str) -> list[str]:
    """In a message's source (each parameter written as ``NAME``), a space between Japanese and
    what touches it (Japanese, a parameter, a number, a Latin word, a code span): Japanese text
    runs on without spaces (``{ $seat }が{ $square }で``). Between two parameters, or a parameter
    and Latin text, a space may stay: that is not Japanese text."""
    text = prose(source)
    found = []
    for m in re.finditer(r" +", text):
        before, after = text[:m.start()][-1:] or " ", text[m.end():][:1] or " "
        if ((_IS_JAPANESE.match(before) and (_IS_JAPANESE.match(after) or _NEXT_TO_JAPANESE.match(after)))
                or (_NEXT_TO_JAPANESE.match(before) and _IS_JAPANESE.match(after))):
            found.append(text[max(0, m.start() - 6): m.end() + 6])
    return found


def unpaired_brackets(text: str) -> list[str]:
    """A half-width bracket closing a full-width one or the other way round: ``（HOSTILE)``."""
    stack, found = [], []
    for i, ch in enumerate(prose(text)):
        if ch in "(（":
            stack.append(ch)
        elif ch in ")）" and stack and (stack.pop() == "(") != (ch == ")"):
            found.append(text[max(0, i - 8): i + 1])
    return found


def sentence_ends(text: str) -> list[str]:
    """The end of each sentence of Japanese text (closing brackets, ellipses and spaces left off)."""
    ends = []
    for sentence in _SENTENCE.findall(prose(text)):
        sentence = _TRAILING.sub("", sentence)
        if _IS_JAPANESE.search(sentence):
            ends.append(sentence)
    return ends


def plain_endings(text: str) -> list[str]:
    """Sentences that end in the plain form (``6枚引いた。``), where the text speaks です/ます."""
    return [s[-12:] for s in sentence_ends(text) if _PLAIN_END.search(s) and not _POLITE_END.search(s)]


def polite_forms(text: str) -> list[str]:
    """です/ます in text that is written in the plain form (log lines, descriptions)."""
    return [m.group(0) for m in _POLITE_ANYWHERE.finditer(prose(text))]


# ---- which register each kind of message speaks, by its key ------------------------------------
# Names and labels (a button, an option, a card, a term) are words, not sentences: no register.
LABELS = ("term.", "word.", "choice.", "cmd.", "option.", "form.", "phase.", "colour.", "reason.", "status.",
          "deckname.", "list.", "players.", "player.", "ai.", "duration.", "mh.", "autocomplete.", "seat.",
          "game.arena.title", "game.hostile.title", "game.osu.title", "game.squares.title",
          "game.monsterhunter.title", "lobby.button.", "replay.button.", "undo.button.", "pings.mode.",
          "replay.pov_select", "help.commands", "help.replay",
          # the web table's buttons and headings
          "web.title", "web.you", "web.player_mark", "web.someone", "web.zoom_", "web.back", "web.start_over",
          "web.latest", "web.board", "web.players", "web.history", "web.replay", "web.panel", "web.choices")
# Log lines (the numbered history) and an image's description: the plain form.
PLAIN = ("history.line", "history.taken_back", "history.undo", "history.agreed_end", "history.substitute", "alt.")


def kind(key: str) -> str:
    """``label``, ``plain`` (log lines) or ``polite`` (everything said to a player: events,
    errors, panels, prompts, replies)."""
    if key.startswith(PLAIN):
        return "plain"
    if key.startswith(LABELS) or (key.startswith("perm.") and key.count(".") == 1):
        return "label"
    return "polite"
