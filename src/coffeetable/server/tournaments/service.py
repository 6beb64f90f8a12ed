"""Tournaments as the API meets them: create, enter, withdraw, start, read.

Rules (the routes' documentation says the same):

- Only a signed-in account (a person, or a bot account by its API key) creates a
  tournament, and has at most ``Limits.tournaments_per_owner`` upcoming or running.
- ``format``: ``swiss`` (``rounds``), ``round_robin`` (every entrant meets every
  other), ``arena`` (``minutes``: pairing again whoever is free until the time is up).
  ``players``: seats per table, within the game's counts (two or more).
- ``starts``: ``when_full`` (when ``max_entrants`` have entered) or an ISO 8601 time
  (without a zone: UTC); the owner may start it sooner (``start``), with two entrants
  or more. ``max_entrants`` is at most ``Limits.tournament_max_entrants``.
- ``settings``: the table settings and game options every table gets (as a new
  table's ``options``: ``clock_minutes``, ``bot_speed``, ...), checked now.
- Entering: a signed-in account enters itself; the owner may also enter the site's
  bots by level (``{"bot": "strong"}``: each such entry is its own entrant). Entries
  close when it starts (an arena takes them while it runs); the field is full at
  ``max_entrants``. Withdrawing before the start removes the entry; after, the
  entrant is paired no more (a table dealt already plays on, a stand-in for them).
"""

from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime
from typing import Any

from coffeetable import bots, games
from coffeetable.engine import Game
from coffeetable.server.errors import TableError
from coffeetable.server.limits import Limits
from coffeetable.server.lobby.table_settings import split_options
from coffeetable.store import Store
from coffeetable.store import tournaments as db

FORMATS = ("swiss", "round_robin", "arena")
#: Bounds of a Swiss's rounds and an arena's minutes.
MAX_ROUNDS = 20
MAX_MINUTES = 24 * 60


def _game(name: str) -> Game:
    try:
        return games.get(name)
    except KeyError:
        raise TableError(
            400, f"no game {name!r}; the games are {', '.join(games.names())}"
        ) from None


def _starts_at(starts: str) -> float | None:
    if starts == "when_full":
        return None
    try:
        when = datetime.fromisoformat(starts)
    except ValueError:
        raise TableError(400, "starts is 'when_full' or an ISO 8601 time") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()


def _check_shape(game: Game, given: dict[str, Any], limits: Limits) -> None:
    """Refuse a format, table size, rounds, minutes or field the game or limits do not allow."""
    form = given["format"]
    if form not in FORMATS:
        raise TableError(400, f"format is one of {', '.join(FORMATS)}")
    seats = given["players"]
    if seats < 2 or not game.min_players <= seats <= game.max_players:
        fewest = max(2, game.min_players)
        raise TableError(400, f"{game.title} tables seat {fewest} to {game.max_players}")
    if form == "swiss" and not 1 <= (given.get("rounds") or 0) <= MAX_ROUNDS:
        raise TableError(400, f"a Swiss needs rounds, 1 to {MAX_ROUNDS}")
    if form == "arena" and not 1 <= (given.get("minutes") or 0) <= MAX_MINUTES:
        raise TableError(400, f"an arena needs minutes, 1 to {MAX_MINUTES}")
    most = limits.tournament_max_entrants
    if not 2 <= given["max_entrants"] <= most:
        raise TableError(400, f"max_entrants is 2 to {most}")


