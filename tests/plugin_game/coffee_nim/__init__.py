"""Coffee Beans Nim: the fifth game, a package of its own outside coffeetable.

A pile of coffee beans; in turn each player takes one to three; who takes the
last bean wins. It follows today's contract (engine/contract.py) and nothing
more: a ``Game`` and a ``State``, no heuristics, no codec, no board. The test
suite finds it through its entry point (``coffee_nim-0.1.dist-info``, on
``sys.path`` from tests/conftest.py; ``pip install tests/plugin_game`` would
do the same), so every test that parametrizes over ``games.names()`` plays it.
"""

from __future__ import annotations

import random
from typing import Any

from coffeetable.engine import (
    Action,
    Event,
    Game,
    IllegalAction,
    Option,
    State,
    View,
    action_schema,
)

MOST = 3


class NimState(State):
    """One match: the beans left, whose turn it is, what each player took."""

    def __init__(self, game: NimGame, players: int, seed: int, beans: int) -> None:
        self.game = game
        self.players = players
        self.rng = random.Random(seed)
        self.beans = beans
        self.turn = self.rng.randrange(players)
        self.taken = [0] * players
        self.winner: int | None = None

    def actors(self) -> list[int]:
        return [] if self.is_over else [self.turn]

    def legal_actions(self, seat: int) -> list[Action]:
        if self.is_over or seat != self.turn:
            return []
        return [{"type": "take", "count": n} for n in range(1, min(MOST, self.beans) + 1)]

    def _apply_action(self, seat: int, action: Action) -> list[Event]:
        if self.is_over:
            raise IllegalAction("the match is over")
        if seat != self.turn:
            raise IllegalAction("it is not your turn")
        count = action["count"]
        if count > self.beans:
            raise IllegalAction(f"only {self.beans} beans are left")
        self.beans -= count
        self.taken[seat] += count
        events: list[Event] = [{"type": "took", "seat": seat, "count": count}]
        if self.beans == 0:
            self.winner = seat
            events.append({"type": "match_over", "winners": [seat]})
        else:
            self.turn = (seat + 1) % self.players
        return events

    def view(self, seat: int | None) -> View:
        return {
            "beans": self.beans,
            "turn": None if self.is_over else self.turn,
            "taken": list(self.taken),
            "seat": seat,
        }

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def scores(self) -> list[int]:
        return [1 if seat == self.winner else 0 for seat in range(self.players)]

    @property
    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    @property
    def round(self) -> int:
        return 1

    def clone(self) -> NimState:
        copy = NimState.__new__(NimState)
        copy.__dict__.update(self.__dict__)
        copy.taken = list(self.taken)
        copy.rng = random.Random()
        copy.rng.setstate(self.rng.getstate())
        return copy


class NimGame(Game):
    """Coffee Beans Nim: take one to three beans; the last bean wins."""

    name = "coffee_nim"
    title = "Coffee Beans Nim"
    min_players = 2
    max_players = 3
    options = (Option("beans", 15, "beans in the pile at the start", minimum=1, maximum=60),)
    action_schema = {
        "oneOf": [action_schema("take", count={"type": "integer", "minimum": 1, "maximum": MOST})]
    }
    public_views = True
    perfect_information = True  # nothing is hidden: determinize is a clone

    def new_state(self, players: int, seed: int = 0, **options: Any) -> NimState:
        self.check_players(players)
        return NimState(self, players, seed, self.resolve_options(options)["beans"])
