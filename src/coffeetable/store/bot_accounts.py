"""Bot accounts and their API keys: schema and blocking queries.

A bot account is a ``players`` row of kind ``bot`` (so every reader that tells
bots from people already does: leaderboards, match participants) with a
``bot_accounts`` row naming its owner, a person's account. Its name is
``owner/bot`` ("alice/bot-v2"): a slash no username or bot level has, so it
never collides with either.

- ``bot_accounts``: the bot's ``players.id``, its owner's, its short name
  (``bot-v2``), a description, when it was made, and who may invite it to a
  seat (``invitable_by``: ``owner``, the default, or ``anyone``).
- ``api_keys``: a public random ``id`` (to list and revoke), the SHA-256 of
  the key (never the key), the key's first characters (to recognise it in a
  list), created, last used, and revoked (a revoked key stays listed, refused).

Everything takes a ``Connection``; writes run in the caller's transaction.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from coffeetable.store.db import metadata
from coffeetable.store.matches import ratings
from coffeetable.store.players import BOT, accounts, players

#: Who may invite a bot account to a seat (``bot_accounts.invitable_by``).
OWNER, ANYONE = "owner", "anyone"
INVITABLE_BY = (OWNER, ANYONE)

bot_accounts = sa.Table(
    "bot_accounts",
    metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("owner_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("short_name", sa.String(20), nullable=False),
    sa.Column("description", sa.String(200), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("invitable_by", sa.String(8), nullable=False, server_default=OWNER),
    # Plays the programs' league (``server/league``) of every game it may seat at.
    sa.Column("league", sa.Boolean, nullable=False, server_default=sa.false()),
)

api_keys = sa.Table(
    "api_keys",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("key_hash", sa.String(64), nullable=False),
    sa.Column("prefix", sa.String(16), nullable=False),
    sa.Column("label", sa.String(40), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("last_used", sa.Float, nullable=True),
    sa.Column("revoked", sa.Float, nullable=True),
    sa.UniqueConstraint("key_hash", name="uq_api_keys_key_hash"),
)


@dataclass(frozen=True)
class BotRow:
    """A bot account: its player id and full name, its owner's id and name."""

    id: int
    name: str
    short_name: str
    owner_id: int
    owner: str
    description: str
    created: float
    #: Who may invite it to a seat: ``owner`` (its owner, or their other bots) or ``anyone``.
    invitable_by: str = OWNER
    #: Plays in the programs' league (``server/league``).
    league: bool = False


@dataclass(frozen=True)
class KeyRow:
    """An API key as its owner may see it (never the key itself)."""

    id: str
    player_id: int
    prefix: str
    label: str
    created: float
    last_used: float | None
    revoked: float | None


@dataclass(frozen=True)
class KeyOwner:
    """Who a valid key acts for: the bot, and the key's id and last use."""

    key_id: str
    bot: BotRow
    last_used: float | None


def _new_id(result: sa.CursorResult[Any]) -> int:
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


_owners = players.alias("owners")


def _bot_select() -> sa.Select[Any]:
    return (
        sa.select(
            players.c.id,
            players.c.name,
            bot_accounts.c.short_name,
            bot_accounts.c.owner_id,
            _owners.c.name.label("owner"),
            bot_accounts.c.description,
            bot_accounts.c.created,
            bot_accounts.c.invitable_by,
            bot_accounts.c.league,
        )
        .join(bot_accounts, bot_accounts.c.player_id == players.c.id)
        .join(_owners, _owners.c.id == bot_accounts.c.owner_id)
    )


def _bot(row: Any) -> BotRow:
    return BotRow(
        row.id,
        row.name,
        row.short_name,
        row.owner_id,
        row.owner,
        row.description,
        row.created,
        row.invitable_by,
        bool(row.league),
    )


def create_bot(
    conn: Connection,
    owner_id: int,
    name: str,
    short_name: str,
    name_key: str,
    skeleton: str,
    description: str,
    now: float | None = None,
) -> int:
    """Insert a bot account; return its ``players.id``.

    Raises ``sqlalchemy.exc.IntegrityError`` if the name (or a look-alike) is taken.
    """
    now = time.time() if now is None else now
    result = conn.execute(
        players.insert().values(
            kind=BOT, name=name, name_key=name_key, skeleton=skeleton, created=now
        )
    )
    player_id = _new_id(result)
    conn.execute(
        bot_accounts.insert().values(
            player_id=player_id,
            owner_id=owner_id,
            short_name=short_name,
            description=description,
            created=now,
        )
    )
    return player_id


def count_bots(conn: Connection, owner_id: int) -> int:
    """How many bots the account owns."""
    query = sa.select(sa.func.count()).where(bot_accounts.c.owner_id == owner_id)
    return int(conn.execute(query).scalar_one())


def bots_of(conn: Connection, owner_id: int) -> list[BotRow]:
    """The account's bots, oldest first."""
    query = _bot_select().where(bot_accounts.c.owner_id == owner_id)
    return [_bot(row) for row in conn.execute(query.order_by(players.c.id)).all()]


def set_invitable_by(conn: Connection, player_id: int, invitable_by: str) -> None:
    """Who may invite the bot to a seat from now on (one of ``INVITABLE_BY``)."""
    if invitable_by not in INVITABLE_BY:
        raise ValueError(f"invitable_by is one of {INVITABLE_BY}")
    conn.execute(
        bot_accounts.update()
        .where(bot_accounts.c.player_id == player_id)
        .values(invitable_by=invitable_by)
    )


