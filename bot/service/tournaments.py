"""Tournaments: create, join, leave, start, drop, abandon; rounds paired and their games made in
one transaction; results recorded and rounds advanced by the scheduler; standings in words and
pictures. Leagues (``bot/service/leagues.py``) share the storage, the standings and the results.

Restart safety, in the order the scheduler meets it (:meth:`Tournaments.tournament_tick`):

1. A table's result is recorded once its game ended (one conditional UPDATE: once, whoever does it).
2. A running tournament whose current round has every result is advanced: the next round's
   tables and games, or the end, saved as one :class:`TournamentDraft` under the tournament's
   version. Run twice (a crash, two processes), the second save finds the version moved and
   writes nothing: a round's games are created once.
3. Every change the channel must hear of bumps the tournament's ``stage``; the announcement of
   the current stage is claimed for a while, posted with the round's boards, and marked done by
   delivery. A process that died in between leaves the claim to run out and the next tick to post.

Pairing and points are pure (``bot/common/tournaments/``); this file feeds them what is stored.
"""

from __future__ import annotations

from typing import ClassVar

import asyncio
import functools
import logging
import random
from datetime import timedelta

import renderers
from renderers import tournament as pictures
from games import GameError
from games.rng import Rng

from ..common import fairplay, ratings as rating_model
from ..workers import pool as workers
from ..faults import crash_point
from ..i18n import T, Text
from ..storage.rows import Draft, GameRow, new_game_row, user_rating_key
from ..storage.rows import (EntrantRow, TableRow, TournamentChanged, TournamentDraft, TournamentNotFound,
                            TournamentRow)
from ..common.tournaments import (Table, elimination_rounds, first_round, meetings, next_round, round_robin, standings,
                                  swiss, swiss_rounds, winner_of)
from ..common.tournaments.standings import totals
from .access import Ask, Where, authorize_tournament, family, family_of
from .core import game_of, is_ai
from .outbox import Outbox, Post, ServiceError
from .settings import echoed, parse_deadline, parse_options, stamp

log = logging.getLogger(__name__)

KINDS = ("swiss", "roundrobin", "elimination")
MAX_ENTRANTS = 64
MAX_ROUNDS = 20
ANNOUNCE_LEASE_SECONDS = 600  # one process's claim to post an announcement; after it, another tries
TOURNAMENT_ATTEMPTS = 12  # tries of one operation against others changing the same tournament
STANDINGS_LINES = 24  # the most players a message lists; the picture shows up to 40
NO_SEED = 10**6


class TournamentConflict(ServiceError):
    """The tournament changed between our load and our save: nothing was written; try again."""

    def __init__(self):
        super().__init__("busy")


def on_latest_tournament(operation):
    """Run a tournament operation again, from loading, when another one saved it first (another
    command, the scheduler, another process): the rerun decides afresh on what is stored."""

    @functools.wraps(operation)
    async def again(self, *args, **kwargs):
        for attempt in range(TOURNAMENT_ATTEMPTS):
            try:
                return await operation(self, *args, **kwargs)
            except TournamentConflict:
                await asyncio.sleep(random.uniform(0, 0.002 * (2 ** min(attempt, 7))))
        raise ServiceError("busy")

    return again


def number(value: float) -> str:
    return pictures.number(value)


def player_key(user_id: int) -> str:
    return user_rating_key(user_id)


def first_mover(players: list[int], seats: list[int]) -> int | None:
    """Which of a table's two players sat in seat 0 (moved first). A seat handed to a substitute
    shows the substitute: then the one still in seat 1 tells; with both handed over, nobody knows."""
    if seats and seats[0] in players:
        return seats[0]
    if len(seats) > 1 and seats[1] in players:
        return next(p for p in players if p != seats[1])
    return None


def game_tables(t: TournamentRow) -> list[Table]:
    """Every table as the pure standings read it."""
    return [Table(x.round, tuple(x.players), None if x.places is None else tuple(x.places), x.note) for x in t.tables]


