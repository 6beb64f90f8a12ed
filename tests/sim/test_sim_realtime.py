"""The real-time simulator: races, refusals, idle rounds, termination, determinism and replay."""

from __future__ import annotations

import json
import random

import pytest

from coffeetable import bots, cli, games
from coffeetable.bots import Bot, GreedyBot
from coffeetable.engine import replay_log
from coffeetable.games.espresso import heuristics
from coffeetable.games.espresso.cards import COLOURS, TOP_VALUE, face_of, make_card, value_of
from coffeetable.sim.logs import load_log, save_log
from coffeetable.sim.realtime import RealtimeSimulator, simulate

GAME = games.get("espresso")
VARIANTS = [{}, {"zero": True}, {"chaos": True}, {"zero": True, "chaos": True}]


def card(owner, colour, value):
    return make_card(owner, COLOURS.index(colour), value)


def table(players=2, areas=None, centre=(), **options):
    state = GAME.new_state(players=players, seed=0, **options)
    state.phase = "play"
    for area in state.areas:
        area.ready = True
    for seat, spec in (areas or {}).items():
        for name, cards in spec.items():
            setattr(state.areas[seat], name, list(cards))
    state.centre = [list(stack) for stack in centre]
    state.wanted = {}
    for index, stack in enumerate(state.centre):
        if value_of(stack[-1]) != TOP_VALUE:
            state.wanted.setdefault(face_of(stack[-1]) + 1, []).append(index)
    return state


class Fixed(GreedyBot):
    """Greedy with a constant reaction time: races are decided by construction."""

    def __init__(self, *seconds):
        super().__init__(heuristics)
        self.seconds = list(seconds)

    def reaction_time_for(self, action, rng):
        return self.seconds.pop(0) if len(self.seconds) > 1 else self.seconds[0]


class Flipper(Bot):
    """Never places a card: flips or recycles, every half second."""

    def pick(self, state, seat, actions, rng):
        return next(a for a in actions if a["type"] in ("ready", "flip", "recycle"))

    def reaction_time_for(self, action, rng):
        return 0.5


def race_table():
    # both seats' espresso tops are a red 4, and one red 3 stack waits for one of them
    filler = [card(seat, "yellow", 8) for seat in (0, 1)]
    areas = {
        seat: dict(
            espresso=[filler[seat], card(seat, "blue", 8), card(seat, "red", 4)],
            help=[card(seat, "green", 8), card(seat, "green", 7), card(seat, "green", 6)],
            hand=[card(seat, "yellow", 5)] * 6,
            pile=[],
        )
        for seat in (0, 1)
    }
    return table(areas=areas, centre=[[card(0, "red", v) for v in range(4)]])


@pytest.mark.parametrize("fast", [0, 1])
def test_the_faster_bot_wins_the_race_for_a_stack(fast):
    seats = [Fixed(0.4), Fixed(0.9)] if fast == 0 else [Fixed(0.9), Fixed(0.4)]
    simulator = RealtimeSimulator(race_table(), seats, seed=5, record=True)
    simulator.run(until=1.0)
    first = simulator.landings[0]
    red4 = {"type": "play", "source": "espresso", "target": 0}
    assert (first.time, first.seat, first.action, first.applied) == (0.4, fast, red4, True)
    assert simulator.state.centre[0][-1] == card(fast, "red", 4)
    slow = [x for x in simulator.landings if x.seat == 1 - fast]
    assert (slow[0].time, slow[0].action, slow[0].applied) == (0.9, red4, False)  # too slow
    assert simulator.refused[1 - fast] == 1 and simulator.refused[fast] == 0


def test_a_card_taken_in_flight_is_refused_even_if_its_place_still_fits():
    # seat 1 aims its pile red 4 at the red 3 stack; seat 0 (faster, with Chaos) steals that
    # red 4 and plays it there first. Seat 1's pile now shows its red 5, which fits the stack
    # at that place: the action still names a legal play, but not the card seat 1 saw.
    own = dict(
        espresso=[card(0, "yellow", 8), card(0, "yellow", 7)],
        help=[card(0, "blue", 8), card(0, "green", 8), card(0, "yellow", 6)],
        pile=[card(0, "green", 5)],
        hand=[card(0, "yellow", 5)] * 3,
    )
    other = dict(
        espresso=[card(1, "yellow", 8), card(1, "yellow", 7)],
        help=[card(1, "blue", 8), card(1, "green", 8), card(1, "yellow", 6)],
        pile=[card(1, "red", 5), card(1, "red", 4)],
        hand=[card(1, "yellow", 5)] * 3,
    )
    state = table(
        chaos=True, areas={0: own, 1: other}, centre=[[card(2, "red", v) for v in range(4)]]
    )
    simulator = RealtimeSimulator(state, [Fixed(0.3, 5.0), Fixed(1.0)], seed=1, record=True)
    simulator.run(until=1.0)
    pile_play = {"type": "play", "source": "pile", "target": 0}
    stolen = {"type": "play", "source": "pile", "owner": 1, "target": 0}
    assert [(x.seat, x.action, x.applied) for x in simulator.landings[:1]] == [(0, stolen, True)]
    assert pile_play in simulator.state.legal_actions(1)  # the place fits ...
    refused = [x for x in simulator.landings if x.seat == 1]
    assert (refused[0].action, refused[0].applied) == (pile_play, False)  # ... the card changed


