"""Bot accounts: a person's programs, each an account of its own with API keys.

A signed-in person makes a bot ("bot-v2"); it is named ``owner/bot``
("alice/bot-v2"), is a rated player of its own (a ``players`` row of kind
``bot``, so leaderboards and match records mark it as a bot) and acts through
API keys (``api_keys.py``): made by its owner (shown once), listed by prefix,
revoked at once. Only the owner may see or change a bot's keys; a key acts
for its bot and nothing else. Only the owner (or another bot of theirs) may
seat a bot at a table, unless they let anyone invite it (``invitable_by``).
Limits: ``Limits.bots_per_account`` bots per person, ``Limits.keys_per_bot``
live keys per bot.

``BotAccounts.resolve`` turns a key into the bot's ``ProgramAccount``, the
way the session cookie gives a person's ``Account``; the table socket then
seats the bot by its ``user_id``, as it seats a signed-in person. The keys of
a bot whose owner a moderator suspended are refused (403, ``OWNER_SUSPENDED``),
and nobody may seat it (``bot_seats.find``): a suspended person plays through
none of their programs.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError

from coffeetable.server.errors import PlayersError
from coffeetable.server.limits import Limits
from coffeetable.server.players import usernames
from coffeetable.server.players.api_keys import ProgramAccount, hash_key, new_key
from coffeetable.server.players.revocation import KEY_REVOKED, SocketRevocations, api_key
from coffeetable.server.players.sessions import Account
from coffeetable.server.text import clean_text
from coffeetable.store import Store, moderation
from coffeetable.store import bot_accounts as db

log = logging.getLogger("coffeetable.server")

#: A bot's own name: 2-20 letters, digits and _ - . (a letter or digit at each end).
SHORT_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9]|[_.-](?=[A-Za-z0-9])){1,19}")
MAX_DESCRIPTION = 200
MAX_LABEL = 40
#: ``last_used`` of a key is written at most this often (seconds).
TOUCH_EVERY = 300.0
#: Why a suspended person's bot is refused (its keys, a seat).
OWNER_SUSPENDED = "this bot's owner is suspended by a moderator: the bot cannot sign in or play"


def check_short_name(raw: object) -> str:
    """The bot's own name as stored, or ``PlayersError(400)`` saying why not."""
    name = usernames.normalize(raw) if isinstance(raw, str) else ""
    if name.casefold() == "bots":  # /api/players/{owner}/bots lists an owner's bots
        raise PlayersError(400, "this bot name is reserved")
    if not name.isascii() or SHORT_NAME.fullmatch(name) is None:
        raise PlayersError(
            400,
            "a bot's name has 2 to 20 characters: letters a-z, digits and _ - ."
            " (a letter or digit first and last)",
        )
    return name


def full_name(owner: str, short_name: str) -> str:
    """``owner/bot``, as the bot is shown everywhere."""
    return f"{owner}/{short_name}"


def name_key(name: str) -> str:
    """The identity of a full bot name (``Alice/Bot-V2`` is ``alice/bot-v2``)."""
    owner, _, short = name.partition("/")
    return f"{usernames.name_key(owner)}/{usernames.name_key(short)}"


@dataclass(frozen=True)
class NewKey:
    """A key just made: the only time the key itself is seen."""

    key: str
    row: db.KeyRow


