"""Friends and blocks.

- ``PUT /api/friends/{username}`` asks; the other's ``PUT /api/friends/{me}`` accepts (both
  asked: friends). ``DELETE`` ends a friendship or a request, either way. ``GET
  /api/friends``: friends (with who is online: a session used in the last
  ``ONLINE_SECONDS``; online friends first, each group by name, as the new-table form
  offers them), requests in and out (by name).
- ``PUT /api/blocks/{username}`` blocks (and ends any friendship), ``DELETE`` unblocks,
  ``GET /api/blocks`` lists. A player you blocked cannot ask you as a friend, invite you to
  a table, be heard by you in chat, nor be dealt to a play-now table with you (either way).

People only: a program (a bot account's key) gets 403, and cannot be asked or blocked
(404, as for no such player). Each account may ask ``Limits.friends_per_account`` players
(friends and requests out) and block ``Limits.blocks_per_account``: past it, 409.
"""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Path, Request
from pydantic import BaseModel, Field

from coffeetable.server.jsonio import StrictJSONRoute
from coffeetable.server.players.api_keys import is_program
from coffeetable.server.players.auth_api import SignedInAccount, from_this_site
from coffeetable.server.players.sessions import TOUCH_EVERY, Account
from coffeetable.server.players.usernames import name_key, normalize
from coffeetable.server.social.notices_api import social
from coffeetable.store import bot_accounts as bots_db
from coffeetable.store import players as players_db
from coffeetable.store import social as db

router = APIRouter(prefix="/api", route_class=StrictJSONRoute, tags=["social"])

#: A player whose session was used this recently is shown online.
ONLINE_SECONDS = 2 * TOUCH_EVERY
Username = Annotated[str, Path(min_length=1, max_length=40, description="a player's username")]
_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "that is you"},
    401: {"description": "not signed in"},
    403: {"description": "a program's key / another site / this player blocked you"},
    404: {"description": "no such player"},
    409: {"description": "too many friends or blocks (Limits), or you blocked this player"},
}

_READ: dict[int | str, dict[str, Any]] = {
    401: {"description": "not signed in"},
    403: {"description": "a program's key"},
}


class FriendOut(BaseModel):
    username: str
    since: float = Field(description="when it began (seconds since 1970)")
    online: bool = Field(description="signed in and active in the last minutes")


class RequestOut(BaseModel):
    username: str
    since: float


class Friends(BaseModel):
    friends: list[FriendOut] = Field(description="online friends first, then by name")
    incoming: list[RequestOut] = Field(description="they asked you: PUT theirs to accept")
    outgoing: list[RequestOut] = Field(description="you asked them")


class Friendship(BaseModel):
    username: str
    status: str = Field(description='"friends" (both asked), "asked" (waiting for them)')


class Unfriended(BaseModel):
    username: str
    removed: bool = Field(description="false: there was nothing to end")


class BlockOut(BaseModel):
    username: str
    blocked: bool


def _person(account: SignedInAccount) -> Account:
    if is_program(account):
        raise HTTPException(403, "a bot has no friends or blocks: sign in as a person")
    return account


Person = Annotated[Account, Depends(_person)]


async def _other(request: Request, me: Account, username: str) -> players_db.PlayerRow:
    """The person called ``username`` (404: none, or a bot; 400: yourself)."""
    key = name_key(normalize(username))

    def read(conn: Any) -> players_db.PlayerRow | None:
        row = players_db.player_by_key(conn, key)
        if row is None or row.bot or bots_db.bot_by_id(conn, row.id) is not None:
            return None
        return row

    found = await social(request).store.read(read)
    if found is None:
        raise HTTPException(404, f"no player {username[:40]!r}")
    if found.id == me.user_id:
        raise HTTPException(400, "that is you")
    return found


