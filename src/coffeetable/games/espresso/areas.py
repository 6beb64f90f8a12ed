"""What each Espresso player has in front of them, and the deal of a round."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from coffeetable.games.espresso.cards import ESPRESSO_SIZE, HELP_SLOTS, deck


@dataclass
class Area:
    """One player's cards in front of them, and what the stuck rule remembers."""

    espresso: list[int]  # face up as a stack: only the last (top) card is visible
    help: list[int | None]  # three face-up slots
    hand: list[int]  # face down; the last card is flipped first
    pile: list[int] = field(default_factory=list)  # face up; the last card is on top
    ready: bool = False
    #: Stuck rule: no card placed during a whole pass through the hand deck.
    stuck: bool = False
    placed_this_pass: bool = False
    #: Blocked rule: recycles since a card last went to the centre (anyone's).
    recycles_since_centre: int = 0

    def copy(self) -> Area:
        return Area(
            list(self.espresso),
            list(self.help),
            list(self.hand),
            list(self.pile),
            self.ready,
            self.stuck,
            self.placed_this_pass,
            self.recycles_since_centre,
        )

    def cards(self) -> list[int]:
        return self.espresso + [c for c in self.help if c is not None] + self.hand + self.pile


def deal(owner: int, rng: random.Random) -> Area:
    """Shuffle ``owner``'s deck: 9 to the espresso stack, 3 help cards, 24 in hand."""
    cards = deck(owner)
    rng.shuffle(cards)
    espresso_end = ESPRESSO_SIZE + HELP_SLOTS
    return Area(
        espresso=cards[:ESPRESSO_SIZE],
        help=list(cards[ESPRESSO_SIZE:espresso_end]),
        hand=cards[espresso_end:],
    )
