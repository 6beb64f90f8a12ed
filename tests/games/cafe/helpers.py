"""Builders for Café tests: hand-drawn grids, states set at a phase, random play."""

from __future__ import annotations

import json
import random
from typing import Any

from coffeetable.engine import Action
from coffeetable.games.cafe import CafeGame, CafeState
from coffeetable.games.cafe.cards import BY_ID, COLOURS, LETTERS
from coffeetable.games.cafe.grid import Cafe, Company, Pos, Square

GAME = CafeGame()
ICON = {"d": "dry", "o": "roast", "u": "cup", "s": "ship", "C": "cafe", ".": "blank"}


def new(players: int = 1, seed: int = 0, **options: Any) -> CafeState:
    return GAME.new_state(players=players, seed=seed, **options)


def start(card: str = "A1") -> Company:
    """A company with only its start card, at (0, 0)-(2, 1)."""
    return Company(BY_ID[card])


def drawn(*rows: str, card: str = "T") -> Company:
    """A company drawn row by row (y = 0, 1, ...; x = column); a space is no square.

    Symbols as in cards.py; every square belongs to card ``card``, ``C`` cells to
    no café until ``cafe`` adds one.
    """
    company = start()
    company.grid, company.cafes, company.cards = {}, {}, []
    for y, row in enumerate(rows):
        for x, symbol in enumerate(row):
            if symbol == " ":
                continue
            if symbol in LETTERS:
                company.grid[(x, y)] = Square("bean", LETTERS[symbol], card)
            else:
                company.grid[(x, y)] = Square(ICON[symbol], None, card)
    company._areas = None  # (a new layout, and a new revision: the grid was redrawn)
    return company


def cafe(
    company: Company, cafe_id: str, cells: list[Pos], need: dict[str, int], points: int
) -> Cafe:
    """Make ``cells`` (café squares of the drawing) one café of ``company``."""
    for pos in cells:
        company.grid[pos].card = cafe_id
    company.cafes[cafe_id] = Cafe(cafe_id, tuple(cells), dict(need), points)
    company.changed()
    return company.cafes[cafe_id]


def put(company: Company, pos: Pos, colour: str, cubes: int = 1) -> None:
    company.grid[pos].cubes, company.grid[pos].cube_colour = cubes, colour
    company.changed()


def acting(company: Company, actions: int = 8, seed: int = 0) -> CafeState:
    """A solo state in its actions phase with ``company`` as seat 0 (supply kept whole)."""
    state = new(1, seed)
    while state.phase != "actions":
        state.apply(0, state.legal_actions(0)[0])
    state.companies[0] = company
    state.supply = {c: 35 - company.cube_total()[c] for c in COLOURS}
    state.actions_left = [actions]
    return state


def fingerprint(state: CafeState) -> str:
    """Everything about a state, the generator included (for 'nothing changed')."""
    data = {k: v for k, v in vars(state).items() if k not in ("game", "rng", "companies")}
    companies = [
        (sorted((p, vars(s)) for p, s in c.grid.items()), [vars(f) for f in c.cafes.values()],
         c.warehouse, c.cards)
        for c in state.companies
    ]  # fmt: skip
    return json.dumps([data, companies], sort_keys=True, default=str) + str(state.rng.getstate())


def cube_counts(state: CafeState) -> dict[str, int]:
    """colour -> cubes in the supply, on squares, on cafés and in warehouses."""
    out = dict(state.supply)
    for company in state.companies:
        for colour, n in company.cube_total().items():
            out[colour] += n
    return out


def busy_choice(state: CafeState, seat: int, rng: random.Random, passing: float = 0.1) -> Action:
    """A random legal action that rarely passes (so games reach deliveries)."""
    legal = state.legal_actions(seat)
    busy = [a for a in legal if a["type"] != "pass"]
    return rng.choice(busy if busy and rng.random() > passing else legal)


def play(
    players: int, seed: int, steps: int | None = None
) -> tuple[CafeState, list[tuple[int, Action]]]:
    """A random game (or its first ``steps`` actions); the state and its (seat, action) log."""
    state, rng = new(players, seed), random.Random(seed)
    log: list[tuple[int, Action]] = []
    while not state.is_over and (steps is None or len(log) < steps):
        seat = rng.choice(state.actors())
        action = busy_choice(state, seat, rng)
        state.apply(seat, action)
        log.append((seat, action))
    return state, log
