"""Espresso's integer actions and observation (2-6 players, per options).

A place a card comes from is a *ref*, relative to the actor: ``(owner
offset, source)`` with the sources espresso, help 0-2, pile of the actor
(offset 0), then with Chaos the help 0-2 and pile of each other seat, next
seat first (offset 1, 2, ...). R = 5 refs, or 5 + 4 x (players - 1) with
Chaos. A target is a centre stack 0..S-1 or "new", S + 1 targets, where S
is the most stacks a round can hold: every stack starts with a 0 (4 per
deck), or with Zero a 1 or a joker (8 per deck): S = 4 x players, or 8 x
players with Zero.

Actions, in index order:

- 0: ready
- 1 ..: play: ref (R) x target (S + 1)
- then, with Zero only: joker: joker ref (R) x follower ref (R) x target (S + 1)
- then flip 3, flip 2, recycle
- last: no-op (do nothing this tick; only the real-time environments use it,
  it is not a JSON action and decodes to None)

2 players, no variant: 50 actions; 4 players: 90; 4 with Zero: 995; 4 with
Zero and Chaos: 10,103.

Observation (seats relative: the observer first), per seat 76 values:
espresso count / 9 and top card, help cards 3 x card, pile count / 36 and
top card, hand count / 36, score / 100, ready, stuck; a card is 14 values
(present; colour one-hot 4; value one-hot 9). Then the table: phase one-hot
(ready play over) 3, round / 10, target / 100, zero, chaos, and S stacks x 15
(present; height / 9; top colour one-hot 4; the value the top stands for
one-hot 9), and winners multi-hot per seat: 7 + 76 x players + 15 x S +
players values (2 players, no variant: 281; 4 with Zero: 795).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from coffeetable.engine import Action, State, View
from coffeetable.games.espresso.cards import (
    COLOURS,
    DECK_SIZE,
    HELP_SLOTS,
    MAX_PLAYERS,
    VALUES_PER_COLOUR,
    colour_of,
    value_of,
)
from coffeetable.interop.encoding import Codec, Features, IndexedLegal, scaled

if TYPE_CHECKING:
    from numpy.typing import NDArray

PHASES = ("ready", "play", "over")
COLOUR_INDEX = {colour: c for c, colour in enumerate(COLOURS)}
#: Values of a card (present, colour, value) and of a centre stack (present, height, top).
CARD_VALUES = 1 + len(COLOURS) + VALUES_PER_COLOUR
STACK_VALUES = 2 + len(COLOURS) + VALUES_PER_COLOUR
#: A seat's block: espresso count and top, help slots, pile count and top, hand, score, flags.
AREA_VALUES = 1 + CARD_VALUES * (1 + HELP_SLOTS) + 1 + CARD_VALUES + 4
#: Where a card's value one-hot starts among its values.
VALUE_AT = 1 + len(COLOURS)
#: Where a seat block's pile count, then its hand count, lie (its top card, score, flags follow).
PILE_AT = 1 + CARD_VALUES * (1 + HELP_SLOTS)
HAND_AT = PILE_AT + 1 + CARD_VALUES
#: card -> where its colour's and its value's ones lie among its 14 values (``colour_of``,
#: ``value_of``); a stack's top uses them one further on (a stack's second value is its height).
CARD_ONES = [
    (1 + colour_of(card), VALUE_AT + value_of(card)) for card in range(MAX_PLAYERS * DECK_SIZE)
]
#: A ref relative to the actor: (owner offset, source, help slot or -1).
Ref = tuple[int, str, int]


def max_stacks(players: int, zero: bool) -> int:
    return (8 if zero else 4) * players


def refs(players: int, chaos: bool) -> list[Ref]:
    out: list[Ref] = [(0, "espresso", -1)]
    out += [(0, "help", slot) for slot in range(HELP_SLOTS)]
    out.append((0, "pile", -1))
    if chaos:
        for offset in range(1, players):
            out += [(offset, "help", slot) for slot in range(HELP_SLOTS)]
            out.append((offset, "pile", -1))
    return out


def _ref_fields(ref: Ref) -> dict[str, Any]:
    """The wire fields of a relative ref; "owner" holds the offset (0: left out)."""
    offset, source, slot = ref
    fields: dict[str, Any] = {"source": source}
    if source == "help":
        fields["slot"] = slot
    if offset:
        fields["owner"] = offset
    return fields


def action_table(players: int, zero: bool, chaos: bool) -> list[Action]:
    places = refs(players, chaos)
    targets: list[int | str] = [*range(max_stacks(players, zero)), "new"]
    actions: list[Action] = [{"type": "ready"}]
    actions += [
        {"type": "play", **_ref_fields(ref), "target": target}
        for ref in places
        for target in targets
    ]
    if zero:
        actions += [
            {"type": "joker", **_ref_fields(ref), "follow": _ref_fields(follow), "target": target}
            for ref in places
            for follow in places
            for target in targets
        ]
    actions += [{"type": "flip", "count": 3}, {"type": "flip", "count": 2}, {"type": "recycle"}]
    actions.append({"type": "noop"})
    return actions


class EspressoCodec(Codec):
    """Espresso's codec: "owner" is relative to the actor, so actions take the seat."""

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        self.stacks = max_stacks(players, options["zero"])
        table = action_table(players, options["zero"], options["chaos"])
        super().__init__("espresso", players, options, table, self.write_features)
        self.noop = len(table) - 1
        self.chaos: bool = options["chaos"]
        #: targets a ref has (the stacks, then "new"): a play's index is 1 + ref x this + target
        self.targets = self.stacks + 1
        flips = self.noop - 3
        self.flip3, self.flip2, self.recycle = flips, flips + 1, flips + 2
        #: seat -> (owner, index base of its refs seen from that seat): ``legal``'s places
        self._owners = [self._places(seat) for seat in range(players)]
        #: seat -> where each value of its observation comes from in seat 0's (``rotated``)
        self._turns = [self._turn(seat) for seat in range(players)]

    def _shift(self, action: Action, seat: int, sign: int) -> Action:
        """Turn "owner" fields from absolute to relative to ``seat`` (sign -1) or back (+1)."""
        out = dict(action)
        if isinstance(out.get("follow"), dict):
            out["follow"] = dict(out["follow"])
        for part in (out, out.get("follow")):
            if isinstance(part, dict) and "owner" in part:
                owner = part["owner"]
                if type(owner) is not int:
                    return {"type": "invalid"}
                moved = (owner + sign * seat) % self.players
                if sign < 0 and moved == 0:
                    return {"type": "invalid"}  # an explicit own "owner" is not canonical
                part["owner"] = moved
        return out

    def encode(
        self, action: Any, state: State | None = None, seat: int | None = None
    ) -> int | None:
        if seat is None:
            raise ValueError("an Espresso action is encoded for a seat")
        return self.lookup(self._shift(action, seat, -1))

    def decode(self, index: int, state: State | None = None, seat: int | None = None) -> Action:
        if seat is None:
            raise ValueError("an Espresso action is decoded for a seat")
        # ``_shift`` copies the entry (its "follow" too; every other value is immutable)
        return self._shift(self.actions[int(index)], seat, +1)

    def _places(self, seat: int) -> list[tuple[int, int]]:
        """(owner, the play index of its first ref: 1 + ref x targets) of every area
        ``seat`` may take from: its own (espresso, help 0-2, pile: refs 0-4), then with
        Chaos each other seat's (help 0-2, pile: its espresso is not offered), next seat
        first, as ``refs`` orders them."""
        out = [(seat, 1)]
        if self.chaos:
            for offset in range(1, self.players):
                first_ref = 5 + 4 * (offset - 1)
                out.append(((seat + offset) % self.players, 1 + first_ref * self.targets))
        return out

    def legal(self, state: State, seat: int) -> Mapping[int, Action]:  # type: ignore[override]
        """``legal_from(state.legal_actions(seat))``, the same items: the indices of
        ``legal_indices``, each action made only when asked (``decode``). The tests hold
        it to ``legal_from``."""
        indices = self.legal_indices(state, seat)

        def make(index: int) -> Action:
            return self.decode(index, state, seat)

        return IndexedLegal(indices, frozenset(indices), make)

    def legal_indices(self, state: State, seat: int, shift: int = 0) -> list[int]:
        """The indices of the seat's legal actions, plus ``shift`` (the environments put
        every seat's mask in one array), read straight from the state as
        ``legal_actions`` finds the actions: the cards the seat may take, the stacks
        waiting for each face (``state.wanted``). A position with a Zero joker to play
        takes the plain path (``legal_from``), and so does any phase but play."""
        s: Any = state
        if s.phase != "play":
            if s.phase == "ready":
                return [] if s.areas[seat].ready else [shift]  # index 0: ready
            return [index + shift for index in super().legal(state, seat)]
        zero, wanted, targets, new = s.zero, s.wanted, self.targets, self.stacks
        new_value = 1 if zero else 0
        indices: list[int] = []
        areas = s.areas
        for owner, base in self._owners[seat]:
            area = areas[owner]
            # the area's refs from ``base``: espresso (its own only), help 0-2, pile
            at = base + shift
            cards: list[tuple[int, int]] = []
            if owner == seat:
                if area.espresso:
                    cards.append((at, area.espresso[-1]))
                at += targets
            for card in area.help:
                if card is not None:
                    cards.append((at, card))
                at += targets
            if area.pile:
                cards.append((at, area.pile[-1]))
            for at, card in cards:
                face = card % DECK_SIZE
                value = face % VALUES_PER_COLOUR
                if zero and value == 0:  # a joker: the plain path
                    return [index + shift for index in super().legal(state, seat)]
                if face in wanted:
                    indices += [at + stack for stack in wanted[face] if stack < new]
                if value == new_value:
                    indices.append(at + new)
        area = areas[seat]
        if area.hand:
            indices.append(self.flip3 + shift)
            if area.stuck:
                indices.append(self.flip2 + shift)
        elif area.pile:
            indices.append(self.recycle + shift)
        return indices

    def write_features(self, view: View, f: Features) -> None:
        seat = view["seat"] if view["seat"] is not None else 0
        players = view["players"]
        n = len(players)
        for offset in range(n):
            player = players[(seat + offset) % n]
            f.scalar(player["espresso"]["count"], 9)
            _card(f, player["espresso"]["top"])
            for card in player["help"]:
                _card(f, card)
            f.scalar(player["pile"]["count"], 36)
            _card(f, player["pile"]["top"])
            f.scalar(player["hand"]["count"], 36)
            f.scalar(player["score"], 100)
            f.flag(player["ready"])
            f.flag(player["stuck"])
        f.one_hot(PHASES.index(view["phase"]), len(PHASES))
        f.scalar(view["round"], 10)
        f.scalar(view["target"], 100)
        f.flag(view["options"]["zero"])
        f.flag(view["options"]["chaos"])
        centre = view["centre"]
        if len(centre) > self.stacks:
            raise ValueError(f"{len(centre)} stacks: more than the {self.stacks} foreseen")
        for stack in centre:
            f.flag(True)
            f.scalar(len(stack), 9)
            top = stack[-1]
            f.one_hot(COLOUR_INDEX[top["colour"]], len(COLOURS))
            f.one_hot(top.get("as", top["value"]), VALUES_PER_COLOUR)
        f.skip((self.stacks - len(centre)) * STACK_VALUES)  # the stacks not (yet) on the table
        f.multi_hot([(w - seat) % n for w in view["winners"]], n)

    def observe_state(self, state: State, seat: int) -> NDArray[np.float32]:
        """``observe(state.view(seat))`` from the state's fields (``write_features``' layout;
        the tests hold them equal): no view, no card dicts.

        Written for speed (the environments encode every tick): ``ones`` collects the
        indices set to 1, ``indices`` and ``values`` every count (``count / scale``
        clipped at 1; a 0 is written too, over the zeros), a card's three ones come from
        ``CARD_ONES``; the vector is filled by two ``put``s."""
        s: Any = state
        n = s.players
        ones: list[int] = []
        indices: list[int] = []
        values: list[float] = []
        show_help = s.phase != "ready"
        areas, totals = s.areas, s.totals
        cards = CARD_ONES
        at = 0
        for offset in range(n):
            other = (seat + offset) % n
            area = areas[other]
            espresso, pile = area.espresso, area.pile
            score = totals[other] / 100
            indices += (at, at + PILE_AT, at + HAND_AT, at + HAND_AT + 1)
            values += (
                len(espresso) / 9,
                len(pile) / 36,
                len(area.hand) / 36,
                score if score < 1.0 else 1.0,
            )
            if espresso:
                colour, value = cards[espresso[-1]]
                ones += (at + 1, at + 1 + colour, at + 1 + value)
            if show_help:
                slot_at = at + 1 + CARD_VALUES
                for card in area.help:
                    if card is not None:
                        colour, value = cards[card]
                        ones += (slot_at, slot_at + colour, slot_at + value)
                    slot_at += CARD_VALUES
            if pile:
                colour, value = cards[pile[-1]]
                top_at = at + PILE_AT + 1
                ones += (top_at, top_at + colour, top_at + value)
            if area.ready:
                ones.append(at + HAND_AT + 2)
            if area.stuck:
                ones.append(at + HAND_AT + 3)
            at += AREA_VALUES
        ones.append(at + PHASES.index(s.phase))
        scaled(ones, indices, values, at + 3, s.round_number, 10)
        scaled(ones, indices, values, at + 4, s.target, 100)
        if s.zero:
            ones.append(at + 5)
        if s.chaos:
            ones.append(at + 6)
        at += 7
        centre, zero = s.centre, s.zero
        if len(centre) > self.stacks:
            raise ValueError(f"{len(centre)} stacks: more than the {self.stacks} foreseen")
        for stack in centre:
            top = stack[-1]
            colour, shown = cards[top]
            if zero and shown == VALUE_AT:
                # as the view's centre: a Zero joker stands for one more than the card below
                jokers = 0
                for card in reversed(stack):
                    shown = value_of(card)
                    if shown:
                        break
                    jokers += 1
                shown += VALUE_AT + jokers - (shown == 0)  # only jokers: the first stands for 0
            height = len(stack) / 9
            indices.append(at + 1)
            values.append(height if height < 1.0 else 1.0)
            ones += (at, at + 1 + colour, at + 1 + shown)
            at += STACK_VALUES
        at += (self.stacks - len(centre)) * STACK_VALUES
        ones += [at + (w - seat) % n for w in s.winners]
        out = np.zeros(self.observation_size, dtype=np.float32)
        out.put(ones, 1.0)
        out.put(indices, values)
        return out

    def rotated(self, base: NDArray[np.float32], seat: int) -> NDArray[np.float32]:
        """``observe_state(state, seat)`` from ``base``, seat 0's observation of the same state.

        Every seat sees the same table, only counted from itself: the seat blocks come
        in turn order from the observer and the winners are relative, the rest is the
        same. So an environment encodes a state once and turns it for each seat (a fresh
        array each time); the tests hold it to ``observe_state``.
        """
        if seat == 0:
            return base.copy()
        return base.take(self._turns[seat])

    def _turn(self, seat: int) -> NDArray[np.intp]:
        """Where each value of ``seat``'s observation lies in seat 0's (``rotated``)."""
        n = self.players
        areas = n * AREA_VALUES
        turn = seat * AREA_VALUES
        winners = self.observation_size - n
        return np.concatenate(
            (
                np.arange(turn, areas),
                np.arange(turn),
                np.arange(areas, winners),
                np.arange(winners + seat, winners + n),
                np.arange(winners, winners + seat),
            )
        ).astype(np.intp)


def _card(f: Features, card: dict[str, Any] | None) -> None:
    """A card's 14 values: present, colour one-hot, value one-hot (none for no card)."""
    if card is None:
        f.skip(CARD_VALUES)
        return
    f.flag(True)
    f.one_hot(COLOUR_INDEX[card["colour"]], len(COLOURS))
    f.one_hot(card["value"], VALUES_PER_COLOUR)


def build(players: int, options: dict[str, Any]) -> Codec:
    return EspressoCodec(players, options)
