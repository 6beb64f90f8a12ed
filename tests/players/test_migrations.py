"""Alembic migrations: a database made before them is kept whole; revision 1 is that schema."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from coffeetable.store import Database, SeatRecord, metadata, schema
from coffeetable.store.db import create_engine

# -- the schema as commit 41def8e's store/db.py made it (metadata.create_all), frozen ----

legacy = sa.MetaData()
sa.Table(
    "tables",
    legacy,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("name", sa.String(80), nullable=False, default=""),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("created", sa.Float, nullable=False),
)
sa.Table(
    "seats",
    legacy,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(80), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("left", sa.Boolean, nullable=False, default=False),
)
sa.Table(
    "actions",
    legacy,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("action", sa.Text, nullable=False),
)

NEW_TABLES = {"players", "accounts", "sessions", "matches", "participants", "ratings"}


def make_legacy_database(url: str) -> None:
    """A database as the code before migrations left it: two tables, seats, actions."""
    engine = create_engine(url)
    legacy.create_all(engine)
    t, s, a = (legacy.tables[name] for name in ("tables", "seats", "actions"))
    with engine.begin() as conn:
        for table_id, status in (("old1", "running"), ("old2", "over")):
            conn.execute(
                t.insert().values(
                    id=table_id,
                    game="espresso",
                    players=2,
                    seed=2**52 - 1,
                    options='{"target":50}',
                    settings='{"bot_speed":2}',
                    name="Ada's table",
                    status=status,
                    created=1234.5,
                )
            )
            conn.execute(
                s.insert(),
                [
                    {
                        "table_id": table_id,
                        "seat": 0,
                        "name": "Ada",
                        "token_hash": "ab" * 32,
                        "bot": None,
                        "left": False,
                    },
                    {
                        "table_id": table_id,
                        "seat": 1,
                        "name": "Easy bot",
                        "token_hash": None,
                        "bot": "easy",
                        "left": False,
                    },
                ],
            )
            conn.execute(
                a.insert(),
                [
                    {"table_id": table_id, "seq": 1, "seat": 0, "action": '{"type":"ready"}'},
                    {"table_id": table_id, "seq": 2, "seat": None, "action": '{"type":"idle"}'},
                ],
            )
    engine.dispose()


def differences(engine: sa.Engine, wanted: sa.MetaData) -> list[object]:
    with engine.connect() as conn:
        return list(compare_metadata(MigrationContext.configure(conn), wanted))


def test_a_database_from_before_migrations_is_stamped_upgraded_and_kept_whole(
    database_url: str,
) -> None:
    make_legacy_database(database_url)
    database = Database(database_url)
    try:
        with database.engine.connect() as conn:
            assert schema.current(conn) == schema.head()
            names = set(sa.inspect(conn).get_table_names())
            assert NEW_TABLES | {"tables", "seats", "actions", "alembic_version"} <= names
            live = database.load_live(conn)
            over = database.load(conn, "old2")
        assert [record.id for record in live] == ["old1"]
        for record in (live[0], over):
            assert record is not None
            assert (record.game, record.players, record.seed) == ("espresso", 2, 2**52 - 1)
            assert record.options == {"target": 50} and record.settings == {"bot_speed": 2}
            assert record.name == "Ada's table" and record.created == 1234.5
            assert record.seats == [
                SeatRecord(0, "Ada", "ab" * 32, None, False, None),
                SeatRecord(1, "Easy bot", None, "easy", False, None),
            ]
            assert record.actions == [(0, {"type": "ready"}), (None, {"type": "idle"})]
        assert over is not None and over.status == "over"
        assert differences(database.engine, metadata) == []
    finally:
        database.close()
    # Opening it again changes nothing.
    again = Database(database_url)
    try:
        with again.engine.connect() as conn:
            assert schema.current(conn) == schema.head()
            assert len(again.load_live(conn)) == 1
    finally:
        again.close()


def test_revision_1_is_exactly_the_schema_before_migrations(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        schema.upgrade(engine, schema.BASELINE)
        assert differences(engine, legacy) == []
    finally:
        engine.dispose()


def test_a_new_database_gets_every_revision_and_matches_the_code(database_url: str) -> None:
    database = Database(database_url)
    try:
        assert differences(database.engine, metadata) == []
    finally:
        database.close()


def test_revision_2_downgrades_and_upgrades_again(database_url: str) -> None:
    database = Database(database_url)
    try:
        with database.engine.begin() as conn:
            command.downgrade(schema.alembic_config(conn), schema.BASELINE)
        assert differences(database.engine, legacy) == []
        schema.upgrade(database.engine)
        assert differences(database.engine, metadata) == []
    finally:
        database.close()


def test_the_migrations_ship_inside_the_package() -> None:
    versions = sorted(p.name for p in (schema.MIGRATIONS / "versions").glob("*.py"))
    assert versions == [
        "0001_tables_seats_actions.py",
        "0002_players.py",
        "0003_chat.py",
        "0004_bot_accounts.py",
        "0005_doppio_reserve_rule.py",
        "0006_tr39_skeletons.py",
        "0007_known_devices.py",
        "0008_bot_invitations.py",
        "0009_doppio_repetition_rule.py",
        "0010_learned.py",
        "0011_social.py",
        "0012_vacations.py",
        "0013_tournaments.py",
        "0014_moderation.py",
        "0015_tournament_misses.py",
        "0016_stand_in_actions.py",
    ]
    assert (schema.MIGRATIONS / "env.py").is_file()


def test_revision_5_keeps_older_doppio_tables_under_the_rules_they_were_played_with(
    database_url: str,
) -> None:
    """Doppio's empty-reserve ruling is an option, on by default: the tables stored before
    it get ``reserve_ends: false`` (their logs replay as played); others are left alone."""
    engine = create_engine(database_url)
    tables = metadata.tables["tables"]
    rows = {
        "old": ("doppio", '{"master":false,"first_player":-1}'),
        "named": ("doppio", '{"master":false,"first_player":-1,"reserve_ends":true}'),
        "fika": ("fika", "{}"),
    }
    try:
        schema.upgrade(engine, "0004")
        with engine.begin() as conn:
            for table_id, (game, options) in rows.items():
                conn.execute(
                    tables.insert().values(
                        id=table_id,
                        game=game,
                        players=2,
                        seed=1,
                        options=options,
                        settings="{}",
                        name="",
                        status="running",
                        created=1.0,
                    )
                )

        def options() -> dict[str, str]:
            with engine.connect() as conn:
                return dict(conn.execute(sa.select(tables.c.id, tables.c.options)).all())

        schema.upgrade(engine, "0005")
        after = options()
        assert after["old"] == '{"master":false,"first_player":-1,"reserve_ends":false}'
        assert after["named"] == rows["named"][1] and after["fika"] == "{}"
        with engine.begin() as conn:
            command.downgrade(schema.alembic_config(conn), "0004")
        before = options()
        assert before["old"] == rows["old"][1]
        assert before["named"] == '{"master":false,"first_player":-1}'
    finally:
        engine.dispose()


def test_revision_9_keeps_older_doppio_tables_out_of_the_repetition_ruling(
    database_url: str,
) -> None:
    """Doppio's repetition ruling is an option, on by default: the tables stored before it
    get ``repetition_ends: false`` (their logs replay as played); others are left alone."""
    engine = create_engine(database_url)
    tables = metadata.tables["tables"]
    rows = {
        "old": ("doppio", '{"master":false,"reserve_ends":true}'),
        "named": ("doppio", '{"master":false,"reserve_ends":true,"repetition_ends":true}'),
        "fika": ("fika", "{}"),
    }
    try:
        schema.upgrade(engine, "0008")
        with engine.begin() as conn:
            for table_id, (game, options) in rows.items():
                conn.execute(
                    tables.insert().values(
                        id=table_id,
                        game=game,
                        players=2,
                        seed=1,
                        options=options,
                        settings="{}",
                        name="",
                        status="running",
                        created=1.0,
                    )
                )

        def options() -> dict[str, str]:
            with engine.connect() as conn:
                return dict(conn.execute(sa.select(tables.c.id, tables.c.options)).all())

        schema.upgrade(engine)
        after = options()
        assert after["old"] == '{"master":false,"reserve_ends":true,"repetition_ends":false}'
        assert after["named"] == rows["named"][1] and after["fika"] == "{}"
        with engine.begin() as conn:
            command.downgrade(schema.alembic_config(conn), "0008")
        before = options()
        assert before["old"] == rows["old"][1]
        assert before["named"] == '{"master":false,"reserve_ends":true}'
    finally:
        engine.dispose()


def test_revision_8_lets_only_their_owners_invite_the_bots_made_before_it(
    database_url: str,
) -> None:
    """Bots made before who-may-invite-it existed take the safe default, ``owner``."""
    engine = create_engine(database_url)
    players, bots = metadata.tables["players"], metadata.tables["bot_accounts"]
    try:
        schema.upgrade(engine, "0007")
        with engine.begin() as conn:
            for player_id, kind, name in ((1, "user", "alice"), (2, "bot", "alice/bot-v2")):
                conn.execute(
                    players.insert().values(
                        id=player_id,
                        kind=kind,
                        name=name,
                        name_key=name,
                        skeleton=name,
                        created=1.0,
                    )
                )
            conn.execute(
                sa.text(
                    "INSERT INTO bot_accounts (player_id, owner_id, short_name, description,"
                    " created) VALUES (2, 1, 'bot-v2', '', 1.0)"
                )
            )
        schema.upgrade(engine)
        with engine.connect() as conn:
            assert conn.execute(sa.select(bots.c.invitable_by)).scalar_one() == "owner"
        with engine.begin() as conn:
            command.downgrade(schema.alembic_config(conn), "0007")
        with engine.connect() as conn:
            assert "invitable_by" not in {
                column["name"] for column in sa.inspect(conn).get_columns("bot_accounts")
            }
    finally:
        engine.dispose()
