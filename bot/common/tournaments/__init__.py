"""Tournaments' pure parts: pairings (Swiss, round robin, elimination, league opponents) and
standings with their tiebreaks. No storage, no clock, no random: the service feeds them stored
results and ratings, and saves what they decide."""

from .pairing import (Pairing, bracket_size, elimination_rounds, first_round, league_opponent, meetings, next_round,
                      pair_key, round_robin, seed_positions, swiss, swiss_rounds, table_sizes)
from .standings import KINDS, Match, Standing, Table, bracket, points, standings, winner_of

__all__ = [
    "KINDS", "Match", "Pairing", "Standing", "Table", "bracket", "bracket_size", "elimination_rounds", "first_round",
    "league_opponent", "meetings", "next_round", "pair_key", "points", "round_robin", "seed_positions", "standings",
    "swiss", "swiss_rounds", "table_sizes", "winner_of",
]
