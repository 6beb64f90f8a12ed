"""Coffee Table: coffee-themed tabletop games, their rules engine, bots and site."""

__version__ = "0.1.0"
