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

from typing import TYPE_CHECKING, Any

import numpy as np

from coffeetable.engine import Action, State, View
from coffeetable.games.espresso.cards import (
    COLOURS,
    DECK_SIZE,
    HELP_SLOTS,
    VALUES_PER_COLOUR,
    colour_of,
    value_of,
)
from coffeetable.interop.encoding import Codec, Features, scaled

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
        the tests hold them equal): no view, no card dicts."""
        s: Any = state
        n = s.players
        ones: list[int] = []
        indices: list[int] = []
        values: list[float] = []
        hide_help = s.phase == "ready"
        at = 0
        for offset in range(n):
            other = (seat + offset) % n
            area = s.areas[other]
            espresso, pile = area.espresso, area.pile
            scaled(ones, indices, values, at, len(espresso), 9)
            if espresso:
                ones += _card_ones(at + 1, espresso[-1])
            if not hide_help:
                for slot, card in enumerate(area.help):
                    if card is not None:
                        ones += _card_ones(at + 1 + CARD_VALUES * (1 + slot), card)
            at += 1 + CARD_VALUES * (1 + HELP_SLOTS)
            scaled(ones, indices, values, at, len(pile), 36)
            if pile:
                ones += _card_ones(at + 1, pile[-1])
            at += 1 + CARD_VALUES
            scaled(ones, indices, values, at, len(area.hand), 36)
            scaled(ones, indices, values, at + 1, s.totals[other], 100)
            if area.ready:
                ones.append(at + 2)
            if area.stuck:
                ones.append(at + 3)
            at += 4
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
            ones.append(at)
            scaled(ones, indices, values, at + 1, len(stack), 9)
            top = stack[-1]
            shown = value_of(top)
            if zero and shown == 0:
                # as the view's centre: a Zero joker stands for one more than the card below
                jokers = 0
                for card in reversed(stack):
                    shown = value_of(card)
                    if shown:
                        break
                    jokers += 1
                shown += jokers - (shown == 0)  # only jokers: the first stands for 0
            ones.append(at + 2 + colour_of(top))
            ones.append(at + 2 + len(COLOURS) + shown)
            at += STACK_VALUES
        at += (self.stacks - len(centre)) * STACK_VALUES
        ones += [at + (w - seat) % n for w in s.winners]
        out = np.zeros(self.observation_size, dtype=np.float32)
        out.put(ones, 1.0)
        if indices:
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
        n = self.players
        areas = n * AREA_VALUES
        turn = seat * AREA_VALUES
        winners = len(base) - n
        return np.concatenate(
            (
                base[turn:areas],
                base[:turn],
                base[areas:winners],
                base[winners + seat :],
                base[winners : winners + seat],
            )
        )


def _card_ones(at: int, card: int) -> tuple[int, int, int]:
    """Where a card's three ones lie in its 14 values at ``at`` (present, colour, value):
    ``colour_of`` and ``value_of``, inlined."""
    return (
        at,
        at + 1 + card % DECK_SIZE // VALUES_PER_COLOUR,
        at + VALUE_AT + card % VALUES_PER_COLOUR,
    )


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
