"""The programs' league's results as the store writes them: in ``finish_match``'s
transaction, with the seats whose program a stand-in played for (its forfeit), the same
whether the table's own account of who chose or the stored log says it
(``actions.by_stand_in``: the table dealt after its match ended, ``set_table``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coffeetable.server.players.ratings import (
    MatchSummary,
    SeatResult,
    finish_match,
    league_forfeits,
)
from coffeetable.store import Database, SeatRecord, TableRecord
from coffeetable.store import league as db_league
from coffeetable.store import players as accounts


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    yield database
    database.close()


def _program(db: Database, name: str) -> int:
    with db.engine.begin() as conn:
        return accounts.create_account(conn, name, name.casefold(), name.casefold(), "x")


def _table(db: Database, table_id: str, program: int, moves: list[tuple[int, bool]]) -> None:
    """A Fika table: the program in seat 0, the strong bot in seat 1, and the log's
    (seat, chosen by a stand-in)."""
    record = TableRecord(
        id=table_id,
        game="fika",
        players=2,
        seed=1,
        options={},
        settings={},
        name="league",
        status="running",
        seats=[
            SeatRecord(0, "ana/bot-a", user_id=program),
            SeatRecord(1, "Strong bot", None, "strong"),
        ],
    )
    with db.engine.begin() as conn:
        db.insert_table(conn, record)
        for seq, (seat, by_stand_in) in enumerate(moves, start=1):
            db.append_action(conn, table_id, seq, seat, {"type": "x"}, by_stand_in)


def _summary(table_id: str, program: int, **kw: list[int]) -> MatchSummary:
    seats = [
        SeatResult(0, "ana/bot-a", 5, user_id=program),
        SeatResult(1, "Strong bot", 3, bot="strong"),
    ]
    return MatchSummary(table_id, "fika", 2, seats, winners=[0], rated=False, **kw)


def _league(db: Database) -> list[db_league.LeagueMatch]:
    with db.engine.connect() as conn:
        return db_league.matches_of(conn, "fika")


@pytest.mark.parametrize(
    ("moves", "forfeits"),
    [
        ([(0, False), (1, False), (0, False)], []),  # the program played every move
        ([(0, False), (1, False), (0, True)], [0]),  # a stand-in played its last move
        ([(0, True), (1, False), (0, True)], [0]),  # it never came
    ],
)
def test_a_stand_in_at_a_program_seat_is_its_forfeit(
    db: Database, moves: list[tuple[int, bool]], forfeits: list[int]
) -> None:
    program = _program(db, "ana")
    stood_in = sorted({seat for seat, by_stand_in in moves if by_stand_in})
    acted = {seat for seat, by_stand_in in moves if not by_stand_in}
    summary = _summary("t1", program, stood_in=stood_in, absent=[0] if 0 not in acted else [])
    assert league_forfeits(summary) == forfeits
    # Dealt, then over: the result and its forfeits are written as the match ends.
    _table(db, "t1", program, moves)
    with db.engine.begin() as conn:
        match_id = db_league.add_match(conn, "fika", [f"u{program}", "bot:strong"], 1.0)
        db_league.set_table(conn, match_id, "t1")
        assert db_league.forfeits_in_log(conn, "t1") == forfeits
    with db.engine.begin() as conn:
        assert finish_match(conn, summary) is not None
    (first,) = _league(db)
    assert first.ranks == (1, 2) and first.forfeits == tuple(forfeits)
    # Over before its id was written (fast bots): recorded from the match and the log.
    _table(db, "t2", program, moves)
    with db.engine.begin() as conn:
        assert finish_match(conn, _summary("t2", program)) is not None  # not the league's yet
        match_id = db_league.add_match(conn, "fika", [f"u{program}", "bot:strong"], 2.0)
        db_league.set_table(conn, match_id, "t2")
    second = _league(db)[1]
    assert second.ranks == (1, 2) and second.forfeits == tuple(forfeits)
