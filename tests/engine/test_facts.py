"""The facts a game declares on its ``Game``, each with a default, and the registry
that finds games through the ``coffeetable.games`` entry points."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from coffeetable import games
from coffeetable.bots import hooks
from coffeetable.engine import Game, State
from coffeetable.server.players import ratings


def test_a_game_that_declares_nothing_gets_every_default() -> None:
    nim = games.get("coffee_nim")  # the fifth game sets only what today's contract asks
    assert nim.preferred_players() == 2
    assert (nim.simultaneous, nim.zero_sum, nim.solo_ranks, nim.rating_groups) == (
        False,
        False,
        (),
        (),
    )
    assert nim.heuristics() is None and nim.codec() is None and nim.web_dir() is None
    assert nim.solo_rank(10) is None
    assert ratings.groups("coffee_nim") == ["all"] and ratings.group_for("coffee_nim", 3) == "all"


def test_our_games_declare_what_shared_code_used_to_list() -> None:
    assert games.get("espresso").preferred_players() == 4
    assert ratings.groups("espresso") == ["2", "3-4", "5-6"]
    assert ratings.group_for("cafe", 3) == "3-4"
    assert games.get("fika").simultaneous and games.get("doppio").zero_sum
    assert games.get("doppio").solo_rank(12) == "french_press"
    assert ratings.solo_rank("cafe", 21) == "baron"
    assert games.get("doppio").undo_action == {"type": "undo"}
    for name in ("espresso", "doppio", "fika", "cafe"):
        board = games.get(name).web_dir()
        assert board is not None and (board / "index.js").is_file()


def test_a_perfect_information_game_determinizes_as_a_clone() -> None:
    nim = games.get("coffee_nim")
    state = nim.new_state(players=2, seed=1)
    assert nim.can_determinize
    other = state.determinize(0, random.Random(0))
    assert other is not state and other.view(0) == state.view(0)


class _Hidden(State):
    """A state of a game with hidden parts that does not say how to re-sample them."""

    def __init__(self, game: Game) -> None:
        self.game, self.players = game, 2

    def actors(self) -> list[int]:
        return [0]

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        return []

    def view(self, seat: int | None) -> dict[str, Any]:
        return {}

    is_over = False
    scores: list[int] = [0, 0]
    winners: list[int] = []
    round = 1

    def clone(self) -> _Hidden:
        return self


class _HiddenGame(Game):
    name, title, min_players, max_players = "hidden", "Hidden", 2, 2

    def new_state(self, players: int, seed: int = 0, **options: Any) -> State:
        return _Hidden(self)


def test_a_game_with_hidden_parts_and_no_determinize_gets_no_search() -> None:
    game = _HiddenGame()
    assert not game.can_determinize
    with pytest.raises(NotImplementedError, match="determinize"):
        game.new_state(2).determinize(0, random.Random(0))


def test_the_bots_read_only_the_hooks_the_protocol_lists() -> None:
    assert {"action_value", "evaluate", "dominated", "SEARCH", "action_key"} <= hooks.HOOKS
    module = games.get("doppio").heuristics()
    assert hooks.hook(module, "evaluate") is module.evaluate  # type: ignore[union-attr]
    assert hooks.hook(None, "SEARCH", "ismcts") == "ismcts"
    with pytest.raises(AttributeError, match="not a hook"):
        hooks.hook(module, "evaluat")


def test_an_entry_point_that_gives_the_wrong_game_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = tmp_path / "liar-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: liar\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[coffeetable.games]\n"
        "liar = coffee_nim:NimGame\n"  # a game named coffee_nim, listed as liar
        "Bad-Name = coffee_nim:NimGame\n"  # no URL could carry it
        "espresso = coffee_nim:NimGame\n"  # ours stay ours
    )
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    try:
        games.refresh()
        assert "liar" in games.names() and "Bad-Name" not in games.names()
        assert type(games.get("espresso")).__name__ == "EspressoGame"
        with pytest.raises(ValueError, match="not a Game named 'liar'"):
            games.get("liar")
    finally:
        monkeypatch.undo()
        games.refresh()
    assert "liar" not in games.names() and "coffee_nim" in games.names()
