"""Look-alike skeletons computed with Unicode TR39's whole confusables table.

``players.skeleton`` was the lower-cased name with a few ASCII look-alikes folded
(``0``/``o``, ``1``/``i``/``l``, ``rn``/``m``, ``vv``/``w``); it is now TR39's
skeleton (``server/players/usernames.py``), which also finds ``clave`` in ``dave``.
This data migration writes the new skeleton of every account and bot account (bot
levels keep theirs: their name is their skeleton). Two accounts made before it that
the new skeleton finds alike both stay: the older keeps the skeleton (and so blocks
new look-alikes), the newer gets one of its own, ``<skeleton>~<id>``.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

from coffeetable.server.players import usernames

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_PLAYERS = sa.table(
    "players",
    sa.column("id", sa.Integer),
    sa.column("kind", sa.String),
    sa.column("name", sa.String),
    sa.column("skeleton", sa.String),
)
_BOTS = sa.table("bot_accounts", sa.column("player_id", sa.Integer))

#: A skeleton of names and bots' names: the new one, or (downgrade) the one before.
Shape = Callable[[str], str]


def _old_skeleton(name: str) -> str:
    """The skeleton before this revision, kept here for the downgrade."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = text.translate(str.maketrans("01i|", "olll"))
    text = re.sub(r"[_.\-]", "", text)
    for sequence, letter in (("rn", "m"), ("vv", "w")):
        text = text.replace(sequence, letter)
    return text


def _fit(shape: str) -> str:
    if len(shape) <= usernames.MAX_SKELETON:
        return shape
    return "#" + hashlib.sha256(shape.encode("utf-8")).hexdigest()[: usernames.MAX_SKELETON - 1]


def _rewrite(connection: sa.Connection, shape: Shape) -> None:
    bot_accounts = set(connection.execute(sa.select(_BOTS.c.player_id)).scalars())
    rows = connection.execute(
        sa.select(_PLAYERS.c.id, _PLAYERS.c.kind, _PLAYERS.c.name, _PLAYERS.c.skeleton).order_by(
            _PLAYERS.c.id
        )
    ).all()
    # Bot levels (kind bot, not a bot account) keep their skeleton: their name.
    taken = {row.skeleton for row in rows if row.kind == "bot" and row.id not in bot_accounts}
    wanted: dict[int, str] = {}
    for row in rows:
        if row.kind == "bot" and row.id not in bot_accounts:
            continue
        owner, slash, short = row.name.partition("/")
        new = _fit(f"{shape(owner)}/{shape(short)}") if slash else shape(row.name)
        if new in taken:
            new = _fit(f"{new}~{row.id}")
        taken.add(new)
        if new != row.skeleton:
            wanted[row.id] = new
    # Two passes, so that no statement meets the unique skeleton of a row not yet written.
    for final in (False, True):
        for player_id, new in wanted.items():
            value = new if final else f"~{player_id}"
            connection.execute(
                _PLAYERS.update().where(_PLAYERS.c.id == player_id).values(skeleton=value)
            )


def upgrade() -> None:
    _rewrite(op.get_bind(), usernames.skeleton)


def downgrade() -> None:
    _rewrite(op.get_bind(), _old_skeleton)
