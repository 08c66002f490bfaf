"""Consent among the players: deadline votes and draw offers (agreed ends), as undo by consent.

A player proposes (``/table deadline``, ``/table draw``); the proposal is stored (``proposals``)
for the turn under way and posted with Agree / Decline buttons to every other player still in the
game (AI seats and stand-ins agree for their seats). It passes when all of them agree, and is
carried out in the transaction that marks it passed, so it applies once; one decline ends it and
changes nothing. It lapses when the turn passes and expires after :data:`VOTE_HOURS` unanswered
(the scheduler says so: nothing changes). One proposal is open per game at a time.

- ``pause``: the deadline stops, keeping what was left, until a player resumes it (no vote is
  needed to resume: it only gives back the time everyone had);
- ``extend``: the deadline moves by a duration;
- ``advance``: once the proposer has acted, the deadline passes now: the game's timeout policy
  applies at once to those it still waits for (counting no absence: everyone agreed);
- ``draw``: with two players a draw offer, with more an agreed end: a draw shared by everyone still
  playing (seats already out stay behind them), counted so in stats and ratings.
"""

from __future__ import annotations

from typing import ClassVar

from datetime import datetime, timedelta

from games import Game
from games.replay import AGREED_END

from ..i18n import T, Text
from ..storage.rows import Draft, GameRow, Proposal
from .access import Ask, Where
from .asking import AskingWords
from .core import on_latest, turn_of
from .outbox import EndedProposal, Outbox, Post, ServiceError
from .settings import MAX_SHORT_INPUT, discord_time, normalized, parse_deadline, stamp

VOTE_HOURS = 24  # a proposal nobody finished answering expires after this long
DEADLINE_KINDS = ("pause", "extend", "advance")
DEADLINE_ACTIONS = ("pause", "resume", "extend", "advance")
PROPOSAL_WORDS = AskingWords(expired="proposal_expired", own="proposal_own", not_asked="proposal_not_asked",
                             answered="proposal_already_answered", closed="proposal_closed", prefix="consent")


