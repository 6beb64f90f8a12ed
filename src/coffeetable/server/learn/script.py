"""A game's tutorial script: read it, check its shape, and walk it through the engine.

A script is JSON beside the game's rules (the resource its ``Game.tutorial`` names):
a fixed deal (``players``, ``seed``, ``options``), the seat the learner plays
(``seat``), the moves made before the first lesson (``before``: ``[seat, action]``
pairs, bots setting the scene), and ``steps``. Each step says a sentence or two in
every language (``say``), beside a board element (``at``, a CSS selector of the
game's own board). A step with a ``move`` waits for the learner to make exactly that
action (``click``: the selectors of what to press, in order); a step without one
only needs "Next". After the step, ``then`` (more ``[seat, action]`` pairs, the
bots' answers) sets up the next lesson.

``walk`` plays the script in the engine: every move must be legal at its step, and
the match must still be running at the end (a tutorial ends before the match does).
It returns what the learner sees before each step and at the end.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from coffeetable.engine.contract import Game, IllegalAction

#: The languages every sentence must come in (the site's own four).
LANGUAGES = ("en", "fr", "de", "es")
#: The longest a tutorial may claim to take.
MAX_MINUTES = 10

Move = tuple[int | None, dict[str, Any]]


class ScriptError(ValueError):
    """A tutorial script that is malformed, or that the engine does not accept."""


@dataclass(frozen=True)
class Step:
    """One lesson: what it says (per language), where, and the move it asks for."""

    say: dict[str, str]
    at: str | None
    move: dict[str, Any] | None
    click: tuple[str, ...]
    then: tuple[Move, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "say": dict(self.say),
            "at": self.at,
            "move": self.move,
            "click": list(self.click),
        }


@dataclass(frozen=True)
class Script:
    """A whole tutorial: the deal, the learner's seat, the scene set before, the steps."""

    game: str
    players: int
    seed: int
    seat: int
    minutes: int
    options: dict[str, Any]
    before: tuple[Move, ...]
    steps: tuple[Step, ...]


def load(game: Game) -> Script | None:
    """The script ``game.tutorial`` names in the game's package; None without one."""
    if game.tutorial is None:
        return None
    text = resources.files(game.package).joinpath(game.tutorial).read_text("utf-8")
    return parse(game.name, json.loads(text))


def _fail(game: str, where: str, why: str) -> ScriptError:
    return ScriptError(f"{game} tutorial, {where}: {why}")


def _say(game: str, where: str, raw: Any) -> dict[str, str]:
    if not isinstance(raw, dict):
        raise _fail(game, where, "'say' must map each language to its text")
    missing = [code for code in LANGUAGES if not isinstance(raw.get(code), str) or not raw[code]]
    if missing:
        raise _fail(game, where, f"'say' lacks {', '.join(missing)}")
    return {code: raw[code] for code in LANGUAGES}


def _moves(game: str, where: str, raw: Any) -> tuple[Move, ...]:
    if not isinstance(raw, list):
        raise _fail(game, where, "moves must be a list of [seat, action]")
    moves: list[Move] = []
    for item in raw:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], dict)):
            raise _fail(game, where, f"{item!r} is not [seat, action]")
        seat = item[0]
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise _fail(game, where, f"{seat!r} is not a seat")
        moves.append((seat, item[1]))
    return tuple(moves)


def _int(game: str, raw: dict[str, Any], key: str, default: int | None = None) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(game, "the script", f"{key!r} must be a whole number")
    return value


def parse(game: str, raw: Any) -> Script:
    """A script from its JSON, its shape checked (``walk`` checks its moves)."""
    if not isinstance(raw, dict) or not isinstance(raw.get("steps"), list) or not raw["steps"]:
        raise _fail(game, "the script", "it must be an object with a list of steps")
    minutes = _int(game, raw, "minutes")
    if not 1 <= minutes <= MAX_MINUTES:
        raise _fail(game, "the script", f"'minutes' must be 1 to {MAX_MINUTES}")
    options = raw.get("options", {})
    if not isinstance(options, dict):
        raise _fail(game, "the script", "'options' must be an object")
    steps = []
    for number, item in enumerate(raw["steps"], 1):
        where = f"step {number}"
        if not isinstance(item, dict):
            raise _fail(game, where, "a step must be an object")
        move = item.get("move")
        if move is not None and not isinstance(move, dict):
            raise _fail(game, where, "'move' must be an action")
        click = item.get("click", [])
        if not isinstance(click, list) or not all(isinstance(c, str) and c for c in click):
            raise _fail(game, where, "'click' must be a list of selectors")
        if move is not None and not click:
            raise _fail(game, where, "a move needs what to press ('click')")
        at = item.get("at")
        if at is not None and not isinstance(at, str):
            raise _fail(game, where, "'at' must be a selector")
        steps.append(
            Step(
                say=_say(game, where, item.get("say")),
                at=at,
                move=move,
                click=tuple(click),
                then=_moves(game, where, item.get("then", [])),
            )
        )
    return Script(
        game=game,
        players=_int(game, raw, "players"),
        seed=_int(game, raw, "seed"),
        seat=_int(game, raw, "seat", 0),
        minutes=minutes,
        options=dict(options),
        before=_moves(game, "before", raw.get("before", [])),
        steps=tuple(steps),
    )


def _play(state: Any, seat: int | None, action: dict[str, Any], where: str, game: str) -> list[Any]:
    """Apply one scripted action, refusing one the engine would not offer there."""
    if seat is not None:
        if seat not in state.actors():
            raise _fail(game, where, f"seat {seat} may not act now ({action})")
        if action not in state.legal_actions(seat):
            raise _fail(game, where, f"{action} is not legal for seat {seat}")
    try:
        return list(state.apply(seat, action))
    except IllegalAction as error:
        raise _fail(game, where, f"{action} refused: {error}") from error


def _frame(state: Any, seat: int, events: list[Any], asks: bool) -> dict[str, Any]:
    """What the learner sees: the view, the legal moves (when a step asks one), events."""
    actors = list(state.actors())
    mine = asks and seat in actors
    return {
        "view": state.view(seat),
        "legal": list(state.legal_actions(seat)) if mine else [],
        "actors": actors,
        "events": [_plain(ev) for ev in events],
    }


def _plain(event: Any) -> Any:
    to_json = getattr(event, "to_json", None)
    return to_json() if callable(to_json) else event


def walk(game: Game, script: Script) -> list[dict[str, Any]]:
    """Play the script: one frame before each step, and one at its end.

    Raises ``ScriptError`` when a move is not legal at its step, when the match ends
    before the tutorial does, or when the deal is not one the game accepts.
    """
    try:
        game.check_players(script.players)
        state = game.new_state(players=script.players, seed=script.seed, **script.options)
    except ValueError as error:
        raise _fail(script.game, "the deal", str(error)) from error
    if not 0 <= script.seat < script.players:
        raise _fail(script.game, "the script", f"no seat {script.seat}")
    events: list[Any] = []
    for seat, action in script.before:
        events += _play(state, seat, action, "before", script.game)
    frames = []
    for number, step in enumerate(script.steps, 1):
        where = f"step {number}"
        frames.append(_frame(state, script.seat, events, step.move is not None))
        events = []
        if step.move is not None:
            events += _play(state, script.seat, step.move, where, script.game)
        for seat, action in step.then:
            events += _play(state, seat, action, where, script.game)
        if state.is_over:
            raise _fail(script.game, where, "the match is over: a tutorial ends before it")
    frames.append(_frame(state, script.seat, events, False))
    return frames
