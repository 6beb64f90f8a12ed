"""The tutorials' API: the list, a game's script with the learner's frames, and finishing
one (kept on the account and shown on its profile; a guest's stays in the browser)."""

from __future__ import annotations

from coffeetable import games
from tests.players.conftest import Site, site  # noqa: F401  (the fixture)


def test_the_list_names_every_game_with_a_tutorial(site: Site) -> None:  # noqa: F811
    answer = site.client.get("/api/learn")
    assert answer.status_code == 200
    listed = {entry["game"]: entry for entry in answer.json()["games"]}
    assert set(listed) == {n for n in games.names() if games.get(n).tutorial is not None}
    assert all(1 <= entry["minutes"] <= 10 for entry in listed.values())
    assert answer.json()["done"] == []


def test_a_script_comes_with_what_the_learner_sees_before_each_step(site: Site) -> None:  # noqa: F811
    answer = site.client.get("/api/learn/fika")
    assert answer.status_code == 200
    body = answer.json()
    assert len(body["frames"]) == len(body["steps"]) + 1
    first_move = next(i for i, step in enumerate(body["steps"]) if step["move"])
    frame = body["frames"][first_move]
    assert body["steps"][first_move]["move"] in frame["legal"]
    assert frame["view"]["seat"] == body["seat"]
    # the learner's view: the rival's hand is hidden from it
    hand = frame["view"]["players"][1].get("hand")
    assert not (isinstance(hand, list) and any("number" in card for card in hand))


def test_no_tutorial_is_a_404(site: Site) -> None:  # noqa: F811
    assert site.client.get("/api/learn/chess").status_code == 404
    assert site.client.get("/api/learn/..%2Fetc").status_code == 404
    assert site.client.get("/api/learn/BAD").status_code == 422
    assert site.client.get("/api/learn/" + "x" * 33).status_code == 422
    assert site.client.post("/api/learn/chess/done").status_code == 404


def test_a_guest_keeps_it_in_the_browser(site: Site) -> None:  # noqa: F811
    answer = site.client.post("/api/learn/fika/done")
    assert answer.status_code == 200
    assert answer.json() == {"game": "fika", "kept": "browser"}
    assert site.client.get("/api/learn").json()["done"] == []


def test_an_account_keeps_it_and_its_profile_shows_it(site: Site) -> None:  # noqa: F811
    assert site.register("ada").status_code == 200
    assert site.client.get("/api/players/ada").json()["learned"] == []
    for _ in range(2):  # finishing again changes nothing
        answer = site.client.post("/api/learn/fika/done")
        assert answer.json() == {"game": "fika", "kept": "account"}
    site.client.post("/api/learn/cafe/done")
    assert site.client.get("/api/learn").json()["done"] == ["cafe", "fika"]
    assert site.client.get("/api/players/ada").json()["learned"] == ["cafe", "fika"]


def test_another_site_cannot_mark_it_finished(site: Site) -> None:  # noqa: F811
    site.register("bea")
    refused = site.client.post("/api/learn/fika/done", headers={"Origin": "https://evil.test"})
    assert refused.status_code == 403
    assert site.client.get("/api/learn").json()["done"] == []
