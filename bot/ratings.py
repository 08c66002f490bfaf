"""Skill ratings: the Plackett-Luce model of Weng & Lin (2011), as OpenSkill uses it. Pure math.

A rating is a normal belief about a player's skill: mean ``mu`` and uncertainty ``sigma``. One
finished game is a ranking of teams (lower rank = better; equal ranks = a tie); :func:`rate`
returns every player's new rating. A team's skill is the sum of its players' (HOSTILE 2 vs 2),
and a player's share of the team's update is in proportion to their own variance, so the player
the model knows least about moves most.

The figures shown to people are the ordinal ``mu - 3 sigma``: a cautious estimate that starts at 0
and grows as games make the rating surer.

>>> (w,), (l,) = rate([[Rating()], [Rating()]], [0, 1], tau=0)
>>> round(w.mu, 4), round(l.mu, 4), round(w.sigma, 4)
(27.6352, 22.3648, 8.0655)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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


def rate(teams: list[list[Rating]], ranks: list[int], *, beta: float = BETA, kappa: float = KAPPA,
         tau: float = TAU) -> list[list[Rating]]:
    """New ratings after one game of ``teams`` that finished in ``ranks`` (0 = first; ties share).

    Follows Algorithm 4 of Weng & Lin (2011) with gamma_i = sigma_i / c (OpenSkill's default).
    """
    if len(teams) != len(ranks) or len(teams) < 2 or any(not team for team in teams):
        raise ValueError("need at least two non-empty teams, one rank each")
    if tau:  # dynamics: a little uncertainty grows between games
        teams = [[Rating(p.mu, math.sqrt(p.sigma ** 2 + tau ** 2)) for p in team] for team in teams]
    team_mu = [sum(p.mu for p in team) for team in teams]
    team_var = [sum(p.sigma ** 2 for p in team) for team in teams]
    c = math.sqrt(sum(v + beta ** 2 for v in team_var))
    strength = [math.exp(m / c) for m in team_mu]
    # C_q: the strength of every team that finished level with or behind q; A_q: q's tied teams.
    behind = [sum(s for s, r in zip(strength, ranks) if r >= ranks[q]) for q in range(len(teams))]
    tied = [sum(1 for r in ranks if r == ranks[q]) for q in range(len(teams))]
    out = []
    for i, team in enumerate(teams):
        omega = delta = 0.0
        gamma = math.sqrt(team_var[i]) / c
        for q in range(len(teams)):
            if ranks[q] > ranks[i]:
                continue  # only the teams i finished level with or behind carry information
            p = strength[i] / behind[q]
            omega += ((1.0 if q == i else 0.0) - p) / tied[q]
            delta += gamma * p * (1 - p) / tied[q]
        omega *= team_var[i] / c
        delta *= team_var[i] / c ** 2
        out.append([_moved(p, team_var[i], omega, delta, kappa) for p in team])
    return out


def _moved(player: Rating, team_var: float, omega: float, delta: float, kappa: float) -> Rating:
    share = player.sigma ** 2 / team_var
    return Rating(player.mu + share * omega, player.sigma * math.sqrt(max(1 - share * delta, kappa)))


def ranks_from(places: list[int]) -> list[int]:
    """Dense ranks (0, 1, ...) from any comparable places, keeping ties: [3, 1, 3] -> [1, 0, 1]."""
    order = sorted(set(places))
    return [order.index(p) for p in places]
