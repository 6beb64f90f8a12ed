"""The lobby: the tables of this process, and how people come to sit at them.

- ``lobby``: ``Lobby``, creating, finding, joining and leaving tables, seating bots;
- ``matchmaking``: play now; ``rematch``: play again;
- ``quotas``: who may open another table; ``table_settings``: a table's settings
  beside its game's options.
"""
