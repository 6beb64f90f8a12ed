"""Seats and tokens.

A person holds a seat through a bearer token: 32 random bytes, URL-safe, shown
once (to the creator or joiner) and stored only as its SHA-256. A bot seat has
no token. A seat whose person left keeps its name with ``left`` set; its token
no longer works.

A person who is away (disconnected longer than the table's ``grace_seconds``,
or out of time on the clock) keeps the seat and the token; a *stand-in* bot
(``Seat.stand_in``) plays for them meanwhile (``server/tables/stand_ins.py``).
"""

from __future__ import annotations

import hmac
import time
from dataclasses import dataclass, field
from typing import Any

from coffeetable.server.players.seat_tokens import hash_token
from coffeetable.server.text import clean_text
from coffeetable.store import SeatRecord

MAX_NAME = 40


def clean_name(name: Any, seat: int) -> str:
    """A display name (``text.clean_text``, at most ``MAX_NAME`` characters), or
    'Player n' if nothing is left. HTML characters are kept: pages escape them."""
    return clean_text(name, MAX_NAME) or f"Player {seat + 1}"


@dataclass
class Seat:
    """One seat of a live table: the stored record plus who is connected now."""

    index: int
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None
    left: bool = False
    #: Open WebSocket connections holding this seat's token.
    connections: int = 0
    #: time.monotonic() since which nobody holds the seat (joined, or last disconnect).
    absent_since: float = field(default_factory=time.monotonic)
    #: The account (``players.id``) of the person who sat here; None for a guest. Kept
    #: when they leave or a bot takes over: the match's result is still theirs.
    user_id: int | None = None
    #: The bot level playing for this seat's absent person (None: nobody stands in).
    #: Saved in the table's settings, not in the seat's record (``stand_ins.py``).
    stand_in: str | None = None
    #: The owner's name when a bot account (a program) holds the seat by its API key
    #: (``players/bot_seats.py``); kept in the table's settings, not in the record.
    program: str | None = None
    #: The username this open seat is held for (an invitation by name,
    #: ``seating.hold``); kept in the table's settings, not in the record.
    invited: str | None = None

    @property
    def is_open(self) -> bool:
        """Nobody sits here yet: a person may join or a bot be seated."""
        return self.name is None and self.bot is None

    @property
    def is_person(self) -> bool:
        """A person holds the seat (a token works for it)."""
        return self.token_hash is not None

    @property
    def bot_level(self) -> str | None:
        """The bot that plays this seat now: its own bot, or a stand-in for its person."""
        return self.bot or self.stand_in

    def matches(self, token: str) -> bool:
        return self.token_hash is not None and hmac.compare_digest(
            self.token_hash, hash_token(token)
        )

    def away_for(self) -> float:
        """Seconds since anyone held this seat over a connection (0 while connected)."""
        return 0.0 if self.connections else time.monotonic() - self.absent_since

    def record(self) -> SeatRecord:
        return SeatRecord(self.index, self.name, self.token_hash, self.bot, self.left, self.user_id)

    @classmethod
    def from_record(cls, record: SeatRecord) -> Seat:
        return cls(
            record.seat,
            record.name,
            record.token_hash,
            record.bot,
            record.left,
            user_id=record.user_id,
        )

    def summary(self) -> dict[str, Any]:
        return {
            "seat": self.index,
            "name": self.name,
            "bot": self.bot,
            "stand_in": self.stand_in,
            "connected": self.bot is not None or self.connections > 0,
            "left": self.left,
            "open": self.is_open,
            "account": self.user_id is not None,
            # A program (bot account) holds the seat, and whose it is: pages mark it a bot.
            "program": self.program is not None,
            "owner": self.program,
            # Held for this invited player until they join or decline (null: anyone's).
            "invited": self.invited if self.is_open else None,
        }
