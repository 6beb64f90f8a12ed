"""The open database of matches: ``coffeetable export``, ``GET /api/exports/{game}/{month}``
and the imitation-learning loader, on matches really played and recorded."""

from __future__ import annotations

import calendar
import json
from pathlib import Path
from typing import Any

import pytest

from coffeetable import cli
from coffeetable.engine import replay_log
from coffeetable.server.players.ratings import MatchSummary, SeatResult, finish_match
from coffeetable.sim.match import play_match
from coffeetable.store import SeatRecord, TableRecord
from coffeetable.store.exports import FORMAT

from .conftest import Site
from .test_stats_api import user_id

#: 2026-11-15 and 2026-12-03, noon UTC.
NOVEMBER = float(calendar.timegm((2026, 11, 15, 12, 0, 0)))
DECEMBER = float(calendar.timegm((2026, 12, 3, 12, 0, 0)))


def record(site: Site, table_id: str, game: str, seed: int, seats: list[Any], when: float) -> None:
    """Play a match of bots and record it as the table code does, with ``seats``'
    names and accounts (``(name, user_id or None, bot or None)`` each)."""
    summary, log = play_match(game, ["random"] * len(seats), seed=seed)
    db = site.app.state.store.db
    table = TableRecord(
        id=table_id,
        game=game,
        players=len(seats),
        seed=log.seed,
        options=dict(log.options),
        settings={},
        name="t",
        status="over",
        seats=[
            SeatRecord(i, name, None, bot, False, uid) for i, (name, uid, bot) in enumerate(seats)
        ],
    )
    results = [
        SeatResult(i, name, summary["scores"][i], uid, bot)
        for i, (name, uid, bot) in enumerate(seats)
    ]
    with db.engine.begin() as conn:
        db.insert_table(conn, table)
        for seq, (seat, action) in enumerate(log.actions, start=1):
            db.append_action(conn, table_id, seq, seat, action)
        match = MatchSummary(table_id, game, len(seats), results, summary["winners"], True)
        assert finish_match(conn, match, now=when) is not None


@pytest.fixture(params=["sqlite", "postgresql"])
def played(request: pytest.FixtureRequest) -> Site:
    """Four recorded matches, on SQLite and on PostgreSQL (skipped when none is set)."""
    site: Site = request.getfixturevalue("site" if request.param == "sqlite" else "site_postgres")
    for name in ("ada", "ben"):
        assert site.register(name).status_code == 200
    ada, ben = user_id(site, "ada"), user_id(site, "ben")
    record(site, "f1", "fika", 1, [("ada", ada, None), ("ben", ben, None)], DECEMBER)
    record(site, "f2", "fika", 2, [("ada", ada, None), ("Greedy", None, "greedy")], DECEMBER + 60)
    record(site, "f0", "fika", 3, [("ada", ada, None), ("ben", ben, None)], NOVEMBER)
    record(site, "d1", "doppio", 4, [("ada", ada, None), ("ben", ben, None)], DECEMBER)
    return site


def export(site: Site, capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, Any]]:
    code = cli.main(["export", "--database", site.app.state.store.db.url, *args])
    out = capsys.readouterr().out
    assert code == 0
    return [json.loads(line) for line in out.splitlines()]


