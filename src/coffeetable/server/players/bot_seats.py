"""Bot accounts at tables: inviting a program to a seat, and marking its seat.

A program's seat is held like a signed-in person's: by its account
(``seat.user_id`` is the bot's ``players.id``) with a token nobody is given,
so everything that is true of a person's seat is true of it: its socket seats
it by its account (the API key), the table's clock runs for it, and when it is
away past the table's ``grace_seconds`` or out of time a greedy stand-in plays
for it, as for people. What differs is the mark: ``seat.program`` is the bot's
owner, shown in the seat summary (``program``, ``owner``) so that spectators
and players can tell bots from people, and kept across restarts in the table's
settings (``settings["programs"]``: seat -> owner).

A seat choice names a bot account by its full name (``"alice/bot-v2"``,
``is_program_name``), where a site bot is named by its level (``"greedy"``).

Who may seat a bot account (``consent_refusal``): its owner, or another bot of
theirs, unless the owner lets anyone invite it (``invitable_by: anyone``, a
setting of the bot). A rated match never seats two accounts of one person
(``same_person``: a player and their own bot, or two bots of one owner), so
that nobody rates themselves up against their own programs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from coffeetable.server.errors import TableError
from coffeetable.server.players.seat_tokens import new_token
from coffeetable.store import Store, moderation
from coffeetable.store import bot_accounts as db

#: The table setting that keeps which seats are programs: {"seat": owner}.
PROGRAMS = "programs"


def is_program_name(name: str) -> bool:
    """True for a bot account's name (``owner/bot``), False for a site bot level."""
    return "/" in name


def restore(seats: Iterable[Any], settings: dict[str, Any]) -> None:
    """Mark the seats ``settings[PROGRAMS]`` lists (a table rebuilt from the database)."""
    marked = settings.get(PROGRAMS) or {}
    for seat in seats:
        owner = marked.get(str(seat.index))
        if isinstance(owner, str):
            seat.program = owner


def mark(seat: Any, settings: dict[str, Any], bot: db.BotRow) -> None:
    """Make ``seat`` the bot account's: its name, account and mark (the caller saves
    the seat and the settings)."""
    _, seat.token_hash = new_token()  # held by the account: the token is thrown away
    seat.name = bot.name
    seat.user_id = bot.id
    seat.bot = None
    seat.left = False
    mark_owner(seat, settings, bot.owner)


def mark_owner(seat: Any, settings: dict[str, Any], owner: str | None) -> None:
    """Mark ``seat`` as held by a program of ``owner`` (None: unmark it)."""
    seat.program = owner
    marked = settings.setdefault(PROGRAMS, {})
    if owner is None:
        marked.pop(str(seat.index), None)
    else:
        marked[str(seat.index)] = owner
    if not marked:
        del settings[PROGRAMS]


async def find(store: Store, name: str) -> db.BotRow:
    """The bot account a seat choice names; ``TableError(400)`` if there is none, 403 if a
    moderator suspended its owner."""
    from coffeetable.server.players.bot_accounts import OWNER_SUSPENDED, name_key

    if len(name) > 60:
        raise TableError(400, "no such bot")
    key = name_key(name)

    def read(conn: Any) -> tuple[db.BotRow | None, moderation.Standing | None]:
        bot = db.bot_by_key(conn, key)
        return bot, None if bot is None else moderation.standing(conn, bot.owner_id)

    bot, owner = await store.read(read)
    if bot is None:
        raise TableError(400, f"no bot account called {name[:60]!r}")
    if owner is not None and owner.suspended is not None:
        raise TableError(403, f"{bot.name}: {OWNER_SUSPENDED}")
    return bot


async def owner_of(store: Store, user_id: int | None) -> db.BotRow | None:
    """The bot account ``user_id`` is, or None (a person, a guest)."""
    if user_id is None:
        return None
    return await store.read(lambda conn: db.bot_by_id(conn, user_id))


async def consent_refusal(store: Store, bot: db.BotRow, inviter: int | None) -> str | None:
    """Why the account ``inviter`` (None: a guest) may not seat ``bot``, or None."""
    if bot.invitable_by == db.ANYONE or inviter == bot.owner_id:
        return None
    inviting_bot = await owner_of(store, inviter)
    if inviting_bot is not None and inviting_bot.owner_id == bot.owner_id:
        return None  # another bot of the same owner
    return f"{bot.name} is seated by its owner only (its owner may let anyone invite it)"


async def same_person(store: Store, accounts: Sequence[int | None]) -> bool:
    """True when two of ``accounts`` (``players.id``; None: a guest) are one person's: a
    player and their own bot, or two bots of one owner."""
    ids = [account for account in accounts if account is not None]
    if len(ids) < 2:
        return False
    bots = await store.read(lambda conn: db.bots_by_ids(conn, ids))
    people = [bots[account].owner_id if account in bots else account for account in ids]
    return len(set(people)) < len(people)


async def meets_own(store: Store, table: Any, user_id: int | None) -> bool:
    """Whether the account ``user_id`` would sit at ``table`` with another account of its
    person (``same_person``). The caller seats it without awaiting anything after this:
    the answer is for the seats as they are on return (read again if they changed)."""
    while True:
        seen = [seat.user_id for seat in table.seats]
        clash = await same_person(store, [*seen, user_id])
        if [seat.user_id for seat in table.seats] == seen:
            return clash


#: Why a rated table does not seat a player with their own bots.
OWN_BOTS = "a rated match never seats a player with their own bots: make the table unrated"
