"""Skill ratings: the Plackett-Luce model of Weng & Lin (2011), computed by the OpenSkill library.

A rating is a normal belief about a player's skill: mean ``mu`` and uncertainty ``sigma``. One
finished game is a ranking of teams (lower rank = better; equal ranks = a tie); :func:`rate`
returns every player's new rating. A team's skill is the sum of its players' (HOSTILE 2 vs 2),
and a player's share of the team's update is in proportion to their own variance, so the player
the model knows least about moves most.

The figures shown to people are the ordinal ``mu - 3 sigma``: a cautious estimate that starts at 0
and grows as games make the rating surer.

The parameters are the ones this bot has always used (OpenSkill's defaults); ratings stored before
the move to the library are unchanged by it (tests/test_ratings.py replays a recorded series).

>>> (w,), (l,) = rate([[Rating()], [Rating()]], [0, 1], tau=0)
>>> round(w.mu, 4), round(l.mu, 4), round(w.sigma, 4)
(27.6352, 22.3648, 8.0655)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2  # the spread of one game's performance around a skill
KAPPA = 0.0001  # keeps a variance from shrinking to nothing (or below)
TAU = MU / 300  # added uncertainty before each game, so old ratings can still move


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@cache
def _model(beta: float, kappa: float, tau: float) -> PlackettLuce:
    # The library reads tau from the model (a per-call tau of 0 falls back to it), so each tau is
    # a model of its own.
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=beta, kappa=kappa, tau=tau)


def rate(teams: list[list[Rating]], ranks: list[int], *, beta: float = BETA, kappa: float = KAPPA,
         tau: float = TAU) -> list[list[Rating]]:
    """New ratings after one game of ``teams`` that finished in ``ranks`` (0 = first; ties share)."""
    if len(teams) != len(ranks) or len(teams) < 2 or any(not team for team in teams):
        raise ValueError("need at least two non-empty teams, one rank each")
    model = _model(beta, kappa, tau)
    rated = model.rate([[model.rating(mu=p.mu, sigma=p.sigma) for p in team] for team in teams],
                       ranks=[float(r) for r in ranks])
    return [[Rating(p.mu, p.sigma) for p in team] for team in rated]


def ranks_from(places: list[int]) -> list[int]:
    """Dense ranks (0, 1, ...) from any comparable places, keeping ties: [3, 1, 3] -> [1, 0, 1]."""
    order = sorted(set(places))
    return [order.index(p) for p in places]