def test_export_round_trip_replays_to_the_same_scores(
    played: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = export(played, capsys, "--game", "fika", "--since", "2026-12-01")
    assert [line["match_id"] for line in lines] == sorted(line["match_id"] for line in lines)
    assert len(lines) == 2  # November's match and Doppio's are not in it
    for line in lines:
        assert line["format"] == FORMAT and line["game"] == "fika" and line["actions"]
        state = replay_log(line)  # the engine reads a line back as a match log
        assert state.is_over and state.scores == line["scores"]
        assert sorted(state.winners) == sorted(line["winners"])
    first, second = lines
    assert [s["name"] for s in first["seats"]] == ["ada", "ben"]
    assert all(s["rating"] is not None and s["rating"]["mu"] > 0 for s in first["seats"])
    assert second["seats"][1]["bot"] == "greedy"
    # the ratings are those at the start: ada's second match starts where the first left her
    assert second["seats"][0]["rating"] != first["seats"][0]["rating"]
    november = export(
        played, capsys, "--game", "fika", "--since", "2026-11-01", "--until", "2026-12-01"
    )
    assert len(november) == 1 and november[0]["finished"] == NOVEMBER


def test_anonymised_export_hides_account_names(
    played: Site, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = export(played, capsys, "--game", "fika", "--since", "2026-12-01", "--anonymous")
    text = json.dumps(lines)
    assert "ada" not in text and "ben" not in text
    first, second = lines
    ada = first["seats"][0]["name"]
    assert ada.startswith("player-") and second["seats"][0]["name"] == ada  # one pseudonym
    assert first["seats"][1]["name"] != ada
    assert second["seats"][1]["name"] == "greedy"  # a built-in bot keeps its level
    monkeypatch.setenv("COFFEETABLE_EXPORT_ANONYMOUS", "1")  # the setting does the same
    again = export(played, capsys, "--game", "fika", "--since", "2026-12-01")
    assert "ada" not in json.dumps(again) and replay_log(again[0]).scores == again[0]["scores"]


def test_export_refuses_bad_input_in_one_line(
    played: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    url = played.app.state.store.db.url
    assert cli.main(["export", "--database", url, "--game", "chess", "--since", "2026-12-01"]) == 2
    assert "no game 'chess'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["export", "--game", "fika", "--since", "2026-02-30"])
    assert "no such day" in capsys.readouterr().err


def test_the_site_serves_a_month(played: Site) -> None:
    answer = played.client.get("/api/exports/fika/2026-12")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("application/x-ndjson")
    assert 'filename="fika-2026-12.jsonl"' in answer.headers["content-disposition"]
    lines = [json.loads(line) for line in answer.text.splitlines()]
    assert len(lines) == 2 and lines[0]["seats"][0]["name"] == "ada"
    assert replay_log(lines[1]).scores == lines[1]["scores"]
    assert played.client.get("/api/exports/fika/2026-11").text.count("\n") == 1
    assert played.client.get("/api/exports/fika/2026-13").status_code == 422
    assert played.client.get("/api/exports/chess/2026-12").status_code == 404


def test_the_site_refuses_a_month_past_its_limit_and_anonymises_by_setting(
    played: Site,
) -> None:
    limits = played.app.state.limits
    played.app.state.limits = type(limits)(**{**limits.describe(), "export_max_matches": 1})
    refused = played.client.get("/api/exports/fika/2026-12")
    assert refused.status_code == 413 and "export_max_matches" in refused.json()["detail"]
    played.app.state.limits = type(limits)(**{**limits.describe(), "export_anonymous": 1})
    lines = [
        json.loads(line)
        for line in played.client.get("/api/exports/fika/2026-12").text.splitlines()
    ]
    # A pseudonym's hex may hold "ada" by chance: the names themselves are compared.
    names = [seat["name"] for line in lines for seat in line["seats"]]
    assert "ada" not in names and any(name.startswith("player-") for name in names)


def test_the_loader_turns_an_export_into_samples(
    played: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    np = pytest.importorskip("numpy")
    from coffeetable.interop.dataset import Skipped, samples

    lines = export(played, capsys, "--game", "fika", "--since", "2026-11-01")
    text = [json.dumps(line) for line in lines]
    skipped = Skipped()
    found = list(samples(text, skipped=skipped))
    assert skipped.matches == 3
    assert len(found) == sum(1 for line in lines for seat, _ in line["actions"] if seat is not None)
    for sample in found[:60]:
        assert sample.mask.dtype == np.int8 and sample.mask[sample.action] == 1
        assert sample.observation.dtype == np.float32
        assert sample.observation.min() >= 0.0 and sample.observation.max() <= 1.0
    # only the winners' decisions
    winners = list(samples(text, keep=lambda line, seat: seat in line["winners"]))
    assert 0 < len(winners) < len(found)
    assert all(
        s.seat in next(m for m in lines if m["match_id"] == s.match_id)["winners"] for s in winners
    )
    with pytest.raises(ValueError, match="line 1"):
        list(samples(["not json"]))


def test_the_example_runs(played: Site, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    lines = export(played, capsys, "--game", "fika", "--since", "2026-11-01")
    path = tmp_path / "fika.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    example = Path(__file__).parents[2] / "examples" / "imitation_from_export.py"
    from importlib.util import module_from_spec, spec_from_file_location

    spec = spec_from_file_location("imitation_example", example)
    assert spec is not None and spec.loader is not None
    module = module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.main([str(path), "--epochs", "3"])
    assert result["samples"] > 50 and 0.0 <= result["accuracy"] <= 1.0
