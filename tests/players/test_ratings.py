"""Ratings: ``finish_match`` records a match once and moves ratings exactly as openskill does."""

from __future__ import annotations

import math
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
import sqlalchemy as sa
from openskill.models import PlackettLuce

from coffeetable.server.players import ratings
from coffeetable.server.players.ratings import MatchSummary, SeatResult, finish_match
from coffeetable.server.tables import seating
from coffeetable.store import Database, SeatRecord, TableRecord, profiles
from coffeetable.store import matches as store
from coffeetable.store import players as accounts


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(database_url)
    yield database
    database.close()


def table(db: Database, table_id: str, game: str = "espresso", players: int = 2) -> None:
    record = TableRecord(
        id=table_id,
        game=game,
        players=players,
        seed=1,
        options={},
        settings={"rated": True},
        name="t",
        status="running",
        seats=[SeatRecord(seat) for seat in range(players)],
    )
    with db.engine.begin() as conn:
        db.insert_table(conn, record)


def user(db: Database, name: str) -> int:
    with db.engine.begin() as conn:
        return accounts.create_account(conn, name, name.casefold(), name.casefold(), "x")


def finish(db: Database, summary: MatchSummary) -> ratings.Recorded | None:
    with db.engine.begin() as conn:
        return finish_match(conn, summary)


def rating(db: Database, player_id: int, game: str = "espresso", group: str = "2") -> Any:
    with db.engine.connect() as conn:
        return store.ratings_for(conn, [player_id], game, group).get(player_id)


def bot_id(db: Database, level: str) -> int:
    with db.engine.connect() as conn:
        found = accounts.player_by_key(conn, level)
    assert found is not None and found.bot
    return found.id


def summary(table_id: str, seats: list[SeatResult], winners: list[int], **kw: Any) -> MatchSummary:
    return MatchSummary(
        table_id=table_id,
        game=kw.pop("game", "espresso"),
        players=len(seats),
        seats=seats,
        winners=winners,
        rated=kw.pop("rated", True),
        **kw,
    )


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


# -- the pure parts --------------------------------------------------------------


def test_ranks_follow_winners_then_scores_with_ties_and_leavers_last() -> None:
    assert ratings.ranks([100, 80], [0]) == [1, 2]
    assert ratings.ranks([100, 100, 70, 70], [0, 1]) == [1, 1, 3, 3]
    # A tie-break winner (Doppio) ranks above an equal score.
    assert ratings.ranks([12, 12], [1]) == [2, 1]
    # Leavers rank below everyone who stayed, whatever their seat scored;
    # who left later ranks better.
    assert ratings.ranks([10, 120, 50, 90], [1], left=[1, 3]) == [2, 4, 1, 3]
    # No winners (abandoned): by score.
    assert ratings.ranks([5, 9, 7], []) == [3, 1, 2]


def test_display_scale_groups_and_provisional() -> None:
    assert ratings.display(25.0) == 1500
    assert abs(ratings.SCALE - 29.48) < 0.01
    assert ratings.display(25.0 + 400 / ratings.SCALE) == 1900
    assert ratings.provisional(9) and not ratings.provisional(10)
    assert [ratings.group_for("espresso", n) for n in range(1, 7)] == [
        "1", "2", "3-4", "3-4", "5-6", "5-6",
    ]  # fmt: skip
    assert ratings.group_for("cafe", 4) == "3-4" and ratings.group_for("fika", 2) == "2"
    assert ratings.groups("espresso") == ["2", "3-4", "5-6"]
    assert ratings.groups("sugar") == ["all"] and ratings.group_for("sugar", 3) == "all"


# -- finish_match ---------------------------------------------------------------------


