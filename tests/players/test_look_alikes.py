"""Look-alike usernames by Unicode TR39's whole confusables table, and revision 6, which
gives the accounts made before it their new skeletons."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import command

from coffeetable.server.players import usernames
from coffeetable.store import metadata, schema
from coffeetable.store.db import create_engine

from .conftest import Site


def test_the_skeleton_uses_tr39s_whole_table_and_its_sequences() -> None:
    skeleton = usernames.skeleton
    assert len(usernames.prototypes()) > 6000  # the whole table, not a few ASCII letters
    assert skeleton("dave") == skeleton("clave") == skeleton("cIave")
    assert skeleton("will") == skeleton("vvill") and skeleton("modem") == skeleton("modern")
    assert skeleton("bеa") == skeleton("bea")  # Cyrillic е: its prototype is Latin e
    assert skeleton("ɑdmin") == skeleton("admin")  # Latin alpha
    assert skeleton("dave") != skeleton("dove") and skeleton("bea") != skeleton("ben")


def test_a_name_that_looks_like_a_taken_one_through_a_sequence_is_taken(site: Site) -> None:
    assert site.register("dave").status_code == 200
    site.client.cookies.clear()
    for look_alike in ("clave", "CLAVE", "cl.ave"):
        response = site.register(look_alike)
        assert response.status_code == 409, look_alike
    assert site.register("dove").status_code == 200


def test_a_bots_long_skeleton_fits_the_column() -> None:
    shape = usernames.bot_skeleton("m" * 20, "m" * 20)
    assert len(shape) <= usernames.MAX_SKELETON
    assert shape == usernames.bot_skeleton("rn" * 10 + "m" * 10, "m" * 20)  # alike: one hash
    assert usernames.bot_skeleton("dave", "bot-1") == "clave/botl"


def test_revision_6_gives_older_accounts_tr39_skeletons(database_url: str) -> None:
    engine = create_engine(database_url)
    players = metadata.tables["players"]
    bots = metadata.tables["bot_accounts"]
    # As revision 5's code stored them: (id, kind, name, old skeleton).
    rows = [
        (1, "user", "dave", "dave"),
        (2, "user", "clave", "clave"),  # alike to dave under TR39: both stay
        (3, "user", "Modem", "modem"),
        (4, "bot", "hard", "hard"),  # a bot level keeps its name as skeleton
        (5, "bot", "dave/x-1", "dave/xl"),  # a bot account
    ]
    try:
        schema.upgrade(engine, "0005")
        with engine.begin() as conn:
            for player_id, kind, name, shape in rows:
                conn.execute(
                    players.insert().values(
                        id=player_id,
                        kind=kind,
                        name=name,
                        name_key=name.casefold(),
                        skeleton=shape,
                        created=1.0,
                    )
                )
            conn.execute(
                bots.insert().values(
                    player_id=5, owner_id=1, short_name="x-1", description="", created=1.0
                )
            )

        def skeletons() -> dict[int, str]:
            with engine.connect() as conn:
                return dict(conn.execute(sa.select(players.c.id, players.c.skeleton)).all())

        schema.upgrade(engine)
        assert skeletons() == {
            1: "clave",
            2: "clave~2",
            3: "rnoclern",
            4: "hard",
            5: "clave/xl",
        }
        with engine.begin() as conn:
            command.downgrade(schema.alembic_config(conn), "0005")
        assert skeletons() == {player_id: shape for player_id, _, _, shape in rows}
    finally:
        engine.dispose()
