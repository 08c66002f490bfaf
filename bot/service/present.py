"""What players read and see: names, event lines, board posts, panels and their controls.

Everything here is built from a game's row and its views (never another seat's secrets), and
returned as Text for the catalogues; images are drawn through the host's render pool.
"""

from __future__ import annotations

from typing import ClassVar

import asyncio
import logging

from games import Game, Outcome, events_for
from renderers.common import SHAPE_SYMBOLS, player_style

from ..common import fairplay
from .. import i18n
from ..i18n import T, Text
from ..storage.rows import GameRow, user_rating_key
from .core import is_ai, turn_of
from .decks import deck_labels, deck_question
from .words import alt_seat, position_words, termed
from .outbox import MOST_ACTION_BUTTONS, Controls, EndedUndo, GameSummary, Outbox, Post, Private
from .settings import discord_time

log = logging.getLogger("bot.service")
SEAT_PARAMS = ("seat", "attacker", "defender", "winner", "loser", "pushed_seat")  # event params naming seats


def seat_mark(seat: int, short: bool = False) -> Text:
    """A seat as the images draw it: its letter, shape and (unless ``short``) colour name."""
    style = player_style(seat)
    shape = SHAPE_SYMBOLS.get(style.shape, "")
    if short:
        return T("seat.mark_short", letter=style.letter, shape=shape)
    return T("seat.mark", letter=style.letter, shape=shape, colour=T(f"colour.{style.name}"))


def rides(row: GameRow) -> bool:
    """A game played where the bot cannot post on its own (a group DM, a server that never added
    it): its boards ride the players' interactions (docs/permissions.md)."""
    return bool(row.settings.get("rides"))


def keeps_digests(row: GameRow) -> bool:
    """The game keeps digests of what each one sees (Game.public_digest): a step may post nothing."""
    return "board_from" in row.settings


def seat_colour(seat: int) -> int:
    """A seat's colour in the images as 0xRRGGBB (a board message's frame takes it)."""
    r, g, b = player_style(seat).colour
    return (r << 16) | (g << 8) | b


def user_name(user_id: int) -> str | Text:
    """A mention for people (pinging only those in a post's mentions), a label for AI seats."""
    return T("player.ai", n=-user_id) if is_ai(user_id) else f"<@{user_id}>"


def rated_name(player: str) -> str | Text:
    """A rated player's key ("user:<id>", "ai:<level>") as people read it."""
    kind, _, rest = player.partition(":")
    return f"<@{rest}>" if kind == "user" else T("player.ai_rated", level=T(f"ai.level.{rest}"))



def player_counts(game) -> Text | str:
    """How many may play, in words: "2", "2 or 4", "2 to 4" (never "2/4", read as "2 of 4")."""
    counts = sorted(game.player_counts())
    if len(counts) == 1:
        return str(counts[0])
    if len(counts) >= 3 and counts == list(range(counts[0], counts[-1] + 1)):
        return T("players.range", low=counts[0], high=counts[-1])
    return T("players.either", first=[str(c) for c in counts[:-1]], last=counts[-1])


