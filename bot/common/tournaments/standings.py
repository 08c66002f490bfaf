"""Points, tiebreaks and ranks from a tournament's tables; the bracket of an elimination.

A table is one game of a round (or a bye): its players and, once it ended, their places (0 =
first, equal places tied). Points by placing: a player scores, per game, the share of the others
at the table they finished ahead of, a tie counting half. Two players: 1 for a win, ½ for a draw,
0 for a loss; at a table of four, 1, ⅔, ⅓ and 0. A bye or a walkover scores 1; a game abandoned
by the organiser (void) scores nothing and counts as not played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

KINDS = ("swiss", "roundrobin", "elimination", "league")


@dataclass(frozen=True)
class Table:
    round: int
    players: tuple[int, ...]
    places: tuple[int, ...] | None  # None while the game runs; () for a void game
    note: str | None = None  # "bye", "walkover", "forfeit", "void" ...

    @property
    def is_game(self) -> bool:
        return len(self.players) > 1

    @property
    def counted(self) -> bool:
        """A game with a result that counts (not running, not void)."""
        return self.is_game and bool(self.places)


@dataclass(frozen=True)
class Standing:
    player: int
    rank: int  # 1 = first; tied players share a rank
    points: float
    tiebreak: float | None  # Buchholz (Swiss), head-to-head among the tied (round robin), else None
    played: int  # games with a result (byes and void games are not games played)
    wins: int


def points(table: Table) -> dict[int, float]:
    """Each player's points from one table (nothing while it runs).

    >>> points(Table(1, (1, 2, 3, 4), (0, 1, 1, 3)))
    {1: 1.0, 2: 0.5, 3: 0.5, 4: 0.0}
    """
    if table.places is None:
        return {}
    if not table.is_game:
        return {table.players[0]: 1.0}
    if not table.places:
        return {p: 0.0 for p in table.players}
    others = len(table.players) - 1
    return {p: (sum(q > place for q in table.places) + 0.5 * (table.places.count(place) - 1)) / others
            for p, place in zip(table.players, table.places)}


def winner_of(table: Table, seed: dict[int, int]) -> int | None:
    """Who goes on from a table of an elimination: its single first, else (a draw, a void game) the
    better seed. None while the game runs."""
    if table.places is None:
        return None
    if not table.is_game:
        return table.players[0]
    firsts = [p for p, place in zip(table.players, table.places) if place == 0] if table.places else list(table.players)
    return min(firsts, key=lambda p: seed.get(p, 10**9))


def totals(tables: Sequence[Table]) -> dict[int, float]:
    out: dict[int, float] = {}
    for table in tables:
        for p, v in points(table).items():
            out[p] = out.get(p, 0.0) + v
    return out


def opponents(tables: Sequence[Table]) -> dict[int, list[int]]:
    """Everyone each player sat with in a game that counts, once per game."""
    out: dict[int, list[int]] = {}
    for table in tables:
        if table.counted:
            for p in table.players:
                out.setdefault(p, []).extend(q for q in table.players if q != p)
    return out


def standings(kind: str, players: Sequence[int], tables: Sequence[Table],
              ratings: dict[int, float] | None = None) -> list[Standing]:
    """Everyone in ``players`` (seed order: earlier = better seed) ranked for this kind of event:

    - swiss: points, then Buchholz (the sum of the opponents' points), then rating;
    - roundrobin: points, then head-to-head (points scored in games among the players tied on
      points), then rating;
    - elimination: how far each got, then seed; points are games won;
    - league: points, then fewer games (the same points from fewer games), then rating."""
    ratings = ratings or {}
    seed = {p: i for i, p in enumerate(players)}
    pts = totals(tables)
    met = opponents(tables)
    played = {p: len([t for t in tables if t.counted and p in t.players]) for p in players}
    wins = {p: len([t for t in tables if t.counted and p in t.players and points(t)[p] == 1.0]) for p in players}
    tiebreak: dict[int, float | None] = {p: None for p in players}
    if kind == "swiss":
        tiebreak = {p: sum(pts.get(o, 0.0) for o in met.get(p, [])) for p in players}
    elif kind == "roundrobin":
        tiebreak = head_to_head(players, tables, pts)
    if kind == "elimination":
        reached = elimination_progress(players, tables, seed)
        key = {p: (-reached[p],) for p in players}
        pts = {p: float(wins[p]) for p in players}
    elif kind == "league":
        key = {p: (-round(pts.get(p, 0.0), 6), played[p]) for p in players}
    else:
        key = {p: (-round(pts.get(p, 0.0), 6), -round(tiebreak[p] or 0.0, 6)) for p in players}
    ordered = sorted(players, key=lambda p: key[p] + (-ratings.get(p, 0.0), seed[p]))
    out, rank = [], 0
    for i, p in enumerate(ordered):
        if i == 0 or key[p] != key[ordered[i - 1]]:
            rank = i + 1
        out.append(Standing(p, rank, pts.get(p, 0.0), tiebreak[p], played[p], wins[p]))
    return out


def head_to_head(players: Sequence[int], tables: Sequence[Table], pts: dict[int, float]) -> dict[int, float | None]:
    """For each player tied on points with others: the points they scored in games where everyone
    at the table was one of those tied players (None for a player with no tie)."""
    groups: dict[float, set[int]] = {}
    for p in players:
        groups.setdefault(round(pts.get(p, 0.0), 6), set()).add(p)
    out: dict[int, float | None] = {p: None for p in players}
    for group in groups.values():
        if len(group) < 2:
            continue
        for p in group:
            out[p] = sum(points(t).get(p, 0.0) for t in tables
                         if t.counted and p in t.players and set(t.players) <= group)
    return out


def elimination_progress(players: Sequence[int], tables: Sequence[Table], seed: dict[int, int]) -> dict[int, int]:
    """How far each player got: twice the last round they reached, plus one while still in (or
    as the champion), so a player out in a later round ranks above one out earlier."""
    last = {p: 0 for p in players}
    out_in: dict[int, int] = {}
    for t in tables:
        for p in t.players:
            last[p] = max(last.get(p, 0), t.round)
        winner = winner_of(t, seed)
        if winner is not None:
            for p in t.players:
                if p != winner:
                    out_in[p] = t.round
    return {p: 2 * last[p] + (0 if p in out_in else 1) for p in players}


@dataclass(frozen=True)
class Match:
    players: tuple[int | None, int | None]
    winner: int | None  # None while running (or a slot still to be decided)


def bracket(tables: Sequence[Table], rounds: int, seed: dict[int, int]) -> list[list[Match]]:
    """An elimination's bracket round by round, from its tables (table number = bracket
    position); slots of rounds not played yet are empty, or show who already won their way in."""
    by_round: dict[int, dict[int, Table]] = {}
    for i, t in enumerate(tables):
        by_round.setdefault(t.round, {})[i] = t
    out: list[list[Match]] = []
    previous: list[Match] = []
    for r in range(1, rounds + 1):
        played = [t for t in tables if t.round == r]
        if played:
            matches = [Match(tuple(t.players) + (None,) * (2 - len(t.players)), winner_of(t, seed)) for t in played]
        else:
            count = max(1, len(previous) // 2)
            feeders = [m.winner for m in previous] + [None] * (2 * count - len(previous))
            matches = [Match((feeders[2 * i], feeders[2 * i + 1]), None) for i in range(count)]
        out.append(matches)
        previous = matches
    return out
