"""Mail settings: an address (verified by a link), which notices are mailed, and the
one-click unsubscribe.

- ``GET /api/me/email``: my address, whether it is verified, the kinds mailed, and
  whether this site sends mail at all.
- ``PUT /api/me/email`` ``{"email": ...}``: a new address, unverified; a mail with a link
  ``GET /api/me/email/verify?token=...`` (the sender draws the token as it sends the mail:
  it works once, for ``VERIFY_HOURS`` from then, and is kept only as its SHA-256). 409
  where the site sends no mail (``COFFEETABLE_SMTP_URL``).
- ``PUT /api/me/notify`` ``{"mail": ["your_turn", ...]}``: which notices are mailed.
- ``GET`` or ``POST /api/mail/unsubscribe?token=...``: the link (and ``List-Unsubscribe``)
  of every notice mailed: no more mail for that account (one click, no sign-in).
"""

from __future__ import annotations

import re
import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from coffeetable.server.jsonio import StrictJSONRoute
from coffeetable.server.players.auth_api import SignedInAccount, from_this_site
from coffeetable.server.social.mail import LINK, VERIFY, VERIFY_HOURS, hash_token
from coffeetable.server.social.notices import DEFAULT_MAILED, Social
from coffeetable.server.social.notices_api import social
from coffeetable.store import mail as db

router = APIRouter(prefix="/api", route_class=StrictJSONRoute, tags=["social"])

#: An address as mail servers take it: no spaces or line breaks (no header injection).
ADDRESS = re.compile(r"^[^@\s<>,;\"]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}$")
Kind = Literal["your_turn", "invited", "friend_request", "match_over", "table_full", "table_ready"]
Token = Annotated[str, Query(min_length=20, max_length=100, description="the link's token")]
_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "not an e-mail address"},
    401: {"description": "not signed in"},
    403: {"description": "the request came from another site"},
    409: {"description": "this site sends no mail"},
    429: {"description": "too many mails to you this hour (Limits.mails_per_hour)"},
}


class EmailBody(BaseModel):
    model_config = ConfigDict(strict=True)
    email: str = Field(max_length=254, description="where notices go, once verified")


class NotifyBody(BaseModel):
    model_config = ConfigDict(strict=True)
    mail: list[Kind] = Field(max_length=5, description="the notices mailed ([]: none)")


class MailOut(BaseModel):
    email: str | None
    verified: bool
    notify: list[str] = Field(description="the notices mailed")
    mail: bool = Field(description="whether this site sends mail at all")


async def _settings(site: Social, user_id: int) -> MailOut:
    found = await site.store.read(lambda conn: db.settings_of(conn, user_id, DEFAULT_MAILED))
    return MailOut(
        email=found.email, verified=found.verified, notify=found.notify, mail=site.mail is not None
    )


@router.get("/me/email", summary="my address and what is mailed", responses=_ERRORS)
async def get_email(request: Request, account: SignedInAccount) -> MailOut:
    return await _settings(social(request), account.user_id)


@router.put(
    "/me/email",
    summary="set my address: a link to verify it is mailed there",
    responses=_ERRORS,
    dependencies=[Depends(from_this_site)],
)
async def put_email(body: EmailBody, request: Request, account: SignedInAccount) -> MailOut:
    site = social(request)
    if site.mail is None:
        raise HTTPException(409, "this site sends no mail")
    email = body.email.strip()
    if not ADDRESS.match(email):
        raise HTTPException(400, "that is not an e-mail address")
    now = time.time()
    text = (  # the sender puts the link in (the queue holds no token)
        f"Someone (you, we hope) gave this address to the Coffee Table account"
        f" {account.username}.\n\nTo receive its notices here, open this link within"
        f" {VERIFY_HOURS} hours:\n{LINK}\n\nIf it was not you, do nothing: no other mail"
        " will come.\n"
    )
    limit = site.limits.mails_per_hour
    user = account.user_id

    def write(conn: Any) -> bool:
        if db.sent_since(conn, user, now - 3600) >= limit:
            return False
        db.set_address(conn, user, email, DEFAULT_MAILED)
        db.enqueue(conn, user, email, VERIFY, "Your Coffee Table address", text, now)
        return True

    if not await site.store.write(write):
        raise HTTPException(
            429, f"at most {limit} mails an hour to you: try again later", {"Retry-After": "3600"}
        )
    if site.mailer is not None:
        site.mailer.wake()
    return await _settings(site, user)


@router.get(
    "/me/email/verify",
    summary="verify my address (the mailed link; once, within a day)",
    responses={404: {"description": "the link is used, expired or unknown"}},
)
async def verify_email(request: Request, token: Token) -> dict[str, Any]:
    token_hash, now = hash_token(token), time.time()
    found = await social(request).store.write(lambda conn: db.verify(conn, token_hash, now))
    if found is None:
        raise HTTPException(404, "this link was used, has expired, or is not ours")
    return {"email": found[1], "verified": True}


@router.put(
    "/me/notify",
    summary="choose the notices mailed to me",
    responses=_ERRORS,
    dependencies=[Depends(from_this_site)],
)
async def put_notify(body: NotifyBody, request: Request, account: SignedInAccount) -> MailOut:
    kinds: list[str] = sorted(set(body.mail))
    site = social(request)
    user = account.user_id
    await site.store.write(lambda conn: db.set_notify(conn, user, kinds, DEFAULT_MAILED))
    return await _settings(site, user)


async def _unsubscribe(request: Request, token: str) -> dict[str, Any]:
    token_hash = hash_token(token)
    found = await social(request).store.write(lambda conn: db.unsubscribe(conn, token_hash))
    if found is None:
        raise HTTPException(404, "this link is not ours, or too old")
    return {"unsubscribed": True}


_UNSUBSCRIBE: dict[int | str, dict[str, Any]] = {
    404: {"description": "the link is not ours, or too old"}
}


@router.get("/mail/unsubscribe", summary="no more mail (a mail's link)", responses=_UNSUBSCRIBE)
async def unsubscribe_link(request: Request, token: Token) -> dict[str, Any]:
    return await _unsubscribe(request, token)


@router.post(
    "/mail/unsubscribe",
    summary="no more mail (one click: List-Unsubscribe-Post)",
    responses=_UNSUBSCRIBE,
)
async def unsubscribe_one_click(request: Request, token: Token) -> dict[str, Any]:
    return await _unsubscribe(request, token)
