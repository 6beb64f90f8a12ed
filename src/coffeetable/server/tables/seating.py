"""Where accounts meet tables: rated or not, who may sit, whose seat, the match's result.

These helpers read a live table through its face (``TableFace``, ``face.py``:
its id, game, players, settings, seats, state and ``acted``), so that the table
code only calls them.

- A table is rated or not from its creation (``settings["rated"]``): rated
  by default when it has at least two seats and every person at it is signed
  in (bots allowed, at least one person). A rated table seats only accounts.
- A signed-in player's seat belongs to the account: its sockets may play it
  by the session cookie (``seat_for_user``), from any browser.
- An open seat may be held for an invited account, by username (``hold``; kept in
  the table's settings, ``settings["invited"]``: seat -> username): only that account
  joins it (``seat_to_join``), until it joins or declines (``unhold``).
- A rated match abandoned before it really started (before every seat acted
  by its own player: the table's ``acted``) is recorded unrated: leaving at
  once, on both sides, moves nobody's rating.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from coffeetable.server.errors import TableError
from coffeetable.server.players.ratings import MatchSummary, SeatResult

if TYPE_CHECKING:
    from coffeetable.server.tables.face import TableFace

#: The table setting that says whether a table is rated.
RATED = "rated"
#: The table setting that keeps the seats held for invited players: {"seat": username}.
INVITED = "invited"


def default_rated(players: int, people: Iterable[int | None]) -> bool:
    """Whether a new table is rated by default.

    ``people``: the ``user_id`` (None: a guest) of each person seated at
    creation (the creator); bots are not listed. Rated when there are at
    least two seats, at least one person, and every person has an account.
    """
    seated = list(people)
    return players >= 2 and bool(seated) and all(user is not None for user in seated)


def is_rated(table: TableFace) -> bool:
    """Whether a live table is rated (its ``settings["rated"]``)."""
    return bool(table.settings.get(RATED, False))


def may_sit(table: TableFace, user_id: int | None) -> str | None:
    """Why this person may not take a seat at ``table`` (None: they may).

    A rated table seats only accounts, and an account only once.
    """
    if is_rated(table) and user_id is None:
        return "this table is rated: sign in to play at it"
    if user_id is not None and seat_for_user(table, user_id) is not None:
        return "you already have a seat at this table"
    return None


def restore_invited(seats: Iterable[Any], settings: dict[str, Any]) -> None:
    """Hold the seats ``settings[INVITED]`` lists (a table rebuilt from the database)."""
    held = settings.get(INVITED) or {}
    for seat in seats:
        name = held.get(str(seat.index))
        if isinstance(name, str):
            seat.invited = name


def hold(seat: Any, settings: dict[str, Any], username: str) -> None:
    """Hold the open ``seat`` for the account ``username`` (the caller saves the settings)."""
    seat.invited = username
    settings.setdefault(INVITED, {})[str(seat.index)] = username


def unhold(seat: Any, settings: dict[str, Any]) -> bool:
    """Let go of the seat's hold (joined or declined); False if it had none."""
    had = seat.invited is not None
    seat.invited = None
    held = settings.get(INVITED) or {}
    held.pop(str(seat.index), None)
    if not held:
        settings.pop(INVITED, None)
    return had


def seat_to_join(table: TableFace, name: str, user_id: int | None) -> Any:
    """The open seat a joiner takes: the one held for their account, else the first open
    seat held for nobody; ``TableError(409)`` if none."""
    free = [seat for seat in table.seats if seat.is_open]
    if user_id is not None:
        mine = next((seat for seat in free if seat.invited == name), None)
        if mine is not None:
            return mine
    seat = next((seat for seat in free if seat.invited is None), None)
    if seat is None:
        held = "its open seats are held for invited players" if free else "the table is full"
        raise TableError(409, held)
    return seat


def seat_for_user(table: TableFace, user_id: int | None) -> int | None:
    """The seat the account holds at ``table`` now (not left, not a bot's), or None."""
    if user_id is None:
        return None
    for seat in table.seats:
        if seat.user_id == user_id and seat.bot is None and not seat.left:
            return int(seat.index)
    return None


def choosers(
    log: Sequence[tuple[int | None, Any]], by_stand_in: Iterable[int]
) -> tuple[set[int], set[int]]:
    """From a table's log and the seqs a stand-in chose (``actions.by_stand_in``): the
    seats that acted by their own player (an abandoned match is rated only once all have;
    a tournament entrant who never did missed the match) and the seats a stand-in (or the
    bot that took a leaver's seat) chose for at least once (the league's forfeit)."""
    chosen = set(by_stand_in)
    acted: set[int] = set()
    stood_in: set[int] = set()
    for seq, (seat, _) in enumerate(log, start=1):
        if seat is not None:
            (stood_in if seq in chosen else acted).add(seat)
    return acted, stood_in


def summary_for(table: TableFace, left: Sequence[int] = (), status: str = "over") -> MatchSummary:
    """What ``ratings.finish_match`` needs from a live table whose match ended.

    ``left``: seats whose person left (or was replaced by a bot), in the
    order it happened; seats with an account and a bot now are added anyway.
    ``status``: ``over`` (the game ended) or ``abandoned`` (every person left: rated
    only if every seat had acted by its own player, ``table.acted``).
    Call it after the last action is applied, before the write that saves it.
    """
    state = table.state
    scores = list(state.scores)
    seats = [
        SeatResult(
            seat=int(seat.index),
            name=seat.name or f"Player {seat.index + 1}",
            score=int(scores[seat.index]),
            user_id=seat.user_id,
            bot=seat.bot,
        )
        for seat in table.seats
    ]
    left_seats = list(left) + [
        seat.index for seat in table.seats if seat.left and seat.index not in left
    ]
    started = set(range(table.players)) <= table.acted
    return MatchSummary(
        table_id=table.id,
        game=table.game.name,
        players=table.players,
        seats=seats,
        winners=list(state.winners) if state.is_over else [],
        rated=is_rated(table) and (status == "over" or started),
        left=left_seats,
        status=status,
        absent=[
            seat.index
            for seat in table.seats
            if seat.user_id is not None and seat.index not in table.acted
        ],
        stood_in=sorted(table.stood_in),
    )
