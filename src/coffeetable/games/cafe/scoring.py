"""Café's final scoring: complete cafés, the warehouse (2a + b) and the tie-breaks."""

from __future__ import annotations

from collections.abc import Mapping

from coffeetable.games.cafe.grid import Company


def warehouse_points(warehouse: Mapping[str, int]) -> int:
    """2 points a cube of the scarcest colour, 1 of the next: ``2a + b`` for a <= b <= c <= d."""
    a, b, *_ = sorted(warehouse.values())
    return 2 * a + b


def cafe_points(company: Company) -> int:
    """The points of every complete café (a lost café never scores)."""
    return sum(cafe.points for cafe in company.cafes.values() if cafe.complete)


def points(company: Company) -> int:
    """The company's score if the game ended now (the final score at the end)."""
    return cafe_points(company) + warehouse_points(company.warehouse)


def tie_key(company: Company) -> tuple[int, int]:
    """Ties go to the most cubes on roasting squares, then on drying squares."""
    squares = company.grid.values()
    return (
        sum(s.cubes for s in squares if s.icon == "roast"),
        sum(s.cubes for s in squares if s.icon == "dry"),
    )


def ranking_winners(companies: list[Company]) -> list[int]:
    """The seats sharing the win: best score, then the tie-breaks; a full tie is shared."""
    keys = [(points(c), *tie_key(c)) for c in companies]
    best = max(keys)
    return [seat for seat, key in enumerate(keys) if key == best]