class Presenter:
    uses: ClassVar[tuple[str, ...]] = ("Consent", "Decks", "Pings", "Quiet")
    # A finished game's rating changes are posted; the local driver turns this off, since its
    # throwaway database's ratings mean nothing.
    shows_ratings: bool = True

    # ---- names and lines ---------------------------------------------------------------------------
    def _name(self, row: GameRow, seat: int) -> str | Text:
        user_id = row.user_of(seat)
        if user_id is None:
            return f"#{seat + 1}"
        level = row.settings.get("ai_levels", {}).get(str(user_id)) if is_ai(user_id) else None
        return T("player.ai_level", n=-user_id, level=T(f"ai.level.{level}")) if level else user_name(user_id)

    def _names(self, row: GameRow, seats) -> list[str | Text]:
        return [self._name(row, s) for s in seats]

    def _seat_list(self, row: GameRow) -> list[Text]:
        return [T("game.seat", mark=seat_mark(s.seat), player=self._name(row, s.seat)) for s in row.seats]

    def _marked(self, row: GameRow, seats) -> list[Text]:
        """Players with the letter, shape and colour their seat has in the images."""
        return [T("seat.named", mark=seat_mark(s, short=True), player=self._name(row, s)) for s in seats]

    @staticmethod
    def _shown(game: Game, action: str) -> str:
        return action if game.action_is_public(action) else "🔒"

    def _action_lines(self, row: GameRow, game: Game, seat: int, action: str, events: list[dict]) -> list[Text]:
        """What the channel reads about one action: its public events, or the action in words."""
        if lines := self._event_lines(row, game, events):
            return lines
        played = f"turn.played.{game.name}"  # each game's own verb (its rulebook's)
        played = played if i18n.has(played) else "turn.played"
        if not game.action_is_public(action):
            return [T(played, player=self._name(row, seat), action="🔒")]
        words = self._choice_text(game, game.action_path(action), game.view(row.state, None))
        if words is None:
            return [T(played, player=self._name(row, seat), action=action)]
        return [T("turn.played_words", player=self._name(row, seat), words=words, action=action)]

    @staticmethod
    def _worded(game: Game, family: str, words: dict | None) -> Text | None:
        """A game's words ``{"type": t, **params}`` as the catalogue entry ``<family>.<game>.<t>``."""
        if words is None:
            return None
        params = {k: v for k, v in words.items() if k != "type"}
        return T(f"{family}.{game.name}.{words['type']}", **termed(game, params))

    def _choice_text(self, game: Game, path: tuple[str, ...], view: dict | None = None) -> Text | None:
        """A choice in words; ``view`` (the position as the reader sees it) lets a game name what
        the notation only numbers (Monster Hunter's monsters by their cards)."""
        return self._worded(game, "choice", game.choice_words(tuple(path), view))

    def _phase_text(self, game: Game, state: dict) -> Text | None:
        return self._worded(game, "phase", game.phase_words(state))

    def _event_lines(self, row: GameRow, game: Game, events: list[dict]) -> list[Text]:
        lines = []
        for event in events_for(events, None):
            params = termed(game, {k: v for k, v in event.items() if k not in ("type", "to")},
                            seat_words=lambda s: self._name(row, s))
            for key in SEAT_PARAMS:  # those not named after a seat (``winner``...), or none
                if key in params and (params[key] is None or isinstance(params[key], int)):
                    params[key] = self._name(row, params[key]) if params[key] is not None else "-"
            key = f"event.{game.name}.{event['type']}"
            lines.append(T(key if i18n.has(key) else f"event.{event['type']}", **params))
        return lines

    async def _rating_lines(self, row: GameRow) -> list[Text]:
        """Each seat's rating change from this game, as the ordinal shown everywhere ("26.2 → 27.4 (+1.2)")."""
        if not self.shows_ratings:
            return []
        changes = await self.store.rating_changes(row.id)
        held = row.settings.get("holders", {})  # a seat several people held: each holder's change
        lines = []
        for s in row.seats:
            people = ([(user_rating_key(u), f"<@{u}>") for u in dict.fromkeys(held[str(s.seat)])] if str(s.seat) in held
                      else [(self._player_key(row, s.seat), self._name(row, s.seat))])
            for key, name in people:
                change = changes.get(key)
                if change is None:
                    continue
                before, after = change[0] - 3 * change[1], change[2] - 3 * change[3]
                lines.append(T("rating.change", player=name, before=f"{before:.1f}", rating=f"{after:.1f}",
                               delta=f"{after - before:+.1f}"))
        return [T("rating.header")] + lines if lines else []

    def _reveal_lines(self, row: GameRow) -> list[Text]:
        """The seed and salt behind the start's commitment, and how a game recomputes its dice."""
        lines = [T("game.reveal", seed=row.seed, salt=row.salt or "-")]
        verify = f"rules.{row.game}.verify"
        return lines + [T(verify, seed=row.seed)] if i18n.has(verify) else lines

    def _start_lines(self, row: GameRow, game: Game, header: Text) -> list[Text]:
        return [header, T("game.commitment", hash=fairplay.commitment(row.seed, row.salt))]

    def _outcome_line(self, row: GameRow, outcome: Outcome) -> Text:
        reason = T(f"reason.{outcome.reason}")
        if outcome.draw or not outcome.winners:
            return T("outcome.draw", reason=reason)
        return T("outcome.win", winners=self._names(row, outcome.winners), reason=reason)

    def _state_lines(self, row: GameRow, game: Game) -> list[Text]:
        outcome = game.outcome(row.state)
        if outcome is not None:
            return [self._outcome_line(row, outcome)]
        return [T("turn.waiting", players=self._marked(row, sorted(game.to_act(row.state) - game.retired(row.state))))]

    def _summary_line(self, row: GameRow) -> Text:
        seats = [s.seat for s in row.seats]
        players = self._marked(row, seats) if row.state is not None else self._names(row, seats)
        return T("game.summary", id=row.id, game=T(f"game.{row.game}.title"), status=T(f"status.{row.status}"),
                 players=players)

    def _summary_text(self, s: GameSummary) -> Text:
        players = [user_name(u) for u in s.user_ids]
        waiting = [user_name(u) for u in s.to_act_user_ids]
        away = [T("list.away", player=user_name(u)) for u in s.on_vacation]
        return T("list.line", id=s.id, game=T(f"game.{s.game}.title"), status=T(f"status.{s.status}"),
                 players=players, waiting=waiting, channel=f"<#{s.thread_id or s.channel_id}>",
                 left=discord_time(s.deadline_at), away=away or "")

    # ---- posts -------------------------------------------------------------------------------------
    def _post(self, row: GameRow, lines: list[Text]) -> Post:
        post = Post(row.id, row.thread_id or row.channel_id, lines, lang=row.locale, guild_id=row.guild_id,
                    in_thread=row.thread_id is not None, rides=rides(row))
        if row.thread_id is not None and row.board_message_id == row.thread_id:
            # the board before this one started the thread (a tournament's game): it is in the channel
            post.starter_channel_id = row.channel_id
        return post

    def _lobby_post(self, row: GameRow, game: Game) -> Post:
        defaults = {o.name: o.default for o in game.options}
        chosen = [f"`{k}={v}`" for k, v in row.options.items() if v not in ("", None) and v != defaults.get(k)]
        options = " ".join(chosen) or T("lobby.default_options")
        # an open lobby: who sits so far and how many may play; once started, how many play
        header = "lobby.header" if row.status == "lobby" else "lobby.header_started"
        lines = [T(header, id=row.id, game=T(f"game.{game.name}.title"), seated=len(row.seats),
                   counts=player_counts(game), options=options),
                 T("lobby.players", players=[T("lobby.numbered", n=s.seat + 1, player=self._name(row, s.seat))
                                             for s in row.seats])]
        removable = [(s.seat, T("lobby.remove_option", n=s.seat + 1, player=self._plain_name(row, s.seat)))
                     for s in row.seats if s.user_id != row.creator_id]
        return Post(row.id, row.channel_id, lines, lang=row.locale, guild_id=row.guild_id,
                    lobby=row.status == "lobby", lobby_seats=removable, board_version=row.version,
                    replaces_message_id=row.board_message_id, edit_in_place=True, rides=rides(row))

    def _plain_name(self, row: GameRow, seat: int) -> Text:
        """A name for places where mentions do not show (menu options): AI seats by name, people by number."""
        user_id = row.user_of(seat)
        return self._name(row, seat) if is_ai(user_id) else T("lobby.player_n", n=seat + 1)

    async def _announce(self, outbox: Outbox, row: GameRow, game: Game, lines: list[Text], *,
                        panels_for_all: bool = True, already_asked: set[int] = frozenset(),
                        same_turn: bool = False, quiet_ok: bool = False, board: asyncio.Future | None = None,
                        panels: bool = True, spare_panels: bool = False) -> None:
        """Add the board post (and secret panels) for the game's current version; ``same_turn``
        edits the board of the turn under way instead of posting a new one. ``board`` is its
        image already being drawn (:meth:`_early_board`). Without ``panels``, the board alone
        (its "my panel" button stays); with ``spare_panels``, a panel that cannot be drawn is
        left out rather than failing the board."""
        state = row.state
        await self._retire_notices(outbox, row)  # reminders and notices of turns gone by
        await self._lapse_proposals(row)  # votes and offers of turns gone by
        outcome = game.outcome(state) if row.status != "abandoned" else None
        to_act = self._waiting(row, game)
        humans = [s for s in to_act if not is_ai(row.user_of(s))]
        post = self._post(row, list(lines))
        digests = keeps_digests(row)
        new_wait = row.settings.get("wait_from") == row.version
        if digests and quiet_ok and row.status == "active" and not new_wait and row.settings["board_from"] != row.version:
            # Nothing the channel sees changed and nobody new is waited for: no post, no ping.
            post.quiet, post.lines, post.board_version = True, [], row.version
            if board is not None:
                board.cancel()
            self._status(post, row, game)
            if panels:
                await self._panels(outbox, row, game, humans, spare=spare_panels)
            outbox.posts.append(post)
            return
        public = game.view(state, None)
        # Drawn while the rest is prepared: in the worker pool, the board and the panels of one
        # action are drawn side by side rather than one after another.
        if board is None:
            board = asyncio.ensure_future(self._draw(game.name, public, lang=row.locale))
        try:
            post.alt_lines = self._alt_lines(row, game, public, to_act)
            post.accent = seat_colour(to_act[0]) if to_act and row.status == "active" else None
            post.follow_button = row.status == "active"
            post.board_version, post.turn = row.version, turn_of(row)
            post.replaces_message_id = row.board_message_id
            post.edit_in_place = same_turn and row.board_message_id is not None
            self._status(post, row, game)
            if row.status in ("finished", "abandoned"):
                announced = any(isinstance(line, Text) and line.key.rsplit(".", 1)[-1] in game.outcome_events
                                for line in lines)
                if outcome is not None and not announced:  # the game's own words already said who won
                    post.lines.append(self._outcome_line(row, outcome))
                if row.status == "finished":
                    post.lines += await self._rating_lines(row)
                post.lines += self._reveal_lines(row)
                post.rematch_button = row.status == "finished" and not row.rematch_id
                post.recap = row.status == "finished"
            elif to_act:
                post.lines.append(T("turn.prompt", players=self._marked(row, to_act)))
                if phase := self._phase_text(game, state):
                    post.lines.append(T("turn.phase", phase=phase))
                post.lines += self._clock_lines(row)
                away = [s.seat for s in row.seats if self._on_vacation(s)]
                if away:
                    post.lines.append(T("turn.on_vacation", players=self._names(row, away)))
                post.lines += await self._quiet_lines(row, humans)
                # One ping per wait: with digests, only when a new wait begins, naming everyone it waits for.
                post.mentions = [row.user_of(s) for s in humans] if not digests or new_wait else []
                await self._choose_board_pings(post, row, to_act)  # each player's ping choices
                if game.hidden_information or len(to_act) > 1:
                    post.panel_button = True
                    post.form_button = any(game.form(state, s) is not None for s in humans)
                    if panels and digests:
                        await self._panels(outbox, row, game, humans, spare=spare_panels)
                    elif panels:
                        prefs = await self._view_prefs(row.user_of(s) for s in humans)
                        asked = [s for s in humans if panels_for_all or s not in already_asked]
                        outbox.privates += await self._drawn_panels(row, game, asked, prefs, spare=spare_panels)
                elif humans:
                    post.controls = self._controls(row, game, humans[0])
        except BaseException:
            board.cancel()
            raise
        post.image = await board
        outbox.posts.append(post)

    def _early_board(self, game: Game, row: GameRow) -> asyncio.Future | None:
        """The public board of a draft, drawn while it is saved: what :meth:`_announce` draws for
        it once saved (the view depends on the state alone). Not for a game with digests, whose
        steps often post no board at all."""
        if keeps_digests(row):
            return None
        return asyncio.ensure_future(self._draw(game.name, game.view(row.state, None), lang=row.locale))

    def _alt_lines(self, row: GameRow, game: Game, public: dict, to_act: list[int]) -> list[Text]:
        """The board image's alt text: the game's own words for the PUBLIC position (never a
        seat's view: the post is public), or a generic line naming the game and whose turn it is."""
        lines = position_words(game, public)
        if lines:
            return lines
        turn = (T("board.alt_turn", players=[alt_seat(s) for s in to_act]) if to_act
                else T(f"status.{row.status}"))
        return [T("board.alt", game=T(f"game.{game.name}.title"), id=row.id, move=row.version, turn=turn)]

    @staticmethod
    def _clock_lines(row: GameRow) -> list[Text]:
        """A running game's deadline, or that the players paused it."""
        if row.status != "active":
            return []
        if row.deadline_at:
            return [T("turn.deadline", left=discord_time(row.deadline_at))]
        return [T("consent.paused_status")] if row.settings.get("paused") else []

    def _status(self, post: Post, row: GameRow, game: Game) -> None:
        """The thread's pinned status lines for this version (with "Follow" while the game runs).
        Where the bot may not pin (``settings["pins"]``, read at ``/game new`` and Start), an
        unpinned status would sink under the boards: every board opens with the game's summary
        instead (whose turn, the deadline and the outcome are in the board already)."""
        post.follow_button = row.status == "active"
        if row.thread_id and not row.settings.get("pins", True):
            post.lines.insert(0, self._summary_line(row))
        elif row.thread_id:
            post.status_lines = [self._summary_line(row)] + self._state_lines(row, game)
            post.status_lines += self._clock_lines(row)
            post.status_message_id = row.status_message_id

    async def _panels(self, outbox: Outbox, row: GameRow, game: Game, humans: list[int], *,
                      spare: bool = False) -> None:
        """Panels of a game with private digests: only to seats whose panel changed at this version."""
        panels = row.settings.get("panels", {})
        changed = [s for s in humans if str(s) in panels and panels[str(s)][1] == row.version]
        prefs = await self._view_prefs(row.user_of(s) for s in changed)
        outbox.privates += await self._drawn_panels(row, game, changed, prefs, spare=spare)

    async def _drawn_panels(self, row: GameRow, game: Game, seats: list[int], prefs: dict[int, dict], *,
                            spare: bool = False) -> list[Private]:
        """Seats' panels, drawn side by side. ``spare``: a panel that fails is logged and left out
        (a board posted again must not wait on a panel that cannot be drawn; its player still has
        the "my panel" button)."""
        drawn = await asyncio.gather(*(self._private(row, game, s, prefs) for s in seats), return_exceptions=spare)
        kept = []
        for seat, panel in zip(seats, drawn):
            if isinstance(panel, Exception):
                log.error("game %s: the panel of seat %s could not be drawn", row.id, seat, exc_info=panel)
            elif isinstance(panel, BaseException):
                raise panel
            else:
                kept.append(panel)
        return kept

    def _controls(self, row: GameRow, game: Game, seat: int, prefix: tuple[str, ...] = (),
                  actions: list[str] | None = None) -> Controls:
        if actions is None:
            actions = game.legal_actions(row.state, seat)
        view = game.view(row.state, seat)  # what the seat sees names the things its choices number

        def worded(action: str) -> Text | None:
            return self._choice_text(game, game.action_path(action), view)

        pinned = [a for a in actions if a in game.pinned_actions] if not prefix else []
        actions = [a for a in actions if a not in pinned]
        choices: dict[str, list[str]] = {}
        paths: dict[str, tuple[str, ...]] = {}
        for a in actions:
            path = game.action_path(a)
            step = path[len(prefix)] if len(path) > len(prefix) else a
            choices.setdefault(step, []).append(a)
            paths.setdefault(step, path[: len(prefix) + 1] if len(path) > len(prefix) else path)
        labels = {step: text for step, path in paths.items()
                  if (text := self._choice_text(game, path, view)) is not None}
        for under in choices.values():  # whole actions are shown as buttons, or as a step's only action
            for a in under:
                if (len(actions) <= MOST_ACTION_BUTTONS or len(under) == 1) and a not in labels and (
                        text := worded(a)) is not None:
                    labels[a] = text
        for a in pinned:
            if (text := worded(a)) is not None:
                labels[a] = text
        labels.update(deck_labels(game, tuple(prefix), actions, worded))  # in a deck menu, decks are the choice
        question = (self._worded(game, "menu", game.menu_words(tuple(prefix), tuple(choices), view))
                    or deck_question(game, tuple(prefix)))
        form = not prefix and game.form(row.state, seat) is not None
        return Controls(row.id, row.version, prefix, choices, labels, question, pinned, form)

    async def _private(self, row: GameRow, game: Game, seat: int, prefs: dict[int, dict] | None = None) -> Private:
        """A seat's panel, drawn with its player's view choices (``prefs`` by user id, read once
        per outbox by the caller; read here when not given)."""
        view = game.view(row.state, seat)
        user_id = row.user_of(seat)
        if prefs is None:
            prefs = await self._view_prefs([user_id])
        lines = [T("panel.header", id=row.id, game=T(f"game.{game.name}.title"), seat=seat_mark(seat))]
        lines += [T(f"panel.{game.name}.{note['type']}", **self._note_params(row, game, view, note))
                  for note in game.panel_notes(view)]
        controls = None
        if game.legal_actions(row.state, seat):  # to act, or (secret orders) still free to change
            controls = self._controls(row, game, seat, actions=await self._offered(row, game, seat))
            lines.append(T("panel.your_choice"))
        else:
            lines.append(T("panel.waiting"))
        image = await self._draw(game.name, view, panel=True, seat=seat, prefs=prefs.get(user_id), lang=row.locale)
        return Private(user_id, row.id, lines, image, controls,
                       home_channel_id=row.thread_id or row.channel_id, home_lang=row.locale, rides=rides(row))

    def _note_params(self, row: GameRow, game: Game, view: dict, note: dict) -> dict:
        """A panel note's params in words; one ending in ``_choice`` is an action (what ``go``
        would play, say), said as the game words that choice, else in its notation."""
        params = {k: v for k, v in note.items() if k != "type"}
        for key, action in params.items():
            if key.endswith("_choice") and isinstance(action, str):
                params[key] = self._choice_text(game, game.action_path(action), view) or action
        return termed(game, params, seat_words=lambda s: self._name(row, s))

    async def _address(self, outbox: Outbox) -> Outbox:
        """Fill in what delivery needs from storage (languages, DM choices) in one read."""
        people = [p.user_id for p in outbox.privates + outbox.dm_probes]
        people += [u for post in outbox.posts for u in post.mentions] + [n.user_id for n in outbox.notices]
        settings = await self.store.users_settings([u for u in people if not is_ai(u)]) if people else {}
        await self._hold_for_quiet(outbox, settings)
        def language(user_id: int, fallback: str) -> str:
            return (settings.get(user_id) or {}).get("locale") or fallback

        for private in outbox.privates + outbox.dm_probes:
            private.lang = language(private.user_id, private.home_lang)
        for post in outbox.posts:
            await self._route_board_pings(post, settings)  # channel, DM or both, as each player chose
        await self._ended_undo_posts(outbox)
        await self._ended_proposal_posts(outbox)
        return outbox

    async def _ended_undo_posts(self, outbox: Outbox) -> None:
        """Every post about a game also retires that game's ended undo requests' buttons; a
        retirement lost to a crash is picked up by the game's next post."""
        homes = {post.game_id: post.channel_id for post in outbox.posts}
        for game_id, home in homes.items():
            for version, message_id in await self.store.ended_undo_posts(game_id):
                outbox.retire_undo.append(EndedUndo(game_id, home, version, message_id))
