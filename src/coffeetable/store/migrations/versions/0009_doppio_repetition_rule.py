"""Doppio tables made before the repetition ruling keep the rules they were played under.

The ruling (games/doppio/RULES.md) ends a two-player match when the same whole position
begins a turn a third time; the game's ``repetition_ends`` option turns it on, by default.
A table stored before it has no such option, so its log would now replay under the
ruling, and a log that went on after a third repetition would no longer replay at all.
This data migration writes ``"repetition_ends": false`` into those tables' options, as
0005 did for ``reserve_ends``. A table that names the option already is left as it is.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

OPTION = "repetition_ends"
_TABLES = sa.table(
    "tables",
    sa.column("id", sa.String),
    sa.column("game", sa.String),
    sa.column("options", sa.Text),
)


def _doppio_options(connection: sa.Connection) -> list[tuple[str, dict[str, object]]]:
    rows = connection.execute(
        sa.select(_TABLES.c.id, _TABLES.c.options).where(_TABLES.c.game == "doppio")
    ).all()
    return [(table_id, json.loads(options)) for table_id, options in rows]


def _write(connection: sa.Connection, table_id: str, options: dict[str, object]) -> None:
    text = json.dumps(options, separators=(",", ":"))  # as store.db writes it
    connection.execute(_TABLES.update().where(_TABLES.c.id == table_id).values(options=text))


def upgrade() -> None:
    connection = op.get_bind()
    for table_id, options in _doppio_options(connection):
        if OPTION not in options:
            _write(connection, table_id, {**options, OPTION: False})


def downgrade() -> None:
    # The code before this revision knows no such option and refuses unknown ones.
    connection = op.get_bind()
    for table_id, options in _doppio_options(connection):
        if options.pop(OPTION, None) is not None:
            _write(connection, table_id, options)