class BotAccounts:
    """Bots and their keys, over the ``Store`` (one per app: ``bot_service``)."""

    def __init__(
        self,
        store: Store,
        limits: Limits | None = None,
        revocations: SocketRevocations | None = None,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        #: Closes the sockets a revoked key opened (the players service's, shared).
        self.revocations = revocations or SocketRevocations()

    # -- bots ------------------------------------------------------------------

    async def create(
        self, owner: Account, short_name: object, description: object = ""
    ) -> db.BotRow:
        """Make a bot for ``owner`` (400 bad name, 403 a program asks, 409 taken, 429 too many)."""
        _person(owner)
        short = check_short_name(short_name)
        about = clean_text(description, MAX_DESCRIPTION) if isinstance(description, str) else ""
        name = full_name(owner.username, short)
        key = name_key(name)
        shape = usernames.bot_skeleton(owner.username, short)
        most = self.limits.bots_per_account

        if await self.store.read(lambda conn: db.count_bots(conn, owner.user_id)) >= most:
            raise PlayersError(429, f"you have {most} bots already (Limits.bots_per_account)")
        try:
            bot_id = await self.store.write(
                lambda conn: db.create_bot(conn, owner.user_id, name, short, key, shape, about)
            )
        except IntegrityError:
            raise PlayersError(409, f"you already have a bot called {short}") from None
        log.info("new bot account %s", name)
        found = await self.store.read(lambda conn: db.bot_by_id(conn, bot_id))
        assert found is not None
        return found

    async def mine(self, owner: Account) -> list[db.BotRow]:
        """The account's bots."""
        return await self.store.read(lambda conn: db.bots_of(conn, owner.user_id))

    async def owned(self, owner: Account, short_name: str) -> db.BotRow:
        """The owner's bot called ``short_name`` (404 if they have none by that name)."""
        _person(owner)
        key = name_key(full_name(owner.username, short_name[:40]))
        bot = await self.store.read(lambda conn: db.bot_by_key(conn, key))
        if bot is None or bot.owner_id != owner.user_id:
            raise PlayersError(404, f"you have no bot called {short_name[:40]!r}")
        return bot

    async def set_invitable_by(
        self, owner: Account, short_name: str, invitable_by: str
    ) -> db.BotRow:
        """Who may invite the owner's bot to a seat: ``owner`` (them, or their other bots)
        or ``anyone`` (400 for anything else, 404 not their bot)."""
        bot = await self.owned(owner, short_name)
        if invitable_by not in db.INVITABLE_BY:
            raise PlayersError(400, f"invitable_by is one of {', '.join(db.INVITABLE_BY)}")
        await self.store.write(lambda conn: db.set_invitable_by(conn, bot.id, invitable_by))
        found = await self.store.read(lambda conn: db.bot_by_id(conn, bot.id))
        assert found is not None
        return found

    async def set_league(self, owner: Account, short_name: str, league: bool) -> db.BotRow:
        """Whether the owner's bot plays in the programs' league (404 not their bot)."""
        bot = await self.owned(owner, short_name)
        await self.store.write(lambda conn: db.set_league(conn, bot.id, league))
        found = await self.store.read(lambda conn: db.bot_by_id(conn, bot.id))
        assert found is not None
        return found

    async def find(self, name: str) -> db.BotRow | None:
        """A bot account by its full name (``alice/bot-v2``, any case), or None."""
        if "/" not in name or len(name) > 60:
            return None
        key = name_key(name)
        return await self.store.read(lambda conn: db.bot_by_key(conn, key))

    async def by_ids(self, ids: list[int]) -> dict[int, db.BotRow]:
        """The bot accounts among these player ids."""
        return await self.store.read(lambda conn: db.bots_by_ids(conn, ids))

    # -- keys ------------------------------------------------------------------

    async def keys(self, owner: Account, short_name: str) -> list[db.KeyRow]:
        """The bot's keys (revoked ones too), newest first."""
        bot = await self.owned(owner, short_name)
        return await self.store.read(lambda conn: db.keys_of(conn, bot.id))

    async def new_key(self, owner: Account, short_name: str, label: object = "") -> NewKey:
        """Make a key for the owner's bot; the key is in the answer and nowhere else."""
        bot = await self.owned(owner, short_name)
        text = clean_text(label, MAX_LABEL) if isinstance(label, str) else ""
        key_id, key, key_hash, prefix = new_key()
        most = self.limits.keys_per_bot
        now = time.time()

        if await self.store.read(lambda conn: db.count_live_keys(conn, bot.id)) >= most:
            raise PlayersError(
                429, f"this bot has {most} keys already: revoke one (Limits.keys_per_bot)"
            )
        await self.store.write(
            lambda conn: db.create_key(conn, key_id, bot.id, key_hash, prefix, text, now)
        )
        log.info("new API key %s for %s", prefix, bot.name)  # the prefix only, never the key
        return NewKey(key, db.KeyRow(key_id, bot.id, prefix, text, now, None, None))

    async def revoke(self, owner: Account, short_name: str, key_id: str) -> None:
        """Revoke one of the bot's keys (404: no live key of it by that id)."""
        bot = await self.owned(owner, short_name)
        if not await self.store.write(lambda conn: db.revoke_key(conn, bot.id, key_id[:40])):
            raise PlayersError(404, "this bot has no live key by that id")
        self.revocations.revoke([api_key(key_id[:40])], KEY_REVOKED)
        log.info("API key %s of %s revoked", key_id[:40], bot.name)

    async def resolve(self, key: str) -> ProgramAccount | None:
        """The bot a key acts for (None: unknown or revoked; ``PlayersError(403)``: its owner
        is suspended)."""
        key_hash = hash_key(key)

        def read(conn: Any) -> tuple[db.KeyOwner | None, moderation.Standing | None]:
            found = db.key_owner(conn, key_hash)
            owner = None if found is None else moderation.standing(conn, found.bot.owner_id)
            return found, owner

        found, owner = await self.store.read(read)
        if found is None:
            return None
        if owner is not None and owner.suspended is not None:
            raise PlayersError(403, OWNER_SUSPENDED)
        now = time.time()
        if found.last_used is None or now - found.last_used > TOUCH_EVERY:
            await self.store.write(lambda conn: db.touch_key(conn, found.key_id, now))
        bot = found.bot
        return ProgramAccount(bot.id, bot.name, "", owner=bot.owner, key_id=found.key_id)


def _person(account: Account) -> None:
    """Only a person manages bots: a program's key cannot make bots or keys."""
    if isinstance(account, ProgramAccount):
        raise PlayersError(403, "a bot cannot manage bots: sign in as its owner")


def bot_service(state: object) -> BotAccounts:
    """The app's ``BotAccounts``, made on first use beside ``state.players``."""
    service = getattr(state, "bot_accounts", None)
    if service is None:
        players = state.players  # type: ignore[attr-defined]
        limits = getattr(getattr(state, "lobby", None), "limits", None)
        service = BotAccounts(players.store, limits, players.revocations)
        state.bot_accounts = service  # type: ignore[attr-defined]
    return service
