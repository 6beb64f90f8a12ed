"""Fika's rules, as RULES.md (beside this module) rules them.

Two cafés face each other across a street of five cards. Each step both
players pick a hand card in secret; the cards are revealed together, and in
order (higher number first, then the colour order) each is placed in its
owner's café, whose effect its owner may then resolve. When one player stops
(a full café, or no card left), the other may play up to 2 more cards alone.
Round scoring, a tip card for the winner, and two tips win the game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from coffeetable.engine import Action, Event, IllegalAction, View
from coffeetable.engine.contract import State
from coffeetable.games.fika.cards import (
    CARD_COUNT,
    COLOURS,
    HAND,
    SPOTS,
    SUPPLY,
    TIPS_TO_WIN,
    card_json,
    colour_of,
    number_of,
)
from coffeetable.games.fika.effects import apply_effect, effect_choices
from coffeetable.games.fika.scoring import Placed, round_result

if TYPE_CHECKING:
    from coffeetable.games.fika.game import FikaGame

#: Plays the other player may make alone once one player has stopped.
LONE_PLAYS = 2


@dataclass
class Group:
    """A customer group: a face-down card beside the street or on a street card."""

    card: int
    column: int | None = None  # None: beside the street
    facing: int | None = None  # the seat its 3-cup half faces
    known: set[int] = field(default_factory=set)  # seats that know its face

    def copy(self) -> Group:
        return Group(self.card, self.column, self.facing, set(self.known))


class FikaState(State):
    """A match of Fika: best of three rounds."""

    game: FikaGame

    def __init__(self, game: FikaGame, players: int, seed: int, options: dict[str, Any]):
        self.game = game
        self.players = players
        self.options = options
        self.rng = random.Random(seed)
        self.tips = [0, 0]
        self.round_number = 1
        self.last_round: dict[str, Any] | None = None
        self._winners: list[int] = []
        self.chooser = self.rng.randrange(2)  # round 1: a random draw picks the primary colour
        self._deal()

    def _deal(self) -> None:
        while True:
            cards = list(range(CARD_COUNT))
            self.rng.shuffle(cards)
            supply = cards[:SUPPLY]
            if (
                len({colour_of(c) for c in supply}) >= 2
                and len({number_of(c) for c in supply}) >= 3
            ):
                break  # else shuffle and deal again
        self.supply: list[int] = supply
        self.hands: list[list[int]] = [
            cards[SUPPLY : SUPPLY + HAND],
            cards[SUPPLY + HAND : SUPPLY + 2 * HAND],
        ]
        self.groups = [Group(card) for card in cards[SUPPLY + 2 * HAND :]]
        self.cafes: list[list[int | None]] = [[None] * SPOTS, [None] * SPOTS]
        self.colour_order: list[int] = []
        self.phase = "colours"
        self.picks: list[int | None] = [None, None]
        self.order: list[int] = []  # seats still to place this step, first first
        self.placed_spot = -1  # where the card whose effect is pending lies
        self.lone: int | None = None  # the seat making the lone plays
        self.lone_left = 0

    # -- the contract ---------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def scores(self) -> list[int]:
        return list(self.tips)

    @property
    def winners(self) -> list[int]:
        return list(self._winners)

    @property
    def round(self) -> int:
        return self.round_number

    def actors(self) -> list[int]:
        if self.phase == "colours":
            return [self.chooser if not self.colour_order else 1 - self.chooser]
        if self.phase == "pick":
            return [seat for seat in self._pickers() if self.picks[seat] is None]
        if self.phase in ("place", "effect"):
            return [self.order[0]]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        self.check_seat(seat)
        if seat not in self.actors():
            return []
        if self.phase == "colours":
            return [
                {"type": "colour", "colour": COLOURS[c]}
                for c in range(3)
                if c not in self.colour_order
            ]
        if self.phase == "pick":
            actions: list[Action] = [{"type": "pick", "card": c} for c in sorted(self.hands[seat])]
            if self.lone == seat:
                actions.append({"type": "stop"})
            return actions
        if self.phase == "place":
            return [
                {"type": "place", "spot": s} for s in range(SPOTS) if self.cafes[seat][s] is None
            ]
        number = self._pending_number()
        return effect_choices(self, seat, number, self.placed_spot, self.lone is not None) + [
            {"type": "skip"}
        ]

    def _apply_action(self, seat: int, action: Action) -> list[Event]:
        if self.phase == "over":
            raise IllegalAction("the game is over")
        if seat not in self.actors():
            raise IllegalAction(f"seat {seat} cannot act now")
        kind = action["type"]
        if self.phase == "colours" and kind == "colour":
            return self._apply_colour(seat, action)
        if self.phase == "pick" and kind in ("pick", "stop"):
            return self._apply_pick(seat, action)
        if self.phase == "place" and kind == "place":
            return self._apply_place(seat, action)
        if self.phase == "effect" and kind in ("effect", "skip"):
            return self._apply_effect(seat, action)
        raise IllegalAction(f"a {kind!r} is not what is played now ({self.phase})")

    def view(self, seat: int | None) -> View:
        if seat is not None:
            self.check_seat(seat)
        revealed = self.phase in ("place", "effect")
        players = []
        for p in (0, 1):
            pick = self.picks[p]
            players.append(
                {
                    "cafe": [None if c is None else card_json(c) for c in self.cafes[p]],
                    "hand": [card_json(c) for c in sorted(self.hands[p])] if p == seat else None,
                    "hand_count": len(self.hands[p]),
                    "picked": pick is not None,
                    "pick": card_json(pick)
                    if pick is not None and (revealed or p == seat)
                    else None,
                    "tips": self.tips[p],
                }
            )
        return {
            "game": "fika",
            "seat": seat,
            "phase": self.phase,
            "round": self.round_number,
            "colour_order": [COLOURS[c] for c in self.colour_order],
            "chooser": self.chooser,
            "supply": [card_json(c) for c in self.supply],
            "groups": [
                {
                    "column": g.column,
                    "facing": g.facing,
                    "card": card_json(g.card) if seat in g.known else None,
                }
                for g in self.groups
            ],
            "players": players,
            "order": list(self.order) if revealed else [],
            "effect": (
                {"seat": self.order[0], "number": self._pending_number(), "spot": self.placed_spot}
                if self.phase == "effect"
                else None
            ),
            "lone": None if self.lone is None else {"seat": self.lone, "left": self.lone_left},
            "last_round": self.last_round,
            "preview": self.preview(),
            "winners": list(self._winners),
        }

    def clone(self) -> FikaState:
        other = object.__new__(FikaState)
        other.__dict__.update(self.__dict__)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.tips = list(self.tips)
        other.supply = list(self.supply)
        other.hands = [list(hand) for hand in self.hands]
        other.groups = [group.copy() for group in self.groups]
        other.cafes = [list(cafe) for cafe in self.cafes]
        other.colour_order = list(self.colour_order)
        other.picks = list(self.picks)
        other.order = list(self.order)
        other._winners = list(self._winners)
        return other

    def determinize(self, seat: int, rng: random.Random) -> FikaState:
        """Re-deal what ``seat`` cannot know: the opponent's hand (and secret pick)
        and the faces of the groups it has not seen, among those same places."""
        self.check_seat(seat)
        other = self.clone()
        other.rng = random.Random(rng.getrandbits(64))
        opponent = 1 - seat
        revealed = other.picks[opponent] if other.phase in ("place", "effect") else None
        hand = [card for card in other.hands[opponent] if card != revealed]
        hidden_groups = [g for g in other.groups if seat not in g.known]
        # Sorted: the draw depends only on what the seat can know (the set of unseen
        # cards), never on their real order, so indistinguishable states search alike.
        unseen = sorted(hand + [g.card for g in hidden_groups])
        rng.shuffle(unseen)
        other.hands[opponent] = unseen[: len(hand)] + ([] if revealed is None else [revealed])
        for group, card in zip(hidden_groups, unseen[len(hand) :], strict=True):
            group.card = card
        if other.phase == "pick" and other.picks[opponent] is not None:
            other.picks[opponent] = rng.choice(other.hands[opponent])
        return other

    # -- steps ----------------------------------------------------------------

    def _can_play(self, seat: int) -> bool:
        return bool(self.hands[seat]) and None in self.cafes[seat]

    def _pickers(self) -> list[int]:
        return [self.lone] if self.lone is not None else [0, 1]

    def _pending_number(self) -> int:
        card = self.cafes[self.order[0]][self.placed_spot]
        assert card is not None
        return number_of(card)

    def _apply_colour(self, seat: int, action: Action) -> list[Event]:
        name: str = action["colour"]
        if COLOURS.index(name) in self.colour_order:
            raise IllegalAction(
                f"choose one of {[COLOURS[c] for c in range(3) if c not in self.colour_order]}"
            )
        self.colour_order.append(COLOURS.index(name))
        events: list[Event] = [
            {"type": "colour", "seat": seat, "colour": name, "rank": len(self.colour_order)}
        ]
        if len(self.colour_order) == 2:
            self.colour_order.append(3 - sum(self.colour_order))  # the third is what is left
            self.phase = "pick"
        return events

    def _apply_pick(self, seat: int, action: Action) -> list[Event]:
        if action["type"] == "stop":
            if self.lone != seat:
                raise IllegalAction("only the lone player may stop")
            return self._end_round()
        card: int = action["card"]
        if card not in self.hands[seat]:
            raise IllegalAction(f"card {card} is not in your hand")
        self.picks[seat] = card
        events: list[Event] = [{"type": "picked", "seat": seat}]  # the card stays secret
        if any(self.picks[p] is None for p in self._pickers()):
            return events
        picks = [(p, self.picks[p]) for p in self._pickers()]
        rank = {colour: place for place, colour in enumerate(self.colour_order)}
        picks.sort(key=lambda pair: (-number_of(pair[1]), rank[colour_of(pair[1])]))  # type: ignore[arg-type]
        self.order = [p for p, _ in picks]
        self.phase = "place"
        events.append(
            {
                "type": "revealed",
                "picks": [None if c is None else card_json(c) for c in self.picks],
                "order": list(self.order),
            }
        )
        return events

    def _apply_place(self, seat: int, action: Action) -> list[Event]:
        spot: int = action["spot"]
        if self.cafes[seat][spot] is not None:
            raise IllegalAction(
                f"spot {spot} of your café is taken: place your card on an empty spot"
            )
        card = self.picks[seat]
        assert card is not None
        self.hands[seat].remove(card)
        self.picks[seat] = None
        self.cafes[seat][spot] = card
        self.placed_spot = spot
        self.phase = "effect"
        return [{"type": "placed", "seat": seat, "spot": spot, "card": card_json(card)}]

    def _apply_effect(self, seat: int, action: Action) -> list[Event]:
        number = self._pending_number()
        if action["type"] == "skip":
            events: list[Event] = [{"type": "skipped", "seat": seat, "number": number}]
        else:
            events = [
                apply_effect(self, seat, number, self.placed_spot, self.lone is not None, action)
            ]
        self.order.pop(0)
        return events + self._next_placement()

    def _next_placement(self) -> list[Event]:
        """Go on with the step: the next revealed card, or the next step."""
        events: list[Event] = []
        while self.order:
            seat = self.order[0]
            if None in self.cafes[seat]:
                self.phase = "place"
                return events
            card = self.picks[seat]  # its café filled up earlier in this step
            self.picks[seat] = None
            self.order.pop(0)
            events.append(
                {
                    "type": "returned",
                    "seat": seat,
                    "card": None if card is None else card_json(card),
                }
            )
        if self.lone is not None:
            self.lone_left -= 1
            if self.lone_left == 0 or not self._can_play(self.lone):
                return events + self._end_round()
        else:
            playing = [seat for seat in (0, 1) if self._can_play(seat)]
            if not playing:
                return events + self._end_round()
            if len(playing) == 1:
                self.lone, self.lone_left = playing[0], LONE_PLAYS
                events.append({"type": "lone", "seat": self.lone, "plays": LONE_PLAYS})
        self.phase = "pick"
        return events

    def _street(self) -> dict[int, Placed]:
        """The groups on the street: column -> (column, the seat its 3-cup half faces)."""
        return {
            g.column: (g.column, g.facing)
            for g in self.groups
            if g.column is not None and g.facing is not None
        }

    def preview(self) -> dict[str, Any] | None:
        """The round scored as the cafés stand now (what each would score if it ended
        here; public: the cafés and the street are face up); None once the match is over."""
        if self.phase == "over":
            return None
        return round_result(self.cafes, self._street(), self.colour_order)

    def _end_round(self) -> list[Event]:
        result = round_result(self.cafes, self._street(), self.colour_order)
        winner = result["winner"]
        assert winner is not None  # all 18 cards differ: some colour decides
        self.tips[winner] += 1
        self.last_round = {
            "round": self.round_number,
            **result,
            "colour_order": [COLOURS[c] for c in self.colour_order],
            "cafes": [[None if c is None else card_json(c) for c in cafe] for cafe in self.cafes],
        }
        events: list[Event] = [{"type": "round_over", **self.last_round}]
        if self.tips[winner] >= TIPS_TO_WIN:
            self.phase = "over"
            self.lone, self.lone_left, self.order = None, 0, []
            self._winners = [winner]
            events.append({"type": "game_over", "tips": list(self.tips), "winners": [winner]})
            return events
        self.round_number += 1
        self.chooser = 1 - winner  # the loser picks the primary colour
        self._deal()
        return events
