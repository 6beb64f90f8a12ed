"""Tournaments, pure: who meets whom, points and standings (no I/O, no clocks).

- ``results``: a round's tables (``Table``: players in seat order, their ranks once
  played), points per match by rank, standings with tie-breaks;
- ``swiss``: the next Swiss round (the Dutch rules for two players; tables of close
  scores for three to six);
- ``round_robin``: every round of a round robin (the circle method for two players;
  ``tables``: the most even meetings at three to six seats);
- ``arena``: pairing the free players of an arena, and its points with streaks.

Players are plain strings (the server's entrant ids). The server (``server/tournaments``)
stores rounds and results and calls these functions; they never read a clock or a
database, so the same tables come out of the same history.
"""

from coffeetable.tournaments.results import Standing, Table, match_points, standings

__all__ = ["Standing", "Table", "match_points", "standings"]
