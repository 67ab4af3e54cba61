"""Every model is in the admin, the record of play only shown; no input makes the deal form
fail."""

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.forms.models import model_to_dict
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import services
from scoring.models import DealScore, Game
from scoring.names import name_key
from tests.factories import finish, make_club, make_deals, make_game, make_user
from tests.scoring.rated import openskill_run

TABLE = ("Ann", "Ben", "Cy", "Dee")

pytestmark = pytest.mark.django_db

MODELS = [
    "club",
    "membership",
    "player",
    "game",
    "seat",
    "deal",
    "dealscore",
    "gamechange",
    "clubchange",
]


def test_every_model_has_a_working_admin_list_and_page(client, game):
    make_deals(game, 2)
    services.rename_player(player=game.club.players.get(name="Dee"), name="Deb", by=game.club.owner)
    admin = get_user_model().objects.create_superuser("admin", password="a long passphrase 7")
    client.force_login(admin)
    for model in MODELS:
        response = client.get(f"/admin/scoring/{model}/", {"q": "Ann"})
        assert response.status_code == 200, model
        # By a row's own id: PostgreSQL doesn't reuse ids rolled back by earlier tests.
        row = apps.get_model("scoring", model).objects.earliest("pk")
        assert client.get(f"/admin/scoring/{model}/{row.pk}/change/").status_code == 200, model


RECORD_OF_PLAY = ["game", "seat", "deal", "dealscore", "gamechange", "clubchange"]


def test_the_record_of_play_is_not_edited_in_the_admin(client, game):
    """Totals, standings and ratings are kept from the deals by the services: a deal's count
    changed in the admin would leave them wrong, so the admin shows the record and no more."""
    make_deals(game, 2)
    services.rename_player(player=game.club.players.get(name="Dee"), name="Deb", by=game.club.owner)
    admin = get_user_model().objects.create_superuser("admin", password="a long passphrase 7")
    client.force_login(admin)
    for model in RECORD_OF_PLAY:
        row = apps.get_model("scoring", model).objects.earliest("pk")
        assert client.get(f"/admin/scoring/{model}/add/").status_code == 403, model
        page = client.get(f"/admin/scoring/{model}/{row.pk}/change/")
        assert b'type="submit"' not in page.content.split(b'id="content-main"')[1], model
        assert client.post(f"/admin/scoring/{model}/{row.pk}/change/", {}).status_code == 403
    score = DealScore.objects.earliest("pk")
    cards = score.cards_left
    assert (
        client.post(f"/admin/scoring/dealscore/{score.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    score.refresh_from_db()
    assert score.cards_left == cards


def test_a_game_deleted_in_the_admin_leaves_the_ratings_and_standings(
    client, django_capture_on_commit_callbacks
):
    club = make_club(make_user())
    games = [finish(make_game(club, names)) for names in (TABLE, TABLE[::-1], TABLE)]
    admin = get_user_model().objects.create_superuser("admin", password="a long passphrase 7")
    client.force_login(admin)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/admin/scoring/game/{games[1].pk}/delete/", {"post": "yes"})
    assert answer.status_code == 302
    assert not Game.objects.filter(pk=games[1].pk).exists()
    client.force_login(club.owner)
    rated = client.get(reverse("scoring:ratings-json", args=[club.pk])).json()
    shown = {line["player"]: (line["mu"], line["games"]) for line in rated["players"]}
    expected = {name: (mu, games) for name, (mu, _sigma, games) in openskill_run(club).items()}
    assert shown.keys() == expected.keys() == set(TABLE)
    for name, (mu, games) in expected.items():
        assert shown[name] == (pytest.approx(mu, abs=0.01), games) and games == 2, name


field_text = st.one_of(
    st.integers(min_value=-5, max_value=20).map(str),
    st.text(max_size=6),
    st.just(""),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    cards=st.lists(field_text, min_size=4, max_size=4),
    number=st.one_of(st.integers(min_value=-1, max_value=4).map(str), st.text(max_size=4)),
    token=st.one_of(st.uuids().map(str), st.text(max_size=8)),
    went_out=st.one_of(st.none(), st.sampled_from(["0", "3", "9", "x"])),
    htmx=st.booleans(),
)
def test_no_input_makes_recording_a_deal_fail(
    owner_client, game, cards, number, token, went_out, htmx
):
    data = {f"cards_{seat}": value for seat, value in enumerate(cards)}
    data |= {"number": number, "token": token}
    if went_out is not None:
        data["went_out"] = went_out
    headers = {"HX-Request": "true"} if htmx else {}
    response = owner_client.post(f"/games/{game.pk}/deals/", data, headers=headers)
    assert response.status_code in (200, 302)


def changed_in_the_admin(client, row, **changes) -> int:
    """Post the admin's change form of `row` with `changes`; the answer's status."""
    values = {
        name: value for name, value in model_to_dict(row).items() if value is not None
    } | changes
    url = f"/admin/scoring/{row._meta.model_name}/{row.pk}/change/"
    return client.post(url, values).status_code


def test_the_admin_keeps_a_players_name_and_a_seasons_rules_as_the_site_does(client, game):
    """The bug: a player renamed in the admin kept the old name's key, so a new game of the
    new name seated a player of their own, and a game of the old one this player; and the
    admin took a name with a hidden character, or house rules no page could read."""
    admin = get_user_model().objects.create_superuser("admin", password="a long passphrase 7")
    client.force_login(admin)
    player = game.club.players.get(name="Dee")

    assert changed_in_the_admin(client, player, name="Deb") == 302
    player.refresh_from_db()
    assert (player.name, player.name_key) == ("Deb", name_key("Deb"))
    assert changed_in_the_admin(client, player, name="De\u200bb") == 200  # the form again
    assert changed_in_the_admin(client, game.season, rules="nonsense") == 200
    player.refresh_from_db()
    game.season.refresh_from_db()
    assert (player.name, game.season.rules) == ("Deb", "standard")
