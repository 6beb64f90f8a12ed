"""The shapes of what the site answers, for its documents: the table summary (HTTP and
the socket's ``table`` message), the table list and the replay.

These models document; the routes still return their dicts. Each forbids keys it does
not name, so the tests that check real answers against the OpenAPI (schemathesis)
and real socket messages against the protocol (``protocol.py``) fail as soon as the
code sends something the documents do not say.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

_SEAT_EXAMPLE: dict[str, Any] = {
    "seat": 0,
    "name": "alice/bot-v2",
    "bot": None,
    "stand_in": None,
    "connected": True,
    "left": False,
    "open": False,
    "account": True,
    "program": True,
    "owner": "alice",
    "invited": None,
}
_GREEDY_EXAMPLE = {
    **_SEAT_EXAMPLE,
    "seat": 1,
    "name": "Greedy bot",
    "bot": "greedy",
    "account": False,
    "program": False,
    "owner": None,
}
TABLE_EXAMPLE: dict[str, Any] = {
    "table_id": "YHVKbgxc",
    "name": "alice/bot-v2's table",
    "owner": "alice/bot-v2",
    "game": "fika",
    "title": "Fika",
    "players": 2,
    "options": {},
    "settings": {"bot_speed": 1.0, "clock_minutes": 0.0, "grace_seconds": 60.0, "rated": True},
    "status": "running",
    "seq": 1,
    "seats": [_SEAT_EXAMPLE, _GREEDY_EXAMPLE],
    "spectators": 0,
    "created": 1796129041.95,
    "clock": None,
    "days": None,
    "rated": True,
}


REPLAY_EXAMPLE: dict[str, Any] = {
    "table": TABLE_EXAMPLE,
    "frames": 61,
    "rounds": [0, 31],
    "window": [
        {
            "frame": 0,
            "seat": None,
            "action": None,
            "events": [],
            "round": 1,
            "view": {"game": "fika", "seat": None, "phase": "colours"},
        }
    ],
}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatSummary(_Strict):
    """One seat as everyone may see it."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [_SEAT_EXAMPLE]})

    seat: int = Field(ge=0, description="its index, from 0")
    name: str | None = Field(description="who sits there (null: open)")
    bot: str | None = Field(description="the site bot's level that holds the seat")
    stand_in: str | None = Field(description="the bot playing for its absent person")
    connected: bool
    left: bool = Field(description="its person left the match")
    open: bool = Field(description="nobody sits here yet")
    account: bool = Field(description="a signed-in player (or a bot account) sat here")
    program: bool = Field(description="a bot account (a program) holds the seat")
    owner: str | None = Field(description="the program's owner")
    invited: str | None = Field(
        None, description="an open seat held for this invited player (null: anyone's)"
    )
    reliability: int | None = Field(
        None,
        description="in the table list: the seated account's share (percent) of its last 50"
        " started matches finished without leaving or being expelled (null: none yet)",
    )


class Clock(_Strict):
    """The thinking time of a turn-based table with ``clock_minutes``."""

    left: list[float] = Field(description="seconds left, per seat")
    running: int | None = Field(description="whose clock runs (null: none)")


class Days(_Strict):
    """The clocks of a table with ``days_per_move`` (``tables/turn_days.py``)."""

    per_move: float = Field(description="seconds for each move")
    left: list[float | None] = Field(
        description="per seat: seconds left for its move, reserve included (null: not its move)"
    )
    reserve: list[float] = Field(description="per seat: seconds of reserve left")
    expired: list[bool] = Field(description="per seat: its time ran out (others may expel it)")


class TableSummary(_Strict):
    """A table's public summary (``GET /api/tables/{id}``, the socket's ``table``)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [TABLE_EXAMPLE]})

    table_id: str
    name: str
    owner: str | None = Field(description="the first seat's person (null: bots only)")
    game: str
    title: str
    players: int = Field(ge=1)
    options: dict[str, Any] = Field(description="the game's options (GET /api/games)")
    settings: dict[str, Any] = Field(
        description="table settings (bot_speed, grace_seconds, clock_minutes or min_reaction,"
        " ...) and marks (rated, programs, stand-ins)"
    )
    status: Literal["open", "running", "over", "abandoned"]
    seq: int = Field(ge=0, description="accepted actions so far")
    seats: list[SeatSummary]
    spectators: int = Field(ge=0)
    created: float = Field(description="seconds since the epoch")
    clock: Clock | None
    days: Days | None = Field(description="days per move (null: a live table)")
    rated: bool


class ReplayFrame(_Strict):
    """The table after one action (frame 0: the deal), as one seat saw it."""

    frame: int = Field(ge=0)
    seat: int | None = Field(description="who acted (null: the deal, or the table itself)")
    action: dict[str, Any] | None
    events: list[dict[str, Any]] = Field(description="the public events of the action")
    round: int
    view: dict[str, Any] = Field(description="the game's view for the chosen seat")


class Replay(_Strict):
    """A window of a finished match's frames."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [REPLAY_EXAMPLE]})

    table: TableSummary = Field(description="the table, as its summary says now")
    frames: int = Field(ge=1, description="how many frames the match has (actions + 1)")
    rounds: list[int] = Field(description="the frame where each round starts")
    window: list[ReplayFrame]
