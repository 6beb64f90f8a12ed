"""Properties of Espresso over many random matches: nothing is created or lost,
stacks stay valid, points add up, replays agree, views hide what they must."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from coffeetable.engine import IllegalAction, replay
from coffeetable.games.espresso.cards import COLOURS, DECK_SIZE, card_json, colour_of, value_of
from coffeetable.games.espresso.rules import EspressoState
from tests.games.espresso.helpers import all_cards, fingerprint, new_match

VARIANTS = [{}, {"zero": True}, {"chaos": True}, {"zero": True, "chaos": True}]


def stack_is_valid(stack: list[int], zero: bool) -> bool:
    """A centre stack as the variant allows it, bottom to top."""
    if not 1 <= len(stack) <= 9:
        return False
    if not zero:
        first = stack[0]
        return all(
            colour_of(card) == colour_of(first) and value_of(card) == height
            for height, card in enumerate(stack)
        )
    value, colour, after_joker = -1, None, False  # colour None: any colour may come
    for card in stack:
        if value_of(card) == 0:  # a joker: never on a joker, never standing for 8
            if after_joker or value + 1 > 7:
                return False
            value, colour, after_joker = value + 1, None, True
            continue
        needed = 1 if value < 0 else value + 1  # a real start is a 1
        if value_of(card) != needed or colour not in (None, colour_of(card)):
            return False
        value, colour, after_joker = value_of(card), colour_of(card), False
    return not after_joker


def cards_in(view: Any) -> list[tuple[str, int, int]]:
    """Every card dict anywhere in a view, as (colour, value, owner)."""
    found: list[tuple[str, int, int]] = []
    if isinstance(view, dict):
        if {"colour", "value", "owner"} <= view.keys():
            found.append((view["colour"], view["value"], view["owner"]))
        for key, value in view.items():
            if key != "last_round":  # the previous round's centre, from a deck since re-dealt
                found += cards_in(value)
    elif isinstance(view, list):
        for item in view:
            found += cards_in(item)
    return found


def visible_cards(state: EspressoState) -> set[tuple[str, int, int]]:
    visible = [card for stack in state.centre for card in stack]
    for area in state.areas:
        visible += area.espresso[-1:] + area.pile[-1:]
        if state.phase != "ready":
            visible += [card for card in area.help if card is not None]
    return {(c["colour"], c["value"], c["owner"]) for c in map(card_json, visible)}


def random_match(seed: int, check: bool = True) -> tuple[EspressoState, list[Any]]:
    """Play one short random match (target 25), checking the invariants on the way."""
    rng = random.Random(seed)
    players = 2 + seed % 5
    options = dict(VARIANTS[seed % 4], target=25)
    state = new_match(players=players, seed=seed, **options)
    log: list[Any] = []
    expected_cards = list(range(players * DECK_SIZE))
    while not state.is_over:
        seat = rng.choice(state.actors())
        action = rng.choice(state.legal_actions(seat))
        events = state.apply(seat, action)
        log.append((seat, action))
        if not check:
            continue
        assert all_cards(state) == expected_cards
        for stack in state.centre:
            assert stack_is_valid(stack, state.zero), stack
        for event in events:
            if event["type"] == "round_over":
                owners = [card["owner"] for stack in event["centre"] for card in stack]
                bonus = [5 if seat == event["finito"] else 0 for seat in range(players)]
                assert event["points"] == [owners.count(s) + bonus[s] for s in range(players)]
        viewer = rng.choice([None, *range(players)])
        shown = cards_in(state.view(viewer))
        assert len(shown) == len(set(shown))
        assert set(shown) <= visible_cards(state)
    return state, log


def test_a_thousand_random_matches_keep_every_invariant() -> None:
    rounds = 0
    for seed in range(1000):
        state, _ = random_match(seed)
        assert state.winners and max(state.scores) >= 25
        assert all(state.scores[w] == max(state.scores) for w in state.winners)
        rounds += state.round
    assert rounds > 2000


def test_replaying_the_log_gives_the_same_state_and_views() -> None:
    for seed in range(40):
        state, log = random_match(seed, check=False)
        again = replay("espresso", state.players, seed, log, state.options)
        assert fingerprint(again) == fingerprint(state)
        for viewer in [None, *range(state.players)]:
            assert again.view(viewer) == state.view(viewer)


def test_same_seed_same_deal_other_seed_other_deal() -> None:
    assert fingerprint(new_match(seed=5)) == fingerprint(new_match(seed=5))
    assert fingerprint(new_match(seed=5)) != fingerprint(new_match(seed=6))


def test_clone_is_independent() -> None:
    state, _ = random_match(3, check=False)
    copy = state.clone()
    assert fingerprint(copy) == fingerprint(state)
    live = new_match(players=3, seed=9)
    twin = live.clone()
    for seat in range(3):
        live.apply(seat, {"type": "ready"})
    live.apply(0, {"type": "flip", "count": 3})
    assert twin.phase == "ready" and len(twin.areas[0].pile) == 0


def test_determinize_keeps_the_view_and_resamples_hidden_cards() -> None:
    rng = random.Random(1)
    changed = 0
    for seed in range(30):
        state = new_match(players=2 + seed % 5, seed=seed, **VARIANTS[seed % 4])
        play_rng = random.Random(seed)
        for _ in range(play_rng.randrange(0, 200)):
            if state.is_over:
                break
            seat = play_rng.choice(state.actors())
            state.apply(seat, play_rng.choice(state.legal_actions(seat)))
        seat = seed % state.players
        sample = state.determinize(seat, rng)
        assert sample.view(seat) == state.view(seat)
        assert all_cards(sample) == all_cards(state)
        changed += [a.hand for a in sample.areas] != [a.hand for a in state.areas]
    assert changed >= 25


# -- bad input, generated -------------------------------------------------------------

FIELDS = st.fixed_dictionaries(
    {"type": st.sampled_from(["play", "joker", "flip", "recycle", "ready", "idle", "dance", 3])},
    optional={
        "source": st.sampled_from(["espresso", "help", "pile", "hand", None]),
        "slot": st.one_of(st.integers(-1, 3), st.just("1"), st.booleans()),
        "owner": st.one_of(st.integers(-1, 6), st.just(True)),
        "target": st.one_of(st.integers(-2, 8), st.sampled_from(["new", "old", None])),
        "count": st.sampled_from([1, 2, 3, 4, "3"]),
        "follow": st.one_of(
            st.just(None),
            st.fixed_dictionaries(
                {"source": st.sampled_from(["espresso", "help", "pile"])},
                optional={"slot": st.integers(0, 2), "owner": st.integers(0, 3)},
            ),
        ),
    },
)


def normalised(action: dict[str, Any], seat: int) -> dict[str, Any]:
    """The form legal_actions uses: owner omitted for one's own card, flip count explicit.

    Only card moves name an owner: on a flip (say) an ``owner`` is a field too many.
    """
    out = dict(action)
    takes_owner = out.get("type") in ("play", "joker")
    if takes_owner and out.get("owner") == seat and type(out.get("owner")) is int:
        del out["owner"]
    follow = out.get("follow")
    if isinstance(follow, dict) and follow.get("owner") == seat:
        out["follow"] = {k: v for k, v in follow.items() if k != "owner"}
    if out.get("type") == "flip" and "count" not in out:
        out["count"] = 3
    return out


@settings(max_examples=400, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 300),
    seat_choice=st.integers(0, 5),
    action=FIELDS,
)
def test_apply_accepts_exactly_the_legal_actions_and_a_refusal_changes_nothing(
    seed: int, steps: int, seat_choice: int, action: dict[str, Any]
) -> None:
    rng = random.Random(seed)
    state = new_match(players=2 + seed % 3, seed=seed, **VARIANTS[seed % 4])
    for _ in range(steps):
        if state.is_over:
            break
        actor = rng.choice(state.actors())
        state.apply(actor, rng.choice(state.legal_actions(actor)))
    seat = seat_choice % state.players
    legal = state.legal_actions(seat)
    before = fingerprint(state)
    try:
        state.apply(seat, action)
    except IllegalAction as refusal:
        assert refusal.reason
        assert fingerprint(state) == before
        assert normalised(action, seat) not in legal
    else:
        assert normalised(action, seat) in legal


def test_colours_are_the_rulebook_colours() -> None:
    assert COLOURS == ("red", "green", "blue", "yellow")
