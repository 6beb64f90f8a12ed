"""Reliability at tables (``store/reliability.py``): each seated account's share of its last
50 started matches finished without leaving or being expelled, beside its seat in the
table list; and a table's minimum (table setting ``min_reliability``, a percent), checked
when someone joins.

A player with no recorded match yet counts as reliable (everyone starts somewhere);
a guest has no record, so a table with a minimum seats only accounts.
"""

from __future__ import annotations

from typing import Any

from coffeetable.server.api import operations
from coffeetable.server.errors import TableError
from coffeetable.store import Store, reliability

#: The table setting: the least reliability (a percent) a joining player needs.
SETTING = "min_reliability"


async def percent_of(store: Store, user_id: int) -> int | None:
    """The account's reliability in percent (None: no match recorded yet)."""
    found = await store.read(lambda conn: reliability.of_players(conn, [user_id]))
    return reliability.percent(*found[user_id]) if user_id in found else None


async def add_to_listing(store: Store, listed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each listed seat with an account gets its ``reliability`` (a percent, or None)."""

    def read(conn: Any) -> tuple[dict[tuple[str, int], int], dict[int, tuple[int, int]]]:
        users = reliability.user_ids_at(conn, [table["table_id"] for table in listed])
        return users, reliability.of_players(conn, users.values())

    users, shares = await store.read(read)
    for table in listed:
        for seat in table["seats"]:
            user = users.get((table["table_id"], seat["seat"]))
            share = shares.get(user) if user is not None else None
            seat["reliability"] = None if share is None else reliability.percent(*share)
    return listed


async def check_join(state: Any, table_id: str, user_id: int | None) -> None:
    """403 when the table asks for more reliability than the joiner has."""
    summary = await operations.run(state, "table.summary", table_id=table_id)
    least = float(summary["settings"].get(SETTING) or 0)
    if least <= 0:
        return
    if user_id is None:
        raise TableError(
            403, f"this table wants players who finish {least:g}% of their games: sign in"
        )
    mine = await percent_of(state.lobby.store, user_id)
    if mine is not None and mine < least:
        raise TableError(
            403,
            f"this table wants players who finish {least:g}% of their games; you finish {mine}%",
        )
