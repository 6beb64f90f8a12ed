"""The engine benchmark: it runs, counts and prints (no timing is asserted)."""

from __future__ import annotations

import json
import runpy
import sys
from pathlib import Path

from coffeetable import cli, games
from coffeetable.sim.bench import random_selfplay, run_bench

BENCH_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_engine.py"


def test_bench_counts_every_variant():
    result = run_bench("espresso", players=3, seconds=0.2, seed=1)
    assert set(result["variants"]) == {"normalo", "zero", "chaos", "zero+chaos"}
    for row in [*result["variants"].values(), result["total"]]:
        assert row["actions"] > 0 and row["actions_per_second"] > 0
    assert result["total"]["actions"] == sum(r["actions"] for r in result["variants"].values())


def test_a_fixed_number_of_actions_plays_exactly_those_the_same_each_time():
    """``max_actions`` (benchmarks/engine_instructions.py): exactly that many, seeded."""
    runs = [
        random_selfplay(games.get("fika"), 2, float("inf"), seed=3, max_actions=700)
        for _ in range(2)
    ]
    assert [run["actions"] for run in runs] == [700, 700]
    assert runs[0]["matches"] == runs[1]["matches"] > 0  # it played on through new deals


def test_bench_json_on_the_command_line(capsys):
    assert cli.main(["bench", "espresso", "--seconds", "0.1", "--players", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"] == 2 and data["total"]["actions"] > 0
    assert cli.main(["bench", "espresso", "--seconds", "0.1", "--players", "9"]) == 2


def test_the_benchmark_script_runs(capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", [str(BENCH_SCRIPT), "--seconds", "0.1", "--json"])
    try:
        runpy.run_path(str(BENCH_SCRIPT), run_name="__main__")
    except SystemExit as done:
        assert done.code == 0
    assert json.loads(capsys.readouterr().out)["game"] == "espresso"
