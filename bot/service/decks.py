"""Saved decks and saved default policies: per-user things a game may ask for (no game named here).

A game that brings decks says so through the engine contract (``ready_decks``, ``deck_problems``,
``deck_cards``, ``with_deck``); one with standing policies through ``policies``/``policy_action``.
Deck names are NFKC-normalised single words, bounded in length and number per user and game; a
deck name typed (or picked in a panel's deck menu) where the notation takes a deck is expanded into
its code by :func:`logged_action` before the engine sees the action.
"""

from __future__ import annotations

from typing import ClassVar

import re
from collections.abc import Callable, Mapping

import renderers
from games import Game, all_games

from ..workers import pool as workers
from ..i18n import T, Text
from ..storage.rows import GameRow
from .access import Ask, Where
from .core import game_of, is_ai
from .outbox import Outbox, ServiceError
from .settings import normalized
from .words import termed

MAX_DECK_NAME = 32
MAX_DECKS = 25  # per user and game
MAX_DECK_CODE = 400
DECK_NAME = re.compile(r"^[\w-]+$")  # one word (letters of any script, digits, _ and -): it ends a /play line
MAX_POLICY = 40


def logged_action(game: Game, action: str, saved: Mapping[str, str] | None = None) -> str:
    """The action as it is played and logged, for one a player clicked, picked in a menu or typed:
    the engine's canonical notation, with a deck *name* where the notation takes a deck (one of
    the player's ``saved`` decks ``{name: code}``, else a ready deck) replaced by that deck's code.
    Buttons and menu options carry deck names (short, and the player's own words), so this is the
    one mapping from what a player chose to what the log holds; tests that check the log against
    what players were told use it too.

    >>> from games import get_game
    >>> g = get_game("monsterhunter")
    >>> logged_action(g, "take h3 2a ready-h02") == "take H03 2A " + g.ready_decks()["ready-h02"]
    True
    >>> logged_action(g, "take H01 2A ready-h01"), logged_action(g, "take H01 2A mine", {"mine": "A01x3"})
    ('take H01 2A', 'take H01 2A A01x3')
    """
    words = action.split()
    if len(words) >= 2 and game.ready_decks():
        name = words[-1]
        code = (saved or {}).get(name) or game.ready_decks().get(name)
        if code is not None and (full := game.with_deck(game.canonical(" ".join(words[:-1])), code)) is not None:
            action = full
    return game.canonical(action)


def deck_labels(game: Game, prefix: tuple[str, ...], actions: list[str],
                worded: Callable[[str], Text | None] = lambda action: None) -> dict[str, Text]:
    """Words for the options of a deck menu (the level below an action that takes a deck): a
    saved deck by its name, a ready deck by its title, the plain action as the default deck.
    Where deck choices show among other actions (few enough to be buttons), each also names the
    action it completes, in ``worded`` words where the game has them."""
    offered, ready, out = set(actions), game.ready_decks(), {}
    if not ready:
        return out
    for a in actions:
        base, _, name = a.rpartition(" ")
        if base in offered and game.with_deck(base, name) == a:
            deck = (T("deck.option_ready", title=T(f"deckname.{game.name}.{name}")) if name in ready
                    else T("deck.option_saved", name=name))
            out[a] = deck if prefix and prefix[-1] == base else T("deck.option_with", action=worded(base) or base,
                                                                                 deck=deck)
        elif prefix and prefix[-1] == a and game.with_deck(a, "-") is not None:
            out[a] = T("deck.option_default")
    return out


def deck_question(game: Game, prefix: tuple[str, ...]) -> Text | None:
    """The prompt of a deck menu, or None when ``prefix`` does not end at an action taking a deck."""
    if prefix and game.ready_decks() and game.with_deck(prefix[-1], "-") is not None:
        return T("deck.menu")
    return None


def deck_games() -> list[Game]:
    """The registered games in which players bring decks."""
    return [g for g in all_games() if g.ready_decks()]


def policy_games() -> list[Game]:
    return [g for g in all_games() if g.policies()]


def _one_of(games: list[Game], name: str | None, none_key: str) -> Game:
    """The game named, or the only game of its kind when none is named."""
    if name:
        game = game_of(name)
        if game not in games:
            raise ServiceError(none_key, game=T(f"game.{game.name}.title"))
        return game
    if len(games) != 1:
        raise ServiceError("deck_which_game" if none_key == "deck_no_decks" else "policy_which_game",
                           games=[T(f"game.{g.name}.title") for g in games])
    return games[0]


