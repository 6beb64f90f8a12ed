"""Espresso's actions on the wire: reading them (with a readable refusal) and writing them.

The contract has already checked an action against the game's schema (its
fields, their types and bounds); what is left here are the rules that depend
on the source, the variant and the table. A place a card is taken from is a
``Ref``: (owner, source, help slot or -1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from coffeetable.engine import Action, IllegalAction

SOURCES = ("espresso", "help", "pile")
Ref = tuple[int, str, int]


def parse_ref(data: Mapping[str, Any], seat: int, players: int, chaos: bool, what: str) -> Ref:
    """Where ``data`` (an action, or a joker's "follow") says its card comes from."""
    source: str = data["source"]
    slot: int = data.get("slot", -1)
    if source == "help":
        if slot < 0:
            raise IllegalAction(f"{what}: a help card needs a slot 0, 1 or 2")
    elif "slot" in data:
        raise IllegalAction(f"{what}: only a help card has a slot")
    owner: int = data.get("owner", seat)
    if owner != seat:
        if not chaos:
            raise IllegalAction("you may take another seat's card only with Chaos")
        if owner >= players:
            raise IllegalAction(f"{what}: there is no seat {owner}")
        if source == "espresso":
            raise IllegalAction("another seat's espresso stack cannot be taken")
    return (owner, source, slot)


def parse_target(action: Action, stacks: int) -> int | str:
    """A stack index of the centre, or "new"."""
    target: int | str = action["target"]
    if isinstance(target, int) and target >= stacks:
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
