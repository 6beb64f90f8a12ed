"""The store: the default database, WAL, a table's round trip, group commit."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import sqlalchemy as sa

from coffeetable.store import (
    DATABASE_ENV,
    Database,
    SeatRecord,
    Store,
    TableRecord,
    default_database_url,
)


def record(table_id: str = "t1") -> TableRecord:
    return TableRecord(
        id=table_id,
        game="espresso",
        players=2,
        seed=2**52 - 1,
        options={"zero": False, "chaos": True, "target": 50, "idle_seconds": 60},
        settings={"bot_speed": 2.5},
        name="Ada's table",
        status="open",
        seats=[SeatRecord(0, "Ada", "ab" * 32), SeatRecord(1, "Easy bot", None, "easy")],
    )


def test_the_default_database_lives_in_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(DATABASE_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url = default_database_url()
    assert url == f"sqlite:///{tmp_path / 'coffeetable' / 'coffeetable.sqlite3'}"
    assert (tmp_path / "coffeetable").is_dir()
    monkeypatch.setenv(DATABASE_ENV, "sqlite:///elsewhere.sqlite3")
    assert default_database_url() == "sqlite:///elsewhere.sqlite3"


def test_sqlite_runs_in_wal_mode_and_a_table_round_trips(tmp_path: Path) -> None:
    database = Database(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    try:
        with database.engine.begin() as conn:
            assert conn.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
            database.insert_table(conn, record())
            database.append_action(conn, "t1", 1, 0, {"type": "ready"})
            database.append_action(conn, "t1", 2, None, {"type": "idle"})
            database.update_seat(conn, "t1", SeatRecord(0, "Ada", None, None, left=True))
            database.set_status(conn, "t1", "running")
        with database.engine.connect() as conn:
            loaded = database.load(conn, "t1")
            assert database.load(conn, "nope") is None
            assert [table.id for table in database.load_live(conn)] == ["t1"]
    finally:
        database.close()
    expected = record()
    expected.status = "running"
    expected.seats[0] = SeatRecord(0, "Ada", None, None, left=True)
    expected.actions = [(0, {"type": "ready"}), (None, {"type": "idle"})]
    assert loaded is not None
    expected.created = loaded.created
    assert loaded == expected


@pytest.mark.parametrize("inline", [True, False], ids=["on the loop", "on a thread"])
def test_group_commit_keeps_order_and_isolates_a_bad_write(tmp_path: Path, inline: bool) -> None:
    async def run() -> tuple[list[object], list[tuple[int | None, dict[str, object]]]]:
        store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}", inline=inline)
        db = store.db
        await store.write(lambda conn: db.insert_table(conn, record()))

        def append(seq: int) -> asyncio.Future[None]:
            action = {"type": "flip", "n": seq}
            return asyncio.ensure_future(
                store.write(lambda conn: db.append_action(conn, "t1", seq, 0, action))
            )

        writes = [append(seq) for seq in range(1, 51)]
        writes.append(append(7))  # a duplicate seq: refused, alone
        outcomes = await asyncio.gather(*writes, return_exceptions=True)
        loaded = await store.read(lambda conn: db.load(conn, "t1"))
        await store.close()
        assert loaded is not None
        return outcomes, loaded.actions

    outcomes, actions = asyncio.run(run())
    assert outcomes[:50] == [None] * 50
    assert isinstance(outcomes[50], Exception)
    assert [action["n"] for _, action in actions] == list(range(1, 51))


def test_sqlite_checkpoints_run_off_the_loop_and_lose_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the loop, SQLite's commits never fsync: its connection has no automatic
    checkpoint, and every CHECKPOINT_EVERY commits one runs on another thread."""
    from coffeetable.store import writer

    monkeypatch.setattr(writer, "CHECKPOINT_EVERY", 5)
    threads: list[str] = []
    checkpoint = writer.Store._run_checkpoint

    def counted(self: writer.Store) -> None:
        import threading

        threads.append(threading.current_thread().name)
        checkpoint(self)

    monkeypatch.setattr(writer.Store, "_run_checkpoint", counted)
    path = tmp_path / "db.sqlite3"

    async def run() -> int:
        store = Store(f"sqlite:///{path}")
        assert store.inline
        db = store.db
        await store.write(lambda conn: db.insert_table(conn, record()))
        for seq in range(1, 13):  # one at a time: 13 commits
            action = {"type": "flip", "n": seq}
            await store.write(lambda conn, s=seq, a=action: db.append_action(conn, "t1", s, 0, a))
            if store._checkpoint is not None:
                store._checkpoint.result(timeout=10)  # one at a time: let it end first
        automatic = await store.read(
            lambda conn: conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()
        )
        await store.close()
        return int(automatic)

    assert asyncio.run(run()) == 0
    assert len(threads) == 2 and all(name.startswith("coffeetable-checkpoint") for name in threads)
    database = Database(f"sqlite:///{path}")
    with database.engine.connect() as conn:
        loaded = database.load(conn, "t1")
    database.close()
    assert loaded is not None and [a["n"] for _, a in loaded.actions] == list(range(1, 13))
