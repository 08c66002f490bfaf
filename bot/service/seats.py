"""Substitutes: a seat handed to another member mid-game (``/table substitute``).

A seated player hands their own seat at any time; the game's creator, or a member with Manage
Server in the game's server, hands a seat whose player missed :data:`MISSES_BEFORE_HANDOVER`
deadlines. The member offered the seat accepts with a button (a ``substitute`` proposal, answered
by them alone, expiring after a day). On acceptance, in one transaction: the seat's player changes
(a clean slate: no absences, no stand-in, no vacation), the hand-over is recorded
(``substitutions``: the history and the export show it), and the version moves on. The seat's
secrets (hand, panel) are then sent to the new player only; the old player's panels and buttons
are refused, since they no longer hold a seat.

A seated player may also hand their seat to the AI for the rest of the game (``hand_to_ai``, the
terminal's ``ai``): the seat becomes a stand-in for good, as after repeated timeouts, and stays
theirs in the history and the results.

Ratings credit each holder for the part they played: the share of the seat's own moves each made
(AI stand-in moves are nobody's). The others are rated against the seat as one player with the
holders' share-weighted rating, and each holder gets the change they would have got playing it
alone, times their share (bot/storage/sqlite.py ``rating_updates``). A substitute who made no move is not
rated nor counted in the stats, and nobody is credited for the whole game unless they played all
of the seat's moves.
"""

from __future__ import annotations

from typing import ClassVar

from collections import Counter
from datetime import timedelta

from games import Game

from ..i18n import T
from ..storage.rows import Draft, GameRow, Proposal, user_rating_key
from ..storage.undo_log import standing
from .access import Ask, Where, manages
from .core import is_ai, on_latest, turn_of
from .outbox import Outbox, ServiceError
from .present import seat_mark
from .settings import discord_time, stamp

MISSES_BEFORE_HANDOVER = 2  # missed deadlines before the creator or an admin may hand a seat on
OFFER_HOURS = 24


