"""Doppio, Fika and Café as OpenSpiel python games, and OpenSpiel's bots for our arena.

``register()`` registers "coffeetable_doppio", "coffeetable_fika" and
"coffeetable_cafe"; then ``pyspiel.load_game("coffeetable_fika")`` or
``pyspiel.load_game("coffeetable_doppio", {"players": 1, "master": True})``.

- Parameters: ``players`` (Doppio 2, Fika 2, Café 2 by default), ``seed``
  (which family of deals the chance node draws from, below), the game's own
  options (Doppio ``master``, ``first_player``; Café ``master``) and, for
  Fika, ``turn_based``.
- Chance is explicit (``ChanceMode.EXPLICIT_STOCHASTIC``): a match starts at
  one chance node, the deal, whose ``DEALS`` equally likely outcomes are deal
  numbers; deal ``i`` is the engine's match of seed ``seed * DEALS + i`` (with
  the default ``seed`` 0, the site's match of seed ``i``). The engine is
  deterministic given its seed and the actions, so the history (deal, then
  every action) is the whole state: OpenSpiel's own history serialisation
  saves and restores a state exactly (``serialize=True`` in
  ``random_sim_test``), with no generator state to carry.
- Actions are the codec's integers (``coffeetable.interop.<game>``,
  docs/research.md). Doppio's "undo" is left out (a game could loop on it;
  our own bots never play it either).
- Fika is a simultaneous game: every decision node is simultaneous
  (``PlayerId.SIMULTANEOUS``), as OpenSpiel's simultaneous games are; a seat
  with nothing to do at a node (only one seat acts outside the secret picks)
  has one legal action, the no-op ``NOOP`` (the codec's size: one past its
  actions), so ``rl_environment`` and joint actions work at every node.
  OpenSpiel's ISMCTS and MCTS need sequential games, so
  ``coffeetable_fika(turn_based=true)`` is the same game
  with the picks made one after the other: the second picker's information
  state does not show the first pick, which is exactly the secret. When
  several seats may act in a sequential game (Café's actions phase) the
  lowest seat acts first, one of the interleavings the rules allow.
- Observation string: the seat's view as JSON; observation tensor: the
  codec's observation. Information state string: the view plus the seat's own
  actions so far (perfect recall in practice: what a seat saw is on the table
  or in its view); information state tensor: the codec's observation (not
  perfect recall: it is the current view).
- ``resample_from_infostate(player, sampler)`` is ``state.determinize(player,
  rng)``: hidden cards re-dealt consistently with the view, the future
  re-seeded. This is what OpenSpiel's ISMCTS calls.
- Returns: 1 for a win and -1 for a loss (zero-sum for Doppio and Fika, which
  always have one winner); a solo game returns its score over the best solo
  rank's threshold, as in the PettingZoo environments.

``make_bot(name, game)`` builds the arena's "openspiel-ismcts[:BUDGET]" and
"openspiel-mcts[:BUDGET]" bots (see ``coffeetable.bots.registry``).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from coffeetable.bots.base import Bot
from coffeetable.engine import Action, State
from coffeetable.interop.encoding import (
    Codec,
    GameFacts,
    codec,
    get_game,
    result,
    solo_scale,
    with_codec,
)

#: The chance node's outcomes: the number of distinct deals a game draws from.
DEALS = 2**16
#: The chance player's id.
CHANCE = int(pyspiel.PlayerId.CHANCE)

#: The games OpenSpiel gets: every turn-based game with a research codec.
GAMES = tuple(name for name in with_codec() if not get_game(name).realtime)
#: Seats when ``players`` is not given, and an upper bound on a match's length: the
#: games' ``preferred_players()`` and ``max_length`` (these mappings read them).
DEFAULT_PLAYERS = GameFacts(lambda game: game.preferred_players(), lambda g: not g.realtime)
MAX_LENGTH = GameFacts(lambda game: game.max_length, lambda game: not game.realtime)
#: The most a solo game can score (Doppio: the bean reserve; Café: a generous bound).
SOLO_MAX_SCORE = GameFacts(
    lambda game: game.solo_max_score, lambda game: game.solo_max_score is not None
)


def short_name(name: str) -> str:
    return f"coffeetable_{name}"


def _defaults(name: str) -> dict[str, Any]:
    game = get_game(name)
    params: dict[str, Any] = {"players": game.preferred_players(), "seed": 0}
    params.update({option.name: option.default for option in game.options})
    if game.simultaneous:
        params["turn_based"] = False
    return params


def zero_sum(name: str, players: int) -> bool:
    """A game that says so (``Game.zero_sum``: Doppio, Fika) between two has exactly one
    winner: 1 and -1."""
    return get_game(name).zero_sum and players == 2


def game_type(name: str, players: int = 2, simultaneous: bool = False) -> pyspiel.GameType:
    game = get_game(name)
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"Coffee Table {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS
        if simultaneous
        else pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM
        if zero_sum(name, players)
        else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(game.max_players, 1),
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_defaults(name),
    )


class _Holder:
    """What an OpenSpiel state holds of ours, copied by ``clone`` rather than deepcopy
    (OpenSpiel clones a python state by deep-copying its attributes).

    ``moves`` is every (seat, action index) so far, for the information state
    strings; ``legal`` caches each seat's legal actions until the next move.
    """

    __slots__ = ("first", "legal", "moves", "state")

    def __init__(
        self,
        state: State | None,
        moves: list[tuple[int, int]] | None = None,
        first: int | None = None,
    ) -> None:
        self.state = state
        self.moves = moves or []
        self.legal: dict[int, dict[int, Action]] = {}
        #: The seat to act next when several may (the arena's choice), until a move.
        self.first = first

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        state = None if self.state is None else self.state.clone()
        return _Holder(state, list(self.moves), self.first)

    def __getstate__(self) -> tuple[State | None, list[tuple[int, int]], int | None]:
        # pickled by OpenSpiel's serialisation: the legal cache is rebuilt on demand
        return self.state, self.moves, self.first

    def __setstate__(self, saved: tuple[State | None, list[tuple[int, int]], int | None]) -> None:
        self.state, self.moves, self.first = saved
        self.legal = {}


class CoffeeTableGame(pyspiel.Game):  # type: ignore[misc]
    """One of our games, as an OpenSpiel python game."""

    #: Set by the per-game subclasses that ``register`` hands to pyspiel.
    NAME = ""

    def __init__(self, params: dict[str, Any] | None = None, name: str | None = None) -> None:
        name = name or self.NAME
        given = dict(params or {})
        settings = {**_defaults(name), **given}
        self.name = name
        self.players = int(settings["players"])
        self.turn_based = bool(settings.get("turn_based", True))
        engine = get_game(name)
        self.simultaneous = engine.simultaneous and not self.turn_based
        self.engine = engine
        self.engine_options = engine.resolve_options(
            {option.name: settings[option.name] for option in engine.options}
        )
        self.codec: Codec = codec(name, self.players, **self.engine_options)
        solo = self.players == 1
        #: A waiting seat's one action in the simultaneous form (past the codec's).
        self.noop = self.codec.num_actions
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.num_actions + (1 if self.simultaneous else 0),
            max_chance_outcomes=DEALS,
            num_players=self.players,
            min_utility=0.0 if solo else -1.0,
            max_utility=(engine.solo_max_score or 1.0) / solo_scale(name) if solo else 1.0,
            utility_sum=0.0 if zero_sum(name, self.players) else None,
            max_game_length=engine.max_length,
        )
        super().__init__(game_type(name, self.players, self.simultaneous), info, given)
        self.seed = int(settings["seed"])
        self.outcomes = [(deal, 1.0 / DEALS) for deal in range(DEALS)]
        undo = engine.undo_action
        self.undo = None if undo is None else self.codec.encode(dict(undo))

    def new_initial_state(self) -> CoffeeTableState:
        """The chance node before the deal."""
        return CoffeeTableState(self)

    def deal(self, number: int) -> State:
        """Deal ``number`` (0 to ``DEALS - 1``): the engine's match of seed
        ``seed * DEALS + number``."""
        if not 0 <= number < DEALS:
            raise ValueError(f"a deal is a number from 0 to {DEALS - 1}, not {number}")
        return self.engine.new_state(
            players=self.players, seed=self.seed * DEALS + number, **self.engine_options
        )

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Observer:
        recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return Observer(self.codec, perfect_recall=recall)


class CoffeeTableState(pyspiel.State):  # type: ignore[misc]
    """A match in progress: our engine state behind OpenSpiel's State API."""

    def __init__(self, game: CoffeeTableGame, deal: State | None = None) -> None:
        super().__init__(game)
        self._table = _Holder(deal)

    @property
    def engine_state(self) -> State:
        """The match (after the deal: the chance node has none yet)."""
        if self._table.state is None:
            raise ValueError("the chance node: no match is dealt yet")
        return self._table.state

    def is_chance_node(self) -> bool:
        return self._table.state is None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self._game().outcomes) if self._table.state is None else []

    def _game(self) -> CoffeeTableGame:
        game: CoffeeTableGame = self.get_game()
        return game

    def current_player(self) -> int:
        if self._table.state is None:
            return CHANCE
        state = self._table.state
        if state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._game().simultaneous:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        actors = state.actors()
        first = self._table.first
        return first if first is not None and first in actors else actors[0]

    def legal_map(self, player: int) -> dict[int, Action]:
        """index -> action for ``player`` (Doppio's undo left out)."""
        cached = self._table.legal.get(player)
        if cached is None:
            game = self._game()
            cached = game.codec.legal(self.engine_state, player)
            if game.undo is not None:
                cached.pop(game.undo, None)
            self._table.legal[player] = cached
        return cached

    def _legal_actions(self, player: int) -> list[int]:
        if self._table.state is None:
            return [deal for deal, _ in self._game().outcomes] if player == CHANCE else []
        game = self._game()
        state = self._table.state
        if game.simultaneous and not state.is_over and player not in state.actors():
            return [game.noop]  # nothing to do here: OpenSpiel's no-op
        return sorted(self.legal_map(player))

    def _apply_action(self, action: int) -> None:
        if self._table.state is None:
            self._table.state = self._game().deal(int(action))
            return
        seat = self.current_player()
        self.engine_state.apply(seat, self.legal_map(seat)[int(action)])
        self._table.moves.append((seat, int(action)))
        self._table.legal.clear()
        self._table.first = None

    def _apply_actions(self, actions: list[int]) -> None:
        legal = [self.legal_map(seat) for seat in range(self.get_game().num_players())]
        for seat, action in enumerate(actions):
            if seat in self.engine_state.actors() and action != self._game().noop:
                self.engine_state.apply(seat, legal[seat][int(action)])
                self._table.moves.append((seat, int(action)))
        self._table.legal.clear()
        self._table.first = None

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._game()
        if player == CHANCE:
            return f"deal {action}"
        if game.simultaneous and action == game.noop:
            return "no-op"
        return game.codec.describe_action(action)

    def is_terminal(self) -> bool:
        return self._table.state is not None and self._table.state.is_over

    def returns(self) -> list[float]:
        state = self._table.state
        if state is None or not state.is_over:
            return [0.0] * self._game().players
        return result(self._game().name, state)

    def resample_from_infostate(self, player: int, sampler: Any = None) -> CoffeeTableState:
        """A state ``player`` cannot tell from this one: ``determinize`` of the engine state.

        Its hidden cards (and the generator) differ from what the history says, so a
        resampled state serialises as the history it shares, not as itself."""
        if self._table.state is None:
            return self.clone()  # type: ignore[no-any-return]
        seed = int(sampler() * 2**53) if sampler is not None else None
        rng = random.Random(seed)
        other: CoffeeTableState = self.clone()
        other._table = _Holder(
            self.engine_state.determinize(player, rng), list(self._table.moves), self._table.first
        )
        return other

    def __str__(self) -> str:
        if self._table.state is None:
            return "the deal (a chance node)"
        return json.dumps(self._table.state.view(None), sort_keys=True)


