"""Players, accounts and sessions: schema and blocking queries.

Everything takes a ``Connection``; writes run inside the caller's transaction
(``Store.write``) and never commit themselves.

- ``players``: a rated identity, an account (kind ``user``) or a bot level
  (kind ``bot``, created the first time that level finishes a match). ``name``
  is shown; ``name_key`` (NFKC + casefold) and ``skeleton`` (look-alike form,
  ``server.players.usernames``) are unique across both kinds. An account's
  ``players.id`` is the ``user_id`` of seats and sessions.
- ``accounts``: the argon2 hash of a user's password, and its moderation standing
  (a moderator; muted or suspended: ``store.moderation``).
- ``sessions``: a public random ``id`` (to list and revoke), the SHA-256 of
  the cookie's secret, created, last seen and user agent.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from coffeetable.store.db import metadata, seats, tables

USER = "user"
BOT = "bot"
#: The statuses of a table a player may still act at.
LIVE = ("open", "running")

players = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("kind", sa.String(8), nullable=False),  # user | bot
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("name_key", sa.String(40), nullable=False),
    sa.Column("skeleton", sa.String(40), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.UniqueConstraint("name_key", name="uq_players_name_key"),
    sa.UniqueConstraint("skeleton", name="uq_players_skeleton"),
)

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("password_hash", sa.String(255), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    # Moderation (``store.moderation``): a moderator; chat muted until; suspended since.
    sa.Column("moderator", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("muted_until", sa.Float, nullable=True),
    sa.Column("suspended", sa.Float, nullable=True),
)

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("last_seen", sa.Float, nullable=False),
    sa.Column("user_agent", sa.String(200), nullable=False),
    sa.UniqueConstraint("token_hash", name="uq_sessions_token_hash"),
)


@dataclass(frozen=True)
class PlayerRow:
    """A rated identity: an account or a bot level."""

    id: int
    kind: str
    name: str
    created: float

    @property
    def bot(self) -> bool:
        return self.kind == BOT


@dataclass(frozen=True)
class AccountRow:
    """An account with its password hash (for signing in)."""

    player_id: int
    name: str
    password_hash: str


@dataclass(frozen=True)
class SessionRow:
    """A session and the account it signs in."""

    id: str
    player_id: int
    name: str
    created: float
    last_seen: float
    user_agent: str


@dataclass(frozen=True)
class HeldSeat:
    """A seat an account holds at an open or running table."""

    table_id: str
    seat: int
    game: str
    players: int
    name: str
    status: str
    created: float


def _new_id(result: sa.CursorResult[Any]) -> int:
    """The primary key an INSERT made."""
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


# -- players and accounts ------------------------------------------------------


def name_taken(conn: Connection, name_key: str, skeleton: str) -> bool:
    """True if a player already has this name or a name that looks the same."""
    query = sa.select(players.c.id).where(
        sa.or_(players.c.name_key == name_key, players.c.skeleton == skeleton)
    )
    return conn.execute(query.limit(1)).first() is not None


def create_account(
    conn: Connection,
    name: str,
    name_key: str,
    skeleton: str,
    password_hash: str,
    now: float | None = None,
) -> int:
    """Insert a user and its account; return its ``players.id``.

    Raises ``sqlalchemy.exc.IntegrityError`` if the name (or its look-alike)
    is taken.
    """
    now = time.time() if now is None else now
    result = conn.execute(
        players.insert().values(
            kind=USER, name=name, name_key=name_key, skeleton=skeleton, created=now
        )
    )
    player_id = _new_id(result)
    conn.execute(
        accounts.insert().values(player_id=player_id, password_hash=password_hash, created=now)
    )
    return player_id


def account_by_key(conn: Connection, name_key: str) -> AccountRow | None:
    """The account whose name has this key, with its password hash."""
    row = conn.execute(
        sa.select(players.c.id, players.c.name, accounts.c.password_hash)
        .join(accounts, accounts.c.player_id == players.c.id)
        .where(players.c.name_key == name_key, players.c.kind == USER)
    ).first()
    return None if row is None else AccountRow(row.id, row.name, row.password_hash)


def set_password_hash(conn: Connection, player_id: int, password_hash: str) -> None:
    """Replace an account's hash (a rehash with newer argon2 parameters)."""
    conn.execute(
        accounts.update()
        .where(accounts.c.player_id == player_id)
        .values(password_hash=password_hash)
    )


def player_by_key(conn: Connection, name_key: str) -> PlayerRow | None:
    """A player (account or bot level) by name key."""
    row = conn.execute(players.select().where(players.c.name_key == name_key)).first()
    return None if row is None else PlayerRow(row.id, row.kind, row.name, row.created)


def player_by_id(conn: Connection, player_id: int) -> PlayerRow | None:
    """A player by id."""
    row = conn.execute(players.select().where(players.c.id == player_id)).first()
    return None if row is None else PlayerRow(row.id, row.kind, row.name, row.created)