def test_a_two_player_match_moves_ratings_as_openskill_does(db: Database) -> None:
    ada, ben = user(db, "Ada"), user(db, "Ben")
    table(db, "t1")
    seats = [SeatResult(0, "Ada", 100, ada), SeatResult(1, "Ben", 60, ben)]
    recorded = finish(db, summary("t1", seats, [0]))
    assert recorded is not None and recorded.rated
    model = PlackettLuce()
    (a,), (b,) = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    got_a, got_b = rating(db, ada), rating(db, ben)
    assert close(got_a.mu, a.mu) and close(got_a.sigma, a.sigma)
    assert close(got_b.mu, b.mu) and close(got_b.sigma, b.sigma)
    assert (got_a.games, got_a.wins, got_b.games, got_b.wins) == (1, 1, 1, 0)
    assert ratings.display(got_a.mu) > 1500 > ratings.display(got_b.mu)


def test_a_four_player_match_from_earlier_ratings_with_a_tie(db: Database) -> None:
    ids = [user(db, name) for name in ("Ada", "Ben", "Cid", "Dee")]
    table(db, "warm", players=4)
    warm = [SeatResult(i, f"p{i}", 10 * (4 - i), pid) for i, pid in enumerate(ids)]
    finish(db, summary("warm", warm, [0]))
    before = [rating(db, pid, group="3-4") for pid in ids]
    table(db, "t2", players=4)
    # Ben and Cid share the win; Ada and Dee tie behind them.
    scores = [50, 100, 100, 50]
    seats = [SeatResult(i, f"p{i}", scores[i], pid) for i, pid in enumerate(ids)]
    recorded = finish(db, summary("t2", seats, [1, 2]))
    assert recorded is not None
    assert [p.rank for p in recorded.participants] == [3, 1, 1, 3]
    model = PlackettLuce()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    expected = model.rate(teams, ranks=[3, 1, 1, 3])
    for pid, old, (new,), row in zip(ids, before, expected, recorded.participants, strict=True):
        got = rating(db, pid, group="3-4")
        assert close(got.mu, new.mu) and close(got.sigma, new.sigma)
        assert got.games == 2
        assert (row.mu_before, row.sigma_before) == (old.mu, old.sigma)
        assert close(row.mu_after, new.mu)
    assert rating(db, ids[0]) is None  # the 2-player group is untouched


def test_accounts_against_bots_move_the_bot_levels_ratings(db: Database) -> None:
    ada = user(db, "Ada")
    table(db, "t3", players=3)
    seats = [
        SeatResult(0, "Ada", 30, ada),
        SeatResult(1, "Hard bot", 90, None, "hard"),
        SeatResult(2, "Ismcts bot", 60, None, "ismcts:800"),
    ]
    recorded = finish(db, summary("t3", seats, [1]))
    assert recorded is not None and recorded.rated
    hard, ismcts = bot_id(db, "hard"), bot_id(db, "ismcts")
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(3)], ranks=[3, 1, 2])
    for pid, (new,) in zip((ada, hard, ismcts), expected, strict=True):
        got = rating(db, pid, group="3-4")
        assert close(got.mu, new.mu) and close(got.sigma, new.sigma)
    assert [p.player_id for p in recorded.participants] == [ada, hard, ismcts]
    with db.engine.connect() as conn:
        board = profiles.leaderboard(conn, "espresso", "3-4", provisional_below=10)
    assert [(row.name, row.bot) for row in board] == [
        ("hard", True), ("ismcts", True), ("Ada", False),
    ]  # fmt: skip


def test_a_leaver_counts_as_a_loss_and_the_bot_in_their_seat_is_not_rated(db: Database) -> None:
    ada, ben = user(db, "Ada"), user(db, "Ben")
    table(db, "t4")
    # Ben left; the bot that took his seat went on to score more than Ada.
    seats = [SeatResult(0, "Ada", 40, ada), SeatResult(1, "Ben", 100, ben, "greedy")]
    recorded = finish(db, summary("t4", seats, [1], left=[1]))
    assert recorded is not None
    assert [(p.rank, p.left, p.bot) for p in recorded.participants] == [
        (1, False, None),
        (2, True, None),
    ]
    model = PlackettLuce()
    (a,), (b,) = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    assert close(rating(db, ada).mu, a.mu) and close(rating(db, ben).mu, b.mu)
    assert rating(db, ada).wins == 1 and rating(db, ben).wins == 0
    with db.engine.connect() as conn:
        assert accounts.player_by_key(conn, "greedy") is None


