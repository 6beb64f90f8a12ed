"""The bot accounts API: a person's bots and their keys, and the bots' leaderboards.

- ``POST /api/bots`` make a bot (``{"name": "bot-v2"}`` -> ``alice/bot-v2``);
  ``GET /api/bots`` my bots; ``GET /api/players/{name}/bots`` someone's bots
  (to invite one by name); ``GET /api/players/{owner}/{bot}`` a bot's profile
  (the players' profile, as ``/api/players/{name}`` gives a person's).
- ``PATCH /api/bots/{bot}`` ``{"invitable_by": "owner" | "anyone"}``: who may
  seat the bot at a table (default: its owner only, or another bot of theirs);
  ``{"league": true}``: it plays in the programs' league (``server/league``).
- ``POST /api/bots/{bot}/keys`` a new API key, shown in this answer only;
  ``GET /api/bots/{bot}/keys`` the keys by prefix; ``DELETE
  /api/bots/{bot}/keys/{id}`` revokes one at once.
- ``GET /api/leaderboards/{game}/bots``: bots (accounts with their owners, and
  the site's own levels) by rating, beside the players' leaderboard.

Managing bots takes a person's session (a program's key gets 403), and
changes come from this site's pages only (403 otherwise).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request
from pydantic import BaseModel, Field

from coffeetable.server.errors import PlayersError
from coffeetable.server.jsonio import StrictJSONRoute
from coffeetable.server.players import models, ratings, stats_api, usernames
from coffeetable.server.players.api_keys import is_program
from coffeetable.server.players.auth_api import SignedInAccount, from_this_site, players_service
from coffeetable.server.players.bot_accounts import BotAccounts, bot_service
from coffeetable.server.players.sessions import Account
from coffeetable.store import bot_accounts as db
from coffeetable.store import players as players_db

router = APIRouter(prefix="/api", route_class=StrictJSONRoute, tags=["bots"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "a bot name that is not allowed (says why)"},
    401: {"description": "not signed in"},
    403: {"description": "a program's key cannot manage bots / another site"},
    404: {"description": "no such bot or key of mine"},
    409: {"description": "I have a bot by that name already"},
    429: {"description": "too many bots, or keys for this bot (Limits)"},
}
BotName = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.-]+$")]


class NewBot(BaseModel):
    name: str = Field(max_length=40, description="the bot's own name: alice makes alice/NAME")
    description: str = Field("", max_length=400, description="what it is, for its page")


class BotOut(BaseModel):
    name: str = Field(description='the full name, "owner/bot", as seats show it')
    short_name: str
    owner: str
    description: str
    created: float
    invitable_by: str = Field(
        description='who may seat it at a table: "owner" (its owner or their bots) or "anyone"'
    )
    league: bool = Field(False, description="it plays in the programs' league")


class BotSettings(BaseModel):
    invitable_by: Literal["owner", "anyone"] | None = Field(
        None,
        description='who may seat the bot at a table: "owner" (you, or your bots) or "anyone"',
    )
    league: bool | None = Field(
        None, description="play in the programs' league (GET /api/leagues/{game})"
    )


class NewKeyBody(BaseModel):
    label: str = Field("", max_length=80, description="to tell your keys apart (a machine)")


class KeyOut(BaseModel):
    id: str = Field(description="for DELETE /api/bots/{bot}/keys/{id}")
    prefix: str = Field(description="the key's first characters")
    label: str
    created: float
    last_used: float | None
    revoked: float | None


class NewKeyOut(KeyOut):
    key: str = Field(description="the key: shown this once, stored only hashed")


class BotBoardEntry(BaseModel):
    place: int
    name: str
    owner: str | None = Field(description="the bot account's owner (null: the site's own bot)")
    rating: int
    provisional: bool
    games: int
    wins: int


class BotBoard(BaseModel):
    game: str
    group: str
    groups: list[str]
    entries: list[BotBoardEntry]


def _service(request: Request) -> BotAccounts:
    return bot_service(request.app.state)


def _person(account: SignedInAccount) -> Account:
    """The signed-in person (a program's key: 403)."""
    if is_program(account):
        raise HTTPException(403, "a bot cannot manage bots: sign in as its owner")
    return account


Person = Annotated[Account, Depends(_person)]


def _http(error: PlayersError) -> HTTPException:
    return HTTPException(error.status, error.detail, headers=error.headers())


def _bot(row: db.BotRow) -> BotOut:
    return BotOut(
        name=row.name,
        short_name=row.short_name,
        owner=row.owner,
        description=row.description,
        created=row.created,
        invitable_by=row.invitable_by,
        league=row.league,
    )


def _key(row: db.KeyRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "prefix": row.prefix,
        "label": row.label,
        "created": row.created,
        "last_used": row.last_used,
        "revoked": row.revoked,
    }


@router.post(
    "/bots",
    summary="make a bot account of mine (owner/name)",
    responses=_ERRORS,
    dependencies=[Depends(from_this_site)],
)
async def create_bot(body: NewBot, request: Request, person: Person) -> BotOut:
    try:
        row = await _service(request).create(person, body.name, body.description)
    except PlayersError as error:
        raise _http(error) from None
    return _bot(row)


@router.get("/bots", summary="my bot accounts", responses=_ERRORS)
async def my_bots(request: Request, person: Person) -> list[BotOut]:
    return [_bot(row) for row in await _service(request).mine(person)]


@router.patch(
    "/bots/{bot}",
    summary="change my bot's settings: who may seat it at a table, the programs' league",
    responses=_ERRORS,
    dependencies=[Depends(from_this_site)],
)
async def change_bot(bot: BotName, body: BotSettings, request: Request, person: Person) -> BotOut:
    try:
        service = _service(request)
        row = await service.owned(person, bot)
        if body.invitable_by is not None:
            row = await service.set_invitable_by(person, bot, body.invitable_by)
        if body.league is not None:
            row = await service.set_league(person, bot, body.league)
    except PlayersError as error:
        raise _http(error) from None
    return _bot(row)


@router.get(
    "/players/{name}/bots",
    summary="a player's bot accounts (to invite one to a seat by name)",
    responses={404: {"description": "no such player"}},
)
async def players_bots(
    request: Request, name: str = Path(min_length=1, max_length=40)
) -> list[BotOut]:
    store = players_service(request).store
    key = usernames.name_key(name)
    player = await store.read(lambda conn: players_db.player_by_key(conn, key))
    if player is None or player.bot:
        raise HTTPException(404, "no such player")
    return [_bot(row) for row in await store.read(lambda conn: db.bots_of(conn, player.id))]


@router.get(
    "/players/{owner}/{bot}",
    summary="a bot account's profile (owner/bot): ratings, games, recent matches",
    responses={404: {"description": "no such bot"}},
)
async def bot_profile(
    request: Request,
    owner: str = Path(min_length=1, max_length=40),
    bot: str = Path(min_length=1, max_length=40),
) -> models.Profile:
    return await stats_api.profile(f"{owner}/{bot}", request)


@router.get("/bots/{bot}/keys", summary="my bot's API keys (by prefix)", responses=_ERRORS)
async def list_keys(bot: BotName, request: Request, person: Person) -> list[KeyOut]:
    try:
        rows = await _service(request).keys(person, bot)
    except PlayersError as error:
        raise _http(error) from None
    return [KeyOut(**_key(row)) for row in rows]


@router.post(
    "/bots/{bot}/keys",
    summary="a new API key for my bot: shown in this answer only",
    responses=_ERRORS,
    dependencies=[Depends(from_this_site)],
)
async def create_key(bot: BotName, body: NewKeyBody, request: Request, person: Person) -> NewKeyOut:
    try:
        made = await _service(request).new_key(person, bot, body.label)
    except PlayersError as error:
        raise _http(error) from None
    return NewKeyOut(key=made.key, **_key(made.row))


@router.delete(
    "/bots/{bot}/keys/{key_id}",
    summary="revoke one of my bot's keys (refused from now on)",
    responses=_ERRORS,
    dependencies=[Depends(from_this_site)],
)
async def revoke_key(
    bot: BotName,
    request: Request,
    person: Person,
    key_id: str = Path(min_length=1, max_length=40),
) -> dict[str, bool]:
    try:
        await _service(request).revoke(person, bot, key_id)
    except PlayersError as error:
        raise _http(error) from None
    return {"revoked": True}


@router.get(
    "/leaderboards/{game}/bots",
    summary="the best rated bots of a game: bot accounts (with owners) and the site's bots",
    responses={404: {"description": "no such game"}, 400: {"description": "no such group"}},
)
async def bot_leaderboard(
    game: str,
    request: Request,
    group: str | None = Query(None, description="player-count group; default the first"),
    limit: int = Query(50, ge=1, le=200),
) -> BotBoard:
    chosen = stats_api.board_group(game, group)
    store = players_service(request).store
    below = ratings.PROVISIONAL_GAMES
    rows = await store.read(
        lambda conn: db.bot_leaderboard(conn, game, chosen, provisional_below=below, limit=limit)
    )
    return BotBoard(
        game=game,
        group=chosen,
        groups=ratings.groups(game),
        entries=[
            BotBoardEntry(
                place=place,
                name=row.name,
                owner=row.owner,
                rating=ratings.display(row.mu),
                provisional=ratings.provisional(row.games),
                games=row.games,
                wins=row.wins,
            )
            for place, row in enumerate(rows, start=1)
        ],
    )
