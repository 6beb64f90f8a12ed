"""The database: a table is its log (game, seats, options, seed and actions).

SQLAlchemy Core, so SQLite (the default, in WAL mode) and PostgreSQL run the
same code. Everything here is synchronous and blocking; ``store.writer`` runs
it on one thread for the event loop.

Schema:

- ``tables``: one row per table (game, players, seed, options, settings, status).
- ``seats``: one row per seat (name, sha256 of its token, bot level, left, and
  ``user_id``: the account that sat there, see ``SeatRecord``).
- ``actions``: one row per accepted action, ``(table_id, seq)`` unique, and whether a
  stand-in (or the bot that took a leaver's seat) chose it rather than the seat's own
  player (``by_stand_in``: a restored table still knows who played, ``TableRecord``).

The players layer (accounts, sessions, matches, ratings) has its own modules,
``store.players`` and ``store.matches``, on the same ``metadata``. The schema
is versioned with Alembic (``store.schema``, ``store/migrations/``):
``Database`` upgrades a database to the newest revision when it opens it.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

#: The environment variable that names the database when no URL is given.
DATABASE_ENV = "COFFEETABLE_DATABASE_URL"

metadata = sa.MetaData()

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("options", sa.Text, nullable=False),  # JSON: the game's resolved options
    # JSON: table-level settings (bot_speed, clock_minutes; clock_left: the clock's time left)
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("name", sa.String(80), nullable=False, default=""),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("created", sa.Float, nullable=False),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(80), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("left", sa.Boolean, nullable=False, default=False),
    # players.id of the account that sat here (kept when a bot takes the seat over).
    # No foreign-key constraint, so that SQLite can add the column in place.
    sa.Column("user_id", sa.Integer, nullable=True, index=True),
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=True),  # None: the table itself (timers)
    sa.Column("action", sa.Text, nullable=False),  # JSON
    # A stand-in chose it for the seat's person (or program), not they themselves.
    sa.Column("by_stand_in", sa.Boolean, nullable=False, server_default=sa.false()),
)


#: The log's hot path (one row per accepted action) goes through the driver's own
#: cursor, in each driver's parameter style: SQLAlchemy's statement machinery cost
#: more than SQLite's insert itself (measured alone, a row a transaction: ~86 us
#: through SQLAlchemy Core, ~50 through the cursor).
_APPEND_ACTION = {
    style: f"INSERT INTO actions (table_id, seq, seat, action, by_stand_in) VALUES ({marks})"
    for style, marks in (("qmark", "?, ?, ?, ?, ?"), ("pyformat", "%s, %s, %s, %s, %s"))
}
# Statements built once: executing a constant statement skips SQLAlchemy's
# per-call compilation work (several times faster than ``.values(...)``).
_UPDATE_SEAT = seats.update().where(
    seats.c.table_id == sa.bindparam("b_table"), seats.c.seat == sa.bindparam("b_seat")
)
_SET_STATUS = tables.update().where(tables.c.id == sa.bindparam("b_table"))
_SET_SETTINGS = _SET_STATUS


@dataclass
class SeatRecord:
    """Who sits in a seat: nobody (name None), a person (token_hash) or a bot.

    ``user_id``: the account (``players.id``) of the person who sat here, None
    for a guest. It stays when the person leaves or a bot takes the seat over
    (the match's result still belongs to them); the account holds the seat
    now only while ``bot`` is None and ``left`` is False. An open seat (name
    None) has none.
    """

    seat: int
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None
    left: bool = False
    user_id: int | None = None


@dataclass
class TableRecord:
    """A table as stored: enough to rebuild it exactly."""

    id: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    settings: dict[str, Any]
    name: str
    status: str
    created: float = field(default_factory=time.time)
    seats: list[SeatRecord] = field(default_factory=list)
    #: (seat, action) in seq order (seq = index + 1).
    actions: list[tuple[int | None, dict[str, Any]]] = field(default_factory=list)
    #: The seqs of the actions a stand-in chose (``actions.by_stand_in``).
    by_stand_in: set[int] = field(default_factory=set)


def default_database_url() -> str:
    """``$COFFEETABLE_DATABASE_URL``, else SQLite in the user's data folder."""
    url = os.environ.get(DATABASE_ENV)
    if url:
        return url
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("coffeetable"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'coffeetable.sqlite3'}"


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def create_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL and a busy timeout."""
    if not url.startswith("sqlite"):
        return sa.create_engine(url, pool_pre_ping=True)
    engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

    @sa.event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a commit survives the process being killed (not a power cut).
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


class Database:
    """Blocking access to the tables, seats and actions.

    Write methods take a ``Connection`` inside a transaction so that callers
    can group several writes into one commit (see ``store.writer``).
    """

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_database_url()
        self.engine = create_engine(self.url)
        from coffeetable.store.schema import upgrade

        upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -- writes (inside a caller's transaction) ------------------------------

    @staticmethod
    def insert_table(conn: Connection, record: TableRecord) -> None:
        conn.execute(
            tables.insert().values(
                id=record.id,
                game=record.game,
                players=record.players,
                seed=record.seed,
                options=_dumps(record.options),
                settings=_dumps(record.settings),
                name=record.name,
                status=record.status,
                created=record.created,
            )
        )
        conn.execute(
            seats.insert(),
            [
                {
                    "table_id": record.id,
                    "seat": s.seat,
                    "name": s.name,
                    "token_hash": s.token_hash,
                    "bot": s.bot,
                    "left": s.left,
                    "user_id": s.user_id,
                }
                for s in record.seats
            ],
        )

    @staticmethod
    def update_seat(conn: Connection, table_id: str, seat: SeatRecord) -> None:
        """Write every field of the seat, ``user_id`` included (the live seat must carry it)."""
        conn.execute(
            _UPDATE_SEAT,
            {
                "b_table": table_id,
                "b_seat": seat.seat,
                "name": seat.name,
                "token_hash": seat.token_hash,
                "bot": seat.bot,
                "left": seat.left,
                "user_id": seat.user_id,
            },
        )

    @staticmethod
    def set_status(conn: Connection, table_id: str, status: str) -> None:
        conn.execute(_SET_STATUS, {"b_table": table_id, "status": status})

    @staticmethod
    def set_settings(conn: Connection, table_id: str, settings: dict[str, Any]) -> None:
        """Replace a table's settings (the clock saves its time left there)."""
        conn.execute(_SET_SETTINGS, {"b_table": table_id, "settings": _dumps(settings)})

    @staticmethod
    def append_action(
        conn: Connection,
        table_id: str,
        seq: int,
        seat: int | None,
        action: dict[str, Any],
        by_stand_in: bool = False,
    ) -> None:
        """One action of a table's log, in ``conn``'s transaction (``by_stand_in``: a
        stand-in chose it for the seat). A ``seq`` the log already has is refused by the
        driver (the primary key is the fence)."""
        sql = _APPEND_ACTION[conn.dialect.paramstyle]  # SQLite's, or psycopg's
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.execute(sql, (table_id, seq, seat, _dumps(action), by_stand_in))
        finally:
            cursor.close()

    # -- reads ----------------------------------------------------------------

    def load(self, conn: Connection, table_id: str) -> TableRecord | None:
        """One table with its seats and actions, or None."""
        row = conn.execute(tables.select().where(tables.c.id == table_id)).first()
        return None if row is None else self._record(conn, row)

    def load_live(self, conn: Connection) -> list[TableRecord]:
        """Every table still open or running, oldest first."""
        rows = conn.execute(
            tables.select()
            .where(tables.c.status.in_(("open", "running")))
            .order_by(tables.c.created)
        ).all()
        return [self._record(conn, row) for row in rows]

    @staticmethod
    def _record(conn: Connection, row: Any) -> TableRecord:
        seat_rows = conn.execute(
            seats.select().where(seats.c.table_id == row.id).order_by(seats.c.seat)
        ).all()
        action_rows = conn.execute(
            sa.select(actions.c.seq, actions.c.seat, actions.c.action, actions.c.by_stand_in)
            .where(actions.c.table_id == row.id)
            .order_by(actions.c.seq)
        ).all()
        for index, action_row in enumerate(action_rows, start=1):
            if action_row.seq != index:
                raise RuntimeError(f"table {row.id}: action {index} is missing from the log")
        return TableRecord(
            id=row.id,
            game=row.game,
            players=row.players,
            seed=row.seed,
            options=json.loads(row.options),
            settings=json.loads(row.settings),
            name=row.name,
            status=row.status,
            created=row.created,
            seats=[
                SeatRecord(s.seat, s.name, s.token_hash, s.bot, bool(s.left), s.user_id)
                for s in seat_rows
            ],
            actions=[(a.seat, json.loads(a.action)) for a in action_rows],
            by_stand_in={a.seq for a in action_rows if a.by_stand_in},
        )