@router.put(
    "/friends/{username}",
    summary="ask a player to be friends, or accept their request",
    responses=_ERRORS,
    dependencies=[Depends(from_this_site)],
)
async def ask_friend(username: Username, request: Request, me: Person) -> Friendship:
    other = await _other(request, me, username)
    limit = social(request).limits.friends_per_account

    # Refusals are returned, not raised, inside the transaction: a raise would fail the
    # store's whole group commit (it then retries each write alone) and be logged.
    def write(conn: Any) -> str | HTTPException:
        if db.is_blocked_by(conn, me.user_id, other.id):
            return HTTPException(403, f"{other.name} does not take friend requests from you")
        if db.is_blocked_by(conn, other.id, me.user_id):
            return HTTPException(409, f"you blocked {other.name}: unblock them first")
        if db.has_asked(conn, me.user_id, other.id):
            return "friends" if db.has_asked(conn, other.id, me.user_id) else "asked"
        if db.friend_count(conn, me.user_id) >= limit:
            return HTTPException(409, f"you have {limit} friends and requests: the most")
        db.ask_friend(conn, me.user_id, other.id)
        accepted = db.has_asked(conn, other.id, me.user_id)
        data = {"from": me.username, "accepted": accepted}
        social(request).add(conn, other.id, db.FRIEND_REQUEST, None, data)
        return "friends" if accepted else "asked"

    status = await social(request).store.write(write)
    if isinstance(status, HTTPException):
        raise status
    return Friendship(username=other.name, status=status)


@router.delete(
    "/friends/{username}",
    summary="end a friendship, or a request (yours or theirs)",
    responses=_ERRORS,
    dependencies=[Depends(from_this_site)],
)
async def unfriend(username: Username, request: Request, me: Person) -> Unfriended:
    other = await _other(request, me, username)
    removed = await social(request).store.write(lambda c: db.unfriend(c, me.user_id, other.id))
    return Unfriended(username=other.name, removed=removed)


@router.get("/friends", summary="my friends (who is online), requests in and out", responses=_READ)
async def list_friends(request: Request, me: Person) -> Friends:
    def read(conn: Any) -> tuple[db.Relations, dict[int, float]]:
        found = db.relations(conn, me.user_id)
        return found, db.last_seen(conn, [friend[0] for friend in found.friends])

    found, seen = await social(request).store.read(read)
    now = time.time()
    friends = [
        FriendOut(username=name, since=since, online=now - seen.get(i, 0.0) < ONLINE_SECONDS)
        for i, name, since in found.friends  # by name already: a stable sort keeps it within
    ]
    return Friends(
        friends=sorted(friends, key=lambda friend: not friend.online),
        incoming=[RequestOut(username=name, since=since) for _, name, since in found.incoming],
        outgoing=[RequestOut(username=name, since=since) for _, name, since in found.outgoing],
    )


@router.put(
    "/blocks/{username}",
    summary="block a player (ends any friendship)",
    responses=_ERRORS,
    dependencies=[Depends(from_this_site)],
)
async def block(username: Username, request: Request, me: Person) -> BlockOut:
    other = await _other(request, me, username)
    limit = social(request).limits.blocks_per_account

    def write(conn: Any) -> bool:
        """False: past the limit (nothing changed)."""
        if db.is_blocked_by(conn, other.id, me.user_id):
            return True
        if db.block_count(conn, me.user_id) >= limit:
            return False
        db.block(conn, me.user_id, other.id)
        return True

    if not await social(request).store.write(write):
        raise HTTPException(409, f"you have blocked {limit} players: the most")
    return BlockOut(username=other.name, blocked=True)


@router.delete(
    "/blocks/{username}",
    summary="unblock a player",
    responses=_ERRORS,
    dependencies=[Depends(from_this_site)],
)
async def unblock(username: Username, request: Request, me: Person) -> BlockOut:
    other = await _other(request, me, username)
    await social(request).store.write(lambda conn: db.unblock(conn, me.user_id, other.id))
    return BlockOut(username=other.name, blocked=False)


@router.get("/blocks", summary="the players I blocked", responses=_READ)
async def list_blocks(request: Request, me: Person) -> list[RequestOut]:
    found = await social(request).store.read(lambda conn: db.blocked(conn, me.user_id))
    return [RequestOut(username=name, since=since) for _, name, since in found]