class Tournaments:
    """The tournaments' requests (the runner, ``runner.py``, plays them)."""

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self.limits = limits

    async def create(self, owner_id: int, owner_name: str, given: dict[str, Any]) -> str:
        game = _game(given["game"])
        _check_shape(game, given, self.limits)
        settings = dict(given.get("settings") or {})
        try:
            split_options(game, settings)
        except ValueError as error:
            raise TableError(400, f"settings: {error}") from None
        if settings.get("bot_speed", 1) > self.limits.max_bot_speed:
            raise TableError(400, f"bot_speed is at most {self.limits.max_bot_speed:g}")
        row = db.TournamentRow(
            id=secrets.token_urlsafe(6),
            owner_id=owner_id,
            name=(given.get("name") or f"{owner_name}'s {game.title} tournament")[:80],
            game=game.name,
            format=given["format"],
            players=given["players"],
            rounds=given.get("rounds") if given["format"] == "swiss" else None,
            minutes=given.get("minutes") if given["format"] == "arena" else None,
            starts_at=_starts_at(given.get("starts", "when_full")),
            max_entrants=given["max_entrants"],
            rated=bool(given.get("rated", False)),
            settings=settings,
            status=db.UPCOMING,
            created=time.time(),
        )
        most = self.limits.tournaments_per_owner

        def write(conn: Any) -> TableError | None:
            if db.live_owned(conn, owner_id) >= most:
                return TableError(409, f"you already have {most} tournaments upcoming or running")
            db.insert(conn, row)
            return None

        _raise(await self.store.write(write))
        return row.id

    async def _row(self, tournament_id: str) -> db.TournamentRow:
        row = await self.store.read(lambda conn: db.load(conn, tournament_id))
        if row is None:
            raise TableError(404, f"no tournament {tournament_id!r}")
        return row

    async def enter(
        self, tournament_id: str, user_id: int, name: str, bot: str | None = None
    ) -> dict[str, Any]:
        """Enter the account, or (the owner) a site bot of level ``bot``; the entry."""
        row = await self._row(tournament_id)
        open_now = row.status == db.UPCOMING or (row.status == db.RUNNING and row.format == "arena")
        if not open_now:
            raise TableError(409, f"the tournament is {row.status}: entries are closed")
        if bot is not None:
            if user_id != row.owner_id:
                raise TableError(403, "only the tournament's owner enters the site's bots")
            levels = bots.available(row.game)
            if bot not in levels:
                raise TableError(400, f"no bot {bot!r} for {row.game}; choose from {levels}")

        statuses = [db.UPCOMING, db.RUNNING] if row.format == "arena" else [db.UPCOMING]

        def write(conn: Any) -> db.EntryRow | TableError:
            if db.hold(conn, tournament_id, statuses) is None:  # it started meanwhile
                return TableError(409, "the tournament has started: entries are closed")
            entries = db.entries_of(conn, tournament_id)
            active = [entry for entry in entries if entry.withdrawn is None]
            if len(active) >= row.max_entrants:
                return TableError(409, f"the tournament is full ({row.max_entrants} entrants)")
            if bot is not None:
                number = 1 + sum(1 for entry in entries if entry.bot == bot)
                label = f"{bot.capitalize()} bot {number}"
                entry = db.EntryRow(f"{bot}-{number}", None, bot, label, time.time(), None)
                db.add_entry(conn, tournament_id, entry)
                return entry
            entrant = f"u{user_id}"
            mine = next((entry for entry in entries if entry.entrant == entrant), None)
            if mine is not None and mine.withdrawn is None:
                return TableError(409, "you have entered already")
            if mine is not None:
                db.set_withdrawn(conn, tournament_id, entrant, None)
                return db.EntryRow(entrant, user_id, None, mine.name, mine.entered, None)
            entry = db.EntryRow(entrant, user_id, None, name[:80], time.time(), None)
            db.add_entry(conn, tournament_id, entry)
            return entry

        entry = await self.store.write(write)
        _raise(entry)
        assert isinstance(entry, db.EntryRow)
        return {"entrant": entry.entrant, "name": entry.name}

    async def withdraw(self, tournament_id: str, user_id: int, entrant: str | None) -> str:
        """Withdraw the account, or (the owner) the entrant ``entrant``; its id."""
        row = await self._row(tournament_id)
        wanted = entrant or f"u{user_id}"
        if wanted != f"u{user_id}" and user_id != row.owner_id:
            raise TableError(403, "only the tournament's owner withdraws another entrant")
        if row.status not in db.LIVE:
            raise TableError(409, f"the tournament is {row.status}")

        def write(conn: Any) -> TableError | None:
            status = db.hold(conn, tournament_id, db.LIVE)
            if status is None:  # it ended meanwhile
                return TableError(409, "the tournament is over")
            found = [e for e in db.entries_of(conn, tournament_id) if e.entrant == wanted]
            if not found or found[0].withdrawn is not None:
                return TableError(404, f"no entrant {wanted!r} in this tournament")
            if status == db.UPCOMING:
                db.remove_entry(conn, tournament_id, wanted)
            else:
                db.set_withdrawn(conn, tournament_id, wanted, time.time())
            return None

        _raise(await self.store.write(write))
        return wanted

    async def start(self, tournament_id: str, user_id: int) -> None:
        """The owner starts it now: its start time becomes now (whichever process runs
        it starts it); refused if not the owner's or not possible now."""
        row = await self._row(tournament_id)
        if user_id != row.owner_id:
            raise TableError(403, "only the tournament's owner starts it")
        if row.status != db.UPCOMING:
            raise TableError(409, f"the tournament is {row.status}")
        entries = await self.store.read(lambda conn: db.entries_of(conn, tournament_id))
        if sum(1 for entry in entries if entry.withdrawn is None) < 2:
            raise TableError(409, "a tournament needs two entrants or more to start")
        now = time.time()

        def write(conn: Any) -> None:
            conn.execute(
                db.tournaments.update()
                .where(db.tournaments.c.id == tournament_id, db.tournaments.c.status == db.UPCOMING)
                .values(starts_at=now)
            )

        await self.store.write(write)

    async def listing(self) -> dict[str, list[dict[str, Any]]]:
        """Upcoming, running and (the latest) finished tournaments."""

        def read(conn: Any) -> dict[str, list[dict[str, Any]]]:
            out: dict[str, list[dict[str, Any]]] = {}
            for status in (db.UPCOMING, db.RUNNING, db.FINISHED):
                rows = db.listing(conn, [status], limit=50)
                out[status] = [
                    {**summary(row), "entrants": len(_active(conn, row.id))} for row in rows
                ]
            return out

        return await self.store.read(read)

    async def view(self, tournament_id: str) -> dict[str, Any]:
        """A tournament: entrants, rounds with each table's id and result, standings."""
        row = await self._row(tournament_id)

        def read(conn: Any) -> tuple[list[db.EntryRow], list[db.PairingRow]]:
            return db.entries_of(conn, tournament_id), db.pairings_of(conn, tournament_id)

        entries, pairings = await self.store.read(read)
        names = {entry.entrant: entry.name for entry in entries}
        rounds: dict[int, list[dict[str, Any]]] = {}
        for pairing in pairings:
            points = pairing.table().points()
            rounds.setdefault(pairing.round, []).append(
                {
                    "board": pairing.board,
                    "entrants": list(pairing.entrants),
                    "names": [names.get(entrant, entrant) for entrant in pairing.entrants],
                    "table_id": pairing.table_id,
                    "bye": len(pairing.entrants) == 1,
                    "ranks": None if pairing.ranks is None else list(pairing.ranks),
                    "points": None
                    if not points
                    else [round(float(points[entrant]), 4) for entrant in pairing.entrants],
                }
            )
        return {
            **summary(row),
            "entrants": [
                {
                    "entrant": entry.entrant,
                    "name": entry.name,
                    "bot": entry.bot,
                    "withdrawn": entry.withdrawn is not None,
                    "missed": entry.missed,
                }
                for entry in entries
            ],
            "rounds": [{"round": number, "tables": rounds[number]} for number in sorted(rounds)],
            "standings": [
                {**line, "name": names.get(line["entrant"], line["entrant"])}
                for line in row.standings
            ],
            "tie_breaks": ["buchholz", "sonneborn_berger"]
            if row.players == 2
            else ["opponents", "rank_sum"],
        }


def _raise(outcome: object) -> None:
    """A write's refusal (returned, not raised: a raised one is logged as a failed write)."""
    if isinstance(outcome, TableError):
        raise outcome


def _active(conn: Any, tournament_id: str) -> list[db.EntryRow]:
    return [entry for entry in db.entries_of(conn, tournament_id) if entry.withdrawn is None]


def _iso(stamp: float | None) -> str | None:
    return None if stamp is None else datetime.fromtimestamp(stamp, UTC).isoformat()


def summary(row: db.TournamentRow) -> dict[str, Any]:
    """A tournament's public facts."""
    return {
        "id": row.id,
        "name": row.name,
        "game": row.game,
        "format": row.format,
        "players": row.players,
        "rounds": row.rounds,
        "minutes": row.minutes,
        "starts": "when_full" if row.starts_at is None else _iso(row.starts_at),
        "max_entrants": row.max_entrants,
        "rated": row.rated,
        "settings": row.settings,
        "status": row.status,
        "started": _iso(row.started),
        "finished": _iso(row.finished),
    }
