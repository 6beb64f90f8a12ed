"""Espresso's actions on the wire: reading them (with a readable refusal) and writing them.

A place a card is taken from is a ``Ref``: (owner, source, help slot or -1).
"""

from __future__ import annotations

from typing import Any

from coffeetable.engine import Action, IllegalAction
from coffeetable.games.espresso.cards import HELP_SLOTS

SOURCES = ("espresso", "help", "pile")
Ref = tuple[int, str, int]

READY_FIELDS = frozenset({"type"})
PLAY_FIELDS = frozenset({"type", "source", "slot", "owner", "target"})
JOKER_FIELDS = frozenset({"type", "source", "slot", "owner", "follow", "target"})
FOLLOW_FIELDS = frozenset({"source", "slot", "owner"})
FLIP_FIELDS = frozenset({"type", "count"})
RECYCLE_FIELDS = frozenset({"type"})


def parse_ref(data: Any, seat: int, players: int, chaos: bool, what: str) -> Ref:
    """Where ``data`` (an action, or a joker's "follow") says its card comes from."""
    if not isinstance(data, dict):
        raise IllegalAction(f"{what} must name a source")
    source = data.get("source")
    if source not in SOURCES:
        raise IllegalAction(f"{what}: source must be one of {', '.join(SOURCES)}")
    slot = data.get("slot", -1)
    if source == "help":
        if isinstance(slot, bool) or slot not in range(HELP_SLOTS):
            raise IllegalAction(f"{what}: a help card needs a slot 0, 1 or 2")
    elif "slot" in data:
        raise IllegalAction(f"{what}: only a help card has a slot")
    owner = data.get("owner", seat)
    if owner != seat:
        if not chaos:
            raise IllegalAction("you may take another seat's card only with Chaos")
        if isinstance(owner, bool) or owner not in range(players):
            raise IllegalAction(f"{what}: there is no seat {owner!r}")
        if source == "espresso":
            raise IllegalAction("another seat's espresso stack cannot be taken")
    return (owner, source, slot)


def parse_target(action: Action, stacks: int) -> int | str:
    target = action.get("target")
    if target == "new":
        return "new"
    if isinstance(target, bool) or not isinstance(target, int):
        raise IllegalAction("target must be a stack index or 'new'")
    if not 0 <= target < stacks:
        raise IllegalAction(f"there is no stack {target} in the centre")
    return target


def ref_fields(seat: int, ref: Ref) -> dict[str, Any]:
    """The wire fields naming ``ref`` for ``seat``: owner only for another seat's card."""
    owner, source, slot = ref
    fields: dict[str, Any] = {"source": source}
    if source == "help":
        fields["slot"] = slot
    if owner != seat:
        fields["owner"] = owner
    return fields


def play_action(seat: int, ref: Ref, target: int | str) -> Action:
    action: Action = {"type": "play"}
    action.update(ref_fields(seat, ref))
    action["target"] = target
    return action
