"""Play: actions, menus that drill down, resigning, abandoning, and what a player may look at."""

from __future__ import annotations

from typing import ClassVar

from games.replay import AGREED_END, CONCESSIONS

from ..i18n import T, Text
from ..storage.rows import Draft
from .access import Ask, Where
from .core import is_ai, on_latest
from .decks import logged_action
from .outbox import Outbox, Private, ServiceError
from .present import seat_mark, user_name
from ..storage.undo_log import standing, undo_target

HISTORY_PAGE = 40


class Play:
    uses: ClassVar[tuple[str, ...]] = ("Dashboards", "Decks", "Follow", "Pings", "Presenter", "Quiet")

    @on_latest
    async def act(self, game_id: int, user_id: int, action: str, seen_version: int | None = None, *,
                  typed: bool = False, where: Where | None = None) -> Outbox:
        """Apply one action for the user's seat. Refusals raise ServiceError and change nothing.

        ``seen_version`` is the version a button was drawn for; a ``typed`` line has none and is
        checked against the last board posted instead.
        """
        action = self._bounded_action(action)
        async with self._lock(game_id):
            row, game = await self._load_active(game_id, Ask("act", user_id, where))
            seat = self._seat(row, user_id)
            await self._check_fresh(row, seat, seen_version, typed=typed)
            draft = Draft.of(row)
            saved = await self._saved_deck(game, user_id, action)
            as_typed = action
            async with self._engine(game_id, on_input=True):
                chosen = game.canonical(action)  # as the player named it: the reply repeats this
                action = logged_action(game, action, saved)
                waiting_before = game.to_act(row.state) - {seat}
                simultaneous = bool(waiting_before)  # others act in this step too: may we still change ours?
                events = self._play(draft, game, seat, user_id, action, as_typed=as_typed)
                lines = self._action_lines(draft.row, game, seat, action, events) + await self._run_ai(draft, game)
                early = self._early_board(game, draft.row)
            try:
                row = await self._save(draft)
            except BaseException:
                if early is not None:
                    early.cancel()
                raise
            outbox = Outbox(reply=[T("turn.accepted", action=self._echo(chosen))])  # the actor may see their own
            if draft.undoable and row.status == "active":  # only while taking it back stays fair
                outbox.reply_undo = (row.id, row.version)
            async with self._once_saved(outbox, row):
                # Panels go only to seats that are newly asked, so waiting players get no repeat DMs.
                # Within one player's turn of several actions, the turn's board is edited, not posted anew.
                same_turn = row.status == "active" and not simultaneous and game.to_act(row.state) == {seat}
                await self._announce(outbox, row, game, lines, panels_for_all=False, already_asked=waiting_before,
                                     same_turn=same_turn, quiet_ok=True, board=early)
                if "panels" in row.settings:  # a game with private digests (others keep their DMs)
                    self._panel_in_reply(outbox, user_id)
                if row.status == "active":
                    await self._last_one_notice(outbox, row, game, waiting_before | {seat})
                if (simultaneous and row.status == "active" and seat not in game.to_act(row.state)
                        and game.legal_actions(row.state, seat)):
                    outbox.reply.append(T("turn.may_change"))  # e.g. a secret order, changeable until all are in
                    outbox.reply_controls = self._controls(row, game, seat)
                await self._address(outbox)
            return outbox

    @staticmethod
    def _echo(action: str) -> str:
        """The action as the reply repeats it: a whole deck code is shortened (it is the player's own)."""
        return action if len(action) <= 60 else action[:57] + "…"

    @staticmethod
    def _panel_in_reply(outbox: Outbox, user_id: int) -> None:
        """The actor's next panel goes in the answer to their click, not in a second message."""
        mine = [p for p in outbox.privates if p.user_id == user_id]
        if not mine or outbox.reply_controls is not None:
            return
        panel = mine[-1]
        outbox.privates = [p for p in outbox.privates if p.user_id != user_id]
        outbox.reply += panel.lines
        outbox.reply_image, outbox.reply_controls = panel.image, panel.controls

    async def drill(self, game_id: int, user_id: int, seen_version: int, prefix: tuple[str, ...], *,
                    where: Where | None = None) -> Outbox:
        """One step further down an action's path: offer the next steps, or play a finished path."""
        row, game = await self._load_active(game_id, Ask("act", user_id, where))
        seat = self._seat(row, user_id)
        await self._check_fresh(row, seat, seen_version)
        async with self._stored(game_id):
            if not game.legal_actions(row.state, seat):
                raise ServiceError("not_your_turn")
            legal = await self._offered(row, game, seat)
            below = [a for a in legal if game.action_path(a)[: len(prefix)] == prefix]
            if not below:
                raise ServiceError("stale")
            if len(below) == 1 and len(game.action_path(below[0])) == len(prefix):
                action = below[0]
            else:
                controls = self._controls(row, game, seat, prefix, below)
                view = game.view(row.state, seat)
                chosen = [self._choice_text(game, prefix[: i + 1], view) or prefix[i] for i in range(len(prefix))]
                return Outbox(reply=[T("turn.choose", group=chosen)], reply_controls=controls)
        return await self.act(game_id, user_id, action, seen_version=seen_version, where=where)

    @on_latest
    async def resign(self, game_id: int, user_id: int, *, where: Where | None = None) -> Outbox:
        async with self._lock(game_id):
            row, game = await self._load_active(game_id, Ask("resign", user_id, where))
            seat = self._seat(row, user_id)
            draft = Draft.of(row)
            async with self._engine(game_id):
                state, events = game.resign(row.state, seat)
                self._record(draft, game, seat, user_id, "resign", state)
            row = await self._save(draft)
            outbox = Outbox(reply=[T("game.you_resigned", id=game_id)])
            async with self._once_saved(outbox, row):
                await self._announce(outbox, row, game, self._event_lines(row, game, events))
                await self._address(outbox)
            return outbox

    @on_latest
    async def abandon(self, game_id: int, user_id: int, *, where: Where | None = None) -> Outbox:
        async with self._lock(game_id):
            # The way out a set-aside game's refusal names: it ends like any other, without its
            # board (its state is what could not be read).
            row = await self._load(game_id, Ask("abandon", user_id, where), set_aside_too=True)
            if row.status not in ("lobby", "active"):
                raise ServiceError(f"game_{row.status}", id=game_id)
            game = None if row.broken_reason else (await self._readable(row))[1]
            draft = Draft.of(row)
            draft.row.status, draft.row.deadline_at = "abandoned", None
            draft.bump()
            draft.row.step_version = draft.row.version
            row = await self._save(draft)
            outbox = Outbox(reply=[T("game.you_abandoned", id=game_id)])
            async with self._once_saved(outbox, row):
                post = self._post(row, [T("game.abandoned", id=game_id, by=f"<@{user_id}>")])
                if row.state is not None and game is not None:
                    post.lines += self._reveal_lines(row)
                    public = game.view(row.state, None)
                    post.image = await self._draw(game.name, public, lang=row.locale)
                    post.alt_lines = self._alt_lines(row, game, public, [])
                    post.board_version = row.version
                    post.replaces_message_id = row.board_message_id
                outbox.posts.append(post)
                await self._address(outbox)
            return outbox

    def _actor(self, row, entry) -> Text | str:
        """Who made a log entry: the person who did (a seat may have changed hands since), else the seat."""
        return user_name(entry.user_id) if entry.user_id is not None and not is_ai(entry.user_id) \
            else self._name(row, entry.seat)

    @staticmethod
    def _handover_line(h) -> Text:
        return T("history.substitute", mark=seat_mark(h.seat), player=f"<@{h.from_user}>", to=f"<@{h.to_user}>")

    # ---- looking -----------------------------------------------------------------------------------
    async def legal_actions(self, game_id: int, user_id: int, *, where: Where | None = None) -> list[str]:
        row, game = await self._load_active(game_id, Ask("panel", user_id, where))
        seat = row.seat_of(user_id)
        if seat is None:
            return []
        async with self._stored(game_id):
            return game.legal_actions(row.state, seat)

    async def status(self, game_id: int, user_id: int | None = None, *, where: Where | None = None) -> Outbox:
        row, game = await self._load_game(game_id, None if user_id is None else Ask("status", user_id, where))
        lines = [self._summary_line(row)]
        image = None
        if row.state is not None:
            seat = row.seat_of(user_id) if user_id is not None else None
            prefs = (await self._view_prefs([user_id])).get(user_id) if user_id is not None else None
            async with self._stored(game_id):
                image = await self._draw(game.name, game.view(row.state, seat), seat=seat, prefs=prefs, lang=row.locale)
                lines += self._state_lines(row, game)
                lines += self._clock_lines(row) + await self._quiet_lines(row, self._waiting(row, game))
        lines += await self._follower_lines(row) + await self._game_turn_time_lines(row.id)
        return Outbox(reply=lines, reply_image=image)

    async def panel(self, game_id: int, user_id: int, *, where: Where | None = None) -> Private:
        """The private panel for a seat (the "my panel" button, or a DM)."""
        row, game = await self._load_active(game_id, Ask("panel", user_id, where))
        seat = self._seat(row, user_id)
        prefs = await self._view_prefs([user_id])
        async with self._stored(game_id):
            return await self._private(row, game, seat, prefs)

    async def history(self, game_id: int, page: int = 1, per_page: int = HISTORY_PAGE, *,
                      asker: int | None = None, where: Where | None = None) -> list[Text]:
        """A page of the moves so far, newest page first. A secret stays 🔒 only while it is still
        secret: until the game ends, or (Arena orders) until its step has resolved."""
        row, game = await self._load_game(game_id, None if asker is None else Ask("history", asker, where))
        count = await self.store.action_count(game_id)
        pages = max(1, -(-count // per_page))
        if not 1 <= page <= pages:
            raise ServiceError("history_page", page=page, pages=pages)
        first = max(0, count - page * per_page)
        everything = await self.store.actions(game_id)  # an undo late on marks entries on any page
        actions = everything[first: count - (page - 1) * per_page]
        lines = [T("history.header", id=game_id, game=T(f"game.{row.game}.title"), count=count)]
        last = actions[-1].n if actions else first
        # A hand-over after entry k is shown before entry k + 1, or after the newest entry on page 1.
        handovers = [h for h in await self.store.substitutions(game_id)
                     if first <= h.after_n < last or (page == 1 and h.after_n >= last)]
        async with self._stored(game_id):  # the state and log read in words: damaged, the game is set aside
            standing_ns = {a.n for a in standing(everything)}
            lines += self._history_entries(row, game, actions, standing_ns, handovers)
        if not actions:
            lines.append(T("history.empty"))
        if pages > 1:
            lines.append(T("history.page", page=page, pages=pages, first=first + 1, last=first + len(actions)))
        return lines

    def _history_entries(self, row, game, actions: list, standing_ns: set[int], handovers: list) -> list[Text]:
        """The lines of a page's log entries, hand-overs among them (``handovers`` is emptied of
        those shown before an entry; the rest come after the newest)."""
        running = row.status in ("lobby", "active")
        public = game.view(row.state, None) if row.state is not None else None  # names what actions number
        lines = []
        for a in actions:
            while handovers and handovers[0].after_n < a.n:
                lines.append(self._handover_line(handovers.pop(0)))
            if (target := undo_target(a.action)) is not None:
                lines.append(T("history.undo", n=a.n, player=self._name(row, a.seat), target=target))
                continue
            if a.action == AGREED_END:
                lines.append(T("history.agreed_end", n=a.n))
                continue
            still_secret = running and not game.action_is_public(a.action) and not (
                game.secrets_end_with_step and a.version <= row.step_version)
            words = None if still_secret else self._history_words(game, a.action, public)
            key = "history.line" if a.n in standing_ns else "history.taken_back"
            lines.append(T(key if words is None else f"{key}_words", n=a.n, player=self._actor(row, a),
                           action="🔒" if still_secret else a.action, words=words))
        return lines + [self._handover_line(h) for h in handovers]  # after the newest entry shown

    def _history_words(self, game, action: str, public: dict | None) -> Text | None:
        """A logged action in words, where the game words its choices (a concession has none)."""
        if action in CONCESSIONS:
            return None
        return self._choice_text(game, game.action_path(action), public)
