"""The contract every game follows: a small ``Game`` object and its ``State``.

The shape follows OpenSpiel's Python games. A ``Game`` describes a game (its
name, player counts, options and the JSON schema of its actions) and deals new
matches; a ``State`` is one match in progress. Everything is pure: no I/O, no
clock, and the only randomness is the seeded generator a state carries, so a
match is fully described by ``(game, players, options, seed, actions)``.

Actions and events are small JSON values (dicts with a ``"type"`` key), the
same value on the wire, in the log and in tests.

Like OpenSpiel's ``State.apply_action`` around a game's ``_apply_action``, the
base ``State.apply`` checks what every game must check (the seat, and that the
action fits the game's published ``action_schema``) and only then hands the
action to the game's ``_apply_action``, which checks the rules alone.
"""

from __future__ import annotations

import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

from coffeetable.engine.schema import ActionChecker

#: An action or an event: a JSON object with a "type" key.
Action = dict[str, Any]
Event = dict[str, Any]
#: What a seat may see: a JSON object.
View = dict[str, Any]


class IllegalAction(ValueError):
    """An action that is malformed, out of turn or against the rules.

    ``reason`` is a sentence a person can read. The state that raised it is
    unchanged.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def action_schema(
    action_type: str, required: Sequence[str] | None = None, /, **properties: Any
) -> dict[str, Any]:
    """The JSON Schema of one action type, for a game's ``action_schema``.

    ``properties`` are the action's fields (JSON Schemas); ``required`` names those it
    must have (default: all of them). No other field is allowed.
    """
    needed = list(properties) if required is None else list(required)
    return {
        "type": "object",
        "properties": {"type": {"const": action_type}, **properties},
        "required": ["type", *needed],
        "additionalProperties": False,
    }


@dataclass(frozen=True)
class Option:
    """One option of a game, with its default and a line of documentation."""

    name: str
    default: Any
    description: str
    #: Allowed values for a choice; None for a free bool or int.
    choices: tuple[Any, ...] | None = None
    #: Inclusive bounds for an int option.
    minimum: int | None = None
    maximum: int | None = None
    #: The value is a seat, -1 for one drawn at random: the lobby offers "At random",
    #: "Seat 1", "Seat 2"... rather than a number to type.
    seat: bool = False

    def check(self, value: Any) -> Any:
        """Return ``value`` if it suits this option, else raise ValueError."""
        kind = type(self.default)
        if kind is bool:
            if not isinstance(value, bool):
                raise ValueError(f"option {self.name!r} takes true or false, not {value!r}")
        elif kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"option {self.name!r} takes a whole number, not {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise ValueError(f"option {self.name!r} is at least {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise ValueError(f"option {self.name!r} is at most {self.maximum}")
        elif not isinstance(value, kind):
            raise ValueError(f"option {self.name!r} takes a {kind.__name__}, not {value!r}")
        if self.choices is not None and value not in self.choices:
            raise ValueError(f"option {self.name!r} is one of {list(self.choices)}")
        return value

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "default": self.default,
            "type": type(self.default).__name__,
            "description": self.description,
        }
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.seat:
            out["seat"] = True
        return out


class State(ABC):
    """One match in progress.

    Seats are numbered 0..players-1. ``apply`` is the only way a state changes.
    A game implements ``_apply_action`` (and ``_apply_table_action`` if it has
    table actions), not ``apply``.
    """

    #: The game this state belongs to.
    game: Game
    #: Number of seats.
    players: int

    @abstractmethod
    def actors(self) -> list[int]:
        """The seats that may act now (all of them in a real-time game)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, without duplicates."""

    def apply(self, seat: int | None, action: Any) -> list[Event]:
        """Apply ``action`` for ``seat`` and return the public events it caused.

        Seat None is the table itself (a live table's clock, say): its actions
        are the game's ``table_action_schema``. Raises ``IllegalAction`` (and
        changes nothing) if the seat is not one of this match, if the action
        does not fit the game's schema (a missing or unexpected field, a value
        of the wrong JSON type or out of bounds, an unknown type), or if the
        game's rules refuse it.
        """
        if seat is None:
            checker = self.game.table_action_checker
            if checker is None:
                raise IllegalAction(f"{self.game.title} has no table actions")
        else:
            if type(seat) is not int or not 0 <= seat < self.players:
                self.check_seat(seat)  # raises, with the reason (inline: this is every action)
            checker = self.game.action_checker
        # The fast path, as ActionChecker.refusal has it: one look-up, one generated test.
        try:
            fits = checker.tests[action["type"]](action)
        except (KeyError, TypeError, IndexError):  # no "type", not a dict
            fits = False
        if not fits:
            reason = checker.refusal(action)
            if reason is not None:
                raise IllegalAction(reason)
        if seat is None:
            return self._apply_table_action(action)
        return self._apply_action(seat, action)

    # Not abstract: a state may still override ``apply`` whole (test doubles do).
    def _apply_action(self, seat: int, action: Action) -> list[Event]:
        """Apply an action that fits the schema, for a seat of this match.

        Checks the rules (is it this seat's turn, is the move allowed now) and
        raises ``IllegalAction``, changing nothing, if they refuse it.
        """
        raise NotImplementedError(f"{type(self).__name__} does not implement _apply_action")

    def _apply_table_action(self, action: Action) -> list[Event]:
        """Apply one of the game's table actions (seat None); as ``_apply_action``."""
        raise NotImplementedError(f"{type(self).__name__} has no table actions")

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """A JSON object of exactly what ``seat`` may see (None: a spectator)."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """True once the match has ended."""

    @property
    @abstractmethod
    def scores(self) -> list[int]:
        """Cumulative totals, one per seat."""

    @property
    @abstractmethod
    def winners(self) -> list[int]:
        """The seats sharing the win, once the match is over (else empty)."""

    @property
    @abstractmethod
    def round(self) -> int:
        """The current round, counted from 1."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy, random generator included."""

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A copy consistent with what ``seat`` sees, its hidden parts re-sampled.

        A game of perfect information (``Game.perfect_information``) hides nothing, so
        it inherits this: a clone. Any other game overrides it, or search bots (ISMCTS)
        do not play it (``Game.can_determinize``).
        """
        if self.game.perfect_information:
            return self.clone()
        raise NotImplementedError(f"{type(self).__name__} does not implement determinize")

    def check_seat(self, seat: object) -> None:
        """Raise IllegalAction unless ``seat`` is a seat of this match (a bool is not)."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalAction(f"there is no seat {seat!r} at this table")

    def returns(self) -> list[float]:
        """The match result per seat: 1 for a (shared) win, -1 for a loss, 0 while running."""
        if not self.is_over:
            return [0.0] * self.players
        won = set(self.winners)
        return [1.0 if seat in won else -1.0 for seat in range(self.players)]


class Game(ABC):
    """A game: what it is called, who can play it, its options, and how to deal it."""

    name: str
    title: str
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    #: True when every seat acts at once against the clock (Espresso).
    realtime: bool = False
    #: True when no seat sees more than a spectator: every seat's view is the
    #: spectator's (``view(None)``) with its own ``"seat"``, so a server builds one
    #: view per state, not one per seat (the tests hold each game that says so to it).
    public_views: bool = False
    #: JSON schema of one action: ``{"oneOf": [action_schema(...), ...]}``. It is
    #: published to clients and enforced by ``State.apply``; {} admits any action.
    action_schema: Mapping[str, Any] = {}
    #: JSON schema of the table's own actions (seat None); None: there are none.
    table_action_schema: Mapping[str, Any] | None = None

    # -- facts: shared code (server, bots, interop, web) reads these and never names a
    # game. Each has a default, so a game that sets none still plays everywhere.

    #: True when nothing is ever hidden from anyone (no cards face down, no secret
    #: deck order, no secret picks): ``State.determinize`` is then a plain clone.
    perfect_information: bool = False
    #: Seats when a caller gives none (research environments); None: two when the game
    #: allows two, else its fewest (``preferred_players``).
    default_players: int | None = None
    #: An upper bound on a match's length in actions (OpenSpiel's ``max_game_length``).
    max_length: int = 10_000
    #: The research environments' default length cap, in steps per agent (PettingZoo).
    max_cycles: int = 1_000
    #: The research environments' version (PettingZoo's ``<name>_v<N>`` modules, in
    #: ``coffeetable.interop.pettingzoo``): raised when a change to the game or its codec
    #: changes what an agent sees or may do, so results name the version they were had on.
    env_version: int = 1
    #: True when some choices are secret and simultaneous (every seat picks, then all
    #: reveal): OpenSpiel plays it as a simultaneous game unless asked for turns.
    simultaneous: bool = False
    #: True when a match between two has exactly one winner (returns 1 and -1).
    zero_sum: bool = False
    #: Solo ranking: (least score for the rank, its id), best last; () for no solo ranks.
    solo_ranks: tuple[tuple[int, str], ...] = ()
    #: The most a solo match can score (OpenSpiel's utility bound); None: no solo mode.
    solo_max_score: float | None = None
    #: Rating groups where the player count changes the game: (name, fewest, most)
    #: players; () rates every multi-player match in one group, ``all``.
    rating_groups: tuple[tuple[str, int, int], ...] = ()
    #: The bot levels (``coffeetable.bots.levels``) that differ here from the defaults:
    #: level name -> recipe fields, e.g. ``{"expert": {"policy": "ismcts", "iterations": 400}}``.
    bot_levels: Mapping[str, Mapping[str, Any]] = {}
    #: An action that takes back a move (for people who misclick): bots, searches and
    #: the research action spaces leave it out. None: the game has none.
    undo_action: Mapping[str, Any] | None = None
    #: Named option sets worth measuring apart (``coffeetable bench`` runs each, sharing
    #: its time); empty: the defaults alone.
    bench_variants: Mapping[str, Mapping[str, Any]] = {}
    #: Options that make a short but whole match (tests, demos, quick arenas), such as
    #: a lower target score; empty: the defaults are short enough.
    quick_options: Mapping[str, Any] = {}
    #: The modules beside the game's, found by name in its package (None: look for
    #: ``<package>.heuristics`` and ``<package>.codec``). The heuristics follow
    #: ``coffeetable.bots.hooks.Heuristics``; the codec (numpy, imported only when a
    #: research adapter asks) builds the game's ``coffeetable.interop.encoding.Codec``.
    heuristics_module: str | None = None
    codec_module: str | None = None
    #: The game's guided first match ("learn by playing"): a JSON resource in its package
    #: (e.g. ``"tutorial.json"``), read by ``coffeetable.server.learn``; None: it has none.
    tutorial: str | None = None

    def preferred_players(self) -> int:
        """``default_players``, or two when the game allows two, else its fewest."""
        if self.default_players is not None:
            return self.default_players
        return 2 if self.min_players <= 2 <= self.max_players else self.min_players

    def solo_rank(self, score: int) -> str | None:
        """The solo rank of a one-player ``score`` (``solo_ranks``), None without ranks."""
        rank = None
        for least, name in self.solo_ranks:
            if rank is None or score >= least:
                rank = name
        return rank

    @property
    def package(self) -> str:
        """The package the game's class lives in (its own modules sit beside it)."""
        module = type(self).__module__
        found = sys.modules.get(module)
        package = getattr(found, "__package__", None)
        return package if package is not None else module.rpartition(".")[0]

    def _beside(self, given: str | None, name: str) -> ModuleType | None:
        wanted = given or (f"{self.package}.{name}" if self.package else name)
        try:
            return import_module(wanted)
        except ModuleNotFoundError as error:
            if given is None and error.name is not None and wanted.startswith(error.name):
                return None  # the game has no such module (not one failing inside it)
            raise

    def heuristics(self) -> ModuleType | None:
        """The game's heuristics module (``coffeetable.bots.hooks.Heuristics``), or None."""
        return self._beside(self.heuristics_module, "heuristics")

    def codec(self) -> ModuleType | None:
        """The game's research codec module (``build(players, options) -> Codec``), or None."""
        return self._beside(self.codec_module, "codec")

    def web_dir(self) -> Path | None:
        """The folder of the game's own web board, ``web/`` beside its module (``index.js``,
        its styles, ``i18n.js``, ``rules.js``), which the site serves at
        ``/static/games/<name>/``; None when it ships none (the site's generic board)."""
        found = getattr(sys.modules.get(type(self).__module__), "__file__", None)
        folder = None if found is None else Path(found).parent / "web"
        return folder if folder is not None and folder.is_dir() else None

    @cached_property
    def can_determinize(self) -> bool:
        """Whether its states re-sample hidden parts (``State.determinize``): search bots
        (ISMCTS) need it. A perfect-information game inherits it as a clone."""
        if self.perfect_information:
            return True
        dealt = self.new_state(players=self.preferred_players(), seed=0)
        return type(dealt).determinize is not State.determinize

    @cached_property
    def action_checker(self) -> ActionChecker:
        """``action_schema`` compiled, once per game, for ``State.apply``."""
        return ActionChecker(self.action_schema)

    @cached_property
    def table_action_checker(self) -> ActionChecker | None:
        """``table_action_schema`` compiled, or None."""
        schema = self.table_action_schema
        return None if schema is None else ActionChecker(schema, "table action")

    def resolve_options(self, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The full option dict: defaults filled in, each value checked.

        Raises ValueError for an unknown option or a bad value.
        """
        given = dict(options or {})
        known = {option.name: option for option in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise ValueError(f"{self.name} has no option {', '.join(map(repr, unknown))}")
        return {
            name: option.check(given[name]) if name in given else option.default
            for name, option in known.items()
        }

    def check_players(self, players: int) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            span = f"{self.min_players} to {self.max_players}"
            raise ValueError(f"{self.title} takes {span} players, not {players}")

    @abstractmethod
    def new_state(self, players: int, seed: int = 0, **options: Any) -> State:
        """Deal a new match for ``players`` seats from ``seed``."""

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # A game is one registered instance: a pickled state (OpenSpiel's saved
        # states, a worker's copy) names its game and finds it again by name.
        from coffeetable.engine.replay import game_named

        return game_named, (self.name,)

    def describe(self) -> dict[str, Any]:
        """A JSON description of the game, as the lobby shows it."""
        return {
            "name": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "realtime": self.realtime,
            "options": [option.to_json() for option in self.options],
            "action_schema": dict(self.action_schema),
        }


@dataclass
class MatchLog:
    """All it takes to reproduce a match: game, seats, options, seed and actions."""

    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    #: (seat, action) in the order they were applied; seat None is the table itself.
    actions: list[tuple[int | None, Action]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "actions": [[seat, action] for seat, action in self.actions],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchLog:
        return cls(
            game=str(data["game"]),
            players=int(data["players"]),
            seed=int(data["seed"]),
            options=dict(data.get("options") or {}),
            actions=[(seat, dict(action)) for seat, action in data.get("actions", [])],
        )
