"""One PettingZoo module a game (``coffeetable.interop.pettingzoo.fika_v1`` ...), and
PettingZoo's own test battery run on each unmodified, as PettingZoo runs it on its games."""

from __future__ import annotations

import importlib

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import (  # noqa: E402
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    performance_benchmark,
    render_test,
    seed_test,
)

from coffeetable.interop import pettingzoo as pz  # noqa: E402
from coffeetable.interop.encoding import get_game, with_codec  # noqa: E402

NAMES = [f"{name}_v{get_game(name).env_version}" for name in with_codec()]


def test_every_game_has_its_versioned_module() -> None:
    assert sorted(pz.MODULES) == sorted(NAMES)
    assert "fika_v1" in NAMES and "espresso_v1" in NAMES
    for short in NAMES:
        module = importlib.import_module(f"coffeetable.interop.pettingzoo.{short}")
        assert module is pz.MODULES[short] and module.env.__module__ == module.__name__
        game = get_game(short.rpartition("_v")[0])
        assert hasattr(module, "parallel_env") == game.realtime  # parallel where it applies
        environment = module.env()
        assert str(environment) == short  # PettingZoo's all-modules test asks this
        assert str(module.raw_env()) == short
    from coffeetable.interop.pettingzoo import fika_v1

    assert fika_v1 is pz.MODULES["fika_v1"]


def test_the_old_calls_still_work() -> None:
    assert isinstance(pz.env("fika"), pz.CoffeeTableEnv)
    assert isinstance(pz.parallel_env("espresso"), pz.EspressoParallelEnv)


@pytest.mark.parametrize("short", NAMES)
def test_pettingzoos_battery(short: str) -> None:
    """api_test, seed_test, render_test and performance_benchmark as PettingZoo's
    all-modules test calls them; for a real-time game the parallel tests and
    max_cycles_test too (PettingZoo runs max_cycles_test on its parallel games, and a
    turn-based game has no parallel form to run it on). Not bombardment_test: it reads
    an observation's ``.shape``, so it fails on every dict observation, PettingZoo's own
    classic games' included."""
    module = importlib.import_module(f"coffeetable.interop.pettingzoo.{short}")
    api_test(module.env(), num_cycles=300)
    seed_test(module.env, num_cycles=50)
    render_test(module.env)
    performance_benchmark(module.env())
    if hasattr(module, "parallel_env"):
        parallel_api_test(module.parallel_env(), num_cycles=300)
        parallel_seed_test(module.parallel_env)
        max_cycles_test(module)