class Consent:
    uses: ClassVar[tuple[str, ...]] = ("Asking", "Clock", "Presenter")

    # ---- proposing ---------------------------------------------------------------------------------
    @on_latest
    async def propose_draw(self, game_id: int, user_id: int, *, where: Where | None = None) -> Outbox:
        """Offer a draw (two players) or an agreed end (more): all the others still playing must agree."""
        async with self._lock(game_id):
            row, game = await self._load_active(game_id, Ask("draw", user_id, where))
            seat = self._playing_seat(row, game, user_id)
            return await self._propose(row, game, "draw", seat, user_id)

    @on_latest
    async def propose_deadline(self, game_id: int, user_id: int, action: str, duration: str | None = None, *,
                               where: Where | None = None) -> Outbox:
        """Propose to pause, extend or advance the deadline; ``resume`` ends a pause at once."""
        action = normalized(action, MAX_SHORT_INPUT, "deadline_action", choices=list(DEADLINE_ACTIONS)).lower()
        if action not in DEADLINE_ACTIONS:
            raise ServiceError("deadline_action", choices=list(DEADLINE_ACTIONS))
        hours = None
        if action == "extend":
            hours = parse_deadline(duration) if duration else 0
            if not hours:
                raise ServiceError("deadline_extend_by")
        async with self._lock(game_id):
            row, game = await self._load_active(game_id, Ask("deadline", user_id, where))
            seat = self._playing_seat(row, game, user_id)
            if action == "resume":
                return await self._resume(row, game, seat)
            if row.settings.get("paused"):
                raise ServiceError("deadline_paused", id=game_id)
            if not row.deadline_at:
                raise ServiceError("deadline_none", id=game_id)
            if action == "advance" and seat in self._waiting(row, game):
                raise ServiceError("advance_not_yet", id=game_id)
            return await self._propose(row, game, action, seat, user_id, hours=hours)

    def _playing_seat(self, row: GameRow, game: Game, user_id: int) -> int:
        seat = self._seat(row, user_id)
        if seat in game.retired(row.state):
            raise ServiceError("consent_retired", id=row.id)
        return seat

    async def _propose(self, row: GameRow, game: Game, kind: str, seat: int, user_id: int, *,
                       hours: float | None = None) -> Outbox:
        out = game.retired(row.state)
        needed = [s.seat for s in row.seats if s.seat != seat and s.seat not in out and not self._automatic(row, s.seat)]
        proposal = Proposal(None, row.id, kind, seat, user_id, turn_of(row), needed, "open", self.now_stamp(),
                            stamp(self._now() + timedelta(hours=VOTE_HOURS)), hours)
        if not needed:  # only AI seats and stand-ins besides: they agree at once
            return await self._carry_proposal(row, game, proposal)
        proposal.id = await self.store.open_proposal(proposal)
        if proposal.id is None:
            raise ServiceError("proposal_pending", id=row.id)
        post = self._post(row, [self._proposal_line(row, game, proposal),
                                T("consent.ask_others", players=self._names(row, needed),
                                  until=discord_time(proposal.expires_at))])
        post.mentions = [row.user_of(s) for s in needed]
        post.proposal, post.hold_as = (proposal.id, kind), "request"
        return await self._address(Outbox(reply=[T("consent.you_asked", id=row.id)], posts=[post]))

    def _proposal_line(self, row: GameRow, game: Game, p: Proposal) -> Text:
        player = self._name(row, p.seat)
        if p.kind == "draw":
            return T("consent.draw.asked" if len(row.seats) == 2 else "consent.end.asked", player=player)
        if p.kind == "extend":
            return T("consent.extend.asked", player=player, hours=f"{p.hours:g}")
        if p.kind == "advance":
            return T("consent.advance.asked", player=player, waiting=self._names(row, self._waiting(row, game)))
        return T("consent.pause.asked", player=player)

    # ---- answering ---------------------------------------------------------------------------------
    @on_latest
    async def answer_proposal(self, game_id: int, user_id: int, proposal_id: int, agree: bool, *,
                              where: Where | None = None) -> Outbox:
        """One seat's answer (the Agree / Decline buttons); the last yes carries the proposal out."""
        async with self._lock(game_id):
            row, game = await self._load_game(game_id, Ask("vote", user_id, where))
            p = await self.store.proposal(proposal_id)
            if p is None or p.game_id != game_id or p.kind == "substitute":
                raise ServiceError("proposal_expired")
            live = (p.status == "open" and row.status == "active" and turn_of(row) == p.turn
                    and p.expires_at > self.now_stamp())
            return await self._answer_asked(
                row, p, user_id, agree, live, PROPOSAL_WORDS,
                store_answer=lambda seat: self.store.answer_proposal(p.id, seat, agree, self.now_stamp()),
                reread=lambda: self.store.proposal(p.id),
                carry_out=lambda p: self._carry_proposal(row, game, p))

    async def proposal_posted(self, proposal_id: int, message_id: int) -> None:
        """Delivery posted the proposal: remember its message, so its buttons go when it ends."""
        await self.store.set_proposal_message(proposal_id, message_id)

    async def proposal_post_retired(self, proposal_id: int) -> None:
        await self.store.proposal_post_retired(proposal_id)

    # ---- carrying out ------------------------------------------------------------------------------
    async def _carry_proposal(self, row: GameRow, game: Game, p: Proposal) -> Outbox:
        """Apply a proposal everyone agreed to, in one transaction with marking it passed."""
        draft = Draft.of(row)
        draft.proposal_done = p.id
        new = draft.row
        lines: list[Text] = []
        if p.kind == "draw":
            async with self._engine(row.id):
                state, events = game.agreed_end(new.state)
                self._record(draft, game, p.seat, p.user_id, AGREED_END, state)
            lines += [T("consent.draw.passed")] + self._event_lines(new, game, events)
        elif p.kind == "advance":
            waiting = {s for s in self._waiting(new, game) if not self._automatic(new, s)}
            lines.append(T("consent.advance.passed"))
            async with self._engine(row.id):
                lines += await self._apply_policy(draft, game, waiting)
        elif p.kind == "pause":
            left = (datetime.fromisoformat(new.deadline_at) - self._now()).total_seconds()
            new.settings["paused"] = {"left": max(0, int(left)), "by": p.seat}
            new.deadline_at = None
            draft.bump()
            lines.append(T("consent.pause.passed"))
        else:  # extend
            new.deadline_at = stamp(datetime.fromisoformat(new.deadline_at) + timedelta(hours=p.hours))
            draft.bump()
            lines.append(T("consent.extend.passed", left=discord_time(new.deadline_at)))
        row = await self._save(draft)
        outbox = Outbox(reply=[T("consent.you_agreed", id=row.id)] if p.id is not None else
                        [T("consent.carried_at_once", id=row.id)])
        async with self._once_saved(outbox, row):  # it passed: a board that fails follows, it is not refused
            if draft.actions:  # the position changed: a new board
                await self._announce(outbox, row, game, lines)
            else:
                outbox.posts += self._clock_posts(row, game, lines)
            await self._address(outbox)
        return outbox

    async def _resume(self, row: GameRow, game: Game, seat: int) -> Outbox:
        paused = row.settings.get("paused")
        if not paused:
            raise ServiceError("deadline_not_paused", id=row.id)
        draft = Draft.of(row)
        new = draft.row
        del new.settings["paused"]
        new.deadline_at = stamp(self._now() + timedelta(seconds=paused["left"]))
        draft.bump()
        row = await self._save(draft)
        lines = [T("consent.resumed", player=self._name(row, seat), left=discord_time(row.deadline_at))]
        return await self._address(Outbox(reply=[T("consent.you_resumed", id=row.id)],
                                          posts=self._clock_posts(row, game, lines)))

    def _clock_posts(self, row: GameRow, game: Game, lines: list[Text]) -> list[Post]:
        """Only the clock changed: a line in the channel, and the new version marked as shown (its
        board is unchanged, and the buttons on it stay valid) with the pinned status updated."""
        said = self._post(row, lines)
        shown = self._post(row, [])
        shown.quiet, shown.board_version = True, row.version
        self._status(shown, row, game)
        return [said, shown]

    # ---- ending --------------------------------------------------------------------------------------
    async def expire_proposals(self) -> list[Outbox]:
        """Proposals whose time is up (the scheduler): each ends once, saying nothing changes."""
        outboxes = []
        for game_id, proposal_id in await self.store.due_proposals(self.now_stamp()):
            if not await self.store.end_proposal(proposal_id, "expired"):
                continue  # another process, or an answer, ended it first
            p = await self.store.proposal(proposal_id)
            try:
                row = await self._load(game_id)
            except ServiceError:
                continue
            post = self._post(row, [T("consent.expired", asker=self._name(row, p.seat), id=game_id)])
            outboxes.append(await self._address(Outbox(posts=[post])))
        return outboxes

    async def _lapse_proposals(self, row: GameRow) -> None:
        """The turn passed (or the game ended): votes and offers made before lapse."""
        over = row.status not in ("active", "lobby")
        await self.store.lapse_proposals(row.id, 2**31 - 1 if over else turn_of(row))  # (an INTEGER column)

    async def _ended_proposal_posts(self, outbox: Outbox) -> None:
        """Every post about a game also takes the buttons off its ended proposals' posts."""
        homes = {post.game_id: post.channel_id for post in outbox.posts}
        for game_id, home in homes.items():
            for proposal_id, message_id in await self.store.ended_proposal_posts(game_id):
                outbox.retire_proposals.append(EndedProposal(game_id, home, proposal_id, message_id))

    async def _asks_answer(self, row: GameRow, user_id: int) -> bool:
        """Whether an open request in this game still waits for this person's answer (an undo, a
        vote, an offer, or a seat offered to them): what a held "request" notice says."""
        if await super()._asks_answer(row, user_id):
            return True
        seat = row.seat_of(user_id)
        for p in await self.store.open_proposals(row.id):
            if p.kind == "substitute" and p.target_id == user_id:
                return True
            if seat in p.needed and seat not in p.answers and p.turn == turn_of(row):
                return True
        return False
