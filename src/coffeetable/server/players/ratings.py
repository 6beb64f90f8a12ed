"""Ratings: openskill's Weng-Lin Plackett-Luce model, and recording a finished match.

Model: ``openskill.models.PlackettLuce`` with its defaults (mu 25, sigma
25/3, beta 25/6, tau 25/300). Plackett-Luce models a whole finishing order
of any number of players, handles ties (equal ranks), and costs linear time
in the number of players; Bradley-Terry-Full compares every pair (quadratic)
and gains nothing for one-person teams. Every seat is a team of one.

Groups: one rating per game and player-count group where the count changes
the game, as the game declares them (``Game.rating_groups``): Espresso ``2``,
``3-4``, ``5-6``; Café ``2``, ``3-4``; Doppio and Fika ``2`` (their only
multi-player count); a game that declares none one group, ``all``.
One-player matches (group ``1``) are never rated: they are kept for the
profile's best scores and solo ranks.

Shown rating: ``display = 1500 + K * (mu - 25)`` with ``K = 400 / (ln 10 *
sqrt 2 * beta) ≈ 29.5``, so a new player shows 1500 and, as in Elo, 400
points between two settled players mean about 10:1 odds. A rating is
provisional (``?``) for its first ``PROVISIONAL_GAMES`` rated games.

Ranks (``ranks``): the seats sharing the win (the game's ``winners``) rank
1, the others follow by final score (equal scores share a rank: 1, 2, 2, 4).
A person who left a match (their seat went to a bot, or their clock ran
out) ranks below everyone who stayed, whatever their seat scored; of
several leavers, who left later ranks better. Bots are rated players: each
bot level (``random``, ``greedy``, ``ismcts``, ``easy``, ``medium``,
``hard``; a budget such as ``ismcts:800`` counts as ``ismcts``) has its own
rating per game and group. A bot that takes over a leaver's seat is not
rated for that match. An identity seated twice at one table (two ``medium``
bots) gets the mean of its seats' updates.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce
from sqlalchemy.engine import Connection

from coffeetable import games
from coffeetable.engine import Game
from coffeetable.store import league as store_league
from coffeetable.store import matches as store
from coffeetable.store import tournaments as store_tournaments
from coffeetable.store.players import bot_player
from coffeetable.tournaments.league import forfeited

MODEL = PlackettLuce()
PROVISIONAL_GAMES = 10
BASE = 1500
#: Display points per unit of mu (400 points: 10:1 odds between settled players).
SCALE = 400 / (math.log(10) * math.sqrt(2) * MODEL.beta)
ANY = "all"
SOLO = "1"


def _game(name: str) -> Game | None:
    try:
        return games.get(name)
    except KeyError:  # a game no longer installed: its stored ratings keep one group
        return None


def _groups(game: str) -> tuple[tuple[str, int, int], ...]:
    """(name, fewest players, most players) of each of the game's player-count groups."""
    found = _game(game)
    return found.rating_groups if found is not None else ()


def groups(game: str) -> list[str]:
    """The rating groups of a game, smallest player count first."""
    return [name for name, _, _ in _groups(game) or ((ANY, 2, 1_000),)]


def group_for(game: str, players: int) -> str:
    """The rating group of a match of ``players`` (``"1"``: solo, never rated)."""
    if players <= 1:
        return SOLO
    for name, low, high in _groups(game):
        if low <= players <= high:
            return name
    return ANY


def display(mu: float) -> int:
    """The shown rating of ``mu`` (1500 for a new player)."""
    return round(BASE + SCALE * (mu - MODEL.mu))


def provisional(games: int) -> bool:
    """Whether a rating with ``games`` rated games is still provisional."""
    return games < PROVISIONAL_GAMES


def bot_level(bot: str) -> str:
    """The rated identity of a bot name: ``ismcts:800`` plays as ``ismcts``."""
    return bot.split(":", 1)[0]


def ranks(scores: Sequence[int], winners: Sequence[int], left: Sequence[int] = ()) -> list[int]:
    """Each seat's rank, 1 = best (see the module: winners, scores, leavers last)."""
    order = list(dict.fromkeys(seat for seat in left if 0 <= seat < len(scores)))
    gone = set(order)
    stayed = [seat for seat in range(len(scores)) if seat not in gone]
    won = set(winners) - gone

    def key(seat: int) -> tuple[int, int]:
        return (0 if seat in won else 1, -scores[seat])

    result = [0] * len(scores)
    for seat in stayed:
        result[seat] = 1 + sum(1 for other in stayed if key(other) < key(seat))
    for place, seat in enumerate(reversed(order)):
        result[seat] = len(stayed) + 1 + place
    return result


def solo_rank(game: str, score: int) -> str | None:
    """The game's solo ranking for a one-player score (``Game.solo_rank``), if it has one."""
    found = _game(game)
    return None if found is None else found.solo_rank(score)


@dataclass
class SeatResult:
    """One seat at the end of a match.

    ``user_id``: the account that sat there (kept when it left), None for a
    guest or a bot. ``bot``: the bot playing the seat at the end (a seat with
    an account and a bot was lost by its person: it counts as left).
    """

    seat: int
    name: str
    score: int
    user_id: int | None = None
    bot: str | None = None