def test_a_round_where_nobody_can_act_ends_as_idle():
    # nothing to flip, nothing to play: both bots wait, the table's idle rule ends the round
    areas = {
        seat: dict(
            espresso=[card(seat, "yellow", 8), card(seat, "blue", 8)],
            help=[card(seat, "green", 8), card(seat, "green", 7), card(seat, "green", 6)],
            hand=[],
            pile=[],
        )
        for seat in (0, 1)
    }
    state = table(areas=areas, idle_seconds=45)
    simulator = RealtimeSimulator(state, [bots.make("hard", "espresso")] * 2, seed=2)
    simulator.run(until=46.0)
    assert simulator.log[0] == (None, {"type": "idle"})
    record = simulator.rounds[0]
    assert (record.ending, record.finito, record.ended) == ("idle", None, 45.0)


def test_a_round_kept_alive_without_end_is_stopped_by_the_guard():
    state = GAME.new_state(players=2, seed=4)
    simulator = RealtimeSimulator(state, [Flipper(), Flipper()], seed=4, max_round_seconds=3.0)
    simulator.run(until=60.0)
    first = simulator.rounds[0]
    assert (first.ending, first.started, first.ended) == ("guard", 0.5, 3.5)
    assert simulator.log[simulator.log.index((None, {"type": "idle"})) - 1][0] is not None
    # without the guard the rules' blocked round ends it: two recycles each, nothing placed
    simulator = RealtimeSimulator(GAME.new_state(players=2, seed=4), [Flipper(), Flipper()])
    simulator.run(until=60.0)
    assert simulator.rounds[0].ending == "blocked"


@pytest.mark.parametrize("options", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_matches_terminate_and_replay_to_the_same_state(options, players):
    names = ["hard", "medium", "easy", "greedy", "random", "hard"][:players]
    seed = 100 + players
    result = simulate(GAME, [bots.make(n, "espresso") for n in names], seed=seed, options=options)
    state = result.state
    assert state.is_over and state.winners
    assert max(state.scores) >= state.target
    assert [sum(r.points[s] for r in result.rounds) for s in range(players)] == state.scores
    assert sum(result.applied) + sum(s is None for s, _ in result.log.actions) == len(
        result.log.actions
    )
    replayed = replay_log(result.log)
    for seat in [None, *range(players)]:
        assert replayed.view(seat) == state.view(seat)
    assert (replayed.scores, replayed.winners, replayed.round) == (
        state.scores,
        state.winners,
        state.round,
    )


def test_the_same_seed_gives_the_same_match():
    def run(seed):
        seats = [bots.make(n, "espresso") for n in ("hard", "easy", "random")]
        return simulate(GAME, seats, seed=seed, options={"zero": True, "chaos": True})

    a, b, c = run(9), run(9), run(10)
    assert a.log.actions == b.log.actions and a.seconds == b.seconds
    assert a.log.actions != c.log.actions


def test_a_saved_log_replays_from_the_command_line(tmp_path, capsys):
    seats = [bots.make(n, "espresso") for n in ("hard", "medium")]
    result = simulate(GAME, seats, seed=3, options={"target": 30})
    path = save_log(result.log, tmp_path / "logs" / "match.json")
    assert load_log(path).to_json() == json.loads(json.dumps(result.log.to_json()))
    assert cli.main(["replay", str(path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["scores"] == result.state.scores
    assert shown["winners"] == result.state.winners and shown["over"] is True


def test_bot_rngs_make_bots_independent_of_look_order():
    rng_a, rng_b = random.Random("x"), random.Random("x")
    assert rng_a.random() == rng_b.random()  # string seeds are stable (sha512), not hashed
