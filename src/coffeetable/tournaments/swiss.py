"""The next round of a Swiss tournament.

Two seats a table, the Dutch system's rules, simplified where a small field allows:

- players are ranked by score, then by entry order (their seed);
- with an odd number, the lowest-ranked player who has had no bye gets it;
- each score group is split in halves, the top half meeting the bottom half in order
  (1 against 1 + n/2, ...); a player left over floats down to the next group;
- no two players meet twice while another pairing avoids it (a bounded search with
  backtracking; beyond its bound, or when there is none, repeats are allowed);
- seat 0 (white) goes to the player who has had it less often, then to the one who
  did not have it last, then alternates by round and board between the higher and
  lower ranked (round 1: board 1's higher-ranked, board 2's lower-ranked, ...).

Three to six seats: tables of close scores, filled from the top of the ranking; each
place is taken by the nearest-ranked player (within two tables' worth) who has met the
table least, so who meets whom rotates; the seat order puts the player who has sat
latest so far first.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from coffeetable.tournaments.results import Table, meetings, met_with, scores

#: The most pairings the search tries before it allows repeat meetings.
SEARCH_BOUND = 20_000


def table_sizes(count: int, seats: int, fewest: int = 2) -> tuple[list[int], int]:
    """How ``count`` players sit at tables of up to ``seats`` (at least ``fewest`` each):
    the table sizes, largest first and as equal as possible, and how many get a bye."""
    if seats < 2 or fewest < 2 or fewest > seats:
        raise ValueError(f"tables of {fewest} to {seats} seats cannot be set")
    if seats == 2 or count < fewest:
        return [seats] * (count // seats), count % seats
    tables = -(-count // seats)
    base, extra = divmod(count, tables)
    while base < fewest:  # too few for that many tables: fewer tables, byes for the rest
        tables -= 1
        base, extra = divmod(count, tables)
        if base > seats:
            base, extra = seats, 0
    placed = tables * base + extra
    return [base + 1] * extra + [base] * (tables - extra), count - placed


def _ranked(players: Sequence[str], score: dict[str, Fraction]) -> list[str]:
    seed = {player: index for index, player in enumerate(players)}
    return sorted(players, key=lambda player: (-score[player], seed[player]))


def _byes(rounds: Sequence[Sequence[Table]]) -> set[str]:
    return {table.players[0] for round_ in rounds for table in round_ if table.bye}


def _give_byes(ranked: list[str], count: int, rounds: Sequence[Sequence[Table]]) -> list[str]:
    """The ``count`` lowest-ranked players without a bye yet (the lowest if all had one)."""
    had = _byes(rounds)
    chosen = [player for player in reversed(ranked) if player not in had][:count]
    for player in reversed(ranked):
        if len(chosen) == count:
            break
        if player not in chosen:
            chosen.append(player)
    return chosen


def _preference(top: str, others: list[str], score: dict[str, Fraction]) -> list[str]:
    """``top``'s opponents in the Dutch order: the bottom half of its score group from
    its middle, then the top half upwards, then the lower groups in order."""
    group = [top] + [player for player in others if score[player] == score[top]]
    half = max(1, len(group) // 2)
    same = group[half:] + list(reversed(group[1:half]))
    return same + [player for player in others if player not in group]


def _search(
    ranked: list[str],
    score: dict[str, Fraction],
    met: dict[frozenset[str], int],
    budget: list[int],
) -> list[tuple[str, str]] | None:
    """Pairs for ``ranked`` with no repeat meeting, or None (none, or beyond the bound)."""
    if not ranked:
        return []
    top, others = ranked[0], ranked[1:]
    for opponent in _preference(top, others, score):
        if met.get(frozenset((top, opponent)), 0):
            continue
        budget[0] -= 1
        if budget[0] < 0:
            return None
        rest = _search([player for player in others if player != opponent], score, met, budget)
        if rest is not None:
            return [(top, opponent), *rest]
    return None


def _seat_history(rounds: Sequence[Sequence[Table]]) -> dict[str, list[float]]:
    """Each player's seats so far, as a share of the table (0 first, 1 last)."""
    history: dict[str, list[float]] = {}
    for round_ in rounds:
        for table in round_:
            if table.bye:
                continue
            last = len(table.players) - 1
            for index, player in enumerate(table.players):
                history.setdefault(player, []).append(index / last)
    return history


def _two_seat_order(
    higher: str, lower: str, history: dict[str, list[float]], turn: int
) -> tuple[str, str]:
    """Who has seat 0 (white): fewer seat-0 games, then not seat 0 last time, then the
    higher-ranked on an even ``turn`` (round plus board number)."""

    def balance(player: str) -> int:
        seats = history.get(player, [])
        return sum(1 for seat in seats if seat == 0) - sum(1 for seat in seats if seat == 1)

    if balance(higher) != balance(lower):
        return (higher, lower) if balance(higher) < balance(lower) else (lower, higher)
    last_higher = history.get(higher, [None])[-1]
    last_lower = history.get(lower, [None])[-1]
    if last_higher != last_lower and None not in (last_higher, last_lower):
        return (higher, lower) if last_higher == 1 else (lower, higher)
    return (higher, lower) if turn % 2 == 0 else (lower, higher)


def _seat_order(table: list[str], history: dict[str, list[float]]) -> tuple[str, ...]:
    """The players who have sat latest so far sit first (stable for equals)."""
    lateness = {player: sum(history.get(player, [])) for player in table}
    return tuple(sorted(table, key=lambda player: -lateness[player]))


def pair_round(
    players: Sequence[str],
    rounds: Sequence[Sequence[Table]],
    seats: int = 2,
    fewest: int = 2,
) -> list[Table]:
    """The next round's tables for ``players`` (in entry order; withdrawn ones left out)
    after ``rounds`` (every table played); byes last."""
    score = scores(players, rounds)
    ranked = _ranked(players, score)
    sizes, bye_count = table_sizes(len(ranked), seats, fewest)
    byes = _give_byes(ranked, bye_count, rounds)
    ranked = [player for player in ranked if player not in byes]
    met = meetings(rounds)
    history = _seat_history(rounds)
    tables: list[Table] = []
    if seats == 2:
        pairs = _search(ranked, score, met, [SEARCH_BOUND]) or _search(
            ranked, score, {}, [len(ranked) + 1]
        )
        assert pairs is not None or not ranked
        for board, (higher, lower) in enumerate(pairs or []):
            tables.append(Table(_two_seat_order(higher, lower, history, len(rounds) + board)))
    else:
        remaining = list(ranked)
        for size in sizes:
            table = [remaining.pop(0)]
            while len(table) < size:
                window = remaining[: 2 * seats]
                chosen = min(
                    window, key=lambda player: (met_with(met, player, table), window.index(player))
                )
                remaining.remove(chosen)
                table.append(chosen)
            tables.append(Table(_seat_order(table, history)))
    return tables + [Table((player,)) for player in byes]