class Substitutes:
    uses: ClassVar[tuple[str, ...]] = ("Presenter",)

    @on_latest
    async def offer_seat(self, game_id: int, user_id: int, to_user: int, from_user: int | None = None, *,
                         to_is_bot: bool = False, where: Where | None = None) -> Outbox:
        """Offer a seat (the asker's own, or ``from_user``'s) to ``to_user``, who takes it with a button."""
        async with self._lock(game_id):
            row, game = await self._load_active(game_id, Ask("substitute", user_id, where))
            holder = user_id if from_user is None else from_user
            seat = row.seat_of(holder)
            if seat is None or is_ai(holder):
                raise ServiceError("substitute_no_seat", id=game_id, player=f"<@{holder}>")
            if holder != user_id:
                if not manages(row, user_id, where):
                    raise ServiceError("substitute_not_yours", id=game_id)
                if row.seat_row(seat).absences < MISSES_BEFORE_HANDOVER:
                    raise ServiceError("substitute_too_soon", id=game_id, player=f"<@{holder}>",
                                       misses=MISSES_BEFORE_HANDOVER)
            if seat in game.retired(row.state):
                raise ServiceError("substitute_retired", id=game_id)
            if to_is_bot or is_ai(to_user):
                raise ServiceError("substitute_bot")
            if row.seat_of(to_user) is not None:
                raise ServiceError("substitute_seated", id=game_id, player=f"<@{to_user}>")
            offer = Proposal(None, row.id, "substitute", seat, user_id, turn_of(row), [], "open", self.now_stamp(),
                             stamp(self._now() + timedelta(hours=OFFER_HOURS)), target_id=to_user, holder_id=holder)
            offer.id = await self.store.open_proposal(offer)
            if offer.id is None:
                raise ServiceError("substitute_pending", id=game_id)
            post = self._post(row, [T("seat.offered", by=f"<@{user_id}>", player=f"<@{holder}>", mark=seat_mark(seat),
                                      to=f"<@{to_user}>", id=row.id, game=T(f"game.{row.game}.title")),
                                    T("seat.offered_ask", to=f"<@{to_user}>", until=discord_time(offer.expires_at))])
            post.mentions, post.proposal, post.hold_as = [to_user], (offer.id, "substitute"), "request"
            return await self._address(Outbox(reply=[T("seat.you_offered", id=game_id, to=f"<@{to_user}>")],
                                              posts=[post]))

    @on_latest
    async def answer_seat(self, game_id: int, user_id: int, proposal_id: int, accept: bool, *,
                          where: Where | None = None) -> Outbox:
        """The member offered a seat takes it (or declines); anyone else is refused."""
        async with self._lock(game_id):
            row, game = await self._load_game(game_id, Ask("take_seat", user_id, where))
            offer = await self.store.proposal(proposal_id)
            if offer is None or offer.game_id != game_id or offer.kind != "substitute":
                raise ServiceError("proposal_expired")
            if user_id != offer.target_id:
                raise ServiceError("substitute_not_you")
            if offer.status == "declined":
                raise ServiceError("proposal_closed")
            live = (offer.status == "open" and row.status == "active" and offer.expires_at > self.now_stamp()
                    and row.user_of(offer.seat) == offer.holder_id and row.seat_of(user_id) is None)
            if not live:
                raise ServiceError("proposal_expired")
            if not accept:
                if not await self.store.end_proposal(offer.id, "declined"):
                    raise ServiceError("proposal_expired")
                post = self._post(row, [T("seat.declined", to=f"<@{user_id}>", player=f"<@{offer.holder_id}>")])
                return await self._address(Outbox(reply=[T("seat.you_declined", id=game_id)], posts=[post]))
            return await self._take_seat(row, game, offer)

    async def _take_seat(self, row: GameRow, game: Game, offer: Proposal) -> Outbox:
        draft = Draft.of(row)
        draft.proposal_done = offer.id
        draft.bump()  # buttons drawn for the old player go stale; the others' stay valid (step_version kept)
        draft.hand_seat(offer.seat, offer.target_id, offer.user_id, self.now_stamp())
        settings = draft.row.settings
        holders = {k: list(v) for k, v in settings.get("holders", {}).items()}
        holders.setdefault(str(offer.seat), [offer.holder_id]).append(offer.target_id)
        settings["holders"] = holders
        if "panels" in settings:  # the new player has seen no panel: theirs counts as new
            settings["panels"] = {k: v for k, v in settings["panels"].items() if k != str(offer.seat)}
        row = await self._save(draft)
        lines = [T("seat.taken", to=f"<@{offer.target_id}>", player=f"<@{offer.holder_id}>",
                   mark=seat_mark(offer.seat))]
        outbox = Outbox(reply=[T("seat.you_took", id=row.id, mark=seat_mark(offer.seat))])
        async with self._once_saved(outbox, row):  # the seat is taken: a board that fails follows, it is not refused
            others = set(self._waiting(row, game)) - {offer.seat}
            await self._announce(outbox, row, game, lines, panels_for_all=False, already_asked=others)
            if game.hidden_information and all(p.user_id != offer.target_id for p in outbox.privates):
                outbox.privates.append(await self._private(row, game, offer.seat))  # the seat's secrets, theirs now
            await self._address(outbox)
        return outbox

    @on_latest
    async def hand_to_ai(self, game_id: int, user_id: int, *, where: Where | None = None) -> Outbox:
        """A seated player lets the AI play their seat to the end of the game (the terminal's
        ``ai``): the seat becomes a stand-in for good, played at once where it is to act, at the
        game's stand-in level. The seat stays theirs (results, history), as a timed-out seat does."""
        async with self._lock(game_id):
            # The same right as resigning: a seated player, for their own seat.
            row, game = await self._load_active(game_id, Ask("resign", user_id, where))
            seat = self._seat(row, user_id)
            if seat in game.retired(row.state):
                raise ServiceError("substitute_retired", id=game_id)
            draft = Draft.of(row)
            draft.update_seat(seat, stand_in=True)
            draft.bump()
            lines = [T("seat.handed_to_ai", player=self._name(row, seat))]
            async with self._engine(game_id):
                lines += await self._run_ai(draft, game)
            row = await self._save(draft)
            outbox = Outbox(reply=[T("seat.you_handed_to_ai", id=game_id)])
            async with self._once_saved(outbox, row):
                await self._announce(outbox, row, game, lines)
                await self._address(outbox)
            return outbox

    # ---- the part each holder played ---------------------------------------------------------------
    async def _credit_holders(self, draft: Draft) -> None:
        """A game ending with a seat several people held: rate and count each holder by the share
        of the seat's moves they made (see the module's docstring)."""
        row = draft.row
        holders = {int(seat): users for seat, users in row.settings.get("holders", {}).items()}
        if not holders or (draft.rating is None and not draft.results):
            return
        entries = standing(await self.store.actions(row.id)) + draft.actions
        shares: dict[int, list[tuple[int, float]]] = {}
        for seat, users in holders.items():
            moves = Counter(e.user_id for e in entries if e.seat == seat and e.user_id in users and not e.stand_in)
            total = sum(moves.values())
            people = list(dict.fromkeys(users))
            shares[seat] = ([(u, moves[u] / total) for u in people if moves[u]] if total
                            else [(u, 1 / len(people)) for u in people])
        result_of = {uid: (won, drawn) for uid, won, drawn in draft.results}
        kept = [(uid, won, drawn) for uid, won, drawn in draft.results
                if row.seat_of(uid) not in holders]
        for seat, held in shares.items():
            won, drawn = result_of.get(row.user_of(seat), (False, False))
            kept += [(u, won, drawn) for u, _ in held]
        draft.results = kept
        if draft.rating is not None:
            for seat, held in shares.items():
                draft.rating_shares[f"seat:{seat}"] = [(user_rating_key(u), share) for u, share in held]
