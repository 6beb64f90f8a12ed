"""ISMCTS: it searches, it plays from its information set only, and it never cheats.

Three tiny games written here make the search's answers certain: Nim (a tree
search finds the winning move), a one-card bet (the right call depends on what
the seat may know, not on the hidden card itself) and a secret simultaneous
pick (the bot searches for the seat that asked). Then the real games: legal,
reproducible choices that leave the position untouched.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from coffeetable import bots, games
from coffeetable.bots.ismcts import ISMCTSBot
from coffeetable.engine import Action, Event, Game, IllegalAction, State, View
from coffeetable.sim.turns import play_turns


class _TinyGame(Game):
    name = "tiny"
    min_players = 2
    max_players = 2
    realtime = False
    options: list[Any] = []

    def new_state(self, players: int, seed: int = 0, **options: Any) -> State:
        raise NotImplementedError


class _TinyState(State):
    """What the three test games share: two seats, a result, copies."""

    game = _TinyGame()
    players = 2

    def __init__(self) -> None:
        self.result: list[float] | None = None

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def scores(self) -> list[int]:
        return [0, 0]

    @property
    def winners(self) -> list[int]:
        if self.result is None:
            return []
        return [seat for seat in (0, 1) if self.result[seat] > 0]

    @property
    def round(self) -> int:
        return 1

    def returns(self) -> list[float]:
        return self.result or [0.0, 0.0]

    def clone(self) -> State:
        return copy.deepcopy(self)

    def determinize(self, seat: int, rng: random.Random) -> State:
        return self.clone()

    def view(self, seat: int | None) -> View:
        return {"over": self.is_over}

    def _check(self, seat: int | None, action: Any) -> None:
        if seat not in self.actors() or action not in self.legal_actions(seat):
            raise IllegalAction(f"{action!r} is not legal for {seat!r}")


class Nim(_TinyState):
    """Take 1-3 sticks in turn; who takes the last one wins."""

    def __init__(self, sticks: int) -> None:
        super().__init__()
        self.sticks, self.current = sticks, 0

    def actors(self) -> list[int]:
        return [] if self.is_over else [self.current]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.actors():
            return []
        return [{"type": "take", "n": n} for n in range(1, min(3, self.sticks) + 1)]

    def apply(self, seat: int | None, action: Any) -> list[Event]:
        self._check(seat, action)
        self.sticks -= action["n"]
        if self.sticks == 0:
            self.result = [1.0, -1.0] if self.current == 0 else [-1.0, 1.0]
        self.current = 1 - self.current
        return []


class HighCardBet(_TinyState):
    """Seat 0 holds a card and bets (higher card wins 1, loses -1) or folds (0).

    The other card is hidden from seat 0: a fair bot bets on 8 and folds on 3
    whatever the hidden card really is.
    """

    def __init__(self, mine: int, theirs: int) -> None:
        super().__init__()
        self.cards = [mine, theirs]

    def actors(self) -> list[int]:
        return [] if self.is_over else [0]

    def legal_actions(self, seat: int) -> list[Action]:
        return [{"type": "bet"}, {"type": "fold"}] if seat in self.actors() else []

    def apply(self, seat: int | None, action: Any) -> list[Event]:
        self._check(seat, action)
        if action["type"] == "fold":
            self.result = [0.0, 0.0]
        else:
            won = self.cards[0] > self.cards[1]
            self.result = [1.0, -1.0] if won else [-1.0, 1.0]
        return []

    def determinize(self, seat: int, rng: random.Random) -> State:
        copied = copy.deepcopy(self)
        copied.cards[1] = rng.choice([card for card in range(1, 11) if card != self.cards[0]])
        return copied


class SecretPick(_TinyState):
    """Both seats pick a card of their own hand at once; the higher card wins."""

    def __init__(self, hands: list[list[int]]) -> None:
        super().__init__()
        self.hands = hands
        self.picks: list[int | None] = [None, None]

    def actors(self) -> list[int]:
        return [seat for seat in (0, 1) if self.picks[seat] is None and not self.is_over]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.actors():
            return []
        return [{"type": "pick", "card": card} for card in self.hands[seat]]

    def apply(self, seat: int | None, action: Any) -> list[Event]:
        self._check(seat, action)
        assert seat is not None
        self.picks[seat] = action["card"]
        if None not in self.picks:
            high = 0 if self.picks[0] > self.picks[1] else 1  # type: ignore[operator]
            self.result = [1.0, -1.0] if high == 0 else [-1.0, 1.0]
        return []


class TwoSteps(_TinyState):
    """Both seats act at once, two actions each: "quick" scores 1 now and nothing after,
    "slow" nothing now and 5 with the second action. Most points win."""

    def __init__(self) -> None:
        super().__init__()
        self.first: list[str | None] = [None, None]
        self.done = [False, False]
        self.points = [0, 0]

    @property
    def scores(self) -> list[int]:
        return list(self.points)

    def actors(self) -> list[int]:
        return [seat for seat in (0, 1) if not self.done[seat]]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.actors():
            return []
        if self.first[seat] is None:
            return [{"type": "quick"}, {"type": "slow"}]
        return [{"type": "finish"}]

    def apply(self, seat: int | None, action: Any) -> list[Event]:
        self._check(seat, action)
        assert seat is not None
        if action["type"] == "finish":
            self.done[seat] = True
            self.points[seat] += 5 if self.first[seat] == "slow" else 0
        else:
            self.first[seat] = action["type"]
            self.points[seat] += 1 if action["type"] == "quick" else 0
        if all(self.done):
            high = self.points[0] - self.points[1]
            self.result = [0.0, 0.0] if high == 0 else [1.0, -1.0] if high > 0 else [-1.0, 1.0]
        return []


def _search(**options: Any) -> ISMCTSBot:
    options.setdefault("iterations", 1500)
    return ISMCTSBot(None, turns=30, rollout_actions=60, **options)


@pytest.mark.parametrize(("sticks", "winning_take"), [(5, 1), (6, 2), (7, 3), (9, 1)])
def test_the_search_finds_the_winning_nim_move(sticks: int, winning_take: int) -> None:
    state = Nim(sticks)
    action = _search().choose(state, 0, random.Random(sticks))
    assert action == {"type": "take", "n": winning_take}


@pytest.mark.parametrize(
    ("mine", "theirs", "fair_call"),
    [(8, 9, "bet"), (8, 2, "bet"), (3, 1, "fold"), (3, 9, "fold")],
)
def test_the_bot_plays_its_information_set_not_the_hidden_card(
    mine: int, theirs: int, fair_call: str
) -> None:
    # A bot reading the real hidden card would fold 8 against 9 and bet 3 against 1.
    state = HighCardBet(mine, theirs)
    action = _search(iterations=600).choose(state, 0, random.Random(mine * 10 + theirs))
    assert action == {"type": fair_call}


@pytest.mark.parametrize("seed", range(4))
def test_with_simultaneous_actors_the_bot_searches_for_the_seat_that_asks(seed: int) -> None:
    state = SecretPick([[4, 6], [2, 9, 5]])
    assert state.actors() == [0, 1]
    assert _search(iterations=200).choose(state, 1, random.Random(seed)) == {
        "type": "pick",
        "card": 9,
    }


@pytest.mark.parametrize("seat", [0, 1])
def test_in_a_simultaneous_phase_a_seat_searches_its_own_actions_to_the_end_of_its_turn(
    seat: int,
) -> None:
    # With the shortest horizon (this turn only), seat 1 must still see its second action,
    # not hand over to seat 0 (the first actor) after its first.
    bot = ISMCTSBot(None, iterations=100, turns=0)
    assert bot.choose(TwoSteps(), seat, random.Random(seat)) == {"type": "slow"}


def test_a_budget_is_iterations_or_milliseconds() -> None:
    assert bots.make("ismcts:40", "doppio").iterations == 40  # type: ignore[attr-defined]
    timed = bots.make("ismcts:5ms", "fika")
    assert timed.max_ms == 5 and timed.iterations is None  # type: ignore[attr-defined]
    for bad in ("ismcts:0", "ismcts:fast", "ismcts:-3ms"):
        with pytest.raises(ValueError, match="ISMCTS budget"):
            bots.make(bad, "doppio")
    with pytest.raises(ValueError):
        ISMCTSBot(None, iterations=0)
    assert "ismcts" in bots.available("doppio") and "ismcts" not in bots.available("espresso")


def test_a_game_sets_its_search_horizon_in_its_heuristics() -> None:
    from coffeetable.bots.ismcts import TURNS
    from coffeetable.games.fika import heuristics as fika_heuristics

    assert ISMCTSBot(fika_heuristics).turns == fika_heuristics.SEARCH_TURNS > TURNS
    assert ISMCTSBot(fika_heuristics, turns=1).turns == 1
    assert ISMCTSBot(None).turns == TURNS


@pytest.mark.parametrize("name", [n for n in games.names() if "ismcts" in bots.available(n)])
def test_on_the_real_games_choices_are_legal_reproducible_and_change_nothing(name: str) -> None:
    state = games.get(name).new_state(players=2, seed=5)
    rng = random.Random(1)
    for _ in range(12):  # some random play first, to the middle (never the end) of it
        seat = state.actors()[0]
        after = state.clone()
        after.apply(seat, rng.choice(state.legal_actions(seat)))
        if after.is_over:
            break
        state = after
    for seat in state.actors():
        before = [state.view(viewer) for viewer in (None, 0, 1)]
        legal = state.legal_actions(seat)
        first = bots.make("ismcts:60", name).choose(state, seat, random.Random(7))
        again = bots.make("ismcts:60", name).choose(state, seat, random.Random(7))
        assert first in legal and first == again
        assert [state.view(viewer) for viewer in (None, 0, 1)] == before
        assert state.legal_actions(seat) == legal


def test_ismcts_plays_a_whole_fika_match_with_its_secret_picks() -> None:
    state = games.get("fika").new_state(players=2, seed=3)
    seats = [bots.make("ismcts:20", "fika"), bots.make("random", "fika")]
    log, _ = play_turns(state, seats, [random.Random(0), random.Random(1)])
    assert state.is_over and len(state.winners) >= 1
    assert any(seat == 0 for seat, _ in log)
