"""Play now prefers reliable players (issue #30): when more tickets could sit together
than a table has seats, the first in line always sits, then those closest to its
reliability (the higher on a tie), then by place in line; the ticket carries the
account's reliability, read when it queues."""

from __future__ import annotations

from coffeetable.server.lobby.matchmaking import Ticket, _compatible
from coffeetable.server.players.ratings import SeatResult

from .conftest import Site
from .test_stats_api import play, user_id

KEY = ("fika", 2, False)


def ticket(name: str, reliability: int, user: int) -> Ticket:
    return Ticket(KEY, name, "greedy", None, user_id=user, reliability=reliability)


def test_the_closest_in_reliability_sit_with_the_first_in_line() -> None:
    first = ticket("first", 90, 1)
    flaky = ticket("flaky", 40, 2)
    sure = ticket("sure", 100, 3)
    like = ticket("like", 90, 4)
    assert _compatible([first, flaky, sure, like], 2) == [first, like]
    assert _compatible([first, flaky, sure, like], 3) == [first, like, sure]
    assert _compatible([first, flaky, sure], 2) == [first, sure]
    # a tie in distance goes to the more reliable; a tie in both, to the place in line
    mid = ticket("mid", 80, 5)
    assert _compatible([ticket("a", 90, 6), mid, sure], 2)[1] is sure
    other = ticket("other", 100, 7)
    assert _compatible([first, sure, other], 2) == [first, sure]
    assert _compatible([first, other, sure], 2) == [first, other]


def test_nobody_is_starved_the_first_in_line_always_sits() -> None:
    flaky = ticket("flaky", 10, 1)
    sure, sure_too = ticket("sure", 100, 2), ticket("sure2", 100, 3)
    assert _compatible([flaky, sure, sure_too], 2) == [flaky, sure]
    assert _compatible([flaky], 2) == [flaky]  # alone: dealt with bots after the wait
    # blocks still come first: the closest who may sit, never one blocked
    blocked = Ticket(KEY, "b", "greedy", None, user_id=4, reliability=10, avoid=frozenset({1}))
    assert _compatible([flaky, blocked, sure], 2) == [flaky, sure]


def test_a_ticket_carries_the_accounts_reliability(site: Site) -> None:
    for name in ("Ada", "Bea", "Cid"):
        assert site.register(name).status_code == 200
    ada, bea = user_id(site, "Ada"), user_id(site, "Bea")
    for n in range(4):  # Bea left one of four matches: 75%
        seats = [
            SeatResult(0, "Ada", 10, ada),
            SeatResult(1, "Bea", 5, bea, "greedy" if n == 3 else None),
        ]
        play(site, f"m{n}", seats, [0])
    for name in ("Bea", "Cid"):  # a table of four: two wait
        site.login(name)
        answer = site.client.post("/api/play-now", json={"game": "espresso", "players": 4})
        assert answer.status_code == 200, answer.text
        assert answer.json()["status"] == "waiting"
    queue = site.app.state.matchmaker.queues[("espresso", 4, False)]
    assert [(t.name, t.reliability) for t in queue] == [("Bea", 75), ("Cid", 100)]