def test_a_seat_an_account_lost_to_a_bot_counts_as_left_even_unlisted(db: Database) -> None:
    ada, ben = user(db, "Ada"), user(db, "Ben")
    table(db, "t5")
    seats = [SeatResult(0, "Ada", 10, ada), SeatResult(1, "Greedy bot", 99, ben, "greedy")]
    recorded = finish(db, summary("t5", seats, [1]))
    assert recorded is not None
    assert [p.rank for p in recorded.participants] == [1, 2]
    assert recorded.participants[1].left


def test_an_abandoned_rated_table_is_a_loss_for_everyone_who_left(db: Database) -> None:
    ada, ben = user(db, "Ada"), user(db, "Ben")
    table(db, "ab", players=3)
    seats = [
        SeatResult(0, "Ada", 50, ada, "greedy"),
        SeatResult(1, "Easy bot", 10, None, "easy"),
        SeatResult(2, "Ben", 70, ben, "greedy"),
    ]
    recorded = finish(db, summary("ab", seats, [], left=[2, 0], status="abandoned"))
    assert recorded is not None and recorded.rated
    # The bot that stayed wins; Ada left last, so she ranks above Ben.
    assert [p.rank for p in recorded.participants] == [2, 1, 3]
    with db.engine.connect() as conn:
        match = store.match_for_table(conn, "ab")
    assert match is not None and match.status == "abandoned"
    assert rating(db, bot_id(db, "easy"), group="3-4").wins == 1


def test_solo_matches_are_recorded_with_their_rank_but_never_rated(db: Database) -> None:
    ada = user(db, "Ada")
    for table_id, beans in (("s1", 9), ("s2", 15), ("s3", 3)):
        table(db, table_id, game="doppio", players=1)
        seats = [SeatResult(0, "Ada", beans, ada)]
        recorded = finish(db, summary(table_id, seats, [0], game="doppio"))
        assert recorded is not None and not recorded.rated
    with db.engine.connect() as conn:
        assert store.ratings_for(conn, [ada], "doppio", "1") == {}
        assert profiles.ratings_of(conn, ada) == []
        (best,) = profiles.solo_bests(conn, ada)
        assert profiles.tallies(conn, ada) == []
    assert (best.game, best.played, best.best, best.rank) == ("doppio", 3, 15, "espresso_machine")


def test_finishing_a_table_twice_changes_nothing_the_second_time(db: Database) -> None:
    ada, ben = user(db, "Ada"), user(db, "Ben")
    table(db, "t6")
    seats = [SeatResult(0, "Ada", 100, ada), SeatResult(1, "Ben", 60, ben)]
    assert finish(db, summary("t6", seats, [0])) is not None
    after_first = (rating(db, ada), rating(db, ben))
    # The same table again, even with another result: a no-op.
    assert finish(db, summary("t6", seats, [1])) is None
    assert (rating(db, ada), rating(db, ben)) == after_first
    with db.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(store.matches)).scalar() == 1
        count = sa.select(sa.func.count()).select_from(store.participants)
        assert conn.execute(count).scalar() == 2


def test_finish_match_commits_nothing_itself(db: Database) -> None:
    ada, ben = user(db, "Ada"), user(db, "Ben")
    table(db, "t7")
    seats = [SeatResult(0, "Ada", 100, ada), SeatResult(1, "Ben", 60, ben)]
    with db.engine.connect() as conn:
        transaction = conn.begin()
        assert finish_match(conn, summary("t7", seats, [0])) is not None
        db.set_status(conn, "t7", "over")
        transaction.rollback()
    assert rating(db, ada) is None
    with db.engine.connect() as conn:
        assert store.match_for_table(conn, "t7") is None
        loaded = db.load(conn, "t7")
    assert loaded is not None and loaded.status == "running"


