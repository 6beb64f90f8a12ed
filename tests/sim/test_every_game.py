"""Every registered game (``games.names()``, the suite's fifth game from
tests/plugin_game among them) runs in ``coffeetable arena`` and its bots play it: the
random bot always, ISMCTS wherever the game can ``determinize``."""

from __future__ import annotations

import json
import random

import pytest

from coffeetable import bots, cli, games


def _bots(name: str) -> list[str]:
    game = games.get(name)
    return ["random"] + (["ismcts:5"] if not game.realtime and game.can_determinize else [])


@pytest.mark.parametrize("name", games.names())
def test_every_game_runs_in_the_arena(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    played = _bots(name) * 2
    argv = ["arena", name, "--bots", ",".join(played[:2]), "--games", "2", "--workers", "1"]
    assert cli.main([*argv, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["matches"] == 2
    assert sum(row["matches"] for row in result["bots"]) == 4


@pytest.mark.parametrize("name", games.names())
def test_the_bots_every_game_offers_choose_legal_actions(name: str) -> None:
    game = games.get(name)
    offered = bots.available(name)
    assert "random" in offered
    assert ("ismcts" in offered) == (not game.realtime and game.can_determinize)
    state = game.new_state(players=game.preferred_players(), seed=3)
    rng = random.Random(3)
    for _ in range(10):
        if state.is_over or not state.actors():
            break
        seat = state.actors()[0]
        for bot in _bots(name):
            action = bots.make(bot, name).choose(state.clone(), seat, rng)
            assert action in state.legal_actions(seat)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
