"""Espresso heuristics for bots: how good an action looks to the seat that takes it.

Pure: no I/O, no clock, no randomness. Every function reads only what
``state.view(seat)`` shows (espresso tops and counts, help cards, pile tops and
counts, hand counts, the stuck flags and the centre); it reads the state's
fields directly rather than building the JSON view, for speed. The card under
an espresso top or a pile top, the hand decks and their order are never read.

``action_value(state, seat, action)`` scores one action; higher is better. The
greedy bot takes the best (ties broken by its rng). The score is a sum of:

=====================  ======  ==================================================
term                   weight  when
=====================  ======  ==================================================
``PLAY``                  1.0  once for any play or joker (a card reaches the
                               centre: the table moves on)
``PLACE``                 3.0  per own card put in the centre (1 point each)
``UNLOAD``               10.0  per own card that leaves the espresso stack: an
                               espresso card played, or a help card refilled
                               from the espresso stack (the FINITO race)
``ESPRESSO_EDGE``         0.5  an own espresso card played (ahead of help:
                               the help cards stay as they are)
``HELP_EDGE``            0.25  an own help card played
``FINITO``             1000.0  the action empties the own espresso stack
``UNLOCK_SHARE``          0.4  x the value of playing an own visible card that
                               the action's new stack top makes playable next
``STEAL_PILE``           -0.4  Chaos: per card taken from another seat's pile
                               (it scores for its owner, not for the bot)
``STEAL_HELP``           -0.7  Chaos: per card taken from another seat's help
                               slot (it also refills from *their* espresso stack)
``STEAL_NEAR_FINITO``    -1.0  Chaos: a steal leaves its owner 3 or fewer
                               espresso cards
``GIFT_FINITO``       -1000.0  Chaos: a steal would empty its owner's espresso
                               stack (FINITO for them)
``FLIP``                  0.0  flip 3 (or recycle, when the hand deck is empty)
``FLIP_TWO``              0.1  flip 2 while stuck (breaks the repeating cycle)
=====================  ======  ==================================================

So the order is: espresso play (14.5) > help play (14.25) > pile play (4, up
to 9.8 with an unlock) > a steal (0.6 or 0.3, up to 6.4 with an unlock) >
flip (0). A Zero joker and its follower are two cards: their terms add up, so
a joker whose follower (or which itself) comes off the espresso stack beats a
single espresso play, and a joker with a pile follower (7) beats one pile card.
A stolen card only costs (a stolen joker with an own follower is worth less
than the follower played alone, where it can be). Stealing (Chaos) so beats a
flip, never an own play, unless it unlocks one of the bot's own espresso or
help cards (then about 6, ahead of a plain pile play): "steal when it is the
only play, or when it unlocks an own card next".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from coffeetable.engine import Action
from coffeetable.games.espresso.cards import TOP_VALUE, face_of, value_of
from coffeetable.games.espresso.rules import EspressoState

PLAY = 1.0
PLACE = 3.0
UNLOAD = 10.0
ESPRESSO_EDGE = 0.5
HELP_EDGE = 0.25
FINITO = 1000.0
UNLOCK_SHARE = 0.4
STEAL_PILE = -0.4
STEAL_HELP = -0.7
STEAL_NEAR_FINITO = -1.0
NEAR_FINITO = 3
GIFT_FINITO = -1000.0
FLIP = 0.0
FLIP_TWO = 0.1
RECYCLE = 0.0
READY = 0.0
#: What an action the seat cannot judge from its view scores (never chosen).
BLIND = -1.0e9

#: Action types that place nothing: what a bot falls back to when it overlooks a play.
FALLBACK_TYPES = frozenset({"flip", "recycle"})

#: Where a card lies: (owner, source, help slot or -1).
Ref = tuple[int, str, int]


def _ref(seat: int, fields: Mapping[str, Any]) -> Ref:
    source = str(fields.get("source"))
    slot = int(fields.get("slot", -1)) if source == "help" else -1
    return (int(fields.get("owner", seat)), source, slot)


def _refs(seat: int, action: Action) -> list[Ref]:
    refs = [_ref(seat, action)]
    if action.get("type") == "joker":
        refs.append(_ref(seat, action["follow"]))
    return refs


def _visible_card(state: EspressoState, ref: Ref, taken: Ref | None = None) -> int | None:
    """The card at ``ref`` if the seat can see it (after ``taken`` left), else None.

    None also stands for a card the seat cannot see: the one under an espresso
    top or a pile top, which a joker's follower would be read from.
    """
    owner, source, slot = ref
    area = state.areas[owner]
    if taken is not None and taken[0] == owner:
        if source == "espresso" and taken[1] != "pile":
            return None  # the card under the espresso top: hidden
        if source == "pile" and taken[1] == "pile":
            return None  # the card under the pile top: hidden
        if source == "help" and taken == ref:
            # the slot was refilled by the visible espresso top (or left empty)
            return area.espresso[-1] if area.espresso else None
    if source == "espresso":
        return area.espresso[-1] if area.espresso else None
    if source == "pile":
        return area.pile[-1] if area.pile else None
    return area.help[slot] if 0 <= slot < len(area.help) else None


def action_cards(state: EspressoState, seat: int, action: Action) -> tuple[int, ...] | None:
    """The cards a play or joker moves, as ``seat`` sees them; None if it cannot tell.

    () for an action that moves no visible card (flip, recycle, ready).
    """
    if action.get("type") not in ("play", "joker"):
        return ()
    cards: list[int] = []
    taken: Ref | None = None
    for ref in _refs(seat, action):
        card = _visible_card(state, ref, taken)
        if card is None:
            return None
        cards.append(card)
        taken = ref
    return tuple(cards)


def action_key(state: EspressoState, seat: int, action: Action) -> tuple[Any, ...]:
    """What the action means as ``seat`` sees it now: its cards and its target stack's height.

    Actions name places, not cards. The real-time simulator compares this key
    at look and at landing time: if it changed (with Chaos someone took the
    card, so the slot now holds another one), the action is refused as too slow.
    """
    kind = action.get("type")
    if kind not in ("play", "joker"):
        return (kind,)
    target = action.get("target")
    height = -1
    if isinstance(target, int) and 0 <= target < len(state.centre):
        height = len(state.centre[target])
    return (kind, action_cards(state, seat, action), target, height)


def _own_play_value(source: str, espresso_left: int) -> float:
    if source == "espresso":
        return PLAY + PLACE + UNLOAD + ESPRESSO_EDGE
    if source == "help":
        return PLAY + PLACE + HELP_EDGE + (UNLOAD if espresso_left > 0 else 0.0)
    return PLAY + PLACE


def _unlock_bonus(
    state: EspressoState, seat: int, refs: list[Ref], top: int, espresso_left: int
) -> float:
    """A share of the value of the own visible card the new stack top makes playable."""
    if value_of(top) >= TOP_VALUE:
        return 0.0
    wanted = face_of(top) + 1
    area = state.areas[seat]
    # the own cards still visible once the action is done, replaying its takes in order
    espresso_top = area.espresso[-1] if area.espresso else None
    help_after = list(area.help)
    pile_top = area.pile[-1] if area.pile else None
    for owner, source, slot in refs:
        if owner != seat:
            continue
        if source == "espresso":
            espresso_top = None  # played; the next card is hidden
        elif source == "help":
            help_after[slot] = espresso_top  # refilled by the top (None: hidden or empty)
            espresso_top = None
        else:
            pile_top = None  # played; the next card is hidden
    visible: list[tuple[str, int]] = [("help", card) for card in help_after if card is not None]
    if espresso_top is not None:
        visible.append(("espresso", espresso_top))
    if pile_top is not None:
        visible.append(("pile", pile_top))
    for source, card in visible:
        if face_of(card) == wanted and not (state.zero and value_of(card) == 0):
            return UNLOCK_SHARE * _own_play_value(source, espresso_left)
    return 0.0


def _value(state: EspressoState, seat: int, action: Action) -> float:
    kind = action.get("type")
    if kind == "flip":
        return FLIP_TWO if action.get("count") == 2 else FLIP
    if kind == "recycle":
        return RECYCLE
    if kind not in ("play", "joker"):
        return READY
    refs = _refs(seat, action)
    cards = action_cards(state, seat, action)
    if cards is None:
        return BLIND
    left = {owner: len(state.areas[owner].espresso) for owner, _, _ in refs}
    value = PLAY
    for owner, source, _ in refs:
        unloaded = source == "espresso" or (source == "help" and left[owner] > 0)
        if unloaded:
            left[owner] -= 1
        if owner == seat:
            value += PLACE
            if unloaded:
                value += UNLOAD
            value += ESPRESSO_EDGE if source == "espresso" else HELP_EDGE if source == "help" else 0
        else:
            value += STEAL_PILE if source == "pile" else STEAL_HELP
    for owner, espresso_left in left.items():
        if espresso_left == len(state.areas[owner].espresso):
            continue  # nothing left that stack
        if owner == seat:
            value += FINITO if espresso_left <= 0 else 0.0
        elif espresso_left <= 0:
            value += GIFT_FINITO
        elif espresso_left <= NEAR_FINITO:
            value += STEAL_NEAR_FINITO
    own_left = left.get(seat, len(state.areas[seat].espresso))
    return value + _unlock_bonus(state, seat, refs, cards[-1], own_left)


def action_value(state: EspressoState, seat: int, action: Action) -> float:
    """How good ``action`` looks to ``seat`` now (see the module's table); higher is better."""
    return _value(state, seat, action)


def action_values(state: EspressoState, seat: int, actions: Sequence[Action]) -> list[float]:
    """``action_value`` for each of ``actions``."""
    return [_value(state, seat, action) for action in actions]