def test_unrated_tables_and_guests_record_the_match_only(db: Database) -> None:
    ada = user(db, "Ada")
    table(db, "t8")
    seats = [SeatResult(0, "Ada", 100, ada), SeatResult(1, "Guest", 60)]
    recorded = finish(db, summary("t8", seats, [0]))
    assert recorded is not None and not recorded.rated  # one rated identity only
    table(db, "t9")
    seats = [SeatResult(0, "Ada", 100, ada), SeatResult(1, "Easy bot", 60, None, "easy")]
    recorded = finish(db, summary("t9", seats, [0], rated=False))
    assert recorded is not None and not recorded.rated
    assert rating(db, ada) is None
    with db.engine.connect() as conn:
        (tally,) = profiles.tallies(conn, ada)
    assert (tally.game, tally.played, tally.won) == ("espresso", 2, 2)


# -- the hooks for the table code ----------------------------------------------------------


def fake_table(seats: list[dict[str, Any]], rated: bool = True, **kw: Any) -> Any:
    return SimpleNamespace(
        id=kw.get("id", "tt"),
        game=SimpleNamespace(name="espresso"),
        players=len(seats),
        settings={"rated": rated},
        status=kw.get("status", "over"),
        # Every seat acted by its own player (the table's face says so: ``acted``).
        acted=set(kw.get("acted", range(len(seats)))),
        stood_in=set(kw.get("stood_in", ())),
        seats=[
            SimpleNamespace(
                index=i,
                name=s.get("name", f"P{i}"),
                bot=s.get("bot"),
                left=s.get("left", False),
                user_id=s.get("user_id"),
                token_hash=s.get("token_hash", "h"),
            )
            for i, s in enumerate(seats)
        ],
        state=SimpleNamespace(
            scores=kw.get("scores", [0] * len(seats)),
            winners=kw.get("winners", []),
            is_over=True,
        ),
    )


def test_default_rated_and_who_may_sit() -> None:
    assert seating.default_rated(2, [7])
    assert not seating.default_rated(2, [None])
    assert not seating.default_rated(1, [7])  # solo
    assert not seating.default_rated(3, [])  # bots only
    rated = fake_table([{"user_id": 7}, {"name": None, "token_hash": None}])
    assert seating.may_sit(rated, None) == "this table is rated: sign in to play at it"
    assert seating.may_sit(rated, 8) is None
    assert seating.may_sit(rated, 7) == "you already have a seat at this table"
    assert seating.may_sit(fake_table([{}, {}], rated=False), None) is None


def test_seat_for_user_finds_the_accounts_seat_while_it_holds_it() -> None:
    live = fake_table([{"user_id": 3}, {"user_id": 5}, {"user_id": 9, "left": True}])
    assert seating.seat_for_user(live, 5) == 1
    assert seating.seat_for_user(live, 9) is None
    assert seating.seat_for_user(live, None) is None
    taken_over = fake_table([{"user_id": 3, "bot": "greedy"}])
    assert seating.seat_for_user(taken_over, 3) is None


def test_summary_for_reads_a_finished_table(db: Database) -> None:
    ada, ben = user(db, "Ada"), user(db, "Ben")
    table(db, "tt")
    live = fake_table(
        [{"name": "Ada", "user_id": ada}, {"name": "Greedy bot", "user_id": ben, "bot": "greedy"}],
        scores=[20, 80],
        winners=[1],
    )
    made = seating.summary_for(live)
    assert made.rated and made.status == "over" and made.winners == [1]
    assert [(s.seat, s.user_id, s.bot, s.score) for s in made.seats] == [
        (0, ada, None, 20),
        (1, ben, "greedy", 80),
    ]
    recorded = finish(db, made)
    assert recorded is not None and [p.rank for p in recorded.participants] == [1, 2]