class Tournaments:
    uses: ClassVar[tuple[str, ...]] = ("Dashboards", "Play", "Presenter")

    # ---- creating and joining ------------------------------------------------------------------------
    async def tournament_new(self, game_name: str, kind: str, *, guild_id: int | None, channel_id: int, user_id: int,
                             locale: str, rounds: int | None = None, deadline: str | None = None,
                             options: str | None = None, table: int | None = None, games: int | None = None,
                             user_lang: str | None = None) -> Outbox:
        """A tournament (open for joining until its organiser starts it) or a league (running at
        once: players join and ask for games any time). Refused in a DM: it belongs to a server."""
        if guild_id is None:
            raise ServiceError("tournament_needs_server")
        game = game_of(game_name)
        if kind not in KINDS + ("league",):
            raise ServiceError("tournament_kind", value=echoed(str(kind)))
        size = table or (2 if 2 in game.player_counts() else min(game.player_counts()))
        if size not in game.player_counts():
            raise ServiceError("tournament_table_size", size=size, game=T(f"game.{game.name}.title"),
                               allowed=[str(n) for n in game.player_counts()])
        if kind != "swiss" and size != 2:
            raise ServiceError("tournament_two_players", kind=T(f"tournament.kind.{kind}"))
        if rounds is not None and kind != "swiss":
            raise ServiceError("tournament_rounds_swiss_only")
        if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
            raise ServiceError("tournament_rounds_range", most=MAX_ROUNDS)
        try:
            resolved = game.resolve_options(parse_options(options), size)
        except GameError as e:
            raise ServiceError(e.key, **e.params) from None
        settings = {"deadline_hours": parse_deadline(deadline), "table": size, "rounds": rounds}
        if kind == "league":
            settings["games"] = games or DEFAULT_LEAGUE_GAMES
            if not 1 <= settings["games"] <= MAX_LEAGUE_GAMES:
                raise ServiceError("league_games_range", most=MAX_LEAGUE_GAMES)
        now = self.now_stamp()
        row = TournamentRow(id=None, guild_id=guild_id, channel_id=channel_id, creator_id=user_id, kind=kind,
                            game=game.name, options=resolved, settings=settings,
                            status="running" if kind == "league" else "open", round=0, version=0, stage=0,
                            announced=0, locale=locale, created_at=now, updated_at=now)
        row = await self._save_tournament(TournamentDraft.new(row), [])
        if user_lang:
            await self.remember_language(user_id, user_lang)
        command = "league" if kind == "league" else "tournament"
        post = self._tournament_post(row, [T(f"{command}.created_post", id=row.id, kind=self._kind(row),
                                             game=T(f"game.{game.name}.title"), by=f"<@{user_id}>",
                                             terms=self._terms(row))])
        return Outbox(reply=[T(f"{command}.created", id=row.id)], posts=[post])

    @on_latest_tournament
    async def tournament_join(self, tournament_id: int, user_id: int, *, where: Where | None = None,
                              lang: str | None = None, league: bool = False) -> Outbox:
        """``league``: asked by ``/league join`` (its refusals say league)."""
        t = await self._load_tournament(tournament_id, Ask("tournament_join", user_id, where), league=league)
        if is_ai(user_id):
            raise ServiceError("tournament_not_found", id=tournament_id, family=family(league))
        entrant = t.entrant(user_id)
        if entrant is not None:
            raise ServiceError("tournament_dropped" if entrant.dropped_round else "tournament_already_joined",
                               id=tournament_id, family=family_of(t))
        if t.status in ("finished", "abandoned"):
            raise ServiceError(f"tournament_{t.status}", id=tournament_id, family=family_of(t))
        late = t.status == "running" and t.kind != "league"
        if late and t.kind != "swiss":
            raise ServiceError("tournament_running", id=tournament_id)
        if late and t.round >= t.settings["rounds"]:
            raise ServiceError("tournament_last_round", id=tournament_id)
        if len(t.players) >= MAX_ENTRANTS:
            raise ServiceError("tournament_full", id=tournament_id, most=MAX_ENTRANTS, family=family_of(t))
        draft = TournamentDraft.of(t)
        entry = max((p.entry for p in t.players), default=0) + 1
        seed = max((p.seed or 0 for p in t.players), default=0) + 1 if late else None
        draft.add(EntrantRow(user_id, entry, self.now_stamp(), joined_round=t.round + 1 if late else 1, seed=seed))
        draft.bump()
        t = await self._save_tournament(draft, [])
        if lang:
            await self.remember_language(user_id, lang)
        count = len([p for p in t.players if p.dropped_round is None])
        line = (T("tournament.joined_late_post", player=f"<@{user_id}>", id=t.id, round=t.round + 1, count=count)
                if late else T("tournament.joined_post", player=f"<@{user_id}>", id=t.id, entry=entry, count=count,
                               family=family_of(t)))
        reply = "league.joined" if t.kind == "league" else ("tournament.joined_late" if late else "tournament.joined")
        return Outbox(reply=[T(reply, id=t.id, entry=entry, round=t.round + 1)], posts=[self._tournament_post(t, [line])])

    @on_latest_tournament
    async def tournament_leave(self, tournament_id: int, user_id: int, *, where: Where | None = None,
                               league: bool = False) -> Outbox:
        """Before the start: off the list. Once it runs: dropped from the next round on, and a game
        of theirs still running is resigned (the round does not wait for someone who left)."""
        t = await self._load_tournament(tournament_id, Ask("tournament_leave", user_id, where), league=league)
        return await self._drop(t, user_id, by=None)

    @on_latest_tournament
    async def tournament_drop(self, tournament_id: int, user_id: int, player: int, *,
                              where: Where | None = None) -> Outbox:
        """The organiser (or an admin) drops a player: as if they left, with a message naming who."""
        t = await self._load_tournament(tournament_id, Ask("tournament_drop", user_id, where))
        if t.entrant(player) is None:
            raise ServiceError("tournament_not_entrant", id=tournament_id, player=f"<@{player}>",
                               family=family_of(t))
        return await self._drop(t, player, by=user_id)

    async def _drop(self, t: TournamentRow, player: int, *, by: int | None) -> Outbox:
        entrant = t.entrant(player)
        if entrant.dropped_round is not None:
            raise ServiceError("tournament_dropped", id=t.id, family=family_of(t))
        if t.status in ("finished", "abandoned"):
            raise ServiceError(f"tournament_{t.status}", id=t.id, family=family_of(t))
        draft = TournamentDraft.of(t)
        if t.status == "open":
            draft.remove(player)
        else:
            draft.change(player, dropped_round=t.round + 1, waiting_since=None)
        draft.bump()
        t = await self._save_tournament(draft, [])
        who = f"<@{player}>"
        if t.status == "open":
            line = T("tournament.left_post", player=who, id=t.id, count=len(t.players))
        elif by is None:
            line = T("tournament.dropped_post", player=who, id=t.id, family=family_of(t))
        else:
            line = T("tournament.dropped_by_post", player=who, id=t.id, by=f"<@{by}>", family=family_of(t))
        outbox = Outbox(reply=[T("tournament.left" if by is None else "tournament.dropped", id=t.id, player=who,
                                 family=family_of(t))],
                        posts=[self._tournament_post(t, [line])])
        for table in t.tables:  # their games still running: conceded, so the round can end
            if player in table.players and table.game_id and table.places is None and table.round == t.round:
                try:
                    resigned = await self.resign(table.game_id, player)
                except ServiceError:  # ended meanwhile, or set aside: nothing to concede
                    continue
                outbox.posts += resigned.posts
        return outbox

    # ---- running it ------------------------------------------------------------------------------------
    @on_latest_tournament
    async def tournament_start(self, tournament_id: int, user_id: int, *, where: Where | None = None) -> Outbox:
        """Seed the players by rating, pair the first round and create its games: one transaction."""
        t = await self._load_tournament(tournament_id, Ask("tournament_start", user_id, where))
        if t.status != "open":
            raise ServiceError("tournament_started" if t.status == "running" else f"tournament_{t.status}", id=t.id,
                               family=family_of(t))
        least = max(2, t.settings["table"])
        if len(t.players) < least:
            raise ServiceError("tournament_too_few", id=t.id, least=least, count=len(t.players))
        rated = await self._ratings(t, [p.user_id for p in t.players])
        draft = TournamentDraft.of(t)
        for seed, p in enumerate(sorted(t.players, key=lambda p: (-rated[p.user_id], p.entry)), 1):
            draft.change(p.user_id, seed=seed)
        count = len(t.players)
        total = {"swiss": t.settings.get("rounds") or swiss_rounds(count),
                 "roundrobin": len(round_robin(list(range(count)))),
                 "elimination": elimination_rounds(count)}[t.kind]
        draft.row.settings["rounds"], draft.row.status, draft.row.round = total, "running", 1
        games = self._pair(draft, 1, rated, await self._first_moves(t))
        draft.bump(announce=True)
        t = await self._save_tournament(draft, games)
        outbox = await self._announce_safely(t.id)
        outbox.reply.insert(0, T("tournament.you_started", id=t.id))
        return outbox

    @on_latest_tournament
    async def tournament_abandon(self, tournament_id: int, user_id: int, *, where: Where | None = None) -> Outbox:
        """Stop a tournament or league; games already under way go on as ordinary games."""
        t = await self._load_tournament(tournament_id, Ask("tournament_abandon", user_id, where))
        if t.status in ("finished", "abandoned"):
            raise ServiceError(f"tournament_{t.status}", id=t.id, family=family_of(t))
        draft = TournamentDraft.of(t)
        draft.row.status = "abandoned"
        draft.row.settings["abandoned_by"] = user_id
        for p in t.players:
            if p.waiting_since:
                draft.change(p.user_id, waiting_since=None)
        draft.bump(announce=True)
        t = await self._save_tournament(draft, [])
        outbox = await self._announce_safely(t.id)
        outbox.reply.insert(0, T("tournament.you_abandoned", id=t.id, family=family_of(t)))
        return outbox

    async def tournament_standings(self, tournament_id: int, user_id: int, *, where: Where | None = None,
                                   league: bool = False) -> Outbox:
        t = await self._load_tournament(tournament_id, Ask("tournament_standings", user_id, where), league=league)
        summary = "league.summary" if t.kind == "league" else "tournament.summary"
        lines = [T(summary, id=t.id, kind=self._kind(t), game=T(f"game.{t.game}.title"),
                   status=T(f"tournament.status.{t.status}"), round=t.round, rounds=t.settings.get("rounds") or "-",
                   count=len(t.players))]
        if not t.players:
            return Outbox(reply=lines + [T("tournament.nobody_yet")])
        rows = await self._standings(t)
        lines += [T("tournament.standings_header")] + self._standing_lines(t, rows)
        if t.kind == "league":
            lines.append(T("league.games_each", games=t.settings["games"]))
        return Outbox(reply=lines, reply_image=await self._picture(t, rows))

    async def tournament_here(self, guild_id: int | None, *, league: bool) -> int:
        """The one open tournament (or league) of this server, for a command that named none."""
        ids = await self.store.tournament_ids_in_guild(guild_id) if guild_id is not None else []
        found = []
        for tid in ids:
            try:
                t = await self.store.load_tournament(tid)
            except TournamentNotFound:
                continue
            if (t.kind == "league") == league:
                found.append(tid)
        if len(found) == 1:
            return found[0]
        family = "league" if league else "tournament"
        raise ServiceError(f"{family}_which" if found else f"{family}_none_here", ids=[f"#{i}" for i in found])

    # ---- the scheduler's part --------------------------------------------------------------------------
    async def tournament_tick(self) -> list[Outbox]:
        """Record the results of games that ended, advance rounds that are complete, and post the
        announcements nobody posted yet. Each step is safe to repeat and to run in several processes."""
        await self._record_results()
        for tid in await self.store.finished_round_ids():
            try:
                await self._advance(tid)
            except ServiceError as e:
                log.info("tournament %s not advanced: %s", tid, e.key)
            except Exception:
                log.exception("tournament %s could not be advanced", tid)
        outboxes = []
        for tid in await self.store.unannounced_tournament_ids(self.now_stamp()):
            try:
                outbox = await self._announce_tournament(tid)
            except Exception:
                log.exception("tournament %s could not be announced", tid)
                continue
            if outbox.posts:
                outboxes.append(outbox)
        return outboxes

    async def announcement_done(self, tournament_id: int, stage: int) -> None:
        """Delivery posted a stage's announcement."""
        await self.store.announcement_done(tournament_id, stage)

    async def _record_results(self) -> None:
        cache: dict[int, TournamentRow] = {}
        for tid, round_, table_no, game_id in await self.store.unrecorded_tables():
            try:
                t = cache.get(tid) or await self.store.load_tournament(tid)
                cache[tid] = t
                table = next(x for x in t.tables if (x.round, x.table_no) == (round_, table_no))
                places, note = await self._result_of(game_id, table.players)
                await self.store.record_table(tid, round_, table_no, places, note)
            except Exception:
                log.exception("result of game %s (tournament %s) not recorded", game_id, tid)

    async def _result_of(self, game_id: int, players: list[int]) -> tuple[list[int], str | None]:
        """The places of a table's players from its game (a game abandoned or set aside: void; a
        game lost by a player absent past the deadline: a forfeit)."""
        try:
            row, game = await self._load_game(game_id)
            if row.status != "finished":
                return [], "void"
            async with self._stored(game_id):  # a damaged final position sets the game aside: void
                place_of = {seat: place for seats, place in game.standings(row.state) for seat in seats}
        except ServiceError:  # gone, or set aside (now or before)
            return [], "void"
        last = max(place_of.values(), default=0) + 1
        places = [place_of.get(row.seat_of(u), last) for u in players]
        count = await self.store.action_count(game_id)
        final = await self.store.actions(game_id, after_n=count - 1) if count else []
        forfeit = bool(final) and final[-1].action == "timeout-forfeit"
        return places, "forfeit" if forfeit else None

    @on_latest_tournament
    async def _advance(self, tournament_id: int) -> None:
        t = await self.store.load_tournament(tournament_id)
        if t.status != "running" or t.kind == "league" or any(x.places is None for x in t.tables_of(t.round)):
            return  # advanced meanwhile, or a result came in late
        draft = TournamentDraft.of(t)
        games: list[Draft] = []
        if t.round >= t.settings["rounds"] or len(t.active(t.round + 1)) < 2:
            draft.row.status = "finished"
        else:
            rated = await self._ratings(t, [p.user_id for p in t.players])
            first_moves = await self._first_moves(t)
            draft.row.round = t.round + 1
            games = self._pair(draft, t.round + 1, rated, first_moves)
        draft.bump(announce=True)
        await self._save_tournament(draft, games)
        crash_point("tournament.round.saved")  # paired and saved, not announced: the next tick announces

    # ---- pairing a round ---------------------------------------------------------------------------
    def _pair(self, draft: TournamentDraft, round_: int, rated: dict[int, float],
              first_moves: dict[int, list[bool]] | None = None) -> list[Draft]:
        """Add the round's tables to the draft; returns the games they create (saved with it).
        ``first_moves`` (see :meth:`_first_moves`): a Swiss pairing seats its tables of two."""
        t = draft.row
        seed = {p.user_id: p.seed or NO_SEED + p.entry for p in t.players}
        active = {p.user_id for p in t.active(round_)}
        tables: list[tuple[list[int], str | None]] = []  # players; note (None: a game)
        if t.kind == "swiss":
            done = game_tables(t)
            points = totals(done)
            order = sorted(active, key=lambda u: (-points.get(u, 0.0), -rated.get(u, 0.0), seed[u]))
            met = meetings(x.players for x in done if x.is_game)
            had_bye = {x.players[0] for x in done if x.note == "bye"}
            allowed = [n for n in game_of(t.game).player_counts()]
            pairing = swiss(order, points, met, had_bye, t.settings["table"], allowed, first_moves)
            tables = [(list(x), None) for x in pairing.tables] + [([p], "bye") for p in pairing.byes]
            numbered = list(enumerate(tables, 1))
        else:
            slots = self._bracket_slots(t, round_) if t.kind == "elimination" else \
                round_robin(sorted(seed, key=seed.get))[round_ - 1]
            numbered = []
            for i, pair in enumerate(slots, 1):
                present = [u for u in pair if u is not None and u in active]
                if len(present) == 2:
                    numbered.append((i, (present, None)))
                elif len(present) == 1 and (t.kind == "elimination" or None not in pair):
                    # alone: a bye in a bracket's first round, else the opponent dropped out
                    numbered.append((i, (present, "bye" if None in pair else "walkover")))
        seated = t.kind == "swiss" and first_moves is not None  # the pairing put the first mover first
        games = []
        for table_no, (players, note) in numbered:
            if note is None:
                draft.table(TableRow(round_, table_no, players, new_game=len(games)))
                games.append(self._table_game(t, players, round_, table_no, seated=seated))
            else:
                draft.table(TableRow(round_, table_no, players, places=[0], note=note))
        return games

    def _bracket_slots(self, t: TournamentRow, round_: int) -> list[tuple[int | None, int | None]]:
        seed = {p.user_id: p.seed or NO_SEED + p.entry for p in t.players}
        if round_ == 1:
            return first_round(sorted(seed, key=seed.get))
        previous = {x.table_no: x for x in t.tables_of(round_ - 1)}
        positions = 1 << (t.settings["rounds"] - round_ + 1)  # the previous round's places in the bracket
        # A position without a table (both its players had dropped out) sends nobody on.
        winners = [winner_of(Table(x.round, tuple(x.players), tuple(x.places), x.note), seed)
                   if (x := previous.get(i)) is not None else None for i in range(1, positions + 1)]
        return next_round(winners)

    async def _first_moves(self, t: TournamentRow) -> dict[int, list[bool]] | None:
        """For a Swiss event at tables of two of a game whose seat 0 moves first: each player's
        earlier games in round order, True where they moved first. Read from the games' seats (the
        tables list players best first, not in seat order), so events paired before seats were
        balanced count too. None when seats give nobody the lead: the pairing leaves them alone."""
        if t.kind != "swiss" or t.settings["table"] != 2 or not game_of(t.game).seat_zero_moves_first:
            return None
        played = [x for x in t.tables if x.game_id and len(x.players) == 2 and x.places]  # void: not played
        holders = await self.store.seat_holders([x.game_id for x in played]) if played else {}
        moves: dict[int, list[bool]] = {}
        for x in sorted(played, key=lambda x: (x.round, x.table_no)):
            first = first_mover(x.players, holders.get(x.game_id, []))
            if first is not None:
                for p in x.players:
                    moves.setdefault(p, []).append(p == first)
        return moves

    def _table_game(self, t: TournamentRow, players: list[int], round_: int, table_no: int, *,
                    seated: bool = False) -> Draft:
        """A table's game, started: the tournament's game, options and deadline; a thread of its own.
        ``seated``: ``players`` are in seat order already (a Swiss pairing chose who moves first)."""
        game = game_of(t.game)
        settings = {"deadline_hours": t.settings["deadline_hours"], "timeout": "forfeit", "thread": True,
                    "vacation_days": 7 if t.kind == "league" else 0, "ai_level": "normal",
                    "tournament": {"id": t.id, "round": round_, "table": table_no}, "own_thread": True}
        row = new_game_row(game=t.game, guild_id=t.guild_id, channel_id=t.channel_id, creator_id=t.creator_id,
                           options=t.options, locale=t.locale, now=self.now_stamp(), settings=settings)
        draft = Draft.new(row)
        seed = self.seed_source()
        order = game.seat_order(len(players), t.options)
        if seated:
            seats = list(players)
        elif order is not None:
            seats = [players[i] for i in order]
        else:
            seats = Rng(seed ^ 0x5EA7).shuffled(players)
        self._begin(draft, game, seats, seed, fairplay.new_salt())
        return draft

    # ---- announcing ------------------------------------------------------------------------------------
    async def _announce_safely(self, tournament_id: int) -> Outbox:
        """The announcement of a change just saved: a failure to compose it does not undo the
        change (nor tell its author it failed); the scheduler posts it once the claim runs out."""
        try:
            return await self._announce_tournament(tournament_id)
        except Exception:
            log.exception("tournament %s: announcement left to the scheduler", tournament_id)
            return Outbox()

    async def _announce_tournament(self, tournament_id: int) -> Outbox:
        """The current stage's announcement (with the round's boards), if this process claims it."""
        t = await self.store.load_tournament(tournament_id)
        if t.announced >= t.stage:
            return Outbox()
        until = stamp(self._now() + timedelta(seconds=ANNOUNCE_LEASE_SECONDS))
        if not await self.store.claim_announcement(t.id, t.stage, self.now_stamp(), until):
            return Outbox()
        rows = await self._standings(t) if t.players else []
        lines: list[Text] = []
        if t.status == "running" and t.kind != "league":
            lines.append(T("tournament.round_post", id=t.id, round=t.round, rounds=t.settings["rounds"],
                           kind=self._kind(t), game=T(f"game.{t.game}.title")))
            # pairings first: a long message is cut at its end, and who plays whom must never be cut
            lines += [T("tournament.pairings", round=t.round)] + self._pairing_lines(t, t.round)
            # two players: the late one forfeits; at a larger table the stand-in plays (the clock's rule)
            note = "tournament.deadline_note" if t.settings["table"] == 2 else "tournament.deadline_note_table"
            lines.append(T(note, hours=number(t.settings["deadline_hours"])))
            if t.round > 1:
                lines += self._results_lines(t, t.round - 1)
                lines += [T("tournament.standings_after", round=t.round - 1)] + self._standing_lines(t, rows)
        elif t.status == "finished":
            lines.append(T("tournament.finished_post", id=t.id, kind=self._kind(t), game=T(f"game.{t.game}.title")))
            lines += self._results_lines(t, t.round)
            lines += [T("tournament.final_standings")] + self._standing_lines(t, rows)
            if rows:
                champions = [f"<@{r.player}>" for r in rows if r.rank == 1]
                lines.append(T("tournament.champion", players=champions, id=t.id))
        elif t.status == "abandoned":
            lines.append(T("tournament.abandoned_post", id=t.id, by=f"<@{t.settings.get('abandoned_by')}>",
                           family=family_of(t)))
            if t.kind != "league" and any(x.places is None for x in t.tables):
                lines.append(T("tournament.abandoned_games"))
            if rows:
                lines += [T("tournament.standings_header")] + self._standing_lines(t, rows)
        else:
            return Outbox()
        post = self._tournament_post(t, lines)
        post.announces = (t.id, t.stage)
        post.mentions = sorted({u for x in t.tables_of(t.round) for u in x.players}) if t.status == "running" else []
        show_picture = rows and (t.kind == "elimination" or t.round > 1 or t.status != "running")
        if show_picture:
            post.image = await self._picture(t, rows)
            entries = {p.user_id: p.entry for p in t.players}
            # the picture in words, by the numbers it shows (an alt text does not render mentions)
            post.alt_lines = [T("tournament.alt", rank=r.rank, entry=entries[r.player], points=number(r.points))
                              for r in rows[:10]]
        outbox = Outbox(posts=[post])
        if t.status == "running":
            await self._round_boards(outbox, t)
        return await self._addressed(outbox)

    async def _addressed(self, outbox: Outbox) -> Outbox:
        """As ``_address``; a tournament's own posts name players to tell them, not a game's turn,
        so they send nobody a "your turn" DM (each game's first board does that)."""
        outbox = await self._address(outbox)
        for post in outbox.posts:
            if post.game_id == 0:
                post.dm_turn = {}
        return outbox

    async def _round_boards(self, outbox: Outbox, t: TournamentRow) -> None:
        """The first board of each game of the round not posted yet, each opening its thread."""
        ids = [x.game_id for x in t.tables_of(t.round) if x.game_id]
        for row, game in await self._rows(ids):
            if row.posted_version >= row.version or row.status != "active":
                continue
            lease = stamp(self._now() + timedelta(seconds=60))
            if not await self.store.claim_repost(row.id, self.now_stamp(), lease):
                continue
            async with self._isolated(row.id):  # a board that cannot be drawn sets its game aside, not the round's
                board = Outbox()  # composed apart, handed on whole (a game's first board retires nothing)
                await self._table_board(board, t, row, game)
                outbox.posts += board.posts
                outbox.privates += board.privates

    async def _table_board(self, outbox: Outbox, t: TournamentRow, row: GameRow, game) -> None:
        where = row.settings.get("tournament", {})
        header = T("league.game_header" if t.kind == "league" else "tournament.game_header", id=row.id,
                   tournament=t.id, round=where.get("round", t.round), table=where.get("table", "-"),
                   game=T(f"game.{game.name}.title"), seats=self._seat_list(row))
        async with self._stored(row.id):
            lines = self._start_lines(row, game, header) + self._event_lines(row, game, game.opening_events(row.state))
            await self._announce(outbox, row, game, lines)
        outbox.posts[-1].open_thread = T("thread.name", id=row.id, game=T(f"game.{game.name}.title"))

    # ---- words and pictures ------------------------------------------------------------------------------
    def _tournament_post(self, t: TournamentRow, lines: list[Text]) -> Post:
        return Post(0, t.channel_id, lines, lang=t.locale, guild_id=t.guild_id)

    @staticmethod
    def _kind(t: TournamentRow) -> Text:
        return T(f"tournament.kind.{t.kind}")

    def _terms(self, t: TournamentRow) -> list[Text]:
        defaults = {o.name: o.default for o in game_of(t.game).options}
        chosen = " ".join(f"`{k}={v}`" for k, v in t.options.items() if v not in ("", None) and v != defaults.get(k))
        terms = [T("tournament.term_deadline", hours=number(t.settings["deadline_hours"]))]
        if t.settings.get("rounds"):
            terms.append(T("tournament.term_rounds", rounds=t.settings["rounds"]))
        if t.settings["table"] != 2:
            terms.append(T("tournament.term_table", size=t.settings["table"]))
        if t.kind == "league":
            terms.append(T("league.term_games", games=t.settings["games"]))
        if chosen:
            terms.append(T("tournament.term_options", options=chosen))
        return terms

    async def _ratings(self, t: TournamentRow, users: list[int]) -> dict[int, float]:
        found = await self.store.ratings_of(t.guild_id, t.game, [player_key(u) for u in users]) if users else {}
        return {u: rating_model.Rating(*found[player_key(u)]).ordinal if player_key(u) in found
                else rating_model.Rating().ordinal for u in users}

    async def _standings(self, t: TournamentRow):
        rated = await self._ratings(t, [p.user_id for p in t.players])
        order = [p.user_id for p in sorted(t.players, key=lambda p: (p.seed or NO_SEED + p.entry))]
        return standings(t.kind, order, game_tables(t), rated)

    def _standing_lines(self, t: TournamentRow, rows) -> list[Text]:
        entries = {p.user_id: p for p in t.players}
        tiebreak = {"swiss": "tournament.buchholz", "roundrobin": "tournament.head_to_head"}.get(t.kind)
        lines = []
        for r in rows[:STANDINGS_LINES]:
            extra = T(tiebreak, value=number(r.tiebreak)) if tiebreak and r.tiebreak is not None else ""
            gone = T("tournament.dropped_mark") if entries[r.player].dropped_round else ""
            key = "tournament.standing_wins" if t.kind == "elimination" else "tournament.standing"
            lines.append(T(key, rank=r.rank, entry=entries[r.player].entry, player=f"<@{r.player}>",
                           points=number(r.points), tiebreak=extra, played=r.played, wins=r.wins, dropped=gone))
        if len(rows) > STANDINGS_LINES:
            lines.append(T("tournament.more_players", count=len(rows) - STANDINGS_LINES))
        return lines

    def _pairing_lines(self, t: TournamentRow, round_: int) -> list[Text]:
        lines = []
        for x in t.tables_of(round_):
            names = [f"<@{u}>" for u in x.players]
            if x.note == "bye":
                lines.append(T("tournament.bye", player=names[0]))
            elif x.note == "walkover":
                lines.append(T("tournament.walkover", player=names[0]))
            else:
                players = T("tournament.pair", a=names[0], b=names[1]) if len(names) == 2 else names
                lines.append(T("tournament.table", n=x.table_no, players=players, id=x.game_id))
        return lines or [T("tournament.no_games")]

    def _results_lines(self, t: TournamentRow, round_: int) -> list[Text]:
        lines = [T("tournament.results", round=round_)]
        for x in t.tables_of(round_):
            if not x.game_id or x.places is None:
                continue
            names = [f"<@{u}>" for u in x.players]
            if not x.places:
                lines.append(T("tournament.result_void", id=x.game_id, players=names))
                continue
            first = [n for n, p in zip(names, x.places) if p == 0]
            rest = [n for n, p in zip(names, x.places) if p != 0]
            if x.note == "forfeit":
                lines.append(T("tournament.result_forfeit", id=x.game_id, absent=rest, winner=first))
            elif len(names) == 2 and len(first) == 1:
                lines.append(T("tournament.result_win", id=x.game_id, winner=first[0], loser=rest[0]))
            elif len(names) == 2:
                lines.append(T("tournament.result_draw", id=x.game_id, players=names))
            else:
                placed = [T("tournament.placed", place=p + 1, player=n)
                          for p, n in sorted(zip(x.places, names), key=lambda pn: pn[0])]
                lines.append(T("tournament.result_places", id=x.game_id, places=placed))
        return lines if len(lines) > 1 else []

    async def _picture(self, t: TournamentRow, rows) -> bytes:
        entries = {p.user_id: p for p in t.players}
        if t.kind == "elimination" and t.status != "open":
            seed = {p.user_id: p.seed or NO_SEED + p.entry for p in t.players}
            from ..common.tournaments import bracket

            drawn = bracket(game_tables(t), t.settings["rounds"], seed)
            # A phone shows three rounds at once: the round before this one and those after it.
            start = max(0, min(t.round - 2, len(drawn) - pictures.MAX_BRACKET_ROUNDS))
            window = drawn[start:start + pictures.MAX_BRACKET_ROUNDS]
            data = [[{"a": entries[m.players[0]].entry if m.players[0] else None,
                      "b": entries[m.players[1]].entry if m.players[1] else None,
                      "winner": entries[m.winner].entry if m.winner else None} for m in matches] for matches in window]
            return await self._draw_picture(pictures.draw_bracket, data, start + len(window) == len(drawn))
        most = max([r.points for r in rows] + [1.0])
        data = [{"rank": r.rank, "entry": entries[r.player].entry, "points": r.points, "tiebreak": r.tiebreak,
                 "played": r.played, "out": entries[r.player].dropped_round is not None} for r in rows]
        return await self._draw_picture(pictures.draw_standings, data, most)

    async def _draw_picture(self, draw, *args) -> bytes:
        """Drawn in the worker pool like boards; with an injected renderer (tests), that one."""
        if self.render is not renderers.render:
            return self.render("tournament", {"args": repr(args)})
        return await workers.run(self.executor, draw, *args)

    # ---- loading and saving ------------------------------------------------------------------------------
    async def _load_tournament(self, tournament_id: int, ask: Ask | None = None, *,
                               league: bool = False) -> TournamentRow:
        """``league``: asked by a ``/league`` command, whose refusals name a league."""
        try:
            t = await self.store.load_tournament(tournament_id)
        except TournamentNotFound:
            raise ServiceError("tournament_not_found", id=tournament_id, family=family(league)) from None
        if ask is not None:
            authorize_tournament(ask.op, t, ask.user_id, ask.where, league=league)
        return t

    async def _save_tournament(self, draft: TournamentDraft, games: list[Draft]) -> TournamentRow:
        try:
            return await self.store.save_tournament(draft, games, self.now_stamp())
        except TournamentChanged:
            raise TournamentConflict() from None


DEFAULT_LEAGUE_GAMES = 5
MAX_LEAGUE_GAMES = 50

