"""Espresso Doppio's rules, as RULES.md (beside this module) rules them.

Two players (or one, solo) arrange 9 pieces on a path of 5 spaces to meet the
objective cards in front of them. A turn is one to three moves or exchanges,
then scoring; the law of the path (never two pieces of one kind on a space)
holds after every action.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from coffeetable.engine import Action, Event, IllegalAction, View
from coffeetable.engine.contract import State
from coffeetable.games.doppio.cards import (
    BEAN_RESERVE,
    BY_ID,
    CARDS,
    CARDS_PER_PLAYER,
    COLOURS,
    FACE_UP,
    KINDS,
    SETUP_ORDER,
    SOLO_START_BEANS,
    SPACES,
    solo_rank,
)
from coffeetable.games.doppio.moves import (
    KIND_NAMES,
    fits,
    kinds_mask,
    move_actions,
    move_masks,
    space_mask,
)
from coffeetable.games.doppio.patterns import (
    EMPTY,
    MATCHERS,
    Path,
    Space,
    kind_bits,
    piece,
    piece_bits,
)

if TYPE_CHECKING:
    from coffeetable.games.doppio.game import DoppioGame

ACTIONS_PER_TURN = 3


def card_json(card_id: int) -> dict[str, Any]:
    card = BY_ID[card_id]
    return {
        "id": card.id,
        "pattern": card.pattern,
        "beans": card.beans,
        "params": dict(card.params),
        "text": dict(card.text),
    }


#: (card id, turned) -> its score action; shared, like the moves (read them, never change them).
_SCORE_ACTIONS: dict[tuple[int, bool], Action] = {
    (card.id, turned): {"type": "score", "card": card.id, "turned": turned}
    for card in CARDS
    for turned in (False, True)
}
_END_TURN: Action = {"type": "end_turn"}
#: The times the same whole position begins a turn that end a two-player match (ruling).
REPETITIONS = 3
_UNDO: Action = {"type": "undo"}

__all__ = ["ACTIONS_PER_TURN", "DoppioState", "card_json", "move_masks"]


class DoppioState(State):
    """A match of Espresso Doppio (two players) or a solo game (one)."""

    game: DoppioGame

    def __init__(self, game: DoppioGame, players: int, seed: int, options: dict[str, Any]):
        self.game = game
        self.players = players
        self.options = options
        self.master: bool = options["master"]
        self.reserve_ends: bool = options["reserve_ends"]
        self.repetition_ends: bool = options["repetition_ends"]
        self.rng = random.Random(seed)
        self.path = [EMPTY] * SPACES
        self.phase = "setup"
        self.placed = 0
        self.round_number = 1
        deck = [card.id for card in CARDS]
        self.rng.shuffle(deck)
        if players == 1:
            self.piles = [deck]
            self.beans = [SOLO_START_BEANS]
            self.first_player = 0
        else:
            self.piles = [deck[:CARDS_PER_PLAYER], deck[CARDS_PER_PLAYER:]]
            self.beans = [0, 0]
            first = options["first_player"]
            self.first_player = self.rng.randrange(2) if first < 0 else first
        self.reserve = BEAN_RESERVE - sum(self.beans)
        self.face_up: list[list[int]] = [[] for _ in range(players)]
        self.scored: list[list[int]] = [[] for _ in range(players)]
        for seat in range(players):
            self._refill(seat)
        self.current = self.first_player
        self.actions_taken = 0
        self.scored_this_turn = False
        #: Board Game Arena's undo: the path (and solo beans) before each move of
        #: this turn, emptied as soon as something is scored or revealed.
        self.undo_stack: list[tuple[Path, int]] = []
        self.finisher: int | None = None  # who scored all 8 in round 2 (the tie rule)
        self._winners: list[int] = []
        #: How often each whole position began a turn (``repetition_ends``).
        self.turn_starts: dict[tuple[Any, ...], int] = {}

    # -- the path -------------------------------------------------------------

    @property
    def path(self) -> list[Space]:
        """The five spaces, each (cup, saucer, spoon) as colour indices or None."""
        return self._path

    @path.setter
    def path(self, spaces: Path) -> None:
        self._path = list(spaces)
        #: The same path as one bit mask per piece (``patterns.piece_bits``), kept
        #: in step with it: what the cards are matched on.
        self._bits = piece_bits(self._path)

    def _occupancy(self) -> int:
        """Which kinds stand on which spaces, packed as ``moves.occupancy`` has it."""
        bits = self._bits
        return kind_bits(bits, 0) | kind_bits(bits, 1) << SPACES | kind_bits(bits, 2) << 2 * SPACES

    def _move_pieces(self, start: int, end: int, given: int, taken: int) -> None:
        """Move the kinds ``given`` from space ``start`` to ``end`` and the kinds ``taken``
        (none for a move) from ``end`` to ``start``: the path and its bit masks."""
        a, b = self._path[start], self._path[end]
        new_a, new_b = list(a), list(b)
        both = 1 << start | 1 << end
        for kind in range(3):
            gives, takes = given >> kind & 1, taken >> kind & 1
            if not (gives or takes):
                continue
            new_a[kind] = b[kind] if takes else None
            new_b[kind] = a[kind] if gives else None
            for colour in (new_a[kind], new_b[kind]):
                if colour is not None:  # it stood on one of the two spaces, now on the other
                    self._bits[kind * 3 + colour] ^= both  # piece(kind, colour)
        self._path[start] = (new_a[0], new_a[1], new_a[2])
        self._path[end] = (new_b[0], new_b[1], new_b[2])

    # -- the contract ---------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def scores(self) -> list[int]:
        return list(self.beans)

    @property
    def winners(self) -> list[int]:
        return list(self._winners)

    @property
    def round(self) -> int:
        return self.round_number

    def actors(self) -> list[int]:
        return [] if self.phase == "over" else [self.current]

    def legal_actions(self, seat: int) -> list[Action]:
        self.check_seat(seat)
        if self.phase == "over" or seat != self.current:
            return []
        if self.phase == "setup":
            return self._placements()
        actions: list[Action] = []
        if self._may_move():
            actions += move_actions(self._occupancy())
        if self._may_score():
            actions += self._scores(seat)
        if self.players == 2 and self.actions_taken > 0:
            actions.append(_END_TURN)
        if self.undo_stack:
            actions.append(_UNDO)
        return actions

    def _apply_action(self, seat: int, action: Action) -> list[Event]:
        if self.phase == "over":
            raise IllegalAction("the game is over")
        if seat != self.current:
            raise IllegalAction(f"it is seat {self.current}'s turn")
        kind = action["type"]
        if self.phase == "setup":
            if kind != "place":
                raise IllegalAction("set-up: place the pieces first")
            return self._apply_place(seat, action)
        if kind in ("move", "exchange"):
            return self._apply_move(seat, action)
        if kind == "score":
            return self._apply_score(seat, action)
        if kind == "end_turn":
            return self._apply_end_turn(seat)
        if kind == "undo":
            return self._apply_undo(seat)
        raise IllegalAction("the pieces are all placed")  # a "place" after the set-up

    def view(self, seat: int | None) -> View:
        if seat is not None:
            self.check_seat(seat)
        setup = None
        if self.phase == "setup":
            kind = SETUP_ORDER[self.placed // 3]
            setup = {"kind": kind, "placed": self.placed, "colours": self._unplaced(kind)}
        view: View = {
            "game": "doppio",
            "seat": seat,
            "phase": self.phase,
            "round": self.round_number,
            "solo": self.players == 1,
            "master": self.master,
            "path": [
                {KINDS[k]: None if c is None else COLOURS[c] for k, c in enumerate(space)}
                for space in self.path
            ],
            "setup": setup,
            "turn": None if self.is_over else self.current,
            "actions_taken": self.actions_taken,
            "scored_this_turn": self.scored_this_turn,
            "players": [
                {
                    "cards": [card_json(card) for card in self.face_up[p]],
                    "pile": {"count": len(self.piles[p])},
                    "scored": [card_json(card) for card in self.scored[p]],
                    "beans": self.beans[p],
                }
                for p in range(self.players)
            ],
            "reserve": self.reserve,
            "winners": list(self._winners),
        }
        if self.players == 1 and self.is_over:
            view["rank"] = solo_rank(self.beans[0])
        return view

    def clone(self) -> DoppioState:
        other = self._copy()
        other.rng = random.Random(0)  # seeded, not from the OS: that costs more than the copy
        other.rng.setstate(self.rng.getstate())
        return other

    def _copy(self) -> DoppioState:
        """A copy sharing nothing that changes, but the random generator."""
        other = object.__new__(DoppioState)
        other.__dict__.update(self.__dict__)
        other._path = list(self._path)
        other._bits = list(self._bits)
        other.undo_stack = list(self.undo_stack)  # its paths are never changed in place
        other.piles = [list(pile) for pile in self.piles]
        other.face_up = [list(cards) for cards in self.face_up]
        other.scored = [list(cards) for cards in self.scored]
        other.beans = list(self.beans)
        other._winners = list(self._winners)
        other.turn_starts = dict(self.turn_starts)
        return other

    def determinize(self, seat: int, rng: random.Random) -> DoppioState:
        """Re-shuffle the draw piles, whose order nobody knows.

        In round 1 which unseen card lies in which pile is unknown too, so both
        piles are dealt again from their union; in round 2 each pile holds the
        opponent's known round-1 cards, so each is shuffled on its own.
        """
        self.check_seat(seat)
        other = self._copy()
        other.rng = random.Random(rng.getrandbits(64))
        if self.players == 2 and self.round_number == 1:
            unseen = other.piles[0] + other.piles[1]
            rng.shuffle(unseen)
            cut = len(other.piles[0])
            other.piles = [unseen[:cut], unseen[cut:]]
        else:
            for pile in other.piles:
                rng.shuffle(pile)
        return other

    # -- what may be done -----------------------------------------------------

    def _may_move(self) -> bool:
        if self.players == 1:
            return self.beans[0] > 0
        return self.actions_taken < ACTIONS_PER_TURN and (self.master or not self.scored_this_turn)

    def _may_score(self) -> bool:
        return self.players == 1 or self.master or self.actions_taken > 0

    def _unplaced(self, kind: str) -> list[str]:
        index = KINDS.index(kind)
        used = {space[index] for space in self.path}
        return [name for c, name in enumerate(COLOURS) if c not in used]

    def _placements(self) -> list[Action]:
        kind = SETUP_ORDER[self.placed // 3]
        index = KINDS.index(kind)
        actions: list[Action] = []
        for colour in self._unplaced(kind):
            c = COLOURS.index(colour)
            for space_index, space in enumerate(self.path):
                if space[index] is None and c not in space:
                    actions.append(
                        {"type": "place", "kind": kind, "colour": colour, "space": space_index}
                    )
        return actions

    def _moves(self) -> list[Action]:
        """Every move and exchange that keeps the law of the path."""
        return list(move_actions(self._occupancy()))

    def _scores(self, seat: int) -> list[Action]:
        actions: list[Action] = []
        for card_id in self.face_up[seat]:
            upright, turned = MATCHERS[card_id](self._bits)
            if upright:
                actions.append(_SCORE_ACTIONS[card_id, False])
            if turned and turned != upright:  # the same count turned is the same action
                actions.append(_SCORE_ACTIONS[card_id, True])
        return actions

    # -- applying -------------------------------------------------------------

    def _apply_place(self, seat: int, action: Action) -> list[Event]:
        kind = SETUP_ORDER[self.placed // 3]
        if action["kind"] != kind:
            raise IllegalAction(f"set-up: the {kind}s are placed now")
        colour: str = action["colour"]
        space_index: int = action["space"]
        if colour not in self._unplaced(kind):
            raise IllegalAction(f"no {colour!r} {kind} is left to place")
        space = self.path[space_index]
        c = COLOURS.index(colour)
        if space[KINDS.index(kind)] is not None or c in space:
            raise IllegalAction(
                "set-up: a piece joins only a space with no piece of its kind or its colour"
            )
        placed = list(space)
        placed[KINDS.index(kind)] = c
        self._path[space_index] = (placed[0], placed[1], placed[2])
        self._bits[piece(KINDS.index(kind), c)] |= 1 << space_index
        self.placed += 1
        events: list[Event] = [
            {"type": "placed", "seat": seat, "kind": kind, "colour": colour, "space": space_index}
        ]
        if self.placed == 3 * len(SETUP_ORDER):
            self.phase = "play"
            self.current = 0 if self.players == 1 else 1 - self.first_player
            events.append({"type": "turn", "seat": self.current})
            self._count_turn_start()
        elif self.players == 2:
            self.current = 1 - self.current
        return events

    def _apply_move(self, seat: int, action: Action) -> list[Event]:
        is_exchange = action["type"] == "exchange"
        if not self._may_move():
            if self.players == 1:
                raise IllegalAction("each move costs a bean, and you have none")
            if self.actions_taken >= ACTIONS_PER_TURN:
                raise IllegalAction("three actions a turn: score or end your turn")
            raise IllegalAction("you have scored: no more moves this turn")
        start: int = action["from"]
        end: int = action["to"]
        if start == end:
            raise IllegalAction("from and to must be two different spaces")
        here, there = space_mask(self._path[start]), space_mask(self._path[end])
        given = _kinds_on(action["kinds"], here, start)
        taken = _kinds_on(action["with"], there, end) if is_exchange else 0
        if not fits(here, there, given, taken):
            what = "exchange" if is_exchange else "move"
            raise IllegalAction(f"that {what} would put two pieces of one kind on a space")
        self.undo_stack.append((tuple(self._path), self.beans[seat]))
        self._move_pieces(start, end, given, taken)
        self.actions_taken += 1
        event: Event = {"type": action["type"], "seat": seat, "from": start, "to": end}
        event["kinds"] = list(KIND_NAMES[given])
        if is_exchange:
            event["with"] = list(KIND_NAMES[taken])
        events: list[Event] = [event]
        if self.players == 1:
            self.beans[0] -= 1
            self.reserve += 1
            if self.beans[0] == 0:
                events += self._end_game()
        return events

    def _apply_score(self, seat: int, action: Action) -> list[Event]:
        if not self._may_score():
            raise IllegalAction("score after your first move (or play the Espresso Master variant)")
        card_id: int = action["card"]
        turned: bool = action.get("turned", False)
        if card_id not in self.face_up[seat]:
            raise IllegalAction(f"card {card_id!r} is not one of your face-up cards")
        card = BY_ID[card_id]
        matches = MATCHERS[card_id](self._bits)[1 if turned else 0]
        if not matches:
            raise IllegalAction(f"card {card_id} is not met on the path that way round")
        gained = min(card.beans * matches, self.reserve)
        self.reserve -= gained
        self.beans[seat] += gained
        self.face_up[seat].remove(card_id)
        self.scored[seat].append(card_id)
        self.scored_this_turn = True
        self.undo_stack.clear()  # scored: the turn so far stands
        events: list[Event] = [
            {
                "type": "scored",
                "seat": seat,
                "card": card_id,
                "turned": turned,
                "matches": matches,
                "beans": gained,
                # what the card asks for: the log tells it even once the card has
                # changed hands (round 2) and no view shows it any more
                "text": dict(card.text),
            }
        ]
        if self.players == 1:
            self._refill(seat)  # solo reveals a new card at once
            if not self.face_up[seat]:
                events += self._end_game()
        elif len(self.scored[seat]) == CARDS_PER_PLAYER:
            events += self._end_round(seat)
        if self.reserve_ends and self.players == 2 and not self.reserve and self.phase != "over":
            # Ruling: no bean is left to win, so the match ends (games/doppio/RULES.md).
            events += self._end_game(reason="reserve_empty")
        return events

    def _apply_end_turn(self, seat: int) -> list[Event]:
        if self.players == 1:
            raise IllegalAction("solo has no turns")
        if self.actions_taken == 0:
            raise IllegalAction("a turn takes at least one move or exchange")
        self._refill(seat)
        self._next_turn()
        events: list[Event] = [{"type": "turn", "seat": self.current}]
        if self._count_turn_start() >= REPETITIONS:
            # Ruling: the same whole position a third time ends the match (games/doppio/RULES.md).
            events += self._end_game(reason="repetition")
        return events

    def _apply_undo(self, seat: int) -> list[Event]:
        if not self.undo_stack:
            raise IllegalAction("nothing to undo: scoring or revealing a card fixes the turn")
        path, beans = self.undo_stack.pop()
        self.reserve -= beans - self.beans[seat]  # solo: the bean goes back to you
        self.path, self.beans[seat] = path, beans  # the setter rebuilds the bit masks
        self.actions_taken -= 1
        return [{"type": "undone", "seat": seat}]

    def _count_turn_start(self) -> int:
        """Count the whole position a turn begins in (two players, ``repetition_ends``):
        the path, every face-up card, the piles, the round and whose turn it is; how many
        times it began a turn so far (0 when not counted)."""
        if not self.repetition_ends or self.players != 2:
            return 0
        position = (
            self.current,
            self.round_number,
            tuple(self._path),
            tuple(map(tuple, self.face_up)),
            tuple(map(tuple, self.piles)),
        )
        seen = self.turn_starts[position] = self.turn_starts.get(position, 0) + 1
        return seen

    def _refill(self, seat: int) -> None:
        while len(self.face_up[seat]) < FACE_UP and self.piles[seat]:
            self.face_up[seat].append(self.piles[seat].pop())

    def _next_turn(self) -> None:
        self.current = 1 - self.current
        self.actions_taken = 0
        self.scored_this_turn = False
        self.undo_stack.clear()

    def _end_round(self, seat: int) -> list[Event]:
        if self.round_number == 2:
            self.finisher = seat
            return self._end_game()
        events: list[Event] = [{"type": "round_over", "round": 1, "seat": seat}]
        gathered = [self.face_up[p] + self.piles[p] + self.scored[p] for p in (0, 1)]
        for cards in gathered:
            self.rng.shuffle(cards)
        self.piles = [gathered[1], gathered[0]]  # each hands their cards to the opponent
        self.face_up, self.scored = [[], []], [[], []]
        for p in (0, 1):
            self._refill(p)
        self.round_number = 2
        self._next_turn()
        events.append({"type": "turn", "seat": self.current})
        self._count_turn_start()  # a new round: no position of round 1 comes back
        return events

    def _end_game(self, reason: str | None = None) -> list[Event]:
        self.phase = "over"
        self.undo_stack.clear()
        if self.players == 1:
            self._winners = [0]
        else:
            best = max(self.beans)
            leaders = [p for p in (0, 1) if self.beans[p] == best]
            if len(leaders) == 2 and self.finisher is not None:
                leaders = [1 - self.finisher]  # a tie goes to who has NOT scored all 8
            self._winners = leaders
        event: Event = {"type": "game_over", "scores": self.scores, "winners": self.winners}
        if reason is not None:
            event["reason"] = reason
        if self.players == 1:
            event["rank"] = solo_rank(self.beans[0])
        return [event]


def _kinds_on(names: list[str], here: int, index: int) -> int:
    """The piece kinds ``names`` (distinct, as the schema has them) as a mask; each
    must be on space ``index``, whose kinds are ``here``."""
    kinds = kinds_mask(names)
    missing = kinds & ~here
    if missing:
        first = (missing & -missing).bit_length() - 1
        raise IllegalAction(f"there is no {KINDS[first]} on space {index}")
    return kinds
