"""The engine contract, on every registered game."""

from __future__ import annotations

import json
import random

import pytest

from coffeetable import games
from coffeetable.engine import IllegalAction, MatchLog, Option, action_schema, replay_log


def test_the_registry_lists_and_returns_games() -> None:
    assert "espresso" in games.names()
    for name in games.names():
        game = games.get(name)
        assert game.name == name
        assert 1 <= game.min_players <= game.max_players
        json.dumps(game.describe())  # the lobby serves it as JSON
    with pytest.raises(KeyError, match="no game 'chess'"):
        games.get("chess")


@pytest.mark.parametrize("name", games.names())
def test_every_game_follows_the_contract_in_random_play(name: str) -> None:
    game = games.get(name)
    rng = random.Random(0)
    state = game.new_state(players=game.min_players, seed=11)
    log = MatchLog(name, game.min_players, 11, {})
    for _ in range(500):
        if state.is_over:
            break
        seat = rng.choice(state.actors())
        legal = state.legal_actions(seat)
        assert legal, "an actor always has something to do"
        assert len({json.dumps(a, sort_keys=True) for a in legal}) == len(legal)
        action = rng.choice(legal)
        events = state.apply(seat, action)
        json.dumps(events)
        log.actions.append((seat, action))
        for viewer in [None, *range(state.players)]:
            json.dumps(state.view(viewer))
        assert len(state.scores) == state.players and state.round >= 1
    data = json.loads(json.dumps(log.to_json()))
    again = replay_log(data)
    assert again.view(None) == state.view(None)
    with pytest.raises(IllegalAction):
        state.apply(0, {"type": "no such action"})


@pytest.mark.parametrize("name", games.names())
def test_a_game_with_public_views_shows_every_seat_what_a_spectator_sees(name: str) -> None:
    # The server builds one view a state for such a game and gives each seat a copy with
    # its own "seat" (server/tables/audience.py): that must be exactly the seat's own view.
    game = games.get(name)
    rng = random.Random(3)
    differed = 0
    for players in sorted({game.min_players, game.max_players}):
        state = game.new_state(players=players, seed=players)
        for _ in range(300):
            public = state.view(None)
            for seat in range(players):
                own = state.view(seat)
                if game.public_views:
                    assert own == {**public, "seat": seat}
                    assert list(own) == list(public)  # the same keys in the same order
                else:
                    differed += own != {**public, "seat": seat}
            if state.is_over:
                break
            seat = rng.choice(state.actors())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    # A game that hides something (Fika's hands) must not say its views are public.
    assert game.public_views or differed


@pytest.mark.parametrize("name", games.names())
def test_every_legal_action_fits_the_published_action_schema(name: str) -> None:
    # Clients (and the OpenAPI page) learn the actions from this schema: it must admit
    # every action the rules offer.
    jsonschema = pytest.importorskip("jsonschema")
    game = games.get(name)
    schema = game.describe()["action_schema"]
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    rng = random.Random(2)
    for players in sorted({game.min_players, min(game.max_players, 3)}):
        state = game.new_state(players=players, seed=players)
        for _ in range(300):
            if state.is_over:
                break
            seat = rng.choice(state.actors())
            legal = state.legal_actions(seat)
            for action in legal:
                validator.validate(action)
            state.apply(seat, rng.choice(legal))
    assert not validator.is_valid({"type": "no such action"})


def test_action_schema_requires_every_field_unless_told() -> None:
    every = action_schema("move", **{"from": {"type": "integer"}, "to": {"type": "integer"}})
    assert every["required"] == ["type", "from", "to"] and not every["additionalProperties"]
    assert action_schema("skip", ())["required"] == ["type"]
    assert action_schema("take", ("card",), card={}, pay={})["required"] == ["type", "card"]


def test_options_are_checked_with_readable_errors() -> None:
    target = Option("target", 100, "score to reach", minimum=1)
    assert target.check(50) == 50
    with pytest.raises(ValueError, match="whole number"):
        target.check("50")
    with pytest.raises(ValueError, match="whole number"):
        target.check(True)
    with pytest.raises(ValueError, match="at least 1"):
        target.check(0)
    assert Option("zero", False, "x").to_json()["type"] == "bool"


def test_match_log_round_trips_through_json() -> None:
    log = MatchLog(
        "espresso", 2, 3, {"zero": True}, [(0, {"type": "ready"}), (None, {"type": "idle"})]
    )
    assert MatchLog.from_json(json.loads(json.dumps(log.to_json()))) == log
