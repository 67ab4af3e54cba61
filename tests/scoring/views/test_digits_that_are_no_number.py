"""Characters Python calls digits that are no number `int()` reads: superscripts ("²"),
circled digits ("①"). Sent where a page number, a tapped seat or a body's length goes, each is
taken as no number at all, as a letter would be, never a 500 (the fuzz test met "²" as a
season page's `page`)."""

from __future__ import annotations

import pytest

from bigtwo_site.request_bodies import body_too_long
from scoring.forms.deal_values import with_out_next
from tests.factories import make_game

pytestmark = pytest.mark.django_db

NO_NUMBERS = ["²", "³", "①", "1²"]
A_PAGE_OF_NINES = "9" * 5000  # int() refuses more than 4,300 digits


@pytest.mark.parametrize("page", [*NO_NUMBERS, A_PAGE_OF_NINES])
def test_a_season_page_and_its_csv_asked_for_page_no_number_show_the_first(
    owner_client, club, page
):
    season = make_game(club).season
    for address in (f"/seasons/{season.pk}/", f"/clubs/{club.pk}/"):
        assert owner_client.get(address, {"page": page}).status_code == 200
    assert (
        owner_client.get(f"/seasons/{season.pk}/standings.csv", {"page": page}).status_code == 200
    )


@pytest.mark.parametrize("tapped", [*NO_NUMBERS, A_PAGE_OF_NINES, "-1"])
def test_out_next_tapped_with_no_number_moves_nobody(tapped):
    data = {"place_0": "", "place_1": "", "place_2": ""}
    assert with_out_next(data, ["place_0", "place_1", "place_2"], tapped) == data


@pytest.mark.parametrize("length", NO_NUMBERS)
def test_a_body_length_that_is_no_number_is_not_counted_as_too_long(rf, length):
    request = rf.post("/check/", data=b"", content_type="text/plain")
    request.META["CONTENT_LENGTH"] = length
    assert body_too_long(request) is False


def test_a_body_length_of_more_digits_than_int_reads_is_too_long(rf):
    request = rf.post("/check/", data=b"", content_type="text/plain")
    request.META["CONTENT_LENGTH"] = A_PAGE_OF_NINES
    assert body_too_long(request) is True
