"""A long game stays cheap: a correction reads and scores its deals once inside the game's
lock, and its downloads (JSON, CSV, score file) are worked out once a version of the game, not
on every request."""

from __future__ import annotations

import json

import pytest
from django.db import transaction

from rules import penalties
from scoring import services
from scoring.services import totals
from tests.factories import make_deals, make_game, make_ruled_game, make_user, record
from tests.pages import text, who_is_asking

pytestmark = pytest.mark.django_db

DOWNLOADS = pytest.mark.parametrize("download", ["game.json", "game.csv", "score.txt"])


def address(game, download: str) -> str:
    return {
        "game.json": f"/games/{game.pk}.json",
        "game.csv": f"/games/{game.pk}.csv",
        "score.txt": f"/games/{game.pk}/score.txt",
    }[download]


@pytest.fixture
def scorings(monkeypatch):
    """Every deal the rules engine scores, by its cards left."""
    scored = []
    real = penalties.score_deal

    def counted(facts, *args, **kwargs):
        scored.append(facts.cards_left)
        return real(facts, *args, **kwargs)

    monkeypatch.setattr(penalties, "score_deal", counted)
    monkeypatch.setattr(totals, "score_deal", counted)
    return scored


@pytest.mark.parametrize("deals", [3, 30])
def test_a_correction_reads_and_scores_each_deal_once(deals, scorings, django_assert_num_queries):
    game = make_ruled_game("open-ended")
    make_deals(game, deals)
    scorings.clear()
    # Its savepoint and release; the game locked; the deal; the seats with their players;
    # every deal's scores, once; the deal saved, its scores read and saved, the history line,
    # the seats' figures (an UPDATE a seat), the game's and the season's versions.
    with django_assert_num_queries(16):
        services.edit_deal(game=game, number=1, by=game.club.owner, cards_left=[0, 7, 8, 9])
    # The correction scored as sent, then every deal of the game once, the correction in it.
    assert len(scorings) == 1 + deals
    assert scorings.count((0, 7, 8, 9)) == 2


def test_a_corrected_game_stores_what_replaying_its_deals_gives():
    game = make_game()
    make_deals(game, 5)  # a card each for the three who didn't go out, seats taking turns
    services.edit_deal(game=game, number=2, by=game.club.owner, cards_left=[13, 0, 10, 2])
    stored = list(game.seats.order_by("position").values_list("total", flat=True))
    assert stored == [3 - 1 + 39, 4, 4 - 1 + 20, 4 - 1 + 2]
    with transaction.atomic():
        assert list(services.recompute(totals.lock_game(game)).totals) == stored


@DOWNLOADS
def test_a_download_asked_again_reads_no_deal(
    owner_client, club, download, django_assert_num_queries
):
    game = make_game(club)
    make_deals(game, 12)
    first = owner_client.get(address(game, download))
    assert first.status_code == 200
    # The game with the member's access: its version, and the download kept under it.
    with django_assert_num_queries(1 + who_is_asking()):
        again = owner_client.get(address(game, download))
    assert again.content == first.content
    assert again["Content-Type"] == first["Content-Type"]
    assert again.headers.get("Content-Disposition") == first.headers.get("Content-Disposition")


@DOWNLOADS
def test_a_download_follows_every_change_to_the_game(owner_client, club, download):
    game = make_game(club)
    make_deals(game, 2)
    before = owner_client.get(address(game, download)).content.decode()
    record(game, 0, 11, 12, 13)
    after = owner_client.get(address(game, download)).content.decode()
    assert after != before
    services.rename_player(player=club.players.get(name="Ben"), name="Benedict", by=club.owner)
    assert "Benedict" in owner_client.get(address(game, download)).content.decode()


def test_a_download_is_kept_per_language(owner_client, club):
    game = make_game(club)
    make_deals(game, 2)
    english = json.loads(owner_client.get(address(game, "game.json")).content)
    owner_client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/"})
    chinese = json.loads(owner_client.get(address(game, "game.json")).content)
    assert english["rules"]["label"] == "Standard rules"
    assert chinese["rules"]["label"] != english["rules"]["label"]
    assert chinese["deals"] == english["deals"]


def test_a_download_of_someone_elses_game_is_not_found_even_when_kept(client, owner_client, club):
    game = make_game(club)
    make_deals(game, 2)
    assert owner_client.get(address(game, "game.json")).status_code == 200
    client.force_login(make_user())
    assert client.get(address(game, "game.json")).status_code == 404
    assert "Ann" not in text(client.get(address(game, "game.csv")))
