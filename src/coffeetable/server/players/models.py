"""Request and response bodies of the players API (they make its OpenAPI schema)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class SeatClaim(BaseModel):
    """A seat held as a guest, to keep when signing up or in."""

    table_id: str = Field(max_length=32)
    token: str = Field(max_length=100, description="the seat's token, as the table gave it")


class Credentials(BaseModel):
    """A username and password, and guest seats to carry over."""

    username: str = Field(
        max_length=200,
        description="3-20 characters: letters a-z, digits, _ - . (case-insensitive)",
    )
    password: str = Field(max_length=1000, description="8-128 characters")
    claim: list[SeatClaim] = Field(
        default_factory=list,
        max_length=20,
        description="seats this browser holds as a guest: they become the account's",
    )


class ClaimedSeat(BaseModel):
    table_id: str
    seat: int


class SignedIn(BaseModel):
    username: str
    claimed: list[ClaimedSeat] = Field(description="the seats that are now the account's")


class SignedOut(BaseModel):
    signed_out: bool = True


class Revoked(BaseModel):
    revoked: int = Field(description="how many sessions ended")


class SessionOut(BaseModel):
    id: str = Field(description="for DELETE /api/auth/sessions/{id}")
    created: float
    last_seen: float
    user_agent: str
    current: bool = Field(description="the session of this request")


class MyTable(BaseModel):
    table_id: str
    game: str
    title: str
    name: str
    status: str
    players: int
    seat: int
    socket: str = Field(
        description="the table's WebSocket path: the session cookie plays this seat there"
    )


class Me(BaseModel):
    username: str
    joined: float
    tables: list[MyTable] = Field(description="my seats at open and running tables")
    moderator: bool = Field(False, description="I may read reports and act on them")


class RatingOut(BaseModel):
    game: str
    group: str = Field(description='player-count group: "2", "3-4", "5-6" or "all"')
    rating: int = Field(description="1500 + 29.5 * (mu - 25): a new player shows 1500")
    provisional: bool = Field(description="fewer than 10 rated games")
    mu: float
    sigma: float
    games: int
    wins: int
    history: list[int] = Field(description="the rating after each of the last 50 rated games")


class GameCount(BaseModel):
    game: str
    played: int = Field(description="multi-player matches, rated or not")
    won: int = Field(description="matches won, shared wins included")


class SoloBest(BaseModel):
    game: str
    played: int
    best: int
    rank: str | None = Field(description="the game's solo ranking for the best score")
    match_id: int


class Participant(BaseModel):
    seat: int
    name: str = Field(description="the name at the table")
    player: str | None = Field(description="the player's profile name (null: a guest)")
    bot: bool
    level: str | None = Field(
        default=None,
        description="a site bot's level (beginner, casual...): the site names the seat as at "
        "the table, 'Bot 2 (casual)'; null for people and bot accounts",
    )
    score: int
    rank: int = Field(description="1 = best; shared on ties; leavers last")
    left: bool
    solo_rank: str | None = None
    rating_before: int | None = None
    rating_after: int | None = None


class MatchLinks(BaseModel):
    table: str
    log: str = Field(description="the replay log")


class MatchOut(BaseModel):
    match_id: int
    table_id: str
    game: str
    players: int
    group: str
    rated: bool
    status: str = Field(description="over, or abandoned (every person left)")
    finished: float
    participants: list[Participant]
    links: MatchLinks


class RecentMatch(MatchOut):
    place: int = Field(description="the profile's player's rank in it")
    result: str = Field(description="won, shared, lost, left, or solo")


class Reliability(BaseModel):
    finished: int = Field(description="matches finished without leaving or being expelled")
    started: int = Field(description="of the player's last 50 recorded matches")
    percent: int


class Profile(BaseModel):
    name: str
    bot: bool
    joined: float
    reliability: Reliability | None = Field(description="null: no recorded match yet")
    ratings: list[RatingOut]
    games: list[GameCount]
    solo: list[SoloBest]
    recent: list[RecentMatch]
    learned: list[str] = Field(default=[], description="games whose tutorial they finished")


class BoardEntry(BaseModel):
    place: int
    name: str
    bot: bool
    rating: int
    provisional: bool
    games: int
    wins: int


class Leaderboard(BaseModel):
    game: str
    group: str
    groups: list[str]
    entries: list[BoardEntry] = Field(description="established players first, then provisional")
    me: BoardEntry | None = Field(description="my own line, when signed in and rated here")


class MatchPage(BaseModel):
    matches: list[MatchOut]
    next: str | None = Field(description="pass as ?before= for the next page (null: the end)")
