"""The arena: totals, seat rotation, the worker pool, --json, logs, and the levels' order."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from coffeetable import cli, games
from coffeetable.bots import RandomBot
from coffeetable.engine import Game, IllegalAction, State, replay
from coffeetable.sim.arena import run_arena, seating, wilson
from coffeetable.sim.match import play_match
from coffeetable.sim.turns import play_turns


def check_totals(result, games_played, players):
    rows = result["bots"]
    assert result["matches"] == games_played
    assert sum(row["matches"] for row in rows) == games_played * players
    wins = sum(row["wins"] for row in rows)
    # every match has a winner; a shared win counts once for each sharer
    assert games_played <= wins <= games_played + result["shared_wins"] * (players - 1)
    for row in rows:
        low, high = row["win_rate_ci95"]
        assert 0 <= low <= row["win_rate"] <= high <= 1
        assert 0 <= row["finito_rate"] <= 1
        assert row["points_per_round"] >= 0


def test_arena_totals_are_sane():
    result = run_arena("espresso", ["greedy", "random", "easy"], games=6, seed=3, workers=1)
    check_totals(result, 6, 3)
    assert [row["bot"] for row in result["bots"]] == ["greedy", "random", "easy"]
    finitos = sum(row["finito"] for row in result["bots"])
    assert finitos <= result["rounds"]
    assert all(row["rounds"] == result["rounds"] for row in result["bots"])  # all sat every match


def test_seats_rotate_so_no_bot_always_sits_first():
    assert [seating(i, 4, 4)[0] for i in range(8)] == [0, 1, 2, 3, 0, 1, 2, 3]
    for i in range(4):
        assert sorted(seating(i, 4, 4)) == [0, 1, 2, 3]
    assert seating(1, 2, 4) == [1, 0, 1, 0]  # fewer bots than seats: cycled


def test_the_worker_pool_gives_the_same_totals():
    kwargs = dict(game="espresso", bots=["hard", "random"], games=4, seed=8)
    assert run_arena(**kwargs, workers=1) == {**run_arena(**kwargs, workers=2), "workers": 1}


def test_more_seats_than_bots_and_duplicates():
    result = run_arena(
        "espresso",
        ["greedy", "greedy"],
        games=2,
        seed=1,
        players=4,
        workers=1,
        options={"target": 30},
    )
    check_totals(result, 2, 4)
    assert [row["bot"] for row in result["bots"]] == ["greedy #1", "greedy #2"]


def test_arena_rejects_bad_arguments():
    with pytest.raises(ValueError):
        run_arena("espresso", ["grandmaster"], games=1, seed=0)
    with pytest.raises(ValueError):
        run_arena("espresso", ["greedy"], games=1, seed=0)  # one seat
    with pytest.raises(ValueError):
        run_arena("espresso", ["greedy", "random"], games=1, seed=0, options={"colour": 1})
    with pytest.raises(ValueError):
        run_arena("chess", ["random", "random"], games=1, seed=0)


def test_arena_json_output_parses(capsys):
    argv = ["arena", "espresso", "--bots", "greedy,random", "--games", "3", "--seed", "2"]
    argv += ["--zero", "--chaos", "--option", "target=40", "--workers", "1", "--json"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    data = json.loads(out)
    assert data["options"] == {"zero": True, "chaos": True, "target": 40, "idle_seconds": 60}
    check_totals(data, 3, 2)


def test_arena_table_and_bad_bot_on_the_command_line(capsys):
    argv = ["arena", "espresso", "--bots", "hard,easy", "--games", "2", "--workers", "1"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "hard" in out and "FINITO" in out
    assert cli.main(["arena", "espresso", "--bots", "nobody,easy", "--games", "1"]) == 2
    assert "no bot 'nobody'" in capsys.readouterr().err


def test_a_turn_based_table_shows_mean_scores_and_a_solo_table_no_wins(capsys):
    argv = ["arena", "doppio", "--bots", "greedy,random", "--games", "2", "--workers", "1"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "mean score" in out and "±" in out and "FINITO" not in out and "win rate" in out
    argv = ["arena", "doppio", "--players", "1", "--bots", "greedy", "--games", "3"]
    assert cli.main([*argv, "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "solo" in out and "ranks" in out and "win rate" not in out


def test_mean_score_interval_brackets_the_mean():
    result = run_arena("doppio", ["greedy", "random"], games=4, seed=3, workers=1)
    for row in result["bots"]:
        low, high = row["mean_score_ci95"]
        assert low <= row["mean_score"] <= high


def test_saved_arena_logs_replay(tmp_path):
    result = run_arena(
        "espresso",
        ["hard", "medium"],
        games=2,
        seed=4,
        workers=1,
        options={"target": 30},
        save_logs=tmp_path,
    )
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 2
    wins = 0
    for path in files:
        data = json.loads(path.read_text())
        state = replay(
            data["game"],
            data["players"],
            data["seed"],
            [(s, a) for s, a in data["actions"]],
            data["options"],
        )
        assert state.is_over
        wins += len(state.winners)
    assert wins == sum(row["wins"] for row in result["bots"])


def test_hard_beats_easy_by_a_clear_margin():
    result = run_arena("espresso", ["hard", "medium", "easy", "greedy"], games=30, seed=7)
    rows = {row["bot"]: row for row in result["bots"]}
    hard, easy = rows["hard"], rows["easy"]
    assert hard["win_rate"] - easy["win_rate"] >= 0.5
    assert hard["win_rate_ci95"][0] > easy["win_rate_ci95"][1]  # the intervals do not overlap
    assert hard["points_per_round"] > 2 * easy["points_per_round"]
    assert hard["finito_rate"] > easy["finito_rate"]


def test_wilson_interval():
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(10, 10)[1] == 1.0


# -- a turn-based game goes through the plain turn loop ----------------------


class NimState(State):
    """Take 1 or 2 from a heap; who takes the last wins. Turn-based, no hidden cards."""

    def __init__(self, game, players, heap):
        self.game, self.players, self.heap, self.turn, self._winners = game, players, heap, 0, []

    def actors(self):
        return [] if self.is_over else [self.turn]

    def legal_actions(self, seat):
        if seat != self.turn or self.is_over:
            return []
        return [{"type": "take", "n": n} for n in (1, 2) if n <= self.heap]

    def apply(self, seat, action):
        if action not in self.legal_actions(seat):
            raise IllegalAction("not now")
        self.heap -= action["n"]
        if self.heap == 0:
            self._winners = [seat]
            return [{"type": "match_over"}]
        self.turn = (self.turn + 1) % self.players
        return []

    def view(self, seat):
        return {"heap": self.heap, "turn": self.turn}

    is_over = property(lambda self: self.heap == 0)
    scores = property(lambda self: [int(s in self._winners) for s in range(self.players)])
    winners = property(lambda self: list(self._winners))
    round = property(lambda self: 1)

    def clone(self):
        other = NimState(self.game, self.players, self.heap)
        other.turn, other._winners = self.turn, list(self._winners)
        return other

    def determinize(self, seat, rng):
        return self.clone()


class Nim(Game):
    name, title, min_players, max_players = "nim", "Nim", 2, 4

    def new_state(self, players, seed=0, **options: Any):
        return NimState(self, players, 10 + seed % 7)


def test_turn_based_games_play_in_turn_order(monkeypatch):
    state = Nim().new_state(3, seed=2)
    log, rounds = play_turns(state, [RandomBot()] * 3, [random.Random(s) for s in range(3)])
    assert state.is_over and rounds == []
    assert [seat for seat, _ in log] == [i % 3 for i in range(len(log))]

    monkeypatch.setitem(games._FACTORIES, "nim", Nim)
    summary, match_log = play_match("nim", ["random", "random"], seed=5)
    assert summary["scores"] == replay(Nim(), 2, 5, match_log.actions).scores
    result = run_arena("nim", ["random", "random", "random"], games=6, seed=0, workers=1)
    check_totals(result, 6, 3)
