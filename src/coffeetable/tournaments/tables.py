"""A round robin at tables of three to six seats: every two players meet, as evenly as
the field allows.

The rounds: tables as equal as possible (``swiss.table_sizes``); byes, when the field
cannot all be seated, in turn from the last entrant up (no one has two byes more than
another). The fewest rounds that could meet every pair are tried first (a player meets
at most the widest table less one a round, and the rounds' pairs must add up to the
field's), then up to ``EXTRA_ROUNDS`` more, each from up to ``ATTEMPTS`` random deals; the
first with a spread of at most 1 is taken, else the least spread (then the fewest rounds).

For each number of rounds, simulated annealing (seeded by the field's size, so the same
field gets the same schedule) swaps two players of one round between their tables to
bring the sum over the pairs of their meetings squared down to its floor (a pair never
met costs ``ZERO_COST``, so that pairs apart go first). The cost is convex, so the floor
is reached exactly when every pair meets ``q`` or ``q + 1`` times (``q``: the mean
rounded down): with as many meetings as pairs, every pair then meets once or twice, a
spread (most meetings of a pair less fewest) of at most 1. A resolvable design, each
pair exactly once, is such a floor: affine planes of prime order are built (9 players at
tables of 3 in 4 rounds, 25 at 5 in 6); others are found by the search (Kirkman's 15
at tables of 3 in 7 rounds, 16 at tables of 4 in 5, 15 at 4 4 4 3 in 5).

The guarantee, for any field: every pair meets at least once (a pair the search left
apart is seated together in added rounds); each round seats everyone once (a table or a
bye); at each table seat 0 goes to whoever of it has had seat 0 least. Measured, not
proven (``tests/tournaments/test_round_robin.py`` checks every field of 3 to 20 at 3 to
6 seats; fields to 64 were sampled): the spread is at most 1 at tables of three from 7
players up, at most 2 at four seats from 7 up, at most 3 everywhere; the rounds are at
most 3 more than the fewest possible. Some small fields cannot do better: six players at
two tables of three cannot all meet in four rounds with a spread below 3, nor in five
below 2 (checked by trying them all); the schedule takes five rounds, spread 2.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence

from coffeetable.tournaments.results import Table
from coffeetable.tournaments.swiss import table_sizes

#: Rounds tried beyond the fewest that could meet every pair.
EXTRA_ROUNDS = 2
#: Searches (from other random deals) for one number of rounds before the next is tried;
#: no search starts once those before have taken ``BUDGET`` steps (a large field's bound).
ATTEMPTS = 3
BUDGET = 600_000
#: The search's tries for one number of rounds (each a swap of two players): this many,
#: or ``STEPS_PER_SEAT`` for each player's place in each round, up to ``MOST_STEPS``.
SEARCH_STEPS = 40_000
STEPS_PER_SEAT = 100
MOST_STEPS = 300_000
#: What a pair that never met costs the search (a pair met ``m`` times: ``m`` squared).
ZERO_COST = 9
#: The annealing's temperature, at the start and at the end.
HOT, COLD = 2.0, 0.05

Rounds = list[list[list[int]]]  # round -> table -> players (indices into the field)


def _weights(most: int) -> list[int]:
    """What a pair met ``m`` times costs, for ``m`` up to ``most + 1``: ``m`` squared, and a
    pair never met ``ZERO_COST`` (so the search meets every pair first). Convex: with the
    meetings' total fixed, the least cost is the most even spread."""
    return [ZERO_COST, *(times * times for times in range(1, most + 2))]


