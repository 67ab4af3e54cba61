"""The edges of a club night: its bounds refused in words, a night that keeps changing under a
redraw, a round that doesn't exist, the night once every round is over."""

from __future__ import annotations

import uuid

import pytest
from django.http import Http404

from nights import selectors, services
from nights.models import MOST_PLAYERS, Attendee, Night, Round, RoundSeat, Table
from nights.selectors import night_plan
from nights.services import drawing
from scoring.services import ScoringError
from tests.factories import finish, make_player, make_user
from tests.nights.helpers import club_with_players, draw, games_of
from tests.pages import text

pytestmark = pytest.mark.django_db


def test_the_services_hold_the_bounds_the_form_does():
    club = club_with_players(4)
    with pytest.raises(ScoringError, match="Rounds must be from 1 to 12"):
        draw(club, count=4, rounds=13)
    for number in range(MOST_PLAYERS - 3):
        make_player(club, f"Guest {number}")
    with pytest.raises(ScoringError, match="A night seats at most 80 players"):
        draw(club, count=MOST_PLAYERS + 1)
    assert Night.objects.count() == 0


def test_a_round_the_night_doesnt_have_is_refused():
    club = club_with_players(4)
    night = draw(club, count=4, rounds=1)
    with pytest.raises(ScoringError, match="This night has no round 2"):
        services.start_round(night=night, number=2, by=club.owner)


def test_a_redraw_gives_up_in_words_when_the_night_keeps_changing(monkeypatch):
    club = club_with_players(8)
    night = draw(club, count=8)
    before = list(RoundSeat.objects.values_list("pk", flat=True))
    drawn = drawing._draw_rest(night, [p.name_key for p in club.players.all()])
    # Drawn against a version another phone has always moved on from.
    monkeypatch.setattr(
        drawing, "_draw_rest", lambda *args: drawing._Drawn(drawn.version - 1, 1, drawn.rounds)
    )
    with pytest.raises(ScoringError, match="kept changing on another phone"):
        services.change_who_is_here(
            night=night, here=list(club.players.all()), new_names=["Zed"], by=club.owner
        )
    assert list(RoundSeat.objects.values_list("pk", flat=True)) == before


def test_a_night_played_out_has_nothing_to_start_and_says_it_is_over(client):
    club = club_with_players(4)
    night = draw(club, count=4, rounds=2)
    for number in (1, 2):
        services.start_round(night=night, number=number, by=club.owner)
        assert night_plan(night).next_to_start is None
        for game in games_of(night, number):
            finish(game)
    plan = night_plan(night)
    assert plan.is_over and plan.next_to_start is None and plan.shown_round.number == 2
    client.force_login(club.owner)
    assert "The night is over: every round has been played." in text(
        client.get(f"/nights/{night.pk}/")
    )


def test_the_night_page_shows_the_rounds_clock(client):
    club = club_with_players(4)
    night = draw(club, count=4, round_minutes=45)
    round_ = services.start_round(night=night, number=1, by=club.owner)
    client.force_login(club.owner)
    page = client.get(f"/nights/{night.pk}/").content.decode()
    assert f'data-closes-at="{round_.closes_at.isoformat()}"' in page
    assert "Round ends at" in page and "round-clock.js" in page
    Round.objects.filter(pk=round_.pk).update(
        closes_at=round_.started_at, started_at=round_.started_at
    )
    page = text(client.get(f"/nights/{night.pk}/"))
    assert "Time is up: each table plays one last deal." in page


def test_the_redraw_form_refused_comes_back_with_why(client):
    club = club_with_players(8)
    night = draw(club, count=8)
    services.start_round(night=night, number=1, by=club.owner)
    seated = games_of(night, 1)[0].seats.first().player
    others = [str(p.pk) for p in club.players.exclude(pk=seated.pk)]
    client.force_login(club.owner)
    answer = client.post(f"/nights/{night.pk}/here/", {"here": others, "new_players": "Zed"})
    assert answer.status_code == 200
    assert f"Still at a table that is playing: {seated.name}" in text(answer)
    assert 'value="Zed"' in answer.content.decode()
    assert Attendee.objects.get(night=night, player=seated).here


@pytest.mark.parametrize(
    ("typed", "says"),
    [("Ann\u200b", "Ann\u200b:"), ("x" * 41, "a name can be at most 40 characters")],
)
def test_new_names_are_checked_as_the_roster_checks_them(client, typed, says):
    club = club_with_players(4)
    client.force_login(club.owner)
    form = {"here": [], "new_players": typed, "rounds": "2", "token": str(uuid.uuid4())}
    answer = client.post(f"/clubs/{club.pk}/nights/new/", form)
    assert says in answer.content.decode() and Night.objects.count() == 0


def test_reads_of_what_isnt_there():
    with pytest.raises(Http404):
        selectors.night_state(12345)
    assert selectors.my_seats(make_user().__class__()) == []


def test_each_row_names_itself_for_the_admin():
    club = club_with_players(4)
    night = draw(club, count=4, rounds=1)
    services.start_round(night=night, number=1, by=club.owner)
    rows = [Night.objects.get(), Attendee.objects.first(), Round.objects.get()]
    rows += [RoundSeat.objects.first(), Table.objects.get()]
    assert all(str(row) for row in rows)
    assert str(rows[2]) == f"Round 1 of night {night.pk}"
