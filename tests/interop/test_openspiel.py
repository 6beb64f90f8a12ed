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
    """OpenSpiel's own conformance test, states saved and restored along the way."""
    game = pyspiel.load_game(spec)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def _play(state: object, moves: int, rng: random.Random) -> None:
    """``moves`` random steps (a deal at the chance node, joint actions at a
    simultaneous one)."""
    for _ in range(moves):
        if state.is_chance_node():  # type: ignore[attr-defined]
            state.apply_action(rng.randrange(cos.DEALS))  # type: ignore[attr-defined]
        elif state.is_simultaneous_node():  # type: ignore[attr-defined]
            joint = [rng.choice(state.legal_actions(p)) for p in range(2)]  # type: ignore[attr-defined]
            state.apply_actions(joint)  # type: ignore[attr-defined]
        else:
            state.apply_action(rng.choice(state.legal_actions()))  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "spec", ["coffeetable_fika", "coffeetable_fika(turn_based=True)", "coffeetable_cafe"]
)
def test_a_saved_state_is_restored_exactly(spec: str) -> None:
    game = pyspiel.load_game(spec)
    state = game.new_initial_state()
    _play(state, 15, random.Random(5))
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert again.history() == state.history()
    assert again.engine_state.view(None) == state.engine_state.view(None)
    for seat in range(2):
        assert again.information_state_string(seat) == state.information_state_string(seat)
        assert again.legal_actions(seat) == state.legal_actions(seat)
    # the restored match goes on as the original does, hidden cards and draws included
    _play(state, 30, random.Random(6))
    _play(again, 30, random.Random(6))
    assert again.engine_state.view(None) == state.engine_state.view(None)
    assert again.returns() == state.returns()


def test_the_deal_is_a_chance_node() -> None:
    game = pyspiel.load_game("coffeetable_doppio", {"players": 1, "master": True, "seed": 4})
    state = game.new_initial_state()
    assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == cos.DEALS and sum(p for _, p in outcomes) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="chance node"):
        state.engine_state  # noqa: B018
    state.apply_action(7)
    assert state.engine_state.players == 1 and state.engine_state.master
    # deal 7 of seed 4 is the engine's match of seed 4 * DEALS + 7
    engine = cos.get_game("doppio").new_state(players=1, seed=4 * cos.DEALS + 7, master=True)
    assert state.engine_state.view(None) == engine.view(None)


def test_simultaneous_fika_gives_a_waiting_seat_the_no_op() -> None:
    fika = pyspiel.load_game("coffeetable_fika")
    assert fika.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    state = fika.new_initial_state()
    state.apply_action(0)
    noop = fika.codec.num_actions
    assert fika.num_distinct_actions() == noop + 1
    picks = one_actor = 0
    rng = random.Random(1)
    while not state.is_terminal():
        assert state.is_simultaneous_node()  # every decision node, as OpenSpiel expects
        actors = state.engine_state.actors()
        for seat in range(2):
            legal = state.legal_actions(seat)
            if seat in actors:
                assert noop not in legal and legal
            else:
                assert legal == [noop]
        picks += len(actors) == 2
        one_actor += len(actors) == 1
        state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(2)])
    assert picks and one_actor
    assert sorted(state.returns()) == [-1.0, 1.0]


@pytest.mark.parametrize("spec", ["coffeetable_fika", "coffeetable_fika(turn_based=True)"])
def test_rl_environment_plays_both_fika_forms(spec: str) -> None:
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(pyspiel.load_game(spec), seed=3)
    assert env.is_turn_based == ("turn_based" in spec)
    rng = random.Random(2)
    for _ in range(2):
        step = env.reset()
        while not step.last():
            legal = step.observations["legal_actions"]
            if env.is_turn_based:
                actions = [rng.choice(legal[step.observations["current_player"]])]
            else:
                actions = [rng.choice(legal[seat]) for seat in range(2)]
            step = env.step(actions)
        assert sorted(step.rewards) == [-1.0, 1.0]


def test_openspiel_dqn_trains_on_turn_based_fika() -> None:
    """OpenSpiel's DQN (its pytorch one, which needs dm-tree from the ``rl`` extra)."""
    pytest.importorskip("tree")
    pytest.importorskip("torch")
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import dqn

    env = rl_environment.Environment(pyspiel.load_game("coffeetable_fika(turn_based=True)"))
    size = env.observation_spec()["info_state"][0]
    agents = [
        dqn.DQN(
            seat,
            size,
            env.action_spec()["num_actions"],
            hidden_layers_sizes=[16],
            replay_buffer_capacity=200,
            batch_size=8,
            min_buffer_size_to_learn=16,
        )
        for seat in range(2)
    ]
    for _ in range(2):
        step = env.reset()
        while not step.last():
            seat = step.observations["current_player"]
            step = env.step([agents[seat].step(step).action])
        for agent in agents:
            agent.step(step)
    assert agents[0].loss is not None


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
        state.apply_action(0)  # the deal
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
