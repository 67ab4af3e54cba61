"""Every model is in the admin; no input makes the deal form fail."""

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import services
from tests.factories import make_deals

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
