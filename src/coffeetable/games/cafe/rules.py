"""Café's rules, as RULES.md (beside this module) rules them.

Eight rounds. Each round the Master reveals 3 plan cards; starting left of
the Master, each player in turn takes one (the display refills to 3 at once,
the Master picks last, the 2 left over are discarded; solo: keep 1 of 3).
Taking and placing are two actions of the same seat, one right after the
other: ``{"type": "take", "card": "C01", "pay": "red"}`` (``pay`` only for a
cup card when the area shows fewer than 2 ships), then
``{"type": "place", "x": x, "y": y, "rotation": r}``; the next seat takes
once the card is down. Then the actions phase: every seat with actions left
acts (they may interleave freely: players only share the supply) until each
has used its actions or passed (see actions.py). After round 8, complete
cafés and the warehouse score.

``scores`` is the final score at the end and, during play, what each company
would score if the game ended now (complete cafés + warehouse).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from coffeetable.engine import Action, Event, IllegalAction, View
from coffeetable.engine.contract import State
from coffeetable.games.cafe import actions
from coffeetable.games.cafe.cards import (
    BY_ID,
    COLOURS,
    CUBES_PER_COLOUR,
    DISPLAY,
    FREE_CUPS_AT_SHIPS,
    MAX_ACTIONS,
    MIN_ACTIONS,
    PLANS,
    ROUNDS,
    SOLO_RANKS,
    STARTS,
    solo_rank,
)
from coffeetable.games.cafe.grid import COVER, Company, orient, orientations
from coffeetable.games.cafe.scoring import (
    cafe_points,
    points,
    ranking_winners,
    tie_key,
    warehouse_points,
)

if TYPE_CHECKING:
    from coffeetable.games.cafe.game import CafeGame


class CafeState(State):
    """A match of Café, 1 to 4 players."""

    game: CafeGame

    def __init__(self, game: CafeGame, players: int, seed: int, options: dict[str, Any]):
        self.game = game
        self.players = players
        self.options = options
        self.rng = random.Random(seed)
        starts = list(STARTS)
        self.rng.shuffle(starts)
        self.supply = dict.fromkeys(COLOURS, CUBES_PER_COLOUR)
        self.companies = [Company(starts[seat]) for seat in range(players)]
        for company in self.companies:
            for colour in COLOURS:
                company.warehouse[colour] += 1
                self.supply[colour] -= 1
            company.changed()
        cards = [card.id for card in PLANS]
        self.rng.shuffle(cards)
        size = ROUNDS * (players + 2)
        #: undrawn cards, top first (hidden), and the plan cards out of this game (hidden)
        self.deck, self.unused = cards[:size], cards[size:]
        master = options["master"]
        if master >= players:
            raise ValueError(f"there is no seat {master} to hold the Master token")
        self.master = self.rng.randrange(players) if master < 0 else master
        self.round_number = 1
        self.display: list[str] = []
        self.discard: list[str] = []
        self.order: list[int] = []  # this round's draft order, the Master last
        self.turn = 0  # index in order of the seat taking or placing
        self.holding: str | None = None  # the card taken, to be placed
        self.actions_left = [0] * players
        self.phase = "take"
        self._winners: list[int] = []
        self._start_round()

    # -- the contract ---------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def scores(self) -> list[int]:
        return [points(company) for company in self.companies]

    @property
    def winners(self) -> list[int]:
        return list(self._winners)

    @property
    def round(self) -> int:
        return self.round_number

    def actors(self) -> list[int]:
        if self.phase in ("take", "place"):
            return [self.order[self.turn]]
        if self.phase == "actions":
            return [seat for seat, left in enumerate(self.actions_left) if left > 0]
        return []

    def _acts(self, seat: int) -> bool:
        """Is ``seat`` one of ``actors()`` (without making the list: this is every action)?"""
        if self.phase == "actions":
            return self.actions_left[seat] > 0
        return self.phase in ("take", "place") and seat == self.order[self.turn]

    def legal_actions(self, seat: int) -> list[Action]:
        self.check_seat(seat)
        phase = self.phase
        if phase == "actions":  # (``_acts`` inline, phase by phase: this is every action)
            if self.actions_left[seat] > 0:
                return actions.choices(self.companies[seat], self.supply)
            return []
        if phase == "over" or seat != self.order[self.turn]:
            return []
        if phase == "take":
            return self._take_choices(seat)
        assert self.holding is not None
        legal = self.companies[seat].layout.legal  # the legal anchors of each footprint
        return [  # Company.placements, made into actions in one go
            {"type": "place", "x": x, "y": y, "rotation": r}
            for r, _ in orientations(self.holding)
            for y, x in legal[r % 2]
        ]

    def _apply_action(self, seat: int, action: Action) -> list[Event]:
        phase = self.phase
        if phase == "over":
            raise IllegalAction("the game is over")
        if not self._acts(seat):
            raise IllegalAction(f"seat {seat} cannot act now")
        kind = action["type"]
        if phase == "actions" and kind in actions.KINDS:
            company = self.companies[seat]
            canonical = actions.resolve(company, self.supply, action)
            event = {"seat": seat, **actions.perform(company, self.supply, canonical)}
            self.actions_left[seat] = 0 if kind == "pass" else self.actions_left[seat] - 1
            return [event] + ([] if any(self.actions_left) else self._end_round())
        if phase == "take" and kind == "take":
            return self._apply_take(seat, action)
        if phase == "place" and kind == "place":
            return self._apply_place(seat, action)
        raise IllegalAction(f"a {kind!r} is not what is played now ({phase})")

    def view(self, seat: int | None) -> View:
        if seat is not None:
            self.check_seat(seat)
        over = self.phase == "over"
        return {
            "game": "cafe",
            "seat": seat,
            "phase": self.phase,
            "round": self.round_number,
            "rounds": ROUNDS,
            "master": self.master,
            "order": list(self.order),
            "turn": self.order[self.turn] if self.phase in ("take", "place") else None,
            "display": [BY_ID[c].to_json() for c in self.display],
            "holding": None if self.holding is None else _holding_json(self.holding),
            "discard": [BY_ID[c].to_json() for c in self.discard],
            "deck_count": len(self.deck),
            "supply": dict(self.supply),
            "players": [self._company_json(s) for s in range(self.players)],
            "scores": self.scores,
            "winners": list(self._winners),
            "rank": solo_rank(self.scores[0]) if over and self.players == 1 else None,
            # The solo ranking table: [least points, rank], lowest first.
            "solo_ranks": [list(entry) for entry in SOLO_RANKS] if self.players == 1 else None,
        }

    def clone(self) -> CafeState:
        # Random(0), not Random(): the state set at once replaces the seed, so there is no
        # need to read one from the system.
        rng = random.Random(0)
        rng.setstate(self.rng.getstate())
        return self._copy(rng)

    def _copy(self, rng: random.Random) -> CafeState:
        """A copy of the state with ``rng`` as its generator."""
        other = object.__new__(CafeState)
        other.__dict__.update(self.__dict__)
        other.rng = rng
        other.supply = dict(self.supply)
        other.companies = [company.copy() for company in self.companies]
        other.deck, other.unused = list(self.deck), list(self.unused)
        other.display, other.discard = list(self.display), list(self.discard)
        other.order = list(self.order)
        other.actions_left = list(self.actions_left)
        other._winners = list(self._winners)
        return other

    def determinize(self, seat: int, rng: random.Random) -> CafeState:
        """Re-deal the undrawn deck from every plan card nobody has seen (deck and box)."""
        self.check_seat(seat)
        # A copy with its new generator at once (clone would copy the old one to no use).
        other = self._copy(random.Random(rng.getrandbits(64)))
        unseen = other.deck + other.unused
        rng.shuffle(unseen)
        other.deck, other.unused = unseen[: len(other.deck)], unseen[len(other.deck) :]
        return other

    # -- the draft ------------------------------------------------------------

    def _start_round(self) -> list[Event]:
        self.order = [(self.master + 1 + i) % self.players for i in range(self.players)]
        self.turn = 0
        self.display = [self.deck.pop(0) for _ in range(DISPLAY)]
        self.phase = "take"
        return [
            {
                "type": "round",
                "round": self.round_number,
                "master": self.master,
                "order": list(self.order),
                "display": list(self.display),
            }
        ]

    def _take_choices(self, seat: int) -> list[Action]:
        """Take a card of the display, paying for it as ``payments`` says."""
        out: list[Action] = []
        for card_id in self.display:
            for pay in self.payments(seat, card_id):
                out.append(
                    {"type": "take", "card": card_id}
                    if pay is None
                    else {"type": "take", "card": card_id, "pay": pay}
                )
        return out

    def payments(self, seat: int, card_id: str) -> list[str | None]:
        """The ways ``seat`` may pay for a card of the display: [None] if it is free, else
        the colours of its warehouse ([] if it cannot be taken).

        A cup card costs a cube of the chosen colour unless 2+ ships show. If every
        card in the display costs a cube and the warehouse is empty, each is free (the
        ruling).
        """
        company = self.companies[seat]
        if not BY_ID[card_id].has_cup or company.count("ship") >= FREE_CUPS_AT_SHIPS:
            return [None]
        colours: list[str | None] = [c for c in COLOURS if company.warehouse[c] > 0]
        if colours:
            return colours
        return [None] if all(BY_ID[c].has_cup for c in self.display) else []

    def _apply_take(self, seat: int, action: Action) -> list[Event]:
        card_id: str = action["card"]
        if card_id not in self.display:
            raise IllegalAction(f"take one of {', '.join(self.display)}, not {card_id!r}")
        pay: str | None = action.get("pay")
        if pay not in self.payments(seat, card_id):
            if pay is None:
                raise IllegalAction(f'{card_id} shows a cup: pay a cube ("pay": a colour)')
            if self.companies[seat].warehouse[pay] == 0:
                raise IllegalAction(f"you have no {pay!r} cube in your warehouse to pay with")
            raise IllegalAction(f'{card_id} is free for you: take it without "pay"')
        if pay is not None:
            self.companies[seat].warehouse[pay] -= 1
            self.companies[seat].changed()
            self.supply[pay] += 1
        self.display.remove(card_id)
        self.holding = card_id
        self.phase = "place"
        events: list[Event] = [{"type": "took", "seat": seat, "card": card_id, "paid": pay}]
        if self.turn < len(self.order) - 1:
            self.display.append(self.deck.pop(0))
            events.append({"type": "revealed", "card": self.display[-1]})
        return events

    def _apply_place(self, seat: int, action: Action) -> list[Event]:
        x: int = action["x"]
        y: int = action["y"]
        rotation: int = action["rotation"]
        assert self.holding is not None
        company = self.companies[seat]
        covered = company.covers(x, y, rotation)
        if covered not in COVER:
            raise IllegalAction(f"a card must cover 2, 3 or 4 visible squares, not {covered}")
        card_id, self.holding = self.holding, None
        result = company.place(BY_ID[card_id], x, y, rotation)
        for colour, n in result.returned.items():
            self.supply[colour] += n
        events: list[Event] = [
            {
                "type": "placed",
                "seat": seat,
                "card": card_id,
                "x": x,
                "y": y,
                "rotation": rotation,
                **result.to_json(),
            }
        ]
        self.turn += 1
        if self.turn < len(self.order):
            self.phase = "take"
            return events
        self.discard += self.display
        events.append({"type": "discarded", "cards": list(self.display)})
        self.display = []
        self.phase = "actions"
        for s, company in enumerate(self.companies):
            self.actions_left[s] = min(MAX_ACTIONS, max(MIN_ACTIONS, company.count("cup")))
        events.append({"type": "actions", "actions": list(self.actions_left)})
        return events

    # -- the end of a round and of the game -------------------------------------

    def _end_round(self) -> list[Event]:
        events: list[Event] = [
            {"type": "round_over", "round": self.round_number, "scores": self.scores}
        ]
        if self.round_number == ROUNDS:
            self.phase = "over"
            self._winners = [0] if self.players == 1 else ranking_winners(self.companies)
            over: Event = {"type": "game_over", "scores": self.scores, "winners": self.winners}
            if self.players == 1:
                over["rank"] = solo_rank(self.scores[0])
            return events + [over]
        self.round_number += 1
        self.master = (self.master + 1) % self.players
        return events + self._start_round()

    def _company_json(self, seat: int) -> dict[str, Any]:
        company = self.companies[seat]
        return {
            "squares": [
                {
                    "x": x,
                    "y": y,
                    "icon": s.icon,
                    "colour": s.colour,
                    "card": s.card,
                    "cubes": s.cubes,
                    "cube_colour": s.cube_colour,
                }
                for (x, y), s in sorted(company.grid.items(), key=lambda i: (i[0][1], i[0][0]))
            ],
            "cards": [{"card": c, "x": x, "y": y, "rotation": r} for c, x, y, r in company.cards],
            "cafes": [
                {
                    "id": cafe.id,
                    "name": BY_ID[cafe.id].name,
                    "cells": [list(p) for p in cafe.cells],
                    "need": dict(cafe.need),
                    "have": dict(cafe.have),
                    "points": cafe.points,
                    "lost": cafe.lost,
                    "complete": cafe.complete,
                }
                for cafe in company.cafes.values()
            ],
            "areas": [
                {
                    "id": list(area.id),
                    "kind": area.kind,
                    "colour": area.colour,
                    "squares": [list(p) for p in area.squares],
                    "cubes": company.cubes_on(area),
                }
                for area in company.areas()
            ],
            "warehouse": dict(company.warehouse),
            "cups": company.count("cup"),
            "ships": company.count("ship"),
            # actions a round the cups give now (the track), and those left this round
            "actions": min(MAX_ACTIONS, max(MIN_ACTIONS, company.count("cup"))),
            "actions_left": self.actions_left[seat],
            "score": points(company),
            # the score's parts and the tie-breaks, for the end screen
            "cafe_points": cafe_points(company),
            "warehouse_points": warehouse_points(company.warehouse),
            "tie_break": dict(zip(("roast", "dry"), tie_key(company), strict=True)),
        }


def _holding_json(card_id: str) -> dict[str, Any]:
    """The card to place, with its squares in each of the 4 rotations, for a board to draw.

    ``turns[r]`` is ``{"rotation": q, "cells": [[dx, dy, symbol], ...]}``: the card
    turned r quarter turns, where q is the rotation legal actions name it by (a
    symmetric card's equal orientations are listed once, under the first).
    """
    canonical = {cells: rotation for rotation, cells in orientations(card_id)}
    turns = []
    for rotation in range(4):
        cells = orient(BY_ID[card_id], rotation)
        turns.append({"rotation": canonical[cells], "cells": [list(c) for c in cells]})
    return {**BY_ID[card_id].to_json(), "turns": turns}
