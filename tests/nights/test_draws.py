"""What a draw costs the server: a redraw with nothing changed draws nothing and says so, a night
that will be refused is refused before it is drawn, draws take their turn in a process (a busy
one refuses in words), six redraws of one night sent at once draw it once, never under the
database's write lock, and a night form's token sent to another club is refused in words."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection

from nights import services
from nights.models import Night, RoundSeat
from nights.services import drawing
from rules import seating
from scoring import services as scoring
from scoring.models import Player
from scoring.services import ScoringError
from tests.concurrency import at_once, needs_postgres
from tests.nights.helpers import club_with_players, draw
from tests.pages import text

pytestmark = pytest.mark.django_db


@pytest.fixture
def draws(monkeypatch) -> list[bool]:
    """Each seating draw made from now on, as whether it ran inside a database transaction."""
    made: list[bool] = []
    real = seating.draw

    def counted(*args, **kwargs):
        made.append(connection.in_atomic_block)
        return real(*args, **kwargs)

    monkeypatch.setattr(seating, "draw", counted)
    return made


def seats() -> list[tuple[int, int, int | None, int | None]]:
    return list(RoundSeat.objects.order_by("pk").values_list("pk", "player", "table", "position"))


def test_a_redraw_with_nothing_changed_draws_nothing_and_says_so(client, draws):
    club = club_with_players(13)
    night = draw(club)
    before, version = seats(), Night.objects.get().version
    draws.clear()
    client.force_login(club.owner)
    here = [str(pk) for pk in club.players.values_list("pk", flat=True)]
    answer = client.post(f"/nights/{night.pk}/here/", {"here": here}, follow=True)
    assert "Nothing changed: the rounds to come already seat everyone here." in text(answer)
    assert draws == [] and seats() == before and Night.objects.get().version == version


def test_a_redraw_with_someone_ticked_off_draws_again_and_says_so(client, draws):
    club = club_with_players(13)
    night = draw(club)
    draws.clear()
    client.force_login(club.owner)
    here = [str(pk) for pk in club.players.values_list("pk", flat=True)[1:]]
    answer = client.post(f"/nights/{night.pk}/here/", {"here": here}, follow=True)
    assert "The rounds to come are drawn again for the 12 players here." in text(answer)
    assert len(draws) == 1 and RoundSeat.objects.filter(table__isnull=True).count() == 0


def test_a_table_left_short_is_drawn_again_though_nobody_was_ticked_on_or_off(draws):
    """A player removed from the roster takes their seats with them: the rounds to come seat
    everyone here, but a table is short, and the redraw fills it."""
    club = club_with_players(9)
    night = draw(club, count=9)
    gone = RoundSeat.objects.filter(round__number=1, table=1).first().player
    scoring.remove_player(player=gone, by=club.owner)
    here = list(club.players.all())
    assert services.change_who_is_here(night=night, here=here, new_names=[], by=club.owner)
    assert services.start_round(night=night, number=1, by=club.owner).started_at is not None


def test_a_redraw_sent_again_with_its_new_name_changes_nothing_more(draws):
    club = club_with_players(8)
    night = draw(club, count=8)
    here = list(club.players.all())
    assert services.change_who_is_here(night=night, here=here, new_names=["Zed"], by=club.owner)
    before = seats()
    assert not services.change_who_is_here(night=night, here=here, new_names=["Zed"], by=club.owner)
    assert seats() == before and len(draws) == 2  # the night's, and the first redraw's


@pytest.mark.parametrize(
    ("new_names", "refusal"),
    [(["Ann"], "Already on the club's roster: Ann"), (["Zed", "Yul", "Ann"], "roster: Ann")],
)
def test_a_new_night_that_will_be_refused_is_refused_before_it_is_drawn(draws, new_names, refusal):
    club = club_with_players(5)
    here = list(club.players.exclude(name="Ann"))
    with pytest.raises(ScoringError, match=refusal):
        services.draw_night(
            club=club,
            here=here,
            new_names=new_names,
            rounds=12,
            round_minutes=None,
            token=uuid.uuid4(),
            by=club.owner,
        )
    assert draws == [] and Night.objects.count() == 0


def test_a_redraw_that_will_be_refused_is_refused_before_it_is_drawn(draws):
    club = club_with_players(9)
    night = draw(club, count=8)
    services.start_round(night=night, number=1, by=club.owner)
    seated = RoundSeat.objects.filter(round__number=1, table=1).first().player
    draws.clear()
    here = list(club.players.filter(pk__in=night.attendees.values("player")))
    with pytest.raises(ScoringError, match="Already on the club's roster: Ivy"):
        services.change_who_is_here(night=night, here=here, new_names=["Ivy"], by=club.owner)
    staying = [player for player in here if player != seated]
    with pytest.raises(ScoringError, match="Still at a table that is playing"):
        services.change_who_is_here(night=night, here=staying, new_names=[], by=club.owner)
    assert draws == []


def test_a_draw_waits_its_turn_and_a_busy_server_says_so_keeping_what_was_typed(
    client, monkeypatch, draws
):
    """Draws take turns in a process: another draw running past the wait refuses this one in
    words (never a 500), and nothing is saved."""
    club = club_with_players(5)
    monkeypatch.setattr(drawing, "DRAW_WAIT_SECONDS", 0)
    client.force_login(club.owner)
    form = {
        "here": [str(pk) for pk in club.players.values_list("pk", flat=True)],
        "new_players": "Zed",
        "rounds": "3",
        "token": str(uuid.uuid4()),
    }
    players = Player.objects.count()
    with services.DRAW_TURN:
        answer = client.post(f"/clubs/{club.pk}/nights/new/", form)
    assert answer.status_code == 200
    assert (
        "The server is busy drawing seats for other nights: send the form again in a moment"
        in text(answer)
    )
    assert 'value="Zed"' in answer.content.decode()
    assert draws == [] and Night.objects.count() == 0 and Player.objects.count() == players
    assert client.post(f"/clubs/{club.pk}/nights/new/", form).status_code == 302


def test_a_night_forms_token_sent_to_another_club_is_refused_in_words(client):
    """Before, the second club's night hit the first one's token: an IntegrityError, a 500."""
    token = uuid.uuid4()
    first = club_with_players(4)
    draw(first, count=4, token=token)
    other = club_with_players(4)
    client.force_login(other.owner)
    form = {
        "here": [str(pk) for pk in other.players.values_list("pk", flat=True)],
        "rounds": "3",
        "token": str(token),
    }
    answer = client.post(f"/clubs/{other.pk}/nights/new/", form)
    assert answer.status_code == 200
    assert "This form was already used for another club; reload the page" in text(answer)
    assert Night.objects.count() == 1 and not Night.objects.filter(club=other).exists()


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_six_redraws_of_one_night_sent_at_once_draw_it_once_outside_the_write_lock(draws):
    club = club_with_players(13)
    night = draw(club)
    draws.clear()
    here = list(club.players.all()[1:])
    outcomes = at_once(
        *[lambda: services.change_who_is_here(night=night, here=here, new_names=[], by=club.owner)]
        * 6
    )
    assert sorted(outcomes) == ["done: False"] * 5 + ["done: True"], outcomes
    assert draws == [False]
    assert RoundSeat.objects.filter(round__number=1).count() == 12
