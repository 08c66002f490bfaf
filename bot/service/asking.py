"""One seat's answer to a request that needs every other player's consent: an undo (``undo``) or a
proposal (``consent``). Both check the answer the same way and end the same way; only their words,
their stored rows and what carrying them out means differ."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from ..i18n import T
from ..storage.rows import GameRow
from .outbox import Outbox, ServiceError


@dataclass(frozen=True)
class AskingWords:
    """The refusal keys and message keys of one kind of request."""

    expired: str
    own: str
    not_asked: str
    answered: str
    closed: str
    prefix: str  # of the messages: {prefix}.declined, .you_declined, .agreed, .you_agreed


class Asking:
    uses: ClassVar[tuple[str, ...]] = ("Presenter",)

    async def _answer_asked(self, row: GameRow, request: Any, user_id: int, agree: bool, live: bool,
                            words: AskingWords, *, store_answer: Callable[[int], Awaitable[bool]],
                            reread: Callable[[], Awaitable[Any]],
                            carry_out: Callable[[Any], Awaitable[Outbox]]) -> Outbox:
        """``user_id``'s answer to ``request`` (an ``UndoRequest`` or a ``Proposal``), which may
        still be answered while ``live``. ``store_answer(seat)`` records it once (False when it was
        recorded already); the last yes carries the request out."""
        seat = row.seat_of(user_id)
        if seat == request.seat:
            raise ServiceError(words.own)
        if seat not in request.needed:
            raise ServiceError(words.not_asked)
        if seat in request.answers:
            if live and all(request.answers.get(s) for s in request.needed):
                return await carry_out(request)  # finish one a crash interrupted
            raise ServiceError(words.answered)
        if request.status == "declined":
            raise ServiceError(words.closed)
        if not live:
            raise ServiceError(words.expired)
        if not await store_answer(seat):
            raise ServiceError(words.answered)
        if not agree:
            post = self._post(row, [T(f"{words.prefix}.declined", player=self._name(row, seat),
                                      asker=self._name(row, request.seat))])
            return await self._address(Outbox(reply=[T(f"{words.prefix}.you_declined", id=row.id)], posts=[post]))
        # Read the answers again after ours is stored: of two last answers given at once (two
        # processes), at least one sees both, and the carrying out applies once (a version
        # compare-and-swap for an undo, the proposal's own status for a proposal).
        request = await reread()
        if all(request.answers.get(s) for s in request.needed):
            return await carry_out(request)
        waiting = [s for s in request.needed if s not in request.answers]
        post = self._post(row, [T(f"{words.prefix}.agreed", player=self._name(row, seat),
                                  waiting=self._names(row, waiting))])
        return await self._address(Outbox(reply=[T(f"{words.prefix}.you_agreed", id=row.id)], posts=[post]))
