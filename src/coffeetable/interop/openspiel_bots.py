"""OpenSpiel's search bots in our arena: ``openspiel-ismcts[:BUDGET]`` and
``openspiel-mcts[:BUDGET]`` (see ``coffeetable.bots.registry``), searching the
OpenSpiel form of our games (``coffeetable.interop.openspiel``)."""

from __future__ import annotations

import random
import time
from functools import cache
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from coffeetable.bots.base import Bot
from coffeetable.engine import Action, State
from coffeetable.interop.encoding import get_game
from coffeetable.interop.openspiel import GAMES, CoffeeTableGame, CoffeeTableState


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
