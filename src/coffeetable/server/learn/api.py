"""The tutorials' API: which games teach by playing, a game's script with what the
learner sees at each step, and finishing one (kept per account; a guest's browser
keeps its own).

- ``GET /api/learn``: the games with a tutorial, and those the account finished;
- ``GET /api/learn/{game}``: the script's steps and, per step, the learner's view and
  legal moves (walked through the engine here, so the page needs no rules of its own);
- ``POST /api/learn/{game}/done``: the tutorial was played to its end.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi import Path as FastPath
from pydantic import BaseModel, Field

from coffeetable import games
from coffeetable.server.jsonio import StrictJSONRoute
from coffeetable.server.learn import script
from coffeetable.server.players.auth_api import MaybeAccount, from_this_site, players_service
from coffeetable.store import learn as store_learn

router = APIRouter(prefix="/api", route_class=StrictJSONRoute, tags=["learn"])
_NO_TUTORIAL: dict[int | str, dict[str, Any]] = {
    404: {"description": "no such game, or no tutorial"}
}
GameName = FastPath(pattern=r"^[a-z][a-z0-9_-]{0,31}$", description="a game's name")


class TutorialEntry(BaseModel):
    game: str
    title: str
    minutes: int = Field(description="about how long it takes")


class LearnList(BaseModel):
    games: list[TutorialEntry]
    done: list[str] = Field(
        description="games whose tutorial this account finished ([] for a guest)"
    )


class Step(BaseModel):
    say: dict[str, str] = Field(description="what the lesson says, by language (en, fr, de, es)")
    at: str | None = Field(description="a CSS selector of the board element it is about")
    move: dict[str, Any] | None = Field(description="the action the learner must make (None: Next)")
    click: list[str] = Field(description="selectors of what to press for the move, in order")


class Tutorial(BaseModel):
    game: str
    title: str
    players: int
    seat: int = Field(description="the seat the learner plays")
    minutes: int
    steps: list[Step]
    frames: list[dict[str, Any]] = Field(
        description="before each step and at the end: {view, legal, actors, events}"
    )


class Finished(BaseModel):
    game: str
    kept: Literal["account", "browser"] = Field(
        description="where it is kept: the account, or (a guest) the browser itself"
    )


def tutored() -> list[str]:
    """The games that declare a tutorial (``Game.tutorial``)."""
    return [name for name in games.names() if games.get(name).tutorial is not None]


@cache
def walked(name: str) -> dict[str, Any]:
    """A game's tutorial as the API sends it (walked once per process: it never changes)."""
    game = games.get(name)
    found = script.load(game)
    if found is None:
        raise KeyError(name)
    return {
        "game": name,
        "title": game.title,
        "players": found.players,
        "seat": found.seat,
        "minutes": found.minutes,
        "steps": [step.to_json() for step in found.steps],
        "frames": script.walk(game, found),
    }


def _tutorial(name: str) -> dict[str, Any]:
    if name not in tutored():
        raise HTTPException(404, f"no tutorial for {name!r}")
    return walked(name)


@router.get("/learn", response_model=LearnList)
async def tutorials(request: Request, account: MaybeAccount) -> LearnList:
    """The games that teach by playing, and which of them this account finished."""
    entries = [
        TutorialEntry(game=name, title=walked(name)["title"], minutes=walked(name)["minutes"])
        for name in tutored()
    ]
    done: list[str] = []
    if account is not None:
        store = players_service(request).store
        done = await store.read(lambda conn: store_learn.games_of(conn, account.user_id))
    return LearnList(games=entries, done=done)


@router.get("/learn/{game}", response_model=Tutorial, responses=_NO_TUTORIAL)
async def tutorial(game: str = GameName) -> dict[str, Any]:
    """A game's guided first match: its steps, and what the learner sees before each."""
    return _tutorial(game)


@router.post(
    "/learn/{game}/done",
    response_model=Finished,
    responses={**_NO_TUTORIAL, 403: {"description": "the request came from another site"}},
    dependencies=[Depends(from_this_site)],
)
async def finished(request: Request, account: MaybeAccount, game: str = GameName) -> Finished:
    """The learner played the tutorial to its end: kept on the account when signed in."""
    _tutorial(game)
    if account is None:
        return Finished(game=game, kept="browser")
    store = players_service(request).store
    await store.write(lambda conn: store_learn.record(conn, account.user_id, game))
    return Finished(game=game, kept="account")