class _Search:
    """Simulated annealing over ``rounds`` (players by index): swap two players of one
    round between their tables, keep the swap if it costs less (or, while the search is
    hot, now and then if it costs more)."""

    def __init__(self, count: int, rounds: Rounds, rng: random.Random) -> None:
        self.count, self.rounds, self.rng = count, rounds, rng
        self.cost_of = _weights(len(rounds))
        self.up = [self.cost_of[m + 1] - self.cost_of[m] for m in range(len(rounds) + 1)]
        self.met = [[0] * count for _ in range(count)]
        self.where = [[-1] * count for _ in rounds]  # round -> player -> table (-1: a bye)
        for number, tables in enumerate(rounds):
            for index, table in enumerate(tables):
                for player in table:
                    self.where[number][player] = index
                self._meet(table, 1)
        pairs = count * (count - 1) // 2
        total = sum(len(t) * (len(t) - 1) // 2 for tables in rounds for t in tables)
        low, extra = divmod(total, pairs)
        #: The least cost: every pair met ``low`` or ``low + 1`` times.
        self.floor = extra * self.cost_of[low + 1] + (pairs - extra) * self.cost_of[low]
        self.cost = sum(
            self.cost_of[self.met[a][b]] for a in range(count) for b in range(a + 1, count)
        )

    def _meet(self, table: Sequence[int], step: int) -> None:
        for index, first in enumerate(table):
            for second in table[index + 1 :]:
                self.met[first][second] += step
                self.met[second][first] += step

    def _swap_gain(self, number: int, a: int, b: int) -> int:
        """How much swapping ``a`` and ``b`` (at two tables of one round) changes the cost."""
        met_a, met_b, up = self.met[a], self.met[b], self.up
        delta = 0
        for x in self.rounds[number][self.where[number][a]]:
            if x != a:  # a leaves x, b meets x
                delta += up[met_b[x]] - up[met_a[x] - 1]
        for y in self.rounds[number][self.where[number][b]]:
            if y != b:
                delta += up[met_a[y]] - up[met_b[y] - 1]
        return delta

    def _swap(self, number: int, a: int, b: int) -> None:
        tables, where = self.rounds[number], self.where[number]
        first, second = tables[where[a]], tables[where[b]]
        self._meet(first, -1)
        self._meet(second, -1)
        first[first.index(a)], second[second.index(b)] = b, a
        where[a], where[b] = where[b], where[a]
        self._meet(first, 1)
        self._meet(second, 1)

    def run(self, steps: int) -> Rounds:
        """Anneal for at most ``steps`` tries (cooling from ``HOT`` to ``COLD``); the best
        rounds seen."""
        best, best_cost = _copy(self.rounds), self.cost
        seated = [[p for p in range(self.count) if where[p] >= 0] for where in self.where]
        cooling = (COLD / HOT) ** (1 / max(1, steps))
        heat, rng = HOT, self.rng
        for _ in range(steps):
            if self.cost == self.floor:
                break
            heat *= cooling
            number = rng.randrange(len(self.rounds))
            a, b = rng.choice(seated[number]), rng.choice(seated[number])
            if self.where[number][a] == self.where[number][b]:
                continue
            gain = self._swap_gain(number, a, b)
            if gain <= 0 or rng.random() < math.exp(-gain / heat):
                self._swap(number, a, b)
                self.cost += gain
                if self.cost < best_cost:
                    best, best_cost = _copy(self.rounds), self.cost
        return best


def _copy(rounds: Rounds) -> Rounds:
    return [[list(table) for table in tables] for tables in rounds]


def _fewest_rounds(count: int, sizes: Sequence[int]) -> int:
    pairs = count * (count - 1) // 2
    per_round = sum(size * (size - 1) // 2 for size in sizes)
    return max(-(-(count - 1) // (max(sizes) - 1)), -(-pairs // per_round))


def _byes(count: int, byes: int, number: int) -> set[int]:
    """Round ``number``'s byes: in turn from the last entrant up."""
    return {count - 1 - (number * byes + index) % count for index in range(byes)}


def _affine(count: int, seats: int) -> Rounds | None:
    """The affine plane of a prime order ``seats`` on ``seats`` squared players (every pair
    once in ``seats + 1`` rounds), or None for any other field."""
    q = seats
    if count != q * q or any(q % d == 0 for d in range(2, q)):
        return None
    rounds = [[[x * q + y for y in range(q)] for x in range(q)]]  # the lines x = c
    for slope in range(q):  # the lines y = slope * x + c
        rounds.append([[x * q + (slope * x + c) % q for x in range(q)] for c in range(q)])
    return rounds


def _seated(count: int, sizes: Sequence[int], byes: int, total: int, seed: str) -> Rounds:
    """``total`` rounds, players dealt to the tables at random (byes in turn)."""
    rng = random.Random(f"deal {seed}")
    rounds: Rounds = []
    for number in range(total):
        out = _byes(count, byes, number)
        seated = [player for player in range(count) if player not in out]
        rng.shuffle(seated)
        tables, start = [], 0
        for size in sizes:
            tables.append(seated[start : start + size])
            start += size
        rounds.append(tables)
    return rounds


def _apart(rounds: Rounds, count: int) -> list[tuple[int, int]]:
    met = {(a, b) for tables in rounds for t in tables for a in t for b in t if a < b}
    return [(a, b) for a in range(count) for b in range(a + 1, count) if (a, b) not in met]


def _spread(rounds: Rounds, count: int) -> int:
    met = [[0] * count for _ in range(count)]
    for tables in rounds:
        for table in tables:
            for a in table:
                for b in table:
                    met[a][b] += 1
    values = [met[a][b] for a in range(count) for b in range(a + 1, count)]
    return max(values) - min(values)


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _cover(rounds: Rounds, count: int, sizes: Sequence[int], byes: int) -> Rounds:
    """Add rounds until every pair has met: each table starts with a pair still apart."""
    while apart := _apart(rounds, count):
        met = Counter(_pair(a, b) for tables in rounds for t in tables for a in t for b in t)
        out = _byes(count, byes, len(rounds))
        free = [player for player in range(count) if player not in out]
        tables: list[list[int]] = []
        for size in sizes:
            pair = next(((a, b) for a, b in apart if a in free and b in free), None)
            table = list(pair) if pair else [free[0]]
            for player in table:
                free.remove(player)
            while len(table) < size:  # then whoever has met the table least
                chosen = min(free, key=lambda p: sum(met.get(_pair(p, q), 0) for q in table))
                free.remove(chosen)
                table.append(chosen)
            tables.append(table)
        rounds.append(tables)
    return rounds


def _seat_order(rounds: Rounds, count: int) -> Rounds:
    """Each table's players in seat order: seat 0 to whoever has had it least so far."""
    first = [0] * count
    for tables in rounds:
        for table in tables:
            table.sort(key=lambda player: (first[player], player))
            first[table[0]] += 1
    return rounds


def table_schedule(players: Sequence[str], seats: int, fewest: int = 2) -> list[list[Table]]:
    """Every round of a round robin of ``players`` at tables of up to ``seats`` (3 to 6;
    at least ``fewest`` a table): see the module's guarantee."""
    count = len(players)
    sizes, byes = table_sizes(count, seats, fewest)
    if not sizes:
        raise ValueError(f"{count} players cannot sit at tables of {fewest} to {seats}")
    seed = f"{count} {seats} {fewest}"
    fewest_rounds = _fewest_rounds(count, sizes)
    best = _affine(count, seats) if not byes and sizes == [seats] * seats else None
    tried: list[tuple[int, int, Rounds]] = []  # (spread, rounds, the rounds)
    spent = 0
    for total in range(fewest_rounds, fewest_rounds + EXTRA_ROUNDS + 1):
        if best is not None or spent >= BUDGET:
            break
        steps = min(MOST_STEPS, max(SEARCH_STEPS, STEPS_PER_SEAT * total * count))
        for attempt in range(ATTEMPTS):
            if spent >= BUDGET:
                break
            spent += steps
            start = _seated(count, sizes, byes, total, f"{seed} {total} {attempt}")
            search = _Search(count, start, random.Random(f"search {seed} {total} {attempt}"))
            found = _cover(search.run(steps), count, sizes, byes)  # every pair meets
            tried.append((_spread(found, count), len(found), found))
            if tried[-1][0] <= 1:
                best = found
                break
    if best is None:  # the least spread, then the fewest rounds
        best = min(tried, key=lambda entry: entry[:2])[2]
    rounds = _seat_order(best, count)
    out: list[list[Table]] = []
    for number, tables in enumerate(rounds):
        byes_now = sorted(_byes(count, byes, number), reverse=True)
        out.append(
            [Table(tuple(players[p] for p in table)) for table in tables]
            + [Table((players[p],)) for p in byes_now]
        )
    return out
