"""Leagues: a standing tournament over weeks. Players join any time and ask for a game
(``/league play``); whoever asks is paired with the waiting player closest in rating whom they have
not played yet, or waits for the next to ask. Each plays a fixed number of games; the table ranks
them (``/tournament standings`` reads the same). Results are recorded by the scheduler as for any
tournament (``Tournaments.tournament_tick``).

Asking and pairing are one save under the league's version: two players asking at the same moment
cannot both end up waiting, nor can one waiting player be paired twice.
"""

from __future__ import annotations

from typing import ClassVar

from ..i18n import T
from ..storage.rows import TableRow, TournamentDraft
from ..common.tournaments import league_opponent, meetings
from .access import Ask, Where, family_of
from .outbox import Outbox, ServiceError
from .tournaments import on_latest_tournament


class Leagues:
    uses: ClassVar[tuple[str, ...]] = ("Tournaments",)

    @on_latest_tournament
    async def league_play(self, tournament_id: int, user_id: int, *, where: Where | None = None) -> Outbox:
        t = await self._load_tournament(tournament_id, Ask("league_play", user_id, where), league=True)
        if t.status != "running":
            raise ServiceError(f"tournament_{t.status}", id=t.id, family=family_of(t))
        me = t.entrant(user_id)
        if me.dropped_round is not None:
            raise ServiceError("tournament_dropped", id=t.id, family=family_of(t))
        if me.waiting_since:
            raise ServiceError("league_already_waiting", id=t.id)
        games = t.settings["games"]
        count = {p.user_id: 0 for p in t.players}
        for x in t.tables:
            for u in x.players:
                count[u] = count.get(u, 0) + 1
        if count[user_id] >= games:
            raise ServiceError("league_done", id=t.id, games=games)
        rated = await self._ratings(t, [p.user_id for p in t.players])
        waiting = [(p.user_id, rated[p.user_id]) for p in sorted(t.players, key=lambda p: (p.waiting_since or "", p.entry))
                   if p.waiting_since and p.dropped_round is None and count[p.user_id] < games]
        opponent = league_opponent(user_id, rated[user_id], waiting, meetings(x.players for x in t.tables))
        draft = TournamentDraft.of(t)
        if opponent is None:
            draft.change(user_id, waiting_since=self.now_stamp())
            draft.bump()
            await self._save_tournament(draft, [])
            return Outbox(reply=[T("league.waiting", id=t.id, played=count[user_id], games=games)])
        draft.change(opponent, waiting_since=None)
        number = max((x.table_no for x in t.tables), default=0) + 1
        draft.table(TableRow(0, number, [opponent, user_id], new_game=0))
        game = self._table_game(t, [opponent, user_id], 0, number)
        draft.bump()
        t = await self._save_tournament(draft, [game])
        row, engine = (await self._rows([game.row.id]))[0]
        outbox = Outbox(reply=[T("league.paired", id=t.id, game=row.id, opponent=f"<@{opponent}>")])
        outbox.posts.append(self._tournament_post(t, [T("league.game_post", id=t.id, game=row.id,
                                                        players=[f"<@{opponent}>", f"<@{user_id}>"])]))
        outbox.posts[-1].mentions = [opponent]
        await self._table_board(outbox, t, row, engine)
        return await self._addressed(outbox)
