"""Café's deliveries as the research codec names them (``codec.py``): by recipient.

A delivery's recipient is one of 19 (``codec.py``'s docstring, **Deliveries**):
0 the warehouse; 1 the company's start café; 2-17 one plan card's café
(``PLAN_CAFES``, in the order of ``cards``), which takes every cube of the area
it still wants, the rest to the warehouse; 18 every café of the company in id
order (start café first), each taking what it still wants of what is left.
``recipient_tos`` gives each recipient's ``to`` for an area's cubes; the codec
(``codec.py``) and its fast legal path (``codec_legal.py``) share it. Pure: no
numpy, nothing of interop.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from coffeetable.engine import Action
from coffeetable.games.cafe.cards import COLOURS, PLANS, STARTS

START_IDS = frozenset(card.id for card in STARTS)
CAFE_IDS = [card.id for card in STARTS + PLANS if card.has_cafe]
PLAN_CAFES = [card.id for card in PLANS if card.has_cafe]
#: café id -> its place in CAFE_IDS (start cafés first)
CAFE_ORDER = {cafe_id: n for n, cafe_id in enumerate(CAFE_IDS)}
#: café id -> its recipient: 1 a start café, 2-17 a plan card's café
RECIPIENT_OF = {
    **dict.fromkeys(START_IDS, 1),
    **{cafe_id: 2 + n for n, cafe_id in enumerate(PLAN_CAFES)},
}


#: A delivery's ``to``: café id -> colour -> cubes; a café's wants: colour -> cubes.
Delivery = dict[str, dict[str, int]]
Wants = dict[str, dict[str, int]]


def company_wants(company: Any) -> Wants:
    """café id -> colour -> cubes it still takes (``Cafe.wants``), for every café."""
    out: Wants = {}
    for cafe in company.cafes.values():
        if cafe.lost:
            out[cafe.id] = dict.fromkeys(COLOURS, 0)
        else:
            need, have = cafe.need, cafe.have
            out[cafe.id] = {c: max(0, need.get(c, 0) - have.get(c, 0)) for c in COLOURS}
    return out


def recipient_tos(cubes: Mapping[str, int], wants: Wants) -> list[Delivery]:
    """The ``to`` of an area's delivery for each recipient 0..18 (see the module docstring).

    ``cubes`` are the area's cubes per colour; ``wants`` the company's cafés
    (id -> colour -> cubes it still takes). A recipient the company has no café
    for gives what the warehouse gives (the same dict: they are compared, not changed).
    """

    present = [(colour, n) for colour, n in cubes.items() if n > 0]  # in cubes' order

    def one(cafe_id: str) -> Delivery:
        """What a single café takes (the rest to the warehouse)."""
        wanted = wants[cafe_id]
        got = {colour: min(wanted[colour], n) for colour, n in present if wanted[colour]}
        return {cafe_id: got} if got else {}

    def every(order: list[str]) -> Delivery:
        """Each café in ``order`` takes what it still wants of what is left."""
        left = dict(present)
        to: Delivery = {}
        for cafe_id in order:
            wanted = wants[cafe_id]
            got = {}
            for colour, n in left.items():
                give = min(wanted[colour], n)
                if give:
                    got[colour] = give
                    left[colour] = n - give
            if got:
                to[cafe_id] = got
        return to

    owned = sorted(wants, key=CAFE_ORDER.__getitem__)  # in CAFE_IDS' order
    warehouse: Delivery = {}
    # a café the company does not have gives the warehouse's (the same dict)
    out = [warehouse] * (2 + len(PLAN_CAFES))
    for cafe_id in owned:
        recipient = RECIPIENT_OF[cafe_id]
        if recipient != 1 or out[1] is warehouse:  # the first start café only
            out[recipient] = one(cafe_id)
    out.append(every(owned))
    return out


def live_recipients(wants: Wants) -> list[int]:
    """The recipients 1..18 whose ``to`` (``recipient_tos``) may differ from the
    warehouse's: the company's own cafés' and every café's; the others give the
    warehouse's ``to`` itself."""
    return [*sorted({RECIPIENT_OF[cafe_id] for cafe_id in wants}), 2 + len(PLAN_CAFES)]


def deliveries(area: list[int], tos: list[Delivery]) -> list[Action]:
    """The delivery actions of an area, one per recipient's ``to`` (fresh dicts each)."""
    return [
        {"type": "deliver", "area": list(area), "to": {k: dict(v) for k, v in to.items()}}
        for to in tos
    ]
