"""Every game as a PettingZoo environment, one module a game as PettingZoo's own are.

``coffeetable.interop.pettingzoo.fika_v1`` (and ``doppio_v1``, ``cafe_v1``,
``espresso_v1``: ``<game>_v<Game.env_version>``) holds ``env``, ``raw_env`` and,
for a real-time game, ``parallel_env``, as ``pettingzoo.classic.chess_v6`` does::

    from coffeetable.interop.pettingzoo import fika_v1

    env = fika_v1.env(render_mode="ansi")   # OrderEnforcingWrapper(raw_env(...))

The modules are made from the registry's facts when this package is imported
(every game with a research codec; ``Game.realtime`` decides ``parallel_env``),
so a new game gets its own without a line here. Turn-based games are AEC only
(one seat acts at a time); real-time games step in ticks and have both forms.

The older calls stay: ``env(name, ...)`` and ``parallel_env(name, ...)`` give the
unwrapped environments (``coffeetable.interop.pettingzoo_envs``, whose docstring
describes spaces, rewards, ``max_cycles``, ``illegal`` and ``mask_dtype``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from coffeetable.interop.encoding import get_game, with_codec
from coffeetable.interop.pettingzoo_envs import (
    DEFAULT_MAX_CYCLES,
    DEFAULT_PLAYERS,
    ILLEGAL_REWARD,
    CoffeeTableEnv,
    EspressoParallelEnv,
    EspressoTickEnv,
    action_count,
    env,
    parallel_env,
)
from coffeetable.interop.pettingzoo_table import env_name

__all__ = [
    "DEFAULT_MAX_CYCLES",
    "DEFAULT_PLAYERS",
    "ILLEGAL_REWARD",
    "MODULES",
    "CoffeeTableEnv",
    "EspressoParallelEnv",
    "EspressoTickEnv",
    "action_count",
    "env",
    "parallel_env",
]


def _module(name: str) -> ModuleType:
    """The PettingZoo module of game ``name``: ``env``, ``raw_env``, maybe ``parallel_env``."""
    game = get_game(name)
    form = "real time: AEC and Parallel" if game.realtime else "turn-based: AEC"
    module = ModuleType(
        f"{__name__}.{env_name(name)}",
        f"{game.title} ({form}) as a PettingZoo environment, version {game.env_version}.",
    )

    def raw_env(**kwargs: Any) -> AECEnv:
        """The AEC environment, unwrapped (keyword arguments as ``pettingzoo.env``)."""
        return env(name, **kwargs)

    def wrapped_env(**kwargs: Any) -> AECEnv:
        """``raw_env`` in PettingZoo's ``OrderEnforcingWrapper``, as its own games come."""
        return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))

    members: dict[str, Callable[..., Any]] = {"raw_env": raw_env, "env": wrapped_env}
    if game.realtime:

        def parallel(**kwargs: Any) -> ParallelEnv:
            """The Parallel environment (ticks; keyword arguments as ``pettingzoo.env``)."""
            return parallel_env(name, **kwargs)

        members["parallel_env"] = parallel
    for member, function in members.items():
        function.__name__ = function.__qualname__ = member
        function.__module__ = module.__name__
        setattr(module, member, function)
    return module


def _register() -> dict[str, ModuleType]:
    """Make every game's module importable (``import ....pettingzoo.fika_v1``)."""
    made = {}
    for name in with_codec():
        module = _module(name)
        short = module.__name__.rpartition(".")[2]
        sys.modules[module.__name__] = module
        globals()[short] = module
        made[short] = module
    return made


#: ``"fika_v1"`` -> its module, for every game with a research codec.
MODULES = _register()