class Observer:
    """OpenSpiel's python observer: the codec's tensor, the view as a string."""

    def __init__(self, codec: Codec, perfect_recall: bool) -> None:
        self.codec = codec
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(codec.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CoffeeTableState, player: int) -> None:
        if state.is_chance_node():
            self.tensor[:] = 0.0  # nothing is dealt: nothing to see
            return
        self.tensor[:] = self.codec.observe(state.engine_state.view(player))

    def string_from(self, state: CoffeeTableState, player: int) -> str:
        if state.is_chance_node():
            return ""
        text = json.dumps(state.engine_state.view(player), sort_keys=True)
        if not self.perfect_recall:
            return text
        mine = [action for seat, action in state._table.moves if seat == player]
        return f"{text}|{mine}"


GAME_CLASSES: dict[str, type[CoffeeTableGame]] = {
    name: type(f"{name.title()}SpielGame", (CoffeeTableGame,), {"NAME": name}) for name in GAMES
}
_REGISTERED: set[str] = set()


def register() -> None:
    """Register the three games with pyspiel (once; later calls do nothing)."""
    for name in GAMES:
        if name in _REGISTERED:
            continue

        # a class, as OpenSpiel's own python games register (a closure here
        # crashes the interpreter at exit)
        pyspiel.register_game(game_type(name), GAME_CLASSES[name])
        _REGISTERED.add(name)


def make_bot(name: str, game: str) -> Bot:
    """OpenSpiel's search bots for the arena (``coffeetable.interop.openspiel_bots``)."""
    from coffeetable.interop.openspiel_bots import make_bot as make

    return make(name, game)
