"""The open database of matches, a month at a time: ``GET /api/exports/{game}/{month}``.

One finished match a line (``store.exports``; the format in docs/exports.md), as
``coffeetable export`` writes it, for the matches of ``game`` that ended in ``month``
(UTC). Limits (``Limits``, docs/security.md): a month of more than
``export_max_matches`` matches is refused (413: the server's operator exports it with
the command), and ``export_anonymous`` = 1 replaces every account's name by a
pseudonym.
"""

from __future__ import annotations

import calendar
import re
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, HTTPException, Request, Response

from coffeetable import games
from coffeetable.server.limits import Limits
from coffeetable.server.players.auth_api import players_service
from coffeetable.store import exports
from coffeetable.store.matches import matches

router = APIRouter(prefix="/api")

#: A month as the path names it: YYYY-MM.
MONTH = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")
MEDIA_TYPE = "application/x-ndjson"

#: One line's schema (the OpenAPI document shows it; docs/exports.md has the words).
LINE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["format", "game", "players", "options", "seed", "seats", "actions", "scores"],
    "properties": {
        "format": {"const": exports.FORMAT},
        "match_id": {"type": "integer"},
        "game": {"type": "string"},
        "players": {"type": "integer", "minimum": 1},
        "options": {"type": "object"},
        "seed": {"type": "integer"},
        "finished": {"type": "number", "description": "Unix time"},
        "rated": {"type": "boolean"},
        "group": {"type": "string"},
        "seats": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["seat", "name", "score", "rank"],
                "properties": {
                    "seat": {"type": "integer"},
                    "name": {"type": "string"},
                    "bot": {"type": ["string", "null"]},
                    "rating": {
                        "type": ["object", "null"],
                        "properties": {"mu": {"type": "number"}, "sigma": {"type": "number"}},
                    },
                    "score": {"type": "integer"},
                    "rank": {"type": "integer"},
                    "left": {"type": "boolean"},
                },
            },
        },
        "actions": {
            "type": "array",
            "items": {
                "type": "array",
                "prefixItems": [{"type": ["integer", "null"]}, {"type": "object"}],
            },
        },
        "scores": {"type": "array", "items": {"type": "integer"}},
        "winners": {"type": "array", "items": {"type": "integer"}},
    },
}
LINE_EXAMPLE = (
    '{"format":"coffeetable-match/1","match_id":7,"game":"fika","players":2,"options":{},'
    '"seed":42,"finished":1796129041.9,"rated":true,"group":"2","seats":[{"seat":0,'
    '"name":"alice","bot":null,"rating":{"mu":25.0,"sigma":8.3333},"score":21,"rank":1,'
    '"left":false},{"seat":1,"name":"greedy","bot":"greedy","rating":{"mu":27.1,'
    '"sigma":2.1},"score":14,"rank":2,"left":false}],"actions":[[0,{"type":"colour",'
    '"colour":"pink"}]],"scores":[21,14],"winners":[0]}\n'
)


def month_span(month: str) -> tuple[float, float]:
    """``YYYY-MM`` -> its first second and the next month's (Unix time, UTC)."""
    found = MONTH.match(month)
    if found is None:
        raise HTTPException(422, f"a month is YYYY-MM (2026-12), not {month[:20]!r}")
    year, number = int(found[1]), int(found[2])
    start = calendar.timegm((year, number, 1, 0, 0, 0))
    end = calendar.timegm((year + number // 12, number % 12 + 1, 1, 0, 0, 0))
    return float(start), float(end)


@router.get(
    "/exports/{game}/{month}",
    summary="a month of a game's finished matches, one JSON object a line (docs/exports.md)",
    response_class=Response,
    responses={
        200: {
            "description": "the matches, oldest first, one a line (JSON lines)",
            "content": {MEDIA_TYPE: {"schema": LINE_SCHEMA, "example": LINE_EXAMPLE}},
        },
        404: {"description": "no such game"},
        413: {"description": "more matches that month than export_max_matches"},
        422: {"description": "not a month (YYYY-MM)"},
    },
)
async def export_month(game: str, month: str, request: Request) -> Response:
    if game not in games.names():
        raise HTTPException(404, f"no game {game[:40]!r}; the games are {', '.join(games.names())}")
    since, until = month_span(month)
    limits: Limits = request.app.state.limits
    most = limits.export_max_matches

    def read(conn: Any) -> list[str]:
        count = conn.execute(
            sa.select(sa.func.count())
            .select_from(matches)
            .where(
                matches.c.game == game,
                matches.c.status == "over",
                matches.c.finished >= since,
                matches.c.finished < until,
            )
        ).scalar_one()
        if count > most:
            raise HTTPException(
                413,
                f"{count} {game} matches ended in {month}, more than export_max_matches "
                f"({most}) a download; the site's operator exports them with "
                "`coffeetable export`",
            )
        anonymous = bool(limits.export_anonymous)
        return list(exports.export_lines(conn, game, since, until, anonymous=anonymous))

    lines = await players_service(request).store.read(read)
    body = "".join(line + "\n" for line in lines)
    filename = f"{game}-{month}.jsonl"
    return Response(
        body,
        media_type=MEDIA_TYPE,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
