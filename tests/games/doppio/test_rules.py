"""Espresso Doppio's turns, rounds, solo mode and bad input."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from coffeetable.engine import IllegalAction, replay
from coffeetable.games.doppio import DoppioGame, DoppioState
from coffeetable.games.doppio.cards import BY_ID, CARDS
from tests.games.doppio.test_patterns import P

GAME = DoppioGame()


def new(players: int = 2, seed: int = 0, **options: Any) -> DoppioState:
    return GAME.new_state(players=players, seed=seed, **options)


def set_up(state: DoppioState) -> None:
    """Play the nine set-up placements (first legal each time)."""
    while state.phase == "setup":
        seat = state.actors()[0]
        state.apply(seat, state.legal_actions(seat)[0])


def fingerprint(state: DoppioState) -> str:
    data = {k: v for k, v in vars(state).items() if k not in ("game", "rng")}
    data["turn_starts"] = sorted(map(repr, state.turn_starts.items()))  # tuple keys
    return json.dumps(data, sort_keys=True, default=str) + str(state.rng.getstate())


def law_holds(state: DoppioState) -> bool:
    pieces = [(k, c) for space in state.path for k, c in enumerate(space) if c is not None]
    return len(pieces) == len(set(pieces))  # each piece once; a space holds one per kind


# -- set-up ------------------------------------------------------------------------------


def test_deal_gives_each_player_three_face_up_and_five_in_the_pile() -> None:
    state = new(seed=4)
    assert [len(c) for c in state.face_up] == [3, 3]
    assert [len(p) for p in state.piles] == [5, 5]
    every = sorted(state.face_up[0] + state.face_up[1] + state.piles[0] + state.piles[1])
    assert every == [card.id for card in CARDS]


def test_set_up_places_saucers_cups_spoons_alternately_with_the_colour_rule() -> None:
    state = new(seed=1, first_player=0)
    order = []
    while state.phase == "setup":
        seat = state.actors()[0]
        legal = state.legal_actions(seat)
        kinds = {a["kind"] for a in legal}
        assert len(kinds) == 1
        order.append((seat, kinds.pop()))
        state.apply(seat, legal[-1])
    assert order == [
        (0, "saucer"),
        (1, "saucer"),
        (0, "saucer"),
        (1, "cup"),
        (0, "cup"),
        (1, "cup"),
        (0, "spoon"),
        (1, "spoon"),
        (0, "spoon"),
    ]
    assert state.actors() == [1]  # B, who placed second, takes the first turn
    assert law_holds(state)


def test_set_up_refuses_a_space_with_the_same_colour() -> None:
    state = new(first_player=0)
    state.apply(0, {"type": "place", "kind": "saucer", "colour": "brown", "space": 2})
    state.apply(1, {"type": "place", "kind": "saucer", "colour": "white", "space": 3})
    state.apply(0, {"type": "place", "kind": "saucer", "colour": "black", "space": 0})
    assert {
        "type": "place",
        "kind": "cup",
        "colour": "brown",
        "space": 2,
    } not in state.legal_actions(1)
    with pytest.raises(IllegalAction, match="its kind or its colour"):
        state.apply(1, {"type": "place", "kind": "cup", "colour": "brown", "space": 2})
    with pytest.raises(IllegalAction, match="cups are placed now"):
        state.apply(1, {"type": "place", "kind": "spoon", "colour": "white", "space": 4})
    with pytest.raises(IllegalAction, match="turn"):
        state.apply(0, {"type": "place", "kind": "cup", "colour": "white", "space": 2})
    state.apply(1, {"type": "place", "kind": "cup", "colour": "white", "space": 2})
    with pytest.raises(IllegalAction, match="no 'white' cup"):
        state.apply(0, {"type": "place", "kind": "cup", "colour": "white", "space": 1})


# -- turns -------------------------------------------------------------------------------


def playing(path: list, face_up: list[int], seat: int = 0, **options: Any) -> DoppioState:
    """A game in play with this path, ``seat`` to act holding ``face_up``."""
    state = new(seed=3, **options)
    set_up(state)
    state.path = list(path)
    others = [c.id for c in CARDS if c.id not in face_up]
    in_my_pile = 8 - len(face_up)
    state.face_up[seat], state.piles[seat] = list(face_up), others[:in_my_pile]
    rest = others[in_my_pile:]
    state.face_up[1 - seat], state.piles[1 - seat] = rest[:3], rest[3:]
    state.current = seat
    return state


#: Cups alone on spaces 0 and 2 (card 7 twice); every piece of the set placed once.
LONELY_CUPS = P(
    "brown cup",
    "white cup, black saucer",
    "black cup",
    "brown saucer, white spoon",
    "white saucer, black spoon",
)


def test_a_turn_is_one_to_three_actions_then_scoring_then_refill() -> None:
    state = playing(LONELY_CUPS, [7, 8, 9])
    assert not any(a["type"] in ("score", "end_turn") for a in state.legal_actions(0))
    with pytest.raises(IllegalAction, match="after your first move"):
        state.apply(0, {"type": "score", "card": 7, "turned": False})
    state.apply(0, {"type": "move", "from": 1, "to": 4, "kinds": ["cup"]})
    assert state.path[1] == (None, 2, None)
    state.apply(0, {"type": "move", "from": 4, "to": 1, "kinds": ["cup"]})
    state.apply(0, {"type": "move", "from": 1, "to": 4, "kinds": ["cup"]})
    assert not any(a["type"] in ("move", "exchange") for a in state.legal_actions(0))
    with pytest.raises(IllegalAction, match="three actions"):
        state.apply(0, {"type": "move", "from": 4, "to": 1, "kinds": ["cup"]})
    # cups alone on spaces 0 and 2; saucer alone on space 1
    assert {"type": "score", "card": 7, "turned": False} in state.legal_actions(0)
    events = state.apply(0, {"type": "score", "card": 7, "turned": False})
    assert events[0]["matches"] == 2 and events[0]["beans"] == 4
    assert state.beans[0] == 4 and state.reserve == 56
    state.apply(0, {"type": "score", "card": 8})
    assert state.beans[0] == 6
    pile_before = len(state.piles[0])
    state.apply(0, {"type": "end_turn"})
    assert len(state.face_up[0]) == 3 and len(state.piles[0]) == pile_before - 2
    assert state.actors() == [1] and state.actions_taken == 0


def test_no_moves_after_scoring_unless_espresso_master() -> None:
    state = playing(LONELY_CUPS, [7, 8, 9])
    state.apply(0, {"type": "move", "from": 1, "to": 4, "kinds": ["cup"]})
    state.apply(0, {"type": "score", "card": 8, "turned": False})
    with pytest.raises(IllegalAction, match="you have scored"):
        state.apply(0, {"type": "move", "from": 4, "to": 1, "kinds": ["cup"]})

    master = playing(LONELY_CUPS, [7, 8, 9], master=True)
    master.apply(0, {"type": "score", "card": 7, "turned": False})  # before any action
    master.apply(0, {"type": "move", "from": 1, "to": 4, "kinds": ["cup"]})
    master.apply(0, {"type": "score", "card": 8, "turned": False})
    master.apply(0, {"type": "move", "from": 4, "to": 1, "kinds": ["cup"]})
    assert len(master.face_up[0]) == 1  # refill only at the end of the turn
    master.apply(0, {"type": "end_turn"})
    assert len(master.face_up[0]) == 3


def test_moves_and_exchanges_keep_the_law_of_the_path() -> None:
    path = P(
        "brown cup, white saucer",
        "white cup, black spoon",
        "black saucer, brown spoon",
        "black cup, brown saucer",
        "white spoon",
    )
    state = playing(path, [7, 8, 9])
    with pytest.raises(IllegalAction, match="two pieces of one kind"):
        state.apply(0, {"type": "move", "from": 0, "to": 1, "kinds": ["cup"]})
    with pytest.raises(IllegalAction, match="no spoon on space 0"):
        state.apply(0, {"type": "move", "from": 0, "to": 3, "kinds": ["spoon"]})
    # the brown cup and white saucer of space 0 for the white cup of space 1
    state.apply(
        0, {"type": "exchange", "from": 0, "to": 1, "kinds": ["cup", "saucer"], "with": ["cup"]}
    )
    assert state.path[0] == P("white cup", "", "", "", "")[0]
    assert state.path[1] == P("brown cup, white saucer, black spoon", "", "", "", "")[0]
    assert law_holds(state)


def test_legal_actions_have_no_duplicates_and_each_gives_a_different_path() -> None:
    state = new(seed=9)
    set_up(state)
    seat = state.actors()[0]
    moves = [a for a in state.legal_actions(seat) if a["type"] in ("move", "exchange")]
    paths = set()
    for action in moves:
        copy = state.clone()
        copy.apply(seat, action)
        paths.add(tuple(copy.path))
    assert len(paths) == len(moves) > 0


def test_undo_takes_back_moves_until_something_is_scored() -> None:
    state = playing(LONELY_CUPS, [7, 8, 9])
    assert {"type": "undo"} not in state.legal_actions(0)
    state.apply(0, {"type": "move", "from": 1, "to": 4, "kinds": ["cup"]})
    state.apply(0, {"type": "move", "from": 4, "to": 1, "kinds": ["cup"]})
    state.apply(0, {"type": "undo"})
    state.apply(0, {"type": "undo"})
    assert state.path == LONELY_CUPS and state.actions_taken == 0
    with pytest.raises(IllegalAction, match="nothing to undo"):
        state.apply(0, {"type": "undo"})
    state.apply(0, {"type": "move", "from": 1, "to": 4, "kinds": ["cup"]})
    state.apply(0, {"type": "score", "card": 8})
    assert {"type": "undo"} not in state.legal_actions(0)
    state.apply(0, {"type": "end_turn"})
    state.apply(1, {"type": "move", "from": 4, "to": 1, "kinds": ["cup"]})
    state.apply(1, {"type": "end_turn"})
    assert {"type": "undo"} not in state.legal_actions(0)  # a new turn starts afresh


def test_solo_undo_gives_the_bean_back() -> None:
    state = new(players=1, seed=2)
    set_up(state)
    before = (list(state.path), state.beans[0], state.reserve)
    moves = [a for a in state.legal_actions(0) if a["type"] == "move"]
    state.apply(0, moves[0])
    assert state.beans == [2]
    state.apply(0, {"type": "undo"})
    assert (state.path, state.beans[0], state.reserve) == before


# -- rounds and the end -------------------------------------------------------------------


def test_scoring_the_eighth_card_ends_round_one_and_swaps_the_card_sets() -> None:
    state = playing(LONELY_CUPS, [7])
    state.piles[0] = []
    state.scored[0] = [c for c in range(1, 17) if c not in (7, *state.face_up[1], *state.piles[1])][
        :7
    ]
    mine = sorted(state.scored[0] + [7])
    theirs = sorted(state.face_up[1] + state.piles[1] + state.scored[1])
    state.apply(0, {"type": "exchange", "from": 3, "to": 4, "kinds": ["spoon"], "with": ["spoon"]})
    events = state.apply(0, {"type": "score", "card": 7, "turned": False})
    assert [e["type"] for e in events] == ["scored", "round_over", "turn"]
    assert state.round == 2 and state.actors() == [1]
    assert sorted(state.face_up[1] + state.piles[1]) == mine  # player 1 now holds my cards
    assert sorted(state.face_up[0] + state.piles[0]) == theirs
    assert state.path[0] == (0, None, None)  # the path stays as it is


def test_round_two_ends_the_game_and_a_tie_goes_to_who_did_not_finish() -> None:
    state = playing(LONELY_CUPS, [7])
    state.round_number = 2
    state.piles[0] = []
    state.scored[0] = [c for c in range(1, 17) if c not in (7, *state.face_up[1], *state.piles[1])][
        :7
    ]
    state.beans = [10, 14]
    state.apply(0, {"type": "exchange", "from": 3, "to": 4, "kinds": ["spoon"], "with": ["spoon"]})
    events = state.apply(0, {"type": "score", "card": 7, "turned": False})
    assert events[-1] == {"type": "game_over", "scores": [14, 14], "winners": [1]}
    assert state.is_over and state.actors() == []


@pytest.mark.parametrize(("beans", "winners"), [([2, 5], [0, 1]), ([3, 5], [0]), ([0, 5], [1])])
def test_the_last_bean_leaving_the_reserve_ends_the_match(
    beans: list[int], winners: list[int]
) -> None:
    """Ruling (games/doppio/RULES.md): no bean is left to win, so the match ends at once;
    equal beans share the win, since nobody finished round 2."""
    state = playing(LONELY_CUPS, [7, 8, 9])
    state.beans, state.reserve = list(beans), 3
    state.apply(0, {"type": "exchange", "from": 3, "to": 4, "kinds": ["spoon"], "with": ["spoon"]})
    events = state.apply(0, {"type": "score", "card": 7, "turned": False})
    assert state.beans[0] == beans[0] + 3 and state.reserve == 0  # 2 beans a match, capped
    assert events[-1] == {
        "type": "game_over",
        "scores": state.beans,
        "winners": winners,
        "reason": "reserve_empty",
    }
    assert state.is_over and state.actors() == [] and state.legal_actions(0) == []


def test_with_the_ruling_off_the_match_goes_on_with_an_empty_reserve() -> None:
    state = playing(LONELY_CUPS, [7, 8, 9], reserve_ends=False)
    state.reserve = 3
    state.apply(0, {"type": "exchange", "from": 3, "to": 4, "kinds": ["spoon"], "with": ["spoon"]})
    events = state.apply(0, {"type": "score", "card": 7, "turned": False})
    assert state.reserve == 0 and not state.is_over
    assert [event["type"] for event in events] == ["scored"]


def test_a_scored_event_carries_the_cards_words() -> None:
    """The log tells a scored card by its words, even once the card changed hands."""
    state = playing(LONELY_CUPS, [7, 8, 9])
    state.apply(0, {"type": "exchange", "from": 3, "to": 4, "kinds": ["spoon"], "with": ["spoon"]})
    events = state.apply(0, {"type": "score", "card": 7, "turned": False})
    assert events[0]["type"] == "scored"
    assert events[0]["text"] == BY_ID[7].text and set(BY_ID[7].text) == {"en", "fr", "de", "es"}


def reverse(move: dict[str, Any]) -> dict[str, Any]:
    return {**move, "from": move["to"], "to": move["from"]}


def moves(state: DoppioState) -> list[dict[str, Any]]:
    return [a for a in state.legal_actions(state.current) if a["type"] == "move"]


def turn(state: DoppioState, move: dict[str, Any]) -> list[Any]:
    seat = state.current
    state.apply(seat, move)
    return state.apply(seat, {"type": "end_turn"})


def back_and_forth(state: DoppioState) -> list[dict[str, Any]]:
    """Four turns after which the position that began the first begins a turn again:
    each player moves a piece, then each moves it back."""
    first = moves(state)[0]
    trial = state.clone()
    turn(trial, first)
    # the second player's move, such that both moves can then be taken back in turn
    for second in moves(trial):
        after = trial.clone()
        turn(after, second)
        if reverse(first) in moves(after):
            turn(after, reverse(first))
            if reverse(second) in moves(after):
                break
    return [first, second, reverse(first), reverse(second)]


def test_the_same_position_beginning_a_turn_a_third_time_ends_the_match() -> None:
    """Ruling (games/doppio/RULES.md): the path, the face-up cards, the piles, the round and
    whose turn it is come back a third time: the match ends, equal beans share the win."""
    state = new(seed=3)
    set_up(state)
    state.beans = [4, 4]
    cycle = back_and_forth(state)
    for index in range(7):  # the first position begins turns 1 and 5 (and 9)
        turn(state, cycle[index % 4])
        assert not state.is_over
    events = turn(state, cycle[3])  # turn 8 ends: turn 9 would begin it a third time
    assert events[-1] == {
        "type": "game_over",
        "scores": [4, 4],
        "winners": [0, 1],
        "reason": "repetition",
    }
    assert state.is_over and state.actors() == []


def test_with_the_repetition_ruling_off_the_match_goes_on() -> None:
    state = new(seed=3, repetition_ends=False)
    set_up(state)
    cycle = back_and_forth(state)
    for index in range(40):
        turn(state, cycle[index % 4])
    assert not state.is_over


def test_undo_brings_no_position_back() -> None:
    """Positions are counted as turns begin: a move taken back mid-turn is no repetition."""
    state = new(seed=3)
    set_up(state)
    for _ in range(5):
        seat = state.current
        move = next(a for a in state.legal_actions(seat) if a["type"] == "move")
        state.apply(seat, move)
        state.apply(seat, {"type": "undo"})
    assert not state.is_over and max(state.turn_starts.values()) == 1


def test_a_score_that_finishes_round_two_and_empties_the_reserve_keeps_the_tie_rule() -> None:
    state = playing(LONELY_CUPS, [7])
    state.round_number = 2
    state.piles[0] = []
    state.scored[0] = [c for c in range(1, 17) if c not in (7, *state.face_up[1], *state.piles[1])][
        :7
    ]
    state.beans, state.reserve = [10, 14], 4
    state.apply(0, {"type": "exchange", "from": 3, "to": 4, "kinds": ["spoon"], "with": ["spoon"]})
    events = state.apply(0, {"type": "score", "card": 7, "turned": False})
    assert events[-1] == {"type": "game_over", "scores": [14, 14], "winners": [1]}


def test_solo_goes_on_with_an_empty_reserve() -> None:
    state = new(players=1, seed=2)
    set_up(state)
    state.reserve = 0
    state.apply(0, state.legal_actions(0)[0])  # a move pays its bean back to the reserve
    assert not state.is_over and state.reserve == 1


# -- solo --------------------------------------------------------------------------------


def test_solo_moves_cost_a_bean_and_the_game_ends_without_beans() -> None:
    state = new(players=1, seed=2)
    set_up(state)
    assert state.actors() == [0] and state.beans == [3]
    assert len(state.face_up[0]) == 3 and len(state.piles[0]) == 13
    for left in (2, 1):
        moves = [a for a in state.legal_actions(0) if a["type"] in ("move", "exchange")]
        state.apply(0, moves[0])
        assert state.beans == [left]
    assert not any(a["type"] == "end_turn" for a in state.legal_actions(0))
    moves = [a for a in state.legal_actions(0) if a["type"] in ("move", "exchange")]
    events = state.apply(0, moves[0])
    assert state.is_over and events[-1]["rank"] == "tea"
    assert state.view(0)["rank"] == "tea"


def test_solo_scores_at_any_time_and_reveals_a_new_card_at_once() -> None:
    state = new(players=1, seed=2)
    set_up(state)
    state.path = P(
        "brown cup",  # a cup alone: card 7
        "black saucer",  # a saucer alone: card 8
        "black cup, white spoon",
        "white cup, brown saucer, brown spoon",
        "white saucer, black spoon",
    )
    state.face_up[0] = [7, 1, 2]
    state.piles[0] = [c for c in range(3, 17) if c != 7]
    state.apply(0, {"type": "score", "card": 7, "turned": False})
    assert state.beans == [3 + 2] and len(state.face_up[0]) == 3
    state.face_up[0], state.piles[0] = [8], []  # the last card
    events = state.apply(0, {"type": "score", "card": 8, "turned": False})
    assert state.is_over and events[-1]["rank"] == "filter" and state.beans == [7]


@pytest.mark.parametrize(
    ("beans", "rank"),
    [
        (0, "tea"),
        (6, "tea"),
        (7, "filter"),
        (13, "french_press"),
        (15, "espresso_machine"),
        (16, "barista"),
        (40, "barista"),
    ],
)
def test_solo_ranking(beans: int, rank: str) -> None:
    from coffeetable.games.doppio.cards import solo_rank

    assert solo_rank(beans) == rank


# -- properties over random games ------------------------------------------------------------


def random_game(seed: int, players: int, **options: Any) -> tuple[DoppioState, list]:
    rng = random.Random(seed)
    state = new(players=players, seed=seed, **options)
    log = []
    for _ in range(3000):
        if state.is_over:
            break
        seat = rng.choice(state.actors())
        legal = state.legal_actions(seat)
        scoring = [a for a in legal if a["type"] == "score"]  # keeps random games short
        action = rng.choice(scoring if scoring and rng.random() < 0.9 else legal)
        state.apply(seat, action)
        log.append((seat, action))
        assert law_holds(state)
        cards = state.face_up + state.piles + state.scored
        assert sorted(c for group in cards for c in group) == list(range(1, 17))
        assert sum(state.beans) + state.reserve == 60
        view = json.dumps(state.view(rng.choice([None, *range(players)])))
        for pile in state.piles:  # the draw piles' cards never show
            for card_id in pile:
                assert f'"id": {card_id},' not in view
    return state, log


def test_random_games_keep_the_law_the_cards_and_the_beans() -> None:
    finished = 0
    for seed in range(400):
        players = 1 if seed % 5 == 0 else 2
        state, _ = random_game(seed, players, master=seed % 3 == 0)
        finished += state.is_over
    assert finished >= 390


def test_replay_gives_the_same_game() -> None:
    for seed in range(10):
        state, log = random_game(seed, 2 - seed % 2)
        again = replay(GAME, state.players, seed, log, state.options)
        assert fingerprint(again) == fingerprint(state)


def test_determinize_keeps_the_view() -> None:
    rng = random.Random(0)
    for seed in range(20):
        state, _ = random_game(seed, 2)
        if state.is_over:
            continue
        sample = state.determinize(0, rng)
        assert sample.view(0) == state.view(0)


@pytest.mark.parametrize(
    "action",
    [
        None,
        "move",
        {},
        {"type": "fly"},
        {"type": "move", "from": 0, "to": 0, "kinds": ["cup"]},
        {"type": "move", "from": 0, "to": 9, "kinds": ["cup"]},
        {"type": "move", "from": 0, "to": 1, "kinds": []},
        {"type": "move", "from": 0, "to": 1, "kinds": "cup"},
        {"type": "move", "from": 0, "to": 1, "kinds": ["mug"]},
        {"type": "move", "from": 0, "to": 1, "kinds": ["cup", "cup"]},
        {"type": "move", "from": True, "to": 1, "kinds": ["cup"]},
        {"type": "move", "from": 0, "to": 1, "kinds": ["cup"], "beans": 3},
        {"type": "score", "card": 99},
        {"type": "score", "card": 7, "turned": "yes"},
        {"type": "end_turn"},
        {"type": "place", "kind": "cup", "colour": "brown", "space": 0},
    ],
)
def test_bad_input_is_refused_and_changes_nothing(action: Any) -> None:
    state = new(seed=5)
    set_up(state)
    before = fingerprint(state)
    seat = state.actors()[0]
    with pytest.raises(IllegalAction):
        state.apply(seat, action)
    with pytest.raises(IllegalAction, match="turn"):
        state.apply(1 - seat, {"type": "end_turn"})
    assert fingerprint(state) == before


def test_every_card_text_is_shown_in_views() -> None:
    state = new(seed=5)
    card = state.view(None)["players"][0]["cards"][0]
    assert card["text"]["fr"] == BY_ID[card["id"]].text["fr"]
