"""Doppio, Fika and Café as OpenSpiel python games, and OpenSpiel's bots for our arena.

``register()`` registers "coffeetable_doppio", "coffeetable_fika" and
"coffeetable_cafe"; then ``pyspiel.load_game("coffeetable_fika")`` or
``pyspiel.load_game("coffeetable_doppio", {"players": 1, "master": True})``.

- Parameters: ``players`` (Doppio 2, Fika 2, Café 2 by default), ``seed``
  (the deals of successive ``new_initial_state()`` calls are drawn from it),
  the game's own options (Doppio ``master``, ``first_player``; Café
  ``master``) and, for Fika, ``turn_based``.
- Chance is sampled (``ChanceMode.SAMPLED_STOCHASTIC``): the engine's seeded
  generator deals and shuffles inside the state, there are no chance nodes.
- Actions are the codec's integers (``coffeetable.interop.<game>``,
  docs/research.md). Doppio's "undo" is left out (a game could loop on it;
  our own bots never play it either).
- Fika's secret picks are a simultaneous node (``PlayerId.SIMULTANEOUS``, each
  seat's picks are its legal actions). OpenSpiel's ISMCTS and MCTS need
  sequential games, so ``coffeetable_fika(turn_based=true)`` is the same game
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
import time
from functools import cache
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
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
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
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.num_actions,
            max_chance_outcomes=0,
            num_players=self.players,
            min_utility=0.0 if solo else -1.0,
            max_utility=(engine.solo_max_score or 1.0) / solo_scale(name) if solo else 1.0,
            utility_sum=0.0 if zero_sum(name, self.players) else None,
            max_game_length=engine.max_length,
        )
        super().__init__(game_type(name, self.players, self.simultaneous), info, given)
        self._seeds = random.Random(int(settings["seed"]))
        undo = engine.undo_action
        self.undo = None if undo is None else self.codec.encode(dict(undo))

    def new_initial_state(self) -> CoffeeTableState:
        # dealt on first use: OpenSpiel's clone() starts from a new initial state
        # and overwrites it, which must neither cost a deal nor use up a seed
        return CoffeeTableState(self)

    def deal(self) -> State:
        """A new match, its seed drawn from the game's ``seed`` parameter."""
        return self.engine.new_state(
            players=self.players, seed=self._seeds.randrange(2**31), **self.engine_options
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
        if self._table.state is None:
            self._table.state = self._game().deal()
        return self._table.state

    def _game(self) -> CoffeeTableGame:
        game: CoffeeTableGame = self.get_game()
        return game

    def _simultaneous_now(self) -> bool:
        return self._game().simultaneous and len(self.engine_state.actors()) > 1

    def current_player(self) -> int:
        state = self.engine_state
        if state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._simultaneous_now():
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
        return sorted(self.legal_map(player))

    def _apply_action(self, action: int) -> None:
        seat = self.current_player()
        self.engine_state.apply(seat, self.legal_map(seat)[int(action)])
        self._table.moves.append((seat, int(action)))
        self._table.legal.clear()
        self._table.first = None

    def _apply_actions(self, actions: list[int]) -> None:
        legal = [self.legal_map(seat) for seat in range(self.get_game().num_players())]
        for seat, action in enumerate(actions):
            if seat in self.engine_state.actors():
                self.engine_state.apply(seat, legal[seat][int(action)])
                self._table.moves.append((seat, int(action)))
        self._table.legal.clear()
        self._table.first = None

    def _action_to_string(self, player: int, action: int) -> str:
        return self._game().codec.describe_action(action)

    def is_terminal(self) -> bool:
        return self.engine_state.is_over

    def returns(self) -> list[float]:
        state = self.engine_state
        if not state.is_over:
            return [0.0] * state.players
        return result(self._game().name, state)

    def resample_from_infostate(self, player: int, sampler: Any = None) -> CoffeeTableState:
        """A state ``player`` cannot tell from this one: ``determinize`` of the engine state."""
        seed = int(sampler() * 2**53) if sampler is not None else None
        rng = random.Random(seed)
        other: CoffeeTableState = self.clone()
        other._table = _Holder(
            self.engine_state.determinize(player, rng), list(self._table.moves), self._table.first
        )
        return other

    def __str__(self) -> str:
        return json.dumps(self.engine_state.view(None), sort_keys=True)


class Observer:
    """OpenSpiel's python observer: the codec's tensor, the view as a string."""

    def __init__(self, codec: Codec, perfect_recall: bool) -> None:
        self.codec = codec
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(codec.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CoffeeTableState, player: int) -> None:
        self.tensor[:] = self.codec.observe(state.engine_state.view(player))

    def string_from(self, state: CoffeeTableState, player: int) -> str:
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


# -- OpenSpiel's bots in our arena -------------------------------------------------


class _OutOfTime(Exception):
    """The search budget is spent (raised between simulations)."""


def _ismcts_class() -> type:
    from open_spiel.python.algorithms import ismcts  # type: ignore[import-untyped]

    class TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
        """OpenSpiel's ISMCTS, stopped by a wall-clock budget between simulations."""

        def __init__(self, *args: Any, max_ms: float | None = None, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.max_ms = max_ms

        def run_search(self, state: Any) -> Any:
            self._deadline = (
                None if self.max_ms is None else time.perf_counter() + self.max_ms / 1e3
            )
            self._samples = 0
            try:
                return super().run_search(state)
            except _OutOfTime:
                return self.get_final_policy(state, self._root_node)

        def sample_root_state(self, state: Any) -> Any:
            self._samples += 1
            late = self._deadline is not None and time.perf_counter() > self._deadline
            if late and self._samples > 2:  # two simulations at least: a root with a child
                raise _OutOfTime
            return super().sample_root_state(state)

    return TimedISMCTS


def _mcts_class() -> type:
    from open_spiel.python.algorithms import mcts

    class TimedMCTS(mcts.MCTSBot):  # type: ignore[misc]
        """OpenSpiel's MCTS, stopped by a wall-clock budget between simulations."""

        def __init__(self, *args: Any, max_ms: float | None = None, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.max_ms = max_ms

        def mcts_search(self, state: Any) -> Any:
            self._deadline = (
                None if self.max_ms is None else time.perf_counter() + self.max_ms / 1e3
            )
            self._walks = 0
            try:
                return super().mcts_search(state)
            except _OutOfTime:
                return self._root

        def _apply_tree_policy(self, root: Any, state: Any) -> Any:
            self._root = root
            self._walks += 1
            late = self._deadline is not None and time.perf_counter() > self._deadline
            if late and self._walks > 2:  # two simulations at least: a root with a child
                raise _OutOfTime
            return super()._apply_tree_policy(root, state)

    return TimedMCTS


@cache
def _spiel_game(name: str, players: int, options: tuple[tuple[str, Any], ...]) -> CoffeeTableGame:
    params: dict[str, Any] = {"players": players, **dict(options)}
    if get_game(name).simultaneous:
        params["turn_based"] = True  # OpenSpiel's searches need sequential turns
    return CoffeeTableGame(params, name)


#: Default simulations when a bot is named without a budget.
DEFAULT_SIMULATIONS = 300
UCT_C = 2.0


class OpenSpielBot(Bot):
    """An OpenSpiel bot in our arena: it searches the OpenSpiel form of the state.

    ``openspiel-ismcts``: OpenSpiel's ``ISMCTSBot`` (UCT, c = 2, random
    rollouts to the end, unlimited world samples) over
    ``resample_from_infostate``. ``openspiel-mcts``: OpenSpiel's ``MCTSBot``
    (UCT, c = 2, random rollouts) run on one determinization of the seat's
    information set per decision (plain MCTS would otherwise read the hidden
    cards). A budget follows a colon: ``:N`` simulations, ``:Nms`` milliseconds.
    """

    def __init__(self, kind: str, game: str, simulations: int | None, max_ms: float | None):
        super().__init__()
        self.kind = kind
        self.game = game
        self.simulations = simulations
        self.max_ms = max_ms

    def _bot(self, spiel: CoffeeTableGame, rng: random.Random) -> Any:
        from open_spiel.python.algorithms import mcts

        random_state = np.random.RandomState(rng.getrandbits(32))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
        simulations = self.simulations or (10**9 if self.max_ms else DEFAULT_SIMULATIONS)
        if self.kind == "ismcts":
            return _ismcts_class()(
                spiel,
                evaluator,
                UCT_C,
                simulations,
                random_state=random_state,
                max_ms=self.max_ms,
            )
        return _mcts_class()(
            spiel,
            UCT_C,
            simulations,
            evaluator,
            random_state=random_state,
            max_ms=self.max_ms,
        )

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        options = tuple(sorted(state.game.resolve_options(getattr(state, "options", {})).items()))
        spiel = _spiel_game(self.game, state.players, options)
        wrapped = CoffeeTableState(spiel, state.clone())
        wrapped._table.first = seat  # several seats may act (Café): the arena asks this one
        if wrapped.current_player() != seat:
            raise ValueError(f"seat {seat} is asked to act, but OpenSpiel's turn is another's")
        legal = wrapped.legal_map(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal action to choose from")
        if len(legal) == 1:
            return next(iter(legal.values()))
        bot = self._bot(spiel, rng)
        if self.kind == "ismcts":
            index = bot.step(wrapped)
        else:  # MCTS searches one determinization: it never sees the real hidden cards
            sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
            index = bot.step(wrapped.resample_from_infostate(seat, sampler))
        return legal[int(index)]


def make_bot(name: str, game: str) -> Bot:
    """``openspiel-ismcts[:N|:Nms]`` or ``openspiel-mcts[:N|:Nms]`` for Doppio, Fika or Café."""
    base, colon, budget = name.partition(":")
    kind = base.removeprefix("openspiel-")
    if kind not in ("ismcts", "mcts") or game not in GAMES:
        raise ValueError(
            f"no bot {name!r} for {game}; OpenSpiel's are openspiel-ismcts and "
            f"openspiel-mcts, for {', '.join(GAMES)}"
        )
    text = budget.removesuffix("ms")
    if colon and (not text.isdigit() or int(text) < 1):
        raise ValueError(f"a budget is {base}:SIMULATIONS or {base}:MILLISECONDSms, not {name!r}")
    bot = OpenSpielBot(
        kind,
        game,
        simulations=int(text) if budget and text == budget else None,
        max_ms=float(text) if budget.endswith("ms") else None,
    )
    bot.name = name
    return bot
