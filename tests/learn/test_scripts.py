"""Every game's tutorial script, walked through the engine: each scripted move is
legal at its step, the script reaches its end before the match does, and every step
speaks all four languages. A malformed script is refused with a clear reason."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest

from coffeetable import games
from coffeetable.server.learn import script

TUTORED = [name for name in games.names() if games.get(name).tutorial is not None]


def raw(name: str) -> dict[str, Any]:
    game = games.get(name)
    assert game.tutorial is not None
    text = resources.files(game.package).joinpath(game.tutorial).read_text("utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def test_the_four_games_declare_a_tutorial() -> None:
    assert {"espresso", "doppio", "fika", "cafe"} <= set(TUTORED)


@pytest.mark.parametrize("name", TUTORED)
def test_the_script_walks_to_its_end_before_the_match_does(name: str) -> None:
    game = games.get(name)
    found = script.load(game)
    assert found is not None
    frames = script.walk(game, found)
    assert len(frames) == len(found.steps) + 1
    moves = [step for step in found.steps if step.move is not None]
    assert len(moves) >= 3, "a tutorial lets the player make moves"
    assert found.minutes <= script.MAX_MINUTES
    for step, frame in zip(found.steps, frames, strict=False):
        if step.move is not None:
            # the step's move is among those the learner is offered there
            assert step.move in frame["legal"]
    json.dumps(frames)  # what the API sends


@pytest.mark.parametrize("name", TUTORED)
def test_every_step_speaks_every_language(name: str) -> None:
    for number, step in enumerate(raw(name)["steps"], 1):
        for code in script.LANGUAGES:
            assert step["say"].get(code, "").strip(), f"{name} step {number} lacks {code}"
        assert len(set(step["say"].values())) == len(script.LANGUAGES), "translated, not copied"


def test_an_illegal_scripted_move_is_refused_with_its_step() -> None:
    name = TUTORED[0]
    data = raw(name)
    index = next(i for i, step in enumerate(data["steps"]) if step.get("move"))
    data["steps"][index]["move"] = {"type": "no-such-move"}
    broken = script.parse(name, data)
    with pytest.raises(script.ScriptError, match=f"step {index + 1}"):
        script.walk(games.get(name), broken)


def test_a_missing_language_is_refused() -> None:
    data = copy.deepcopy(raw("fika"))
    del data["steps"][0]["say"]["de"]
    with pytest.raises(script.ScriptError, match="lacks de"):
        script.parse("fika", data)


def test_a_script_that_plays_the_match_out_is_refused() -> None:
    """A tutorial ends before the match does: the walk refuses a finished match."""
    game = games.get("fika")
    state = game.new_state(players=2, seed=2)
    moves = []
    while not state.is_over:
        seat = state.actors()[-1]
        action = state.legal_actions(seat)[0]
        moves.append([seat, action])
        state.apply(seat, action)
    data = raw("fika")
    data["steps"] = [{"say": data["steps"][0]["say"], "then": moves}]
    with pytest.raises(script.ScriptError, match="over"):
        script.walk(game, script.parse("fika", data))


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"minutes": 11}, "minutes"),
        ({"steps": []}, "list of steps"),
        ({"before": [[0]]}, "not \\[seat, action\\]"),
        ({"seat": 5}, "no seat 5"),
    ],
)
def test_a_malformed_script_is_refused(change: dict[str, Any], reason: str) -> None:
    data = {**raw("fika"), **change}
    with pytest.raises(script.ScriptError, match=reason):
        script.walk(games.get("fika"), script.parse("fika", data))