def bot_player(conn: Connection, level: str, now: float | None = None) -> int:
    """The ``players.id`` of a bot level, created on first use.

    ``level`` is the bot's registry name without a budget (``ismcts``, not
    ``ismcts:800``); it is its own name, key and skeleton.
    """
    key = level.casefold()
    found = conn.execute(
        sa.select(players.c.id).where(players.c.name_key == key, players.c.kind == BOT)
    ).first()
    if found is not None:
        return int(found.id)
    result = conn.execute(
        players.insert().values(
            kind=BOT,
            name=level,
            name_key=key,
            skeleton=key,
            created=time.time() if now is None else now,
        )
    )
    return _new_id(result)


# -- sessions ----------------------------------------------------------------


def create_session(
    conn: Connection,
    session_id: str,
    token_hash: str,
    player_id: int,
    user_agent: str,
    now: float | None = None,
) -> None:
    """Store a new session (only the hash of its secret)."""
    now = time.time() if now is None else now
    conn.execute(
        sessions.insert().values(
            id=session_id,
            token_hash=token_hash,
            player_id=player_id,
            created=now,
            last_seen=now,
            user_agent=user_agent[:200],
        )
    )


def session_by_hash(conn: Connection, token_hash: str) -> SessionRow | None:
    """The session whose secret has this hash, with its account's name."""
    row = conn.execute(
        sa.select(sessions, players.c.name)
        .join(players, players.c.id == sessions.c.player_id)
        .where(sessions.c.token_hash == token_hash)
    ).first()
    if row is None:
        return None
    return SessionRow(row.id, row.player_id, row.name, row.created, row.last_seen, row.user_agent)


def touch_session(conn: Connection, session_id: str, now: float | None = None) -> None:
    """Record that the session was just used."""
    conn.execute(
        sessions.update()
        .where(sessions.c.id == session_id)
        .values(last_seen=time.time() if now is None else now)
    )


def list_sessions(conn: Connection, player_id: int) -> list[SessionRow]:
    """An account's sessions, most recently used first."""
    rows = conn.execute(
        sa.select(sessions, players.c.name)
        .join(players, players.c.id == sessions.c.player_id)
        .where(sessions.c.player_id == player_id)
        .order_by(sessions.c.last_seen.desc())
    ).all()
    return [
        SessionRow(r.id, r.player_id, r.name, r.created, r.last_seen, r.user_agent) for r in rows
    ]


def delete_session(conn: Connection, player_id: int, session_id: str) -> bool:
    """Revoke one of the account's sessions; False if it has no such session."""
    result = conn.execute(
        sessions.delete().where(sessions.c.id == session_id, sessions.c.player_id == player_id)
    )
    return bool(result.rowcount)


def delete_session_by_hash(conn: Connection, token_hash: str) -> bool:
    """End the session whose secret has this hash, whoever it belongs to."""
    result = conn.execute(sessions.delete().where(sessions.c.token_hash == token_hash))
    return bool(result.rowcount)


def delete_sessions(conn: Connection, player_id: int) -> int:
    """Revoke every session of the account; return how many there were."""
    result = conn.execute(sessions.delete().where(sessions.c.player_id == player_id))
    return int(result.rowcount)


def purge_sessions(conn: Connection, idle_before: float, created_before: float) -> int:
    """Delete sessions unused since ``idle_before`` or created before ``created_before``."""
    result = conn.execute(
        sessions.delete().where(
            sa.or_(sessions.c.last_seen < idle_before, sessions.c.created < created_before)
        )
    )
    return int(result.rowcount)


# -- seats -------------------------------------------------------------------


def claim_seat(conn: Connection, table_id: str, token_hash: str, user_id: int) -> int | None:
    """Give the account the seat that ``token_hash`` holds at ``table_id``.

    Returns the seat, or None when the token holds no seat there (wrong,
    left, handed to a bot), when the seat already belongs to another account,
    or when the account already holds another seat at that table. Claiming a
    seat one already has returns it again.
    """
    row = conn.execute(
        sa.select(seats.c.seat, seats.c.user_id).where(
            seats.c.table_id == table_id,
            seats.c.token_hash == token_hash,
            seats.c.bot.is_(None),
            seats.c.left.is_(False),
        )
    ).first()
    if row is None or row.user_id not in (None, user_id):
        return None
    other = conn.execute(
        sa.select(seats.c.seat).where(
            seats.c.table_id == table_id, seats.c.user_id == user_id, seats.c.seat != row.seat
        )
    ).first()
    if other is not None:
        return None
    conn.execute(
        seats.update()
        .where(seats.c.table_id == table_id, seats.c.seat == row.seat)
        .values(user_id=user_id)
    )
    return int(row.seat)


def seats_of_user(conn: Connection, user_id: int) -> list[HeldSeat]:
    """The seats the account holds at open and running tables, newest table first."""
    rows = conn.execute(
        sa.select(
            seats.c.table_id,
            seats.c.seat,
            tables.c.game,
            tables.c.players,
            tables.c.name,
            tables.c.status,
            tables.c.created,
        )
        .join(tables, tables.c.id == seats.c.table_id)
        .where(
            seats.c.user_id == user_id,
            seats.c.bot.is_(None),
            seats.c.left.is_(False),
            tables.c.status.in_(LIVE),
        )
        .order_by(tables.c.created.desc())
    ).all()
    return [
        HeldSeat(r.table_id, r.seat, r.game, r.players, r.name, r.status, r.created) for r in rows
    ]
