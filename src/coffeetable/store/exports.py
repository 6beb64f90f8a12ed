"""The open database of finished matches: one JSON object a match, a line each.

As lichess publishes its games, the site publishes its finished matches (``coffeetable
export``, ``GET /api/exports/{game}/{month}``). A line (``FORMAT`` = "coffeetable-match/1";
docs/exports.md describes every field)::

    {"format": "coffeetable-match/1", "match_id": 7, "game": "fika", "players": 2,
     "options": {}, "seed": 42, "finished": 1796129041.9, "rated": true, "group": "2",
     "seats": [{"seat": 0, "name": "alice", "bot": null, "rating": {"mu": 25.0,
       "sigma": 8.3}, "score": 21, "rank": 1, "left": false}, ...],
     "actions": [[0, {"type": "colour", "colour": "pink"}], ...],
     "scores": [21, 14], "winners": [0]}

It is a match log (``engine.MatchLog``'s keys: game, players, seed, options, actions) and
more, so ``coffeetable.engine.replay_log(line)`` rebuilds the match; the scores are the
recorded ones. Only matches that ended by the rules (status ``over``) are exported, not
abandoned ones. ``anonymous=True`` replaces every name by a pseudonym, the same for one
identity over a whole export (``pseudonym``): ``player-`` and 12 hex digits of an HMAC of
the identity under a key (a random one per export unless given, so two exports cannot
be joined unless the site chooses so); built-in bot levels keep their level name.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from coffeetable.store.db import actions, tables
from coffeetable.store.matches import list_matches_between

#: The format's name and version, in every line.
FORMAT = "coffeetable-match/1"


def pseudonym(key: bytes, identity: str) -> str:
    """A stable stand-in for ``identity`` under ``key`` (no way back without the key)."""
    digest = hmac.new(key, identity.encode("utf-8"), hashlib.sha256).hexdigest()
    return f"player-{digest[:12]}"


def export_lines(
    conn: Connection,
    game: str,
    since: float,
    until: float | None = None,
    *,
    anonymous: bool = False,
    key: bytes | None = None,
    limit: int | None = None,
) -> Iterator[str]:
    """The JSON lines (without newline) of ``game``'s matches finished in ``[since, until)``,
    oldest first; at most ``limit`` (None: all)."""
    key = key or secrets.token_bytes(32)
    for match in list_matches_between(conn, game, since, until, limit=limit):
        table = conn.execute(
            sa.select(tables.c.seed, tables.c.options).where(tables.c.id == match.table_id)
        ).first()
        if table is None:  # a match without its table: nothing to replay
            continue
        rows = conn.execute(
            sa.select(actions.c.seat, actions.c.action)
            .where(actions.c.table_id == match.table_id)
            .order_by(actions.c.seq)
        ).all()
        seats = []
        for p in match.participants:
            builtin_bot = p.player_is_bot and p.bot is not None and p.player == p.bot
            name = p.player or p.name
            if anonymous and not builtin_bot:
                identity = f"id:{p.player_id}" if p.player_id is not None else f"guest:{p.name}"
                name = pseudonym(key, identity)
            rating = (
                None
                if p.mu_before is None
                else {"mu": round(p.mu_before, 4), "sigma": round(p.sigma_before or 0.0, 4)}
            )
            seats.append(
                {
                    "seat": p.seat,
                    "name": name,
                    "bot": p.bot,
                    "rating": rating,
                    "score": p.score,
                    "rank": p.rank,
                    "left": p.left,
                }
            )
        line: dict[str, Any] = {
            "format": FORMAT,
            "match_id": match.id,
            "game": match.game,
            "players": match.players,
            "options": json.loads(table.options),
            "seed": table.seed,
            "finished": match.finished,
            "rated": match.rated,
            "group": match.group,
            "seats": seats,
            "actions": [[row.seat, json.loads(row.action)] for row in rows],
            "scores": [p.score for p in match.participants],
            "winners": [p.seat for p in match.participants if p.rank == 1],
        }
        yield json.dumps(line, separators=(",", ":"), ensure_ascii=False)
