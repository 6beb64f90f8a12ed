"""Café's frame holds every legal action: no company spreads past 19 x 18 squares, no
placement's anchor past the frame, no company past 12 roasting areas (the proofs are in
``coffeetable.interop.cafe``'s docstring); the mask marks exactly the legal actions the
space holds, and the encoding follows the company, not where it lies."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator

import pytest

np = pytest.importorskip("numpy")

from coffeetable.games.cafe.cards import BY_ID  # noqa: E402
from coffeetable.games.cafe.grid import Company  # noqa: E402
from coffeetable.games.cafe.rules import CafeState  # noqa: E402
from coffeetable.interop import cafe  # noqa: E402
from coffeetable.interop.cafe_board import Board  # noqa: E402
from coffeetable.interop.encoding import codec, get_game  # noqa: E402

#: picks a placement among the legal ones (x, y, rotation)
Chooser = Callable[[list[dict], random.Random], dict]


def _uniform(actions: list[dict], rng: random.Random) -> dict:
    return rng.choice(actions)


def _leftmost(actions: list[dict], rng: random.Random) -> dict:
    return min(actions, key=lambda a: (a["x"], rng.random()))


def _topmost(actions: list[dict], rng: random.Random) -> dict:
    return min(actions, key=lambda a: (a["y"], rng.random()))


def _corner(actions: list[dict], rng: random.Random) -> dict:
    return min(actions, key=lambda a: (a["x"] + a["y"], rng.random()))


def matches(players: int, games: int, place: Chooser) -> Iterator[tuple[CafeState, int]]:
    """(state, seat) for every seat at every step of seeded random matches; placements are
    chosen by ``place``, everything else uniformly."""
    game = get_game("cafe")
    for seed in range(games):
        state = game.new_state(players=players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            for seat in range(players):
                yield state, seat
            seat = rng.choice(state.actors())
            actions = state.legal_actions(seat)
            chosen = place(actions, rng) if state.phase == "place" else rng.choice(actions)
            state.apply(seat, chosen)
        for seat in range(players):
            yield state, seat


def _box(company) -> tuple[int, int]:
    xs = [x for x, _ in company.grid]
    ys = [y for _, y in company.grid]
    return max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


@pytest.mark.parametrize(
    ("players", "games", "place"),
    [
        (1, 40, _uniform),
        (2, 30, _uniform),
        (3, 15, _uniform),
        (4, 10, _uniform),
        (1, 10, _leftmost),
        (2, 6, _topmost),
        (4, 4, _corner),
    ],
)
def test_no_legal_action_falls_outside_the_frame(players: int, games: int, place: Chooser) -> None:
    table = codec("cafe", players)
    widest = tallest = 0
    for state, seat in matches(players, games, place):
        company = state.companies[seat]
        width, height = _box(company)
        assert width + height <= 5 + 2 * (len(company.cards) - 1)  # the growth bound
        assert width <= cafe.FRAME_W and height <= cafe.FRAME_H
        widest, tallest = max(widest, width), max(tallest, height)
        roasts = [area for area in company.areas() if area.kind == "roast"]
        assert len(roasts) <= cafe.ROAST_SLOTS
        legal = table.legal(state, seat)
        for action in state.legal_actions(seat):
            index = table.encode(action, state, seat)
            if index is None:  # only a split no recipient gives is outside the space
                assert action["type"] == "deliver", action
                area = (action["area"][0], action["area"][1])
                assert action not in table._recipients(state, seat, area)
                continue
            assert table.decode(index, state, seat) == action
        # the mask: exactly the legal actions' indices, each decoding to a legal action
        mask = table.mask(state, seat)
        assert set(np.flatnonzero(mask)) == set(legal)
        listed = state.legal_actions(seat)
        for index in legal:
            assert table.decode(index, state, seat) in listed
    # pushed one way all match long, a company fills the frame: it is no larger than it must be
    if place is _leftmost:
        assert widest == cafe.FRAME_W
    if place is _topmost:
        assert tallest == cafe.FRAME_H


def test_a_company_reads_the_same_wherever_it_lies() -> None:
    """The frame follows the company: the same cards laid one square further left give
    the same observation block and the same action indices."""
    state = get_game("cafe").new_state(players=1, seed=3)
    rng = random.Random(3)
    while not (state.phase == "actions" and state.round_number >= 3):
        state.apply(0, rng.choice(state.legal_actions(0)))
    table = codec("cafe", 1)
    moved = state.clone()
    company = moved.companies[0]
    company.grid = {(x - 5, y + 2): square for (x, y), square in company.grid.items()}
    company.cafes = {
        key: dataclasses.replace(c, cells=tuple((x - 5, y + 2) for x, y in c.cells))
        for key, c in company.cafes.items()
    }
    company.cards = [(card, x - 5, y + 2, r) for card, x, y, r in company.cards]
    company._layout = None  # worked out again for the moved squares
    assert np.array_equal(table.observe_state(state, 0), table.observe_state(moved, 0))
    assert np.array_equal(table.observe(state.view(0)), table.observe(moved.view(0)))
    before = table.legal(state, 0)
    after = table.legal(moved, 0)
    assert list(before) == list(after) and before
    for index in before:
        action, shifted = table.decode(index, state, 0), table.decode(index, moved, 0)
        if "area" in action:
            x, y = action["area"]
            assert shifted["area"] == [x - 5, y + 2]


def test_boards_built_card_by_card_are_the_boards_built_at_once() -> None:
    """A board is its card list's board before the last card with that card laid on it
    (``Board.after``); worked out from the squares (``Board.of``) it is the same."""
    checked = 0
    for state, seat in matches(2, 4, _uniform):
        company = state.companies[seat]
        if len(company.cards) < 2:
            continue
        at_once = Board.of(company)
        assert sorted(at_once.ones()) == sorted(_board_of_cards(company).ones())
        assert at_once.squares == _board_of_cards(company).squares
        checked += 1
    assert checked > 100


def _layout_cells(company, board: Board) -> list[list[int]]:
    """The cells of each footprint's legal anchors in the frame, from the engine's layout
    (all of them while cards are placed; after the last card some may lie beyond)."""
    ax, ay = board.x0 - cafe.MARGIN, board.y0 - cafe.MARGIN
    return [
        [
            (y - ay) * cafe.FRAME_W + x - ax
            for y, x in company.layout.legal[footprint]
            if 0 <= x - ax < cafe.FRAME_W and 0 <= y - ay < cafe.FRAME_H
        ]
        for footprint in (0, 1)
    ]


@pytest.mark.parametrize(("players", "place"), [(2, _uniform), (1, _leftmost), (1, _topmost)])
def test_the_anchors_a_board_counts_are_the_layouts(players: int, place: Chooser) -> None:
    """A board counts the squares under every anchor itself (``Board.anchors``, card by
    card); its legal anchors are the engine's (``Layout.legal``), in the same order, and
    so are those of a board that counts none (a company drawn far away: read from the
    layout); each cell's flag says whether it is one."""
    checked = 0
    for state, seat in matches(players, 6, place):
        company = state.companies[seat]
        expected = _layout_cells(company, Board.of(company))
        for board in (_board_of_cards(company), Board.of(company)):
            assert board.cover is not None
            cells, flags = board.anchors(company)
            assert [c.tolist() for c in cells] == expected
            assert np.flatnonzero(flags).tolist() == expected[0] + [
                cafe.CELLS + c for c in expected[1]
            ]
        far = Board.of(company)
        far.cover = None  # as a company beyond the counts' array
        assert [c.tolist() for c in far.anchors(company)[0]] == expected
        checked += 1
    assert checked > 100


def _board_of_cards(company) -> Board:
    """The board of the company's cards, card by card from its start card's."""
    board = Board.of(Company(BY_ID[company.cards[0][0]]))
    for card in company.cards[1:]:
        board = board.after(card)
    return board


def test_the_space_is_what_the_docstring_says() -> None:
    table = codec("cafe", 2)
    assert cafe.CELLS == 342 and cafe.ROAST_SLOTS == 12 and cafe.RECIPIENTS == 19
    assert table.num_actions == 4_915 == cafe.PASS_INDEX + 1
    assert table.actions[cafe.PASS_INDEX] == {"type": "pass"}
    assert [codec("cafe", n).observation_size for n in (1, 2, 3, 4)] == [
        5_455,
        10_733,
        16_011,
        21_289,
    ]
