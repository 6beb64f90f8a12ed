"""The body of ``POST /api/tables``, one model per game, so the OpenAPI says what is valid.

Each game gets its own request model, told apart by ``game`` (a discriminated
union): its player range, its options with their types and bounds, its table
settings and its bot levels. A client, or an API fuzzer, reads from the schema
alone which tables can be created. The lobby still checks everything again
(``Lobby.create``), since the limits of the server may be stricter.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, create_model

from coffeetable import bots, games
from coffeetable.engine import Game
from coffeetable.server.lobby.table_settings import table_settings_json

#: The most seats any game has (Espresso: 6).
MAX_SEATS = max(games.get(name).max_players for name in games.names())
#: Longest name taken (it is then cut to ``seats.MAX_NAME`` characters).
MAX_NAME_INPUT = 200

#: A bot account invited to a seat by its full name (``players/bot_seats.py``).
BOT_ACCOUNT = Annotated[
    str,
    Field(
        pattern=r"^[A-Za-z0-9_.-]{3,20}/[A-Za-z0-9_.-]{2,20}$",
        description='a bot account by name: "alice/bot-v2"',
    ),
]

_STRICT = {"bool": StrictBool, "int": StrictInt, "float": StrictInt | StrictFloat, "str": str}


def _option_field(description: dict[str, Any]) -> tuple[Any, Any]:
    """A pydantic field for one option or setting as ``describe()`` lists it."""
    # Types built at run time, from the game: values to pydantic, not types mypy can check.
    kind: Any = _STRICT.get(description["type"], Any)
    if "choices" in description:
        kind = Literal[tuple(description["choices"])]
    bounds = {
        key: description[name]
        for key, name in (("ge", "minimum"), ("le", "maximum"))
        if name in description
    }
    return (kind, Field(description["default"], description=description["description"], **bounds))


def _request_model(game: Game) -> type[BaseModel]:
    """The request model of one game."""
    described = game.describe()
    option_fields = {
        option["name"]: _option_field(option)
        for option in [*described["options"], *table_settings_json(game)]
    }
    title = "".join(part.capitalize() for part in game.name.split("_"))
    options = create_model(  # type: ignore[call-overload]
        f"{title}Options",
        __config__=ConfigDict(extra="forbid"),
        **option_fields,
    )
    level: Any = Literal[tuple(bots.available(game.name))] | BOT_ACCOUNT  # as ``kind`` above
    seat_key = Annotated[str, Field(pattern=f"^[0-{game.max_players - 1}]$")]
    game_name: Any = Literal[game.name]  # a run-time Literal: a type to pydantic, not to mypy
    return create_model(
        f"Create{title}Table",
        __config__=ConfigDict(extra="forbid"),
        game=(game_name, Field(description=game.title)),
        players=(
            StrictInt,
            Field(ge=game.min_players, le=game.max_players, description="number of seats"),
        ),
        options=(options, Field(default_factory=options, description="missing ones: defaults")),
        bots=(
            dict[seat_key, level],
            Field(
                default_factory=dict,
                description='bot seats: {"1": "greedy"}, or a bot account {"1": "alice/bot-v2"}',
            ),
        ),
        name=(
            str,
            Field(
                "",
                max_length=MAX_NAME_INPUT,
                description="the creator's name (a signed-in creator plays as their account)",
            ),
        ),
        invite=(
            dict[seat_key, Annotated[str, Field(min_length=1, max_length=40)]],
            Field(
                default_factory=dict,
                description='seats held for players invited by name: {"1": "bob"} (signed in'
                " only; they are notified, and join with POST /api/tables/{id}/join)",
            ),
        ),
        rated=(
            StrictBool | None,
            Field(None, description="rated (null: rated when everyone is signed in)"),
        ),
        seed=(StrictInt | None, Field(None, description="only servers started for tests take it")),
    )


def create_table_body() -> Any:
    """The body of POST /api/tables: one of the games' models, told apart by ``game``.

    Built when the app is, from the games registered then (a new game needs no
    change here).
    """
    models = tuple(_request_model(games.get(name)) for name in games.names())
    return Annotated[Union[models], Field(discriminator="game")]  # noqa: UP007


def as_plain(body: BaseModel) -> dict[str, Any]:
    """The request as the lobby takes it: options only as given (the lobby fills defaults)."""
    data = body.model_dump(exclude_unset=True)
    options = body.options.model_dump(exclude_unset=True)  # type: ignore[attr-defined]
    return {**data, "options": options}