def set_league(conn: Connection, player_id: int, league: bool) -> None:
    """Whether the bot plays in the programs' league from now on."""
    conn.execute(
        bot_accounts.update().where(bot_accounts.c.player_id == player_id).values(league=league)
    )


def league_bots(conn: Connection) -> list[BotRow]:
    """The bot accounts in the programs' league, oldest first (none of an owner a moderator
    suspended: ``store.moderation``)."""
    suspended = sa.select(accounts.c.player_id).where(accounts.c.suspended.is_not(None))
    query = (
        _bot_select()
        .where(bot_accounts.c.league.is_(True), bot_accounts.c.owner_id.not_in(suspended))
        .order_by(players.c.id)
    )
    return [_bot(row) for row in conn.execute(query)]


def bot_by_key(conn: Connection, name_key: str) -> BotRow | None:
    """A bot account by its name key (``owner_key/bot_key``)."""
    row = conn.execute(_bot_select().where(players.c.name_key == name_key)).first()
    return None if row is None else _bot(row)


def bot_by_id(conn: Connection, player_id: int) -> BotRow | None:
    """A bot account by its ``players.id`` (None: not a bot account)."""
    row = conn.execute(_bot_select().where(players.c.id == player_id)).first()
    return None if row is None else _bot(row)


def bots_by_ids(conn: Connection, ids: list[int]) -> dict[int, BotRow]:
    """The bot accounts among ``ids``, by id."""
    if not ids:
        return {}
    rows = conn.execute(_bot_select().where(players.c.id.in_(ids))).all()
    return {row.id: _bot(row) for row in rows}


# -- keys ----------------------------------------------------------------------


def create_key(
    conn: Connection,
    key_id: str,
    player_id: int,
    key_hash: str,
    prefix: str,
    label: str,
    now: float | None = None,
) -> None:
    """Store a new key (only its hash and first characters)."""
    conn.execute(
        api_keys.insert().values(
            id=key_id,
            player_id=player_id,
            key_hash=key_hash,
            prefix=prefix,
            label=label,
            created=time.time() if now is None else now,
            last_used=None,
            revoked=None,
        )
    )


def count_live_keys(conn: Connection, player_id: int) -> int:
    """The bot's keys that are not revoked."""
    query = sa.select(sa.func.count()).where(
        api_keys.c.player_id == player_id, api_keys.c.revoked.is_(None)
    )
    return int(conn.execute(query).scalar_one())


def keys_of(conn: Connection, player_id: int) -> list[KeyRow]:
    """The bot's keys, newest first, revoked ones too."""
    rows = conn.execute(
        api_keys.select()
        .where(api_keys.c.player_id == player_id)
        .order_by(api_keys.c.created.desc())
    ).all()
    return [
        KeyRow(r.id, r.player_id, r.prefix, r.label, r.created, r.last_used, r.revoked)
        for r in rows
    ]


def revoke_key(conn: Connection, player_id: int, key_id: str, now: float | None = None) -> bool:
    """Revoke one of the bot's keys; False if it has no live key by that id."""
    result = conn.execute(
        api_keys.update()
        .where(
            api_keys.c.id == key_id,
            api_keys.c.player_id == player_id,
            api_keys.c.revoked.is_(None),
        )
        .values(revoked=time.time() if now is None else now)
    )
    return bool(result.rowcount)


def key_owner(conn: Connection, key_hash: str) -> KeyOwner | None:
    """The bot a live (not revoked) key acts for, or None."""
    row = conn.execute(
        sa.select(api_keys.c.id, api_keys.c.player_id, api_keys.c.last_used).where(
            api_keys.c.key_hash == key_hash, api_keys.c.revoked.is_(None)
        )
    ).first()
    if row is None:
        return None
    bot = bot_by_id(conn, row.player_id)
    return None if bot is None else KeyOwner(row.id, bot, row.last_used)


def touch_key(conn: Connection, key_id: str, now: float | None = None) -> None:
    """Record that the key was just used."""
    conn.execute(
        api_keys.update()
        .where(api_keys.c.id == key_id)
        .values(last_used=time.time() if now is None else now)
    )


# -- the bots' leaderboard -----------------------------------------------------


@dataclass(frozen=True)
class BotBoardRow:
    """One line of a bots' leaderboard: a bot account (with owner) or a site bot level."""

    player_id: int
    name: str
    owner: str | None
    mu: float
    sigma: float
    games: int
    wins: int


def bot_leaderboard(
    conn: Connection, game: str, group: str, *, provisional_below: int, limit: int = 50
) -> list[BotBoardRow]:
    """Bots rated in ``game``/``group`` (accounts and the site's levels): established
    ones first, each part by mu, best first."""
    provisional = sa.case((ratings.c.games < provisional_below, 1), else_=0)
    rows = conn.execute(
        sa.select(
            ratings,
            players.c.name,
            _owners.c.name.label("owner"),
        )
        .join(players, players.c.id == ratings.c.player_id)
        .outerjoin(bot_accounts, bot_accounts.c.player_id == players.c.id)
        .outerjoin(_owners, _owners.c.id == bot_accounts.c.owner_id)
        .where(ratings.c.game == game, ratings.c.group_name == group, players.c.kind == BOT)
        .order_by(provisional, ratings.c.mu.desc(), ratings.c.player_id)
        .limit(limit)
    ).all()
    return [BotBoardRow(r.player_id, r.name, r.owner, r.mu, r.sigma, r.games, r.wins) for r in rows]
