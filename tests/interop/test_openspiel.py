"""OpenSpiel: the games pass pyspiel.random_sim_test, OpenSpiel's ISMCTS plays them,
and the arena seats OpenSpiel's bots."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from coffeetable import bots  # noqa: E402
from coffeetable.interop import openspiel as cos  # noqa: E402
from coffeetable.sim.match import play_match  # noqa: E402

cos.register()


@pytest.mark.parametrize(
    ("spec", "sims"),
    [
        ("coffeetable_doppio(master=True)", 1),
        ("coffeetable_doppio(players=1,master=True)", 3),
        ("coffeetable_fika", 2),
        ("coffeetable_fika(turn_based=True)", 2),
        ("coffeetable_cafe", 1),
        ("coffeetable_cafe(players=1)", 1),
    ],
)
def test_random_sim_test(spec: str, sims: int) -> None:
    game = pyspiel.load_game(spec)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def test_parameters_reach_the_engine() -> None:
    game = pyspiel.load_game("coffeetable_doppio", {"players": 1, "master": True, "seed": 4})
    state = game.new_initial_state()
    assert state.engine_state.players == 1 and state.engine_state.master
    fika = pyspiel.load_game("coffeetable_fika")
    assert fika.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    pick = fika.new_initial_state()
    while not pick.is_simultaneous_node():
        pick.apply_action(pick.legal_actions()[0])
    assert len(pick.legal_actions(0)) == 6 and len(pick.legal_actions(1)) == 6


def test_resampling_keeps_the_information_state() -> None:
    game = pyspiel.load_game("coffeetable_fika(turn_based=True)")
    state = game.new_initial_state()
    rng = random.Random(0)
    for _ in range(9):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hands = set()
    for _ in range(5):
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.observation_tensor(player) == state.observation_tensor(player)
        hands.add(tuple(other.engine_state.hands[1 - player]))
    assert len(hands) > 1  # the opponent's hand really is re-dealt


def test_openspiel_ismcts_plays_fika_and_doppio() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    for spec in ("coffeetable_fika(turn_based=True)", "coffeetable_doppio(players=1)"):
        game = pyspiel.load_game(spec)
        evaluator = mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(1))
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(1))
        state = game.new_initial_state()
        for _ in range(4):
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)


def test_arena_seats_openspiel_bots() -> None:
    bot = bots.make("openspiel-ismcts:4", "fika")
    assert bot.name == "openspiel-ismcts:4"
    summary, _ = play_match("fika", ["openspiel-ismcts:4", "random"], seed=2)
    assert len(summary["winners"]) == 1
    summary, _ = play_match("fika", ["random", "openspiel-mcts:4"], seed=3)
    assert len(summary["winners"]) == 1
    with pytest.raises(ValueError, match="openspiel-ismcts"):
        bots.make("openspiel-alphazero", "fika")