class Decks:
    uses: ClassVar[tuple[str, ...]] = ()

    # ---- /deck ---------------------------------------------------------------------------------------
    def _deck_game(self, name: str | None) -> Game:
        return _one_of(deck_games(), name, "deck_no_decks")

    @staticmethod
    def _deck_name(name: str | None) -> str:
        clean = normalized(name, MAX_DECK_NAME, "deck_name_long")
        if not clean or not DECK_NAME.match(clean):
            raise ServiceError("deck_name_bad", limit=MAX_DECK_NAME)
        return clean

    @staticmethod
    def _problem_lines(game: Game, code: str) -> list[Text]:
        return [T(f"deck.{game.name}.{p['type']}", **termed(game, {k: v for k, v in p.items() if k != "type"}))
                for p in game.deck_problems(code)]

    async def deck_list(self, user_id: int, game_name: str | None = None) -> Outbox:
        game = self._deck_game(game_name)
        saved = await self.store.decks(user_id, game.name)
        lines = [T("deck.list_header", game=T(f"game.{game.name}.title"), count=len(saved), limit=MAX_DECKS)]
        lines += [T("deck.ready_line", name=name, title=T(f"deckname.{game.name}.{name}"))
                  for name in game.ready_decks()]
        lines += [T("deck.saved_line", name=name, cards=sum(n for _, n in game.deck_cards(code)))
                  for name, code in saved]
        if not saved:
            lines.append(T("deck.none_saved"))
        return Outbox(reply=lines)

    async def _deck_code(self, user_id: int, game: Game, name: str) -> str | None:
        return await self.store.deck(user_id, game.name, name) or game.ready_decks().get(name)

    async def deck_show(self, user_id: int, name: str, game_name: str | None = None) -> Outbox:
        game = self._deck_game(game_name)
        name = self._deck_name(name)
        code = await self._deck_code(user_id, game, name)
        if code is None:
            raise ServiceError("deck_not_found", name=name)
        cards = game.deck_cards(code)
        listed = termed(game, {"deck_cards": [c for c, n in cards for _ in range(n)]})["deck_cards"]
        lines = [T("deck.show_header", name=name, game=T(f"game.{game.name}.title"),
                   cards=sum(n for _, n in cards)),
                 T("deck.cards", cards=listed),  # by name and number: the picture by name and its numbers
                 T("deck.code", code=code)]
        lang = (await self._view_prefs([user_id])).get(user_id, {}).get("lang")   # the reader's own, where known
        image = await workers.run(self.executor, renderers.render_deck, game.name, cards, lang)
        return Outbox(reply=lines, reply_image=image)

    async def deck_save(self, user_id: int, name: str, code: str, game_name: str | None = None) -> Outbox:
        game = self._deck_game(game_name)
        name = self._deck_name(name)
        code = normalized(code, MAX_DECK_CODE, "deck_code_long")
        if name in game.ready_decks():
            raise ServiceError("deck_name_reserved", name=name)
        problems = self._problem_lines(game, code)
        if problems:
            raise ServiceError("deck_refused", name=name, problems=problems)
        saved = [n for n, _ in await self.store.decks(user_id, game.name)]
        if name not in saved and len(saved) >= MAX_DECKS:
            raise ServiceError("deck_limit", limit=MAX_DECKS)
        replaced = await self.store.save_deck(user_id, game.name, name, code, self.now_stamp())
        return Outbox(reply=[T("deck.replaced" if replaced else "deck.saved", name=name,
                               game=T(f"game.{game.name}.title"))])

    async def deck_delete(self, user_id: int, name: str, game_name: str | None = None) -> Outbox:
        game = self._deck_game(game_name)
        name = self._deck_name(name)
        if name in game.ready_decks():
            raise ServiceError("deck_name_reserved", name=name)
        if not await self.store.delete_deck(user_id, game.name, name):
            raise ServiceError("deck_not_found", name=name)
        return Outbox(reply=[T("deck.deleted", name=name)])

    async def deck_check(self, user_id: int, code: str, game_name: str | None = None) -> Outbox:
        game = self._deck_game(game_name)
        code = normalized(code, MAX_DECK_CODE, "deck_code_long")
        problems = self._problem_lines(game, code)
        if problems:
            return Outbox(reply=[T("deck.check_bad", count=len(problems))] + problems)
        return Outbox(reply=[T("deck.check_good", cards=sum(n for _, n in game.deck_cards(code)))])

    async def deck_names(self, user_id: int, game_name: str | None = None) -> list[str]:
        """The user's saved deck names and the ready decks, for autocomplete."""
        try:
            game = self._deck_game(game_name)
        except ServiceError:
            return []
        return [n for n, _ in await self.store.decks(user_id, game.name)] + list(game.ready_decks())

    # ---- decks inside a game ---------------------------------------------------------------------------
    async def _offered(self, row: GameRow, game: Game, seat: int) -> list[str]:
        """A seat's legal actions, plus, where the notation takes a deck, one per deck the player
        saved and then one per ready deck (a deck menu below each such action; the plain action is
        the default deck). Options carry deck names; :func:`logged_action` expands them."""
        legal = game.legal_actions(row.state, seat)
        user_id = row.user_of(seat)
        if not game.ready_decks() or is_ai(user_id) or not any(game.with_deck(a, "-") for a in legal):
            return legal
        names = [n for n, _ in await self.store.decks(user_id, game.name)] + list(game.ready_decks())
        return legal + [full for a in legal for n in names if (full := game.with_deck(a, n)) not in (None, a)]

    async def _saved_deck(self, game: Game, user_id: int, action: str) -> dict[str, str]:
        """The user's saved deck named by the action's last word, as ``{name: code}`` (or nothing),
        for :func:`logged_action`."""
        words = action.split()
        if len(words) < 2 or not game.ready_decks() or is_ai(user_id):
            return {}
        code = await self.store.deck(user_id, game.name, words[-1])
        return {words[-1]: code} if code is not None else {}

    async def deck_completions(self, game_id: int, user_id: int, typed: str, *,
                               where: Where | None = None) -> list[str]:
        """Autocomplete where a deck is typed: after a legal action that takes one, the deck names."""
        row, game = await self._load_active(game_id, Ask("panel", user_id, where))
        seat = row.seat_of(user_id)
        if seat is None or not game.ready_decks():
            return []
        words = typed.split()
        base = game.canonical(" ".join(words[:3])) if len(words) >= 3 else ""
        if not base:
            return []
        async with self._stored(game_id):
            legal = game.legal_actions(row.state, seat)
        if base not in legal or game.with_deck(base, "-") is None:
            return []
        start = words[3] if len(words) > 3 else ""
        names = [n for n, _ in await self.store.decks(user_id, game.name)] + list(game.ready_decks())
        return [f"{base} {n}" for n in names if n.lower().startswith(start.lower())]

    # ---- saved default policies ---------------------------------------------------------------------
    async def set_policy(self, user_id: int, text: str, game_name: str | None = None) -> Outbox:
        """Save ``key:value`` as the user's default policy for a game (played for them as an
        ordinary action at their first chance in each new game); the game's first value clears it."""
        game = _one_of(policy_games(), game_name, "policy_none")
        kinds = game.policies()
        choices = " ".join(f"{k}:{'|'.join(v)}" for k, v in kinds.items())
        # Too long to be a policy is refused like any other text that is not one: with the list.
        raw = normalized(text, MAX_POLICY, "policy_bad", choices=choices).lower().replace("=", ":")
        key, _, value = raw.partition(":")
        if key.strip() not in kinds or value.strip() not in kinds[key.strip()]:
            raise ServiceError("policy_bad", choices=choices)
        key, value = key.strip(), value.strip()
        preferences = await self.store.preferences(user_id)
        mine = dict(preferences.get(game.name, {}))
        if value == kinds[key][0]:
            mine.pop(key, None)  # the game's default: nothing to play for you
        else:
            mine[key] = value
        preferences[game.name] = mine
        await self.store.set_preferences(user_id, preferences)
        return Outbox(reply=[T("policy.saved", game=T(f"game.{game.name}.title"),
                               policies=" ".join(f"`{k}:{v}`" for k, v in sorted(mine.items())) or "-")])

    async def policy_choices(self) -> list[tuple[str, str]]:
        """(game, key:value) for every game with policies, for autocomplete."""
        return [(g.name, f"{k}:{v}") for g in policy_games() for k, values in g.policies().items() for v in values]
