"""The Plackett-Luce ratings (bot/common/ratings.py) against known figures and the model's properties."""

from __future__ import annotations

import math

import pytest

from bot.common.ratings import MU, SIGMA, Rating, rate, ranks_from


def test_a_two_player_win_moves_both_means_symmetrically_by_the_published_figures():
    # openskill.js's README example (no dynamics term): 25/8.333 vs 25/8.333, first wins.
    (w,), (l,) = rate([[Rating()], [Rating()]], [0, 1], tau=0)
    assert w.mu == pytest.approx(27.63523138347365, abs=1e-9)
    assert l.mu == pytest.approx(22.36476861652635, abs=1e-9)
    assert w.sigma == pytest.approx(8.065506316323548, abs=1e-9) and l.sigma == pytest.approx(w.sigma)
    assert (w.mu - MU) == pytest.approx(MU - l.mu)
    assert Rating().ordinal == pytest.approx(0.0)


def test_the_dynamics_term_only_widens_sigma_before_the_update():
    (w,), (l,) = rate([[Rating()], [Rating()]], [0, 1])
    (w0,), _ = rate([[Rating()], [Rating()]], [0, 1], tau=0)
    assert w.sigma > w0.sigma and w.mu > w0.mu  # more uncertainty, a bigger step
    assert w.mu - MU == pytest.approx(MU - l.mu)


def test_a_stronger_favourite_gains_less_than_an_underdog_would():
    strong, weak = Rating(32.0, 5.0), Rating(20.0, 5.0)
    (fav_won,), _ = rate([[strong], [weak]], [0, 1], tau=0)
    (_, ), (upset,) = rate([[strong], [weak]], [1, 0], tau=0)
    gain_favourite = fav_won.mu - strong.mu
    gain_underdog = upset.mu - weak.mu
    assert 0 < gain_favourite < gain_underdog


def test_a_draw_between_equals_changes_no_mean_and_pulls_unequals_together():
    (a,), (b,) = rate([[Rating()], [Rating()]], [0, 0], tau=0)
    assert a.mu == pytest.approx(MU) and b.mu == pytest.approx(MU)
    assert a.sigma < SIGMA  # a game was still played: surer than before
    (hi,), (lo,) = rate([[Rating(30, 6)], [Rating(20, 6)]], [0, 0], tau=0)
    assert hi.mu < 30 and lo.mu > 20


def test_teams_share_the_update_by_their_own_uncertainty():
    sure, unsure = Rating(25, 3), Rating(25, 8)
    (a, b), (c, d) = rate([[sure, unsure], [Rating(), Rating()]], [0, 1], tau=0)
    assert a.mu > 25 and b.mu > 25 and c.mu < 25 and d.mu < 25
    assert b.mu - 25 > a.mu - 25  # the less known team mate moves more
    # Equal teams: the winners' total gain equals the losers' total loss.
    (e, f), (g, h) = rate([[Rating(), Rating()], [Rating(), Rating()]], [0, 1], tau=0)
    assert (e.mu + f.mu - 50) == pytest.approx(50 - g.mu - h.mu)


def test_three_players_in_order_and_a_shared_last_place():
    first, second, third = rate([[Rating()], [Rating()], [Rating()]], [0, 1, 2], tau=0)
    assert first[0].mu > second[0].mu > third[0].mu
    win, lose1, lose2 = rate([[Rating()], [Rating()], [Rating()]], [0, 1, 1], tau=0)
    assert win[0].mu > MU > lose1[0].mu and lose1[0].mu == pytest.approx(lose2[0].mu)


def test_sigma_never_collapses_and_bad_input_is_refused():
    r = Rating(25, 0.01)
    for _ in range(50):
        (r,), _ = rate([[r], [Rating()]], [0, 1], tau=0)
    assert r.sigma > 0 and math.isfinite(r.mu)
    with pytest.raises(ValueError):
        rate([[Rating()]], [0])
    with pytest.raises(ValueError):
        rate([[Rating()], []], [0, 1])
    assert ranks_from([3, 1, 3]) == [1, 0, 1]


def test_openskill_gives_the_ratings_the_hand_written_model_stored():
    """300 recorded games (2-4 sides, 2 vs 2, ties) rated by the bot's own Plackett-Luce before it
    moved to the OpenSkill library: replayed through the library, every rating is the same."""
    import json
    from pathlib import Path

    series = json.loads((Path(__file__).parent / "ratings_series.json").read_text())
    book: dict[str, Rating] = {}
    for g in series["games"]:
        before = [[book.get(p, Rating()) for p in team] for team in g["teams"]]
        for team, new in zip(g["teams"], rate(before, ranks_from(g["places"]))):
            book.update(zip(team, new))
    assert set(book) == set(series["final"])
    for player, (mu, sigma) in series["final"].items():
        assert book[player].mu == pytest.approx(mu, abs=1e-6) and book[player].sigma == pytest.approx(sigma, abs=1e-6)
