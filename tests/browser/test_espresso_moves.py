"""The table's move logic (web/games/espresso/moves.js), run in the browser on
hand-made `legal` lists: jokers (Zero) and other players' cards (Chaos)."""

from __future__ import annotations

import pytest

from tests.browser.helpers import tid

pytestmark = pytest.mark.browser

SCRIPT = """async (legal) => {
  const m = await import('/static/games/espresso/moves.js');
  const me = 1;
  const a = m.analyse(legal, me);
  const pick = (source, follower = null) => {
    const c = m.choices(a, { source, follower }, me);
    return { targets: [...c.targets.keys()], followers: [...c.followers].sort() };
  };
  return {
    sources: [...a.sources.keys()].sort(),
    flips: a.flips.map((f) => f.count),
    joker: pick('1:help:2'),
    jokerThenEspresso: pick('1:help:2', '1:espresso'),
    jokerThenPile: pick('1:help:2', '1:pile'),
    chaos: pick('0:pile'),
    keys: ['1:espresso', '1:pile', '1:help:0', '0:pile'].map((k) => m.keyForPosition(k, me)),
  };
}"""

LEGAL = [
    # A joker in help slot 2; its follower is the card that moves up into slot 2
    # (seen now as the espresso top) or the pile top.
    {
        "type": "joker",
        "source": "help",
        "slot": 2,
        "follow": {"source": "help", "slot": 2},
        "target": 0,
    },
    {
        "type": "joker",
        "source": "help",
        "slot": 2,
        "follow": {"source": "help", "slot": 2},
        "target": "new",
    },
    {"type": "joker", "source": "help", "slot": 2, "follow": {"source": "pile"}, "target": 3},
    # Chaos: seat 0's pile top, and our own espresso top.
    {"type": "play", "source": "pile", "owner": 0, "target": 4},
    {"type": "play", "source": "espresso", "target": 1},
    {"type": "flip", "count": 2},
    {"type": "flip", "count": 3},
]


def test_jokers_and_chaos_are_offered_from_the_legal_list(page, server):
    page.goto(server.url + "/#/rules/espresso")
    page.wait_for_selector(f"{tid('rules-body')} h1")
    result = page.evaluate(SCRIPT, LEGAL)
    assert result["sources"] == ["0:pile", "1:espresso", "1:help:2"]
    assert result["flips"] == [3, 2]  # Space flips 3; Shift+Space flips 2
    assert result["joker"] == {"targets": [], "followers": ["1:espresso", "1:pile"]}
    assert result["jokerThenEspresso"]["targets"] == ["stack:0", "new"]
    assert result["jokerThenPile"]["targets"] == ["stack:3"]
    assert result["chaos"] == {"targets": ["stack:4"], "followers": []}
    assert result["keys"] == ["E", "P", "1", None]