@dataclass
class MatchSummary:
    """What ``finish_match`` records.

    ``left``: the seats whose person left, in the order they left (seats
    with an account and a bot are added after them, in seat order).
    ``status``: ``over`` or ``abandoned`` (every person left).
    """

    table_id: str
    game: str
    players: int
    seats: list[SeatResult]
    winners: list[int]
    rated: bool
    left: list[int] = field(default_factory=list)
    status: str = "over"
    #: Seats held by an account that never acted there by its own player (a tournament
    #: counts them as missed: ``store.tournaments.record_result``).
    absent: list[int] = field(default_factory=list)
    #: Seats for which a stand-in (or the bot that took a leaver's seat) chose at least
    #: one action: the programs' league counts such a seat's match as its forfeit.
    stood_in: list[int] = field(default_factory=list)


@dataclass
class Recorded:
    """A recorded match: its id, whether ratings moved, and its seats."""

    match_id: int
    rated: bool
    participants: list[store.ParticipantRow]


def finish_match(
    conn: Connection, summary: MatchSummary, now: float | None = None
) -> Recorded | None:
    """Record a finished match and update ratings, on ``conn``, without committing.

    Call it in the transaction that sets the table's status to "over" (or
    "abandoned"). Returns None, changing nothing, if the table's match is
    already recorded (the unique ``matches.table_id`` decides). The new
    ratings are computed before the match's rows are written. A tournament's
    table gets its result and the tournament its standings here too
    (``store.tournaments.record_result``), so they count exactly once.
    """
    if store.match_id_for_table(conn, summary.table_id) is not None:
        return None
    now = time.time() if now is None else now
    seats = sorted(summary.seats, key=lambda s: s.seat)
    left = list(dict.fromkeys(summary.left))
    left += [s.seat for s in seats if s.user_id is not None and s.bot and s.seat not in left]
    gone = set(left)
    seat_ranks = ranks([s.score for s in seats], summary.winners, left)
    group = group_for(summary.game, summary.players)
    identities: dict[int, int | None] = {}
    for s in seats:
        if s.user_id is not None:
            identities[s.seat] = s.user_id
        elif s.bot and s.seat not in gone:
            identities[s.seat] = bot_player(conn, bot_level(s.bot), now)
        else:
            identities[s.seat] = None
    distinct = {pid for pid in identities.values() if pid is not None}
    rated = summary.rated and group != SOLO and len(distinct) >= 2
    rows = [
        store.ParticipantRow(
            seat=s.seat,
            player_id=identities[s.seat],
            name=s.name,
            bot=None if s.seat in gone else s.bot,
            score=s.score,
            rank=seat_ranks[s.seat],
            left=s.seat in gone,
            solo_rank=solo_rank(summary.game, s.score) if summary.players == 1 else None,
        )
        for s in seats
    ]
    new_ratings = _rate(conn, summary.game, group, rows, now) if rated else []
    match_id = store.insert_match(
        conn, summary.table_id, summary.game, summary.players, group, rated, summary.status, now
    )
    if match_id is None:  # recorded meanwhile by another process
        return None
    store.insert_participants(conn, match_id, rows)
    for row, exists in new_ratings:
        store.save_rating(conn, row, exists)
    # A tournament's table: its result and standings change with the match, once.
    store_tournaments.record_result(
        conn, summary.table_id, [seat_ranks[s.seat] for s in seats], summary.absent
    )
    # The league's: a program that did not play its seat itself forfeits (``league_forfeits``).
    store_league.record_result(
        conn, summary.table_id, [seat_ranks[s.seat] for s in seats], league_forfeits(summary)
    )
    return Recorded(match_id, rated, rows)


def league_forfeits(summary: MatchSummary) -> list[int]:
    """The seats held by an account (a program, at a league table) that did not play all
    of its moves itself: a stand-in chose at least one, or it chose none
    (``store.league.forfeits_in_log`` reads the same from the stored log)."""
    held = [seat.seat for seat in summary.seats if seat.user_id is not None]
    return forfeited(held, set(held) - set(summary.absent), set(summary.stood_in))


def _rate(
    conn: Connection, game: str, group: str, rows: list[store.ParticipantRow], now: float
) -> list[tuple[store.RatingRow, bool]]:
    """One Plackett-Luce update of the rows' players: fills in the rows' before and
    after, returns each new rating and whether one was stored before."""
    rated = [row for row in rows if row.player_id is not None]
    ids = [row.player_id for row in rated if row.player_id is not None]
    stored = store.ratings_for(conn, ids, game, group)
    prior = {
        pid: stored.get(pid) or store.RatingRow(pid, game, group, MODEL.mu, MODEL.sigma)
        for pid in ids
    }
    teams = [[MODEL.rating(mu=prior[pid].mu, sigma=prior[pid].sigma)] for pid in ids]
    updated = MODEL.rate(teams, ranks=[row.rank for row in rated])
    after: dict[int, list[tuple[float, float]]] = {}
    for pid, team in zip(ids, updated, strict=True):
        after.setdefault(pid, []).append((team[0].mu, team[0].sigma))
    out = []
    for pid, results in after.items():
        before = prior[pid]
        mine = [row for row in rated if row.player_id == pid]
        mu = sum(m for m, _ in results) / len(results)
        sigma = sum(s for _, s in results) / len(results)
        won = any(row.rank == 1 and not row.left for row in mine)
        new = store.RatingRow(
            pid, game, group, mu, sigma, before.games + 1, before.wins + int(won), now
        )
        out.append((new, pid in stored))
        for row in mine:
            row.mu_before, row.sigma_before = before.mu, before.sigma
            row.mu_after, row.sigma_after = mu, sigma
    return out
