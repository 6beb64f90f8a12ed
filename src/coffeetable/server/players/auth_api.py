"""The account routes: sign up, sign in, sign out, sessions, and ``/api/me``.

Requests that change something check that a browser's ``Origin`` is this
site (403 otherwise). Mistakes in the username or password get one answer,
401 "wrong username or password"; repeated failures get 429 with
``Retry-After``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response

from coffeetable import games
from coffeetable.server.errors import PlayersError
from coffeetable.server.jsonio import StrictJSONRoute
from coffeetable.server.limits import client_key
from coffeetable.server.players import models
from coffeetable.server.players.devices import device_secret, set_device_cookie
from coffeetable.server.players.service import Claim, NewSession, PlayersService
from coffeetable.server.players.sessions import (
    Account,
    clear_cookie,
    cookie_secret,
    is_https,
    same_origin,
    set_cookie,
)
from coffeetable.store import moderation
from coffeetable.store import players as db

router = APIRouter(prefix="/api", route_class=StrictJSONRoute)

_AUTH_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "a username or password that is not allowed (says why)"},
    401: {"description": "wrong username or password / not signed in"},
    403: {"description": "the request came from another site"},
    409: {"description": "the username, or one that looks like it, is taken"},
    429: {"description": "too many attempts: wait Retry-After seconds"},
}
_SIGNED_IN: dict[int | str, dict[str, Any]] = {401: {"description": "not signed in"}}


def players_service(request: Request) -> PlayersService:
    """The app's ``PlayersService``."""
    service: PlayersService = request.app.state.players
    return service


async def current_account(request: Request) -> Account | None:
    """The account the request's session cookie signs in (None: a guest)."""
    return await players_service(request).account_for(request)


async def signed_in(
    account: Annotated[Account | None, Depends(current_account)],
) -> Account:
    """The signed-in account, or 401."""
    if account is None:
        raise HTTPException(401, "not signed in")
    return account


#: A route parameter: the signed-in account (401 if none).
SignedInAccount = Annotated[Account, Depends(signed_in)]
#: A route parameter: the signed-in account, or None for a guest.
MaybeAccount = Annotated[Account | None, Depends(current_account)]


def from_this_site(request: Request) -> None:
    """403 for a browser request sent by another site (a cross-site form or script)."""
    if not same_origin(request.headers):
        raise HTTPException(403, "this request came from another site")


def _http(error: PlayersError) -> HTTPException:
    return HTTPException(error.status, error.detail, headers=error.headers())


def _address(request: Request) -> str:
    return client_key(request) or "unknown"


def _signed_in(request: Request, response: Response, result: NewSession) -> models.SignedIn:
    set_cookie(response, result.secret, is_https(request))
    set_device_cookie(response, result.device, is_https(request))
    return models.SignedIn(
        username=result.account.username,
        claimed=[models.ClaimedSeat(table_id=t, seat=s) for t, s in result.claimed],
    )


@router.post(
    "/auth/register",
    summary="make an account and sign in (sets the session cookie)",
    responses=_AUTH_ERRORS,
    dependencies=[Depends(from_this_site)],
)
async def register(
    body: models.Credentials, request: Request, response: Response
) -> models.SignedIn:
    try:
        result = await players_service(request).register(
            body.username,
            body.password,
            address=_address(request),
            user_agent=request.headers.get("user-agent", ""),
            claims=[Claim(c.table_id, c.token) for c in body.claim],
            device=device_secret(request.cookies),
        )
    except PlayersError as error:
        raise _http(error) from None
    return _signed_in(request, response, result)


@router.post(
    "/auth/login",
    summary="sign in (sets the session cookie)",
    responses=_AUTH_ERRORS,
    dependencies=[Depends(from_this_site)],
)
async def login(body: models.Credentials, request: Request, response: Response) -> models.SignedIn:
    try:
        result = await players_service(request).login(
            body.username,
            body.password,
            address=_address(request),
            user_agent=request.headers.get("user-agent", ""),
            claims=[Claim(c.table_id, c.token) for c in body.claim],
            replacing=cookie_secret(request.cookies),
            device=device_secret(request.cookies),
        )
    except PlayersError as error:
        raise _http(error) from None
    return _signed_in(request, response, result)


@router.post(
    "/auth/logout",
    summary="sign out this browser (ends its session)",
    dependencies=[Depends(from_this_site)],
)
async def logout(request: Request, response: Response, account: MaybeAccount) -> models.SignedOut:
    if account is not None:
        await players_service(request).logout(account)
    clear_cookie(response, is_https(request))
    return models.SignedOut()


@router.post(
    "/auth/logout-everywhere",
    summary="end every session of my account, this one too",
    responses=_SIGNED_IN,
    dependencies=[Depends(from_this_site)],
)
async def logout_everywhere(
    request: Request, response: Response, account: SignedInAccount
) -> models.Revoked:
    revoked = await players_service(request).logout_everywhere(account)
    clear_cookie(response, is_https(request))
    return models.Revoked(revoked=revoked)


@router.get("/auth/sessions", summary="my sessions, most recently used first", responses=_SIGNED_IN)
async def list_sessions(request: Request, account: SignedInAccount) -> list[models.SessionOut]:
    rows = await players_service(request).sessions(account)
    return [
        models.SessionOut(
            id=row.id,
            created=row.created,
            last_seen=row.last_seen,
            user_agent=row.user_agent,
            current=row.id == account.session_id,
        )
        for row in rows
    ]


@router.delete(
    "/auth/sessions/{session_id}",
    summary="end one of my sessions (its cookie stops working)",
    responses={**_SIGNED_IN, 404: {"description": "no such session of mine"}},
    dependencies=[Depends(from_this_site)],
)
async def revoke_session(
    session_id: str, request: Request, response: Response, account: SignedInAccount
) -> models.Revoked:
    if not await players_service(request).revoke(account, session_id):
        raise HTTPException(404, "no such session")
    if session_id == account.session_id:
        clear_cookie(response, is_https(request))
    return models.Revoked(revoked=1)


def _title(game: str) -> str:
    try:
        return games.get(game).title
    except KeyError:
        return game


@router.get(
    "/me", summary="who I am, and my seats at open and running tables", responses=_SIGNED_IN
)
async def me(request: Request, account: SignedInAccount) -> models.Me:
    store = players_service(request).store

    def read(conn: Any) -> tuple[db.PlayerRow | None, list[db.HeldSeat], bool]:
        user = account.user_id
        standing = moderation.standing(conn, user)
        moderator = standing is not None and standing.moderator
        return db.player_by_id(conn, user), db.seats_of_user(conn, user), moderator

    player, held, moderator = await store.read(read)
    if player is None:  # the account is gone
        raise HTTPException(401, "not signed in")
    return models.Me(
        username=player.name,
        joined=player.created,
        tables=[
            models.MyTable(
                table_id=seat.table_id,
                game=seat.game,
                title=_title(seat.game),
                name=seat.name,
                status=seat.status,
                players=seat.players,
                seat=seat.seat,
                socket=f"/ws/tables/{seat.table_id}",
            )
            for seat in held
        ],
        moderator=moderator,
    )
