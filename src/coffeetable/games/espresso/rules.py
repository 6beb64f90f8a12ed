"""Espresso's rules: a real-time card race, as RULES.md (beside this module) rules it.

Every seat acts at once; ``apply`` takes actions in the order they arrive, as
the server stamps them. A round is: ready check, play until FINITO (or a
blocked round), scoring. Rounds repeat until someone reaches the target.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from coffeetable.engine import Action, Event, IllegalAction, View
from coffeetable.engine.contract import State
from coffeetable.games.espresso.actions import (
    Ref,
    parse_ref,
    parse_target,
    play_action,
    ref_fields,
)
from coffeetable.games.espresso.areas import Area, deal
from coffeetable.games.espresso.cards import (
    DECK_SIZE,
    HELP_SLOTS,
    TOP_VALUE,
    VALUES_PER_COLOUR,
    card_json,
    describe,
    face_of,
    owner_of,
    value_of,
)

if TYPE_CHECKING:
    from coffeetable.games.espresso.game import EspressoGame

__all__ = ["FINITO_BONUS", "Area", "EspressoState"]

FINITO_BONUS = 5


class EspressoState(State):
    """A match of Espresso in progress."""

    game: EspressoGame

    def __init__(self, game: EspressoGame, players: int, seed: int, options: dict[str, Any]):
        self.game = game
        self.players = players
        self.options = options
        self.zero: bool = options["zero"]
        self.chaos: bool = options["chaos"]
        self.target: int = options["target"]
        self.rng = random.Random(seed)
        self.totals = [0] * players
        self.round_number = 1
        self.phase = "ready"
        self.centre: list[list[int]] = []
        #: An index kept beside ``centre`` so finding targets is a dict look-up:
        #: the face (card % 36) a stack waits for -> the indices of those stacks.
        self.wanted: dict[int, list[int]] = {}
        self.areas = [deal(seat, self.rng) for seat in range(players)]
        self.last_round: dict[str, Any] | None = None
        #: Points per seat of every finished round, in order.
        self.history: list[list[int]] = []
        self._winners: list[int] = []

    # -- the contract ---------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def scores(self) -> list[int]:
        return list(self.totals)

    @property
    def winners(self) -> list[int]:
        return list(self._winners)

    @property
    def round(self) -> int:
        return self.round_number

    def actors(self) -> list[int]:
        if self.phase == "play":
            return list(range(self.players))
        if self.phase == "ready":
            return [seat for seat, area in enumerate(self.areas) if not area.ready]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        self.check_seat(seat)
        if self.phase == "ready":
            return [] if self.areas[seat].ready else [{"type": "ready"}]
        if self.phase != "play":
            return []
        actions: list[Action] = []
        has_joker = False
        zero, wanted = self.zero, self.wanted
        new_stack_value = 1 if zero else 0
        for ref, card in self._exposed(seat):
            # face_of and value_of, inlined: this loop is the engine's hot path
            face = card % DECK_SIZE
            value = face % VALUES_PER_COLOUR
            if zero and value == 0:
                has_joker = True
                continue
            if face in wanted:
                for index in wanted[face]:
                    actions.append(play_action(seat, ref, index))
            if value == new_stack_value:
                actions.append(play_action(seat, ref, "new"))
        if has_joker:
            actions.extend(self._joker_actions(seat, self._refs(seat)))
        area = self.areas[seat]
        if area.hand:
            actions.append({"type": "flip", "count": 3})
            if area.stuck:
                actions.append({"type": "flip", "count": 2})
        elif area.pile:
            actions.append({"type": "recycle"})
        return actions

    def _apply_action(self, seat: int, action: Action) -> list[Event]:
        if self.phase == "over":
            raise IllegalAction("the match is over")
        kind = action["type"]
        if kind == "ready":
            return self._apply_ready(seat)
        if self.phase != "play":
            raise IllegalAction("the round has not started: every seat must be ready first")
        return _PLAY_HANDLERS[kind](self, seat, action)

    def _apply_table_action(self, action: Action) -> list[Event]:
        """The live table's idle rule (``{"type": "idle"}``) ends a stalled round."""
        if self.phase != "play":
            raise IllegalAction("no round is being played")
        return self._end_round(finito=None)

    def view(self, seat: int | None) -> View:
        if seat is not None:
            self.check_seat(seat)
        hide_help = self.phase == "ready"
        players = []
        for area, total in zip(self.areas, self.totals, strict=True):
            players.append(
                {
                    "espresso": {
                        "count": len(area.espresso),
                        "top": card_json(area.espresso[-1]) if area.espresso else None,
                    },
                    "help": [
                        None if hide_help or card is None else card_json(card) for card in area.help
                    ],
                    "pile": {
                        "count": len(area.pile),
                        "top": card_json(area.pile[-1]) if area.pile else None,
                    },
                    "hand": {"count": len(area.hand)},
                    "score": total,
                    "ready": area.ready,
                    "stuck": area.stuck,
                }
            )
        return {
            "game": "espresso",
            "seat": seat,
            "phase": self.phase,
            "round": self.round_number,
            "target": self.target,
            "options": {"zero": self.zero, "chaos": self.chaos, "target": self.target},
            "centre": self._centre_json(),
            "players": players,
            "last_round": self.last_round,
            "rounds": [list(points) for points in self.history],
            "winners": list(self._winners),
        }

    def clone(self) -> EspressoState:
        other = object.__new__(EspressoState)
        other.__dict__.update(self.__dict__)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.totals = list(self.totals)
        other.centre = [list(stack) for stack in self.centre]
        other.wanted = {face: list(indices) for face, indices in self.wanted.items()}
        other.areas = [area.copy() for area in self.areas]
        other._winners = list(self._winners)
        other.history = [list(points) for points in self.history]
        return other

    def determinize(self, seat: int, rng: random.Random) -> EspressoState:
        """Re-deal what ``seat`` cannot see, keeping every visible card in place.

        Each owner's hidden cards (the espresso stack below its top, the hand
        deck, the pile below its top, and the help cards before play) are
        shuffled among those same places; future deals get a fresh generator.
        """
        self.check_seat(seat)
        other = self.clone()
        other.rng = random.Random(rng.getrandbits(64))
        hide_help = self.phase == "ready"
        for area in other.areas:
            hidden = area.espresso[:-1] + area.hand + area.pile[:-1]
            if hide_help:
                hidden += [card for card in area.help if card is not None]
            rng.shuffle(hidden)
            cut = max(len(area.espresso) - 1, 0)
            area.espresso[:cut] = hidden[:cut]
            area.hand[:] = hidden[cut : cut + len(area.hand)]
            rest = hidden[cut + len(area.hand) :]
            if area.pile:
                area.pile[:-1] = rest[: len(area.pile) - 1]
                rest = rest[len(area.pile) - 1 :]
            if hide_help:
                area.help = [rest.pop() if card is not None else None for card in area.help]
        return other

    # -- reading the table ----------------------------------------------------

    def _exposed(self, seat: int) -> list[tuple[Ref, int]]:
        """Every card ``seat`` may take now, with where it lies."""
        exposed: list[tuple[Ref, int]] = []
        for owner in range(self.players) if self.chaos else (seat,):
            area = self.areas[owner]
            if owner == seat and area.espresso:
                exposed.append(((owner, "espresso", -1), area.espresso[-1]))
            for slot, card in enumerate(area.help):
                if card is not None:
                    exposed.append(((owner, "help", slot), card))
            if area.pile:
                exposed.append(((owner, "pile", -1), area.pile[-1]))
        return exposed

    def _refs(self, seat: int) -> list[Ref]:
        """Every place ``seat`` may take a card from (other seats' too, with Chaos)."""
        refs: list[Ref] = [(seat, "espresso", -1)]
        refs += [(seat, "help", slot) for slot in range(HELP_SLOTS)]
        refs.append((seat, "pile", -1))
        if self.chaos:
            for owner in range(self.players):
                if owner != seat:
                    refs += [(owner, "help", slot) for slot in range(HELP_SLOTS)]
                    refs.append((owner, "pile", -1))
        return refs

    def _peek(self, ref: Ref, taken: Ref | None = None) -> int | None:
        """The card at ``ref``, or None; after ``taken`` left its place, if given.

        After ``taken`` left, a card it uncovered (under the espresso top, under
        the pile top) is not offered: it was face down when the action was
        decided, and a joker and its follower are one action.
        """
        owner, source, slot = ref
        area = self.areas[owner]
        uncovered = ""
        refilled_slot = -1
        if taken is not None and taken[0] == owner:
            if taken[1] == "pile":
                uncovered = "pile"
            elif area.espresso:  # espresso, or help refilled from the espresso stack
                uncovered = "espresso"
                if taken[1] == "help":
                    refilled_slot = taken[2]
        if source == uncovered:
            return None
        if source == "espresso":
            return area.espresso[-1] if area.espresso else None
        if source == "pile":
            return area.pile[-1] if area.pile else None
        if slot == refilled_slot:
            return area.espresso[-1]
        if taken == ref:
            return None  # a help card taken with an empty espresso stack leaves a gap
        return area.help[slot]

    def _targets(self, card: int) -> list[int | str]:
        """Where a card that is not a joker may go (legal_actions inlines this)."""
        targets: list[int | str] = list(self.wanted.get(face_of(card), ()))
        if value_of(card) == (1 if self.zero else 0):
            targets.append("new")
        return targets

    def _joker_targets(self) -> list[tuple[int | str, int]]:
        """(target, the value a joker there stands for): never on a 7, never on a 0."""
        targets: list[tuple[int | str, int]] = [
            (index, value_of(stack[-1]) + 1)
            for index, stack in enumerate(self.centre)
            if value_of(stack[-1]) < TOP_VALUE - 1
        ]
        targets.append(("new", 0))
        return targets

    def _joker_actions(self, seat: int, refs: list[Ref]) -> list[Action]:
        actions: list[Action] = []
        joker_targets = self._joker_targets()
        for joker_ref in refs:
            joker = self._peek(joker_ref)
            if joker is None or value_of(joker) != 0:
                continue
            followers = [(ref, self._peek(ref, joker_ref)) for ref in refs]
            for target, stands_for in joker_targets:
                for follow_ref, follower in followers:
                    if follower is not None and value_of(follower) == stands_for + 1:
                        action = play_action(seat, joker_ref, target)
                        action["type"] = "joker"
                        action["follow"] = ref_fields(seat, follow_ref)
                        actions.append(action)
        return actions

    def _centre_json(self) -> list[list[dict[str, Any]]]:
        out = []
        for stack in self.centre:
            cards = []
            below = -1  # the value under the card; a joker stands for one more
            for card in stack:
                value = value_of(card)
                if self.zero and value == 0:
                    cards.append(card_json(card, stands_for=below + 1))
                    below += 1
                else:
                    cards.append(card_json(card))
                    below = value
            out.append(cards)
        return out

    # -- applying -------------------------------------------------------------

    def _apply_ready(self, seat: int) -> list[Event]:
        if self.phase != "ready":
            raise IllegalAction("the round is already under way")
        area = self.areas[seat]
        if area.ready:
            raise IllegalAction("you are ready already")
        area.ready = True
        events: list[Event] = [{"type": "ready", "seat": seat}]
        if all(other.ready for other in self.areas):
            self.phase = "play"
            events.append({"type": "round_started", "round": self.round_number})
        return events

    def _apply_play(self, seat: int, action: Action) -> list[Event]:
        ref = parse_ref(action, seat, self.players, self.chaos, "play")
        target = parse_target(action, len(self.centre))
        card = self._peek(ref)
        if card is None:
            raise IllegalAction(f"there is no card in that {ref[1]}")
        if self.zero and value_of(card) == 0:
            raise IllegalAction("with Zero a 0 is a joker: play it with its follower")
        if target not in self._targets(card):
            raise IllegalAction(self._misfit(card, target))
        finito = self._take(ref)
        index = self._place(seat, [card], target)
        event = {"type": "played", "seat": seat, "owner": ref[0], "source": ref[1]}
        event.update(slot=ref[2] if ref[1] == "help" else None, card=card_json(card), stack=index)
        return [event] + (self._end_round(finito) if finito is not None else [])

    def _apply_joker(self, seat: int, action: Action) -> list[Event]:
        if not self.zero:
            raise IllegalAction("jokers are played only with the Zero variant")
        ref = parse_ref(action, seat, self.players, self.chaos, "joker")
        follow_ref = parse_ref(action["follow"], seat, self.players, self.chaos, "follow")
        target = parse_target(action, len(self.centre))
        joker = self._peek(ref)
        if joker is None or value_of(joker) != 0:
            raise IllegalAction("a joker must be a 0")
        stands_for = dict(self._joker_targets()).get(target)
        if stands_for is None:
            raise IllegalAction(f"no joker may go on stack {target}: it would stand for 8 or more")
        follower = self._peek(follow_ref, taken=ref)
        if follower is None or value_of(follower) != stands_for + 1:
            raise IllegalAction(
                f"the joker stands for {stands_for}: its follower must be a "
                f"{stands_for + 1} of any colour"
            )
        finito = self._take(ref)
        follower_finito = self._take(follow_ref)
        index = self._place(seat, [joker, follower], target)
        finito = finito if finito is not None else follower_finito
        event = {"type": "joker", "seat": seat, "card": card_json(joker, stands_for)}
        event.update(follower=card_json(follower), stack=index)
        return [event] + (self._end_round(finito) if finito is not None else [])

    def _apply_flip(self, seat: int, action: Action) -> list[Event]:
        area = self.areas[seat]
        count: int = action.get("count", 3)
        if count != 3 and not (count == 2 and area.stuck):
            raise IllegalAction("flip 3 cards (2 only when stuck)")
        if not area.hand:
            raise IllegalAction("your hand deck is empty: recycle your pile")
        flipped = min(count, len(area.hand))
        for _ in range(flipped):
            area.pile.append(area.hand.pop())
        return [{"type": "flipped", "seat": seat, "count": flipped}] + self._check_blocked()

    def _apply_recycle(self, seat: int, action: Action) -> list[Event]:
        area = self.areas[seat]
        if area.hand:
            raise IllegalAction("you may recycle only when your hand deck is empty")
        if not area.pile:
            raise IllegalAction("your pile is empty: nothing to recycle")
        area.hand = area.pile[::-1]  # turned over: the bottom card is flipped first again
        area.pile = []
        if not area.placed_this_pass:
            area.stuck = True
        area.placed_this_pass = False
        area.recycles_since_centre += 1
        return [{"type": "recycled", "seat": seat}] + self._check_blocked()

    def _misfit(self, card: int, target: int | str) -> str:
        if target == "new":
            start = "a 1 (or a joker)" if self.zero else "a 0"
            return f"a new stack starts with {start}, not the {describe(card)}"
        top = self.centre[int(target)][-1]
        if value_of(top) == TOP_VALUE:
            return f"stack {target} is complete"
        return f"the {describe(card)} does not go on the {describe(top)} of stack {target}"

    def _take(self, ref: Ref) -> int | None:
        """Remove the card at ``ref``; returns the owner if that emptied their espresso stack."""
        owner, source, slot = ref
        area = self.areas[owner]
        if source == "espresso":
            area.espresso.pop()
        elif source == "pile":
            area.pile.pop()
        else:
            area.help[slot] = area.espresso.pop() if area.espresso else None
        return owner if source != "pile" and not area.espresso else None

    def _place(self, seat: int, cards: list[int], target: int | str) -> int:
        """Put ``cards`` (one, or a joker and its follower) on a stack."""
        if target == "new":
            self.centre.append(list(cards))
            index = len(self.centre) - 1
        else:
            index = int(target)
            stack = self.centre[index]
            waiting = self.wanted[face_of(stack[-1]) + 1]
            waiting.remove(index)
            if not waiting:
                del self.wanted[face_of(stack[-1]) + 1]
            stack.extend(cards)
        top = cards[-1]
        if value_of(top) != TOP_VALUE:
            self.wanted.setdefault(face_of(top) + 1, []).append(index)
        area = self.areas[seat]
        area.stuck = False
        area.placed_this_pass = True
        for other in self.areas:
            other.recycles_since_centre = 0
        return index

    def reindex_centre(self) -> None:
        """Rebuild ``wanted`` from ``centre`` (after setting up a position by hand)."""
        self.wanted = {}
        for index, stack in enumerate(self.centre):
            if value_of(stack[-1]) != TOP_VALUE:
                self.wanted.setdefault(face_of(stack[-1]) + 1, []).append(index)

    def _check_blocked(self) -> list[Event]:
        """Blocked round: nothing reached the centre while every seat cycled twice or ran dry."""
        for area in self.areas:
            if area.recycles_since_centre < 2 and (area.hand or area.pile):
                return []
        return self._end_round(finito=None)

    def _end_round(self, finito: int | None) -> list[Event]:
        points = [0] * self.players
        for stack in self.centre:
            for card in stack:
                points[owner_of(card)] += 1
        if finito is not None:
            points[finito] += FINITO_BONUS
        for seat, gained in enumerate(points):
            self.totals[seat] += gained
        self.history.append(points)
        centre = self._centre_json()
        self.last_round = {
            "round": self.round_number,
            "finito": finito,
            "blocked": finito is None,
            "points": points,
            "centre": centre,
        }
        events: list[Event] = [{"type": "round_over", **self.last_round}]
        best = max(self.totals)
        if best >= self.target:
            self.phase = "over"
            self._winners = [seat for seat, total in enumerate(self.totals) if total == best]
            events.append({"type": "match_over", "scores": self.scores, "winners": self.winners})
        else:
            self.round_number += 1
            self.phase = "ready"
            self.centre = []
            self.wanted = {}
            self.areas = [deal(seat, self.rng) for seat in range(self.players)]
        return events


_PLAY_HANDLERS = {
    "play": EspressoState._apply_play,
    "joker": EspressoState._apply_joker,
    "flip": EspressoState._apply_flip,
    "recycle": EspressoState._apply_recycle,
}
