"""Schema versions: Alembic migrations, run programmatically (no alembic.ini).

The migrations live in ``store/migrations/`` (``env.py`` and ``versions/``),
shipped inside the package. ``upgrade(engine)`` brings any database to the
newest revision when ``Database`` opens it:

- a new, empty database gets every revision in order;
- a database made before migrations existed (``metadata.create_all`` of the
  tables, seats and actions, no ``alembic_version`` table) is stamped at
  ``BASELINE``, which is exactly that schema, then upgraded;
- a database already at the newest revision is left alone.

Revisions: ``0001`` tables, seats, actions (the schema as it was before
migrations); ``0002`` the players layer (players, accounts, sessions,
matches, participants, ratings; ``seats.user_id``); ``0003`` table chat;
``0004`` bot accounts and their API keys (``store.bot_accounts``); ``0005``
Doppio's reserve rule for older tables; ``0006`` TR39 look-alike skeletons;
``0007`` known devices (``store.devices``); ``0008`` who may invite a bot account
(``bot_accounts.invitable_by``); ``0009`` Doppio's repetition ruling for older tables;
``0010`` the tutorials an account finished (``store.learn``); ``0011`` notifications,
friends, blocks and mail (``store.social``, ``store.mail``); ``0012`` vacations
(``store.vacations``); ``0013`` tournaments (``store.tournaments``); ``0015`` tournament misses and
the programs' league (``store.league``, ``bot_accounts.league``); ``0016`` who chose each
action (``actions.by_stand_in``) and the league's forfeits.

On PostgreSQL the upgrade holds a transaction-level advisory lock, so servers
starting together do not migrate twice.
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, Engine

#: The folder of ``env.py`` and ``versions/``.
MIGRATIONS = Path(__file__).parent / "migrations"
#: The revision that is exactly the schema ``metadata.create_all`` made before migrations.
BASELINE = "0001"
#: pg_advisory_xact_lock key for migrations (any constant; "coffee" in ASCII).
_LOCK_KEY = 0x636F66666565


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic ``Config`` for the package's migrations, bound to ``connection``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest revision."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


def current(connection: Connection) -> str | None:
    """The revision the database is at (None: never migrated)."""
    return MigrationContext.configure(connection).get_current_revision()


def is_legacy(connection: Connection) -> bool:
    """True for a database made before migrations: tables exist, no version."""
    names = set(sa.inspect(connection).get_table_names())
    return "alembic_version" not in names and "tables" in names


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` (default: the newest), in one transaction."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
        target = head() if revision == "head" else revision
        if current(connection) == target:
            return
        config = alembic_config(connection)
        if is_legacy(connection):
            command.stamp(config, BASELINE)
        command.upgrade(config, revision)
