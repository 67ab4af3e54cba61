"""A deal form's one-time token is spent for good: a resend (double tap, a retry after a lost
answer, waiting-deals.js) records its deal at most once, even after the deal was undone, and never
answers "recorded" for values other than the ones stored.

Plain HTTP replays through the views, with htmx and without, as a phone sends them.
"""

from __future__ import annotations

import re
import threading
import uuid

import pytest
from django.db import IntegrityError, connections, transaction

from rules.ruleset import parse_rules
from scoring import services
from scoring.models import Deal, Game, GameChange
from tests.concurrency import needs_postgres, wait_for_a_lock_wait
from tests.factories import make_club, make_game, make_member, record
from tests.pages import HTMX, text

pytestmark = pytest.mark.django_db

WAYS = pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-javascript"])


def deal_form(number: int, token: uuid.UUID, *cards: int, **extra: str) -> dict[str, str]:
    data = {f"cards_{seat}": str(count) for seat, count in enumerate(cards)}
    return data | {"number": str(number), "token": str(token)} | extra


def send(client, game: Game, data: dict[str, str], *, htmx: bool, follow: bool = False):
    return client.post(
        f"/games/{game.pk}/deals/", data, headers=HTMX if htmx else {}, follow=follow
    )


def first_send(client, game: Game, data: dict[str, str], *, htmx: bool) -> None:
    """The deal as first sent, and the page that answered it shown (without JavaScript the
    answer is a redirect, and its "recorded" message is read there)."""
    assert send(client, game, data, htmx=htmx, follow=True).status_code == 200


def stored(game: Game) -> list[list[int]]:
    return [
        [score.cards_left for score in deal.scores.order_by("seat__position")]
        for deal in game.deals.order_by("number")
    ]


def alert(html: str) -> str:
    """The text of the refusal shown at the top of the game's live part."""
    found = re.search(r'<p class="form-errors" role="alert">(.*?)</p>', html, re.S)
    return found.group(1).strip() if found else ""


def form_value(html: str, name: str) -> str | None:
    found = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
    if found is None:
        return None
    value = re.search(r'value="([^"]*)"', found.group(0))
    return value.group(1) if value else ""


def assert_answered_as(response, *, htmx: bool) -> str:
    """The refusal comes back as the live part (htmx) or the whole game page, status 200,
    and never with a "recorded" notice."""
    assert response.status_code == 200
    html = text(response)
    if htmx:
        assert html.lstrip().startswith('<div id="game-live"')
        assert "<html" not in html
    else:
        assert "<html" in html
    assert "recorded." not in html
    return html


@WAYS
def test_a_deal_sent_again_after_it_was_undone_is_not_recorded_again(owner_client, game, htmx):
    token = uuid.uuid4()
    sent = deal_form(1, token, 0, 5, 7, 9)
    first_send(owner_client, game, sent, htmx=htmx)
    owner_client.post(f"/games/{game.pk}/undo/", {"number": "1"}, follow=True)
    assert not game.deals.exists()

    response = send(owner_client, game, sent, htmx=htmx)

    html = assert_answered_as(response, htmx=htmx)
    assert alert(html) == (
        "Deal 1 was undone after this phone sent it, so it was not recorded again."
    )
    assert not game.deals.exists()
    assert GameChange.objects.filter(game=game, action="record").count() == 1
    # What was sent is back in the form, ready to be sent on purpose: as the next deal, with a
    # token of its own.
    assert [form_value(html, f"cards_{seat}") for seat in range(4)] == ["0", "5", "7", "9"]
    assert form_value(html, "number") == "1"
    assert form_value(html, "token") not in (None, "", str(token))
    uuid.UUID(form_value(html, "token"))


@WAYS
def test_the_kept_values_can_then_be_recorded_on_purpose(owner_client, game, htmx):
    sent = deal_form(1, uuid.uuid4(), 0, 5, 7, 9)
    first_send(owner_client, game, sent, htmx=htmx)
    owner_client.post(f"/games/{game.pk}/undo/", {"number": "1"}, follow=True)
    html = text(send(owner_client, game, sent, htmx=htmx))
    again = deal_form(1, uuid.UUID(form_value(html, "token")), 0, 5, 7, 9)
    response = send(owner_client, game, again, htmx=htmx)
    assert response.status_code in (200, 302)
    assert stored(game) == [[0, 5, 7, 9]]


@WAYS
def test_a_resend_with_other_values_records_nothing_and_says_what_is_stored(
    owner_client, game, htmx
):
    token = uuid.uuid4()
    first_send(owner_client, game, deal_form(1, token, 0, 5, 7, 9), htmx=htmx)

    response = send(owner_client, game, deal_form(1, token, 0, 3, 7, 2), htmx=htmx)

    html = assert_answered_as(response, htmx=htmx)
    assert alert(html) == (
        "Deal 1 is already recorded as Ann 0, Ben 5, Cy 7, Dee 9; edit deal 1 to change it."
    )
    assert stored(game) == [[0, 5, 7, 9]]
    assert GameChange.objects.filter(game=game).count() == 1
    # The form is the next deal's, empty: the values sent belong to deal 1, fixed by editing it.
    assert form_value(html, "number") == "2"
    assert form_value(html, "cards_1") == ""


@WAYS
def test_a_resend_is_compared_with_the_deal_as_it_was_edited_since(owner_client, game, htmx):
    token = uuid.uuid4()
    sent = deal_form(1, token, 0, 5, 7, 9)
    first_send(owner_client, game, sent, htmx=htmx)
    edited = deal_form(1, uuid.uuid4(), 0, 5, 8, 9)
    owner_client.post(f"/games/{game.pk}/deals/1/edit/", edited, follow=True)

    response = send(owner_client, game, sent, htmx=htmx)

    html = assert_answered_as(response, htmx=htmx)
    assert alert(html) == (
        "Deal 1 is already recorded as Ann 0, Ben 5, Cy 8, Dee 9; edit deal 1 to change it."
    )
    assert stored(game) == [[0, 5, 8, 9]]
    # Sending what is stored now is the same deal: answered as recorded, nothing written.
    changes = GameChange.objects.count()
    response = send(owner_client, game, deal_form(1, token, 0, 5, 8, 9), htmx=htmx)
    assert response.status_code == (200 if htmx else 302)
    assert GameChange.objects.count() == changes


@WAYS
def test_an_identical_resend_answers_recorded_and_writes_nothing(owner_client, game, htmx):
    sent = deal_form(1, uuid.uuid4(), 0, 5, 7, 9)
    first_send(owner_client, game, sent, htmx=htmx)
    version = Game.objects.get(pk=game.pk).version

    response = send(owner_client, game, sent, htmx=htmx)

    if htmx:
        assert response.status_code == 200
        assert "Deal 1 recorded." in text(response)
    else:
        assert response.status_code == 302
        assert "Deal 1 recorded." in text(owner_client.get(response["Location"]))
    assert stored(game) == [[0, 5, 7, 9]]
    assert GameChange.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).version == version


@WAYS
def test_a_resend_of_an_undone_deal_whose_number_was_taken_again(owner_client, game, htmx):
    mine = deal_form(1, uuid.uuid4(), 0, 5, 7, 9)
    first_send(owner_client, game, mine, htmx=htmx)
    owner_client.post(f"/games/{game.pk}/undo/", {"number": "1"}, follow=True)
    # Another phone records deal 1 anew, with other values and its own form.
    other = make_member(game.club, "ben")
    record(game, 4, 0, 2, 6, by=other)

    response = send(owner_client, game, mine, htmx=htmx)

    html = assert_answered_as(response, htmx=htmx)
    assert alert(html) == (
        "Deal 1 was undone after this phone sent it, so it was not recorded again."
    )
    assert stored(game) == [[4, 0, 2, 6]]
    assert [form_value(html, f"cards_{seat}") for seat in range(4)] == ["0", "5", "7", "9"]
    assert form_value(html, "number") == "2"


def twos_game(rules: str) -> Game:
    club = make_club()
    season = club.seasons.get()
    season.rules = parse_rules(rules).name
    season.save()
    return make_game(club)


@WAYS
def test_under_the_twos_rule_a_resend_differing_only_in_the_twos_is_refused(client, htmx):
    game = twos_game("twos-double")
    client.force_login(game.club.owner)
    token = uuid.uuid4()
    first_send(client, game, deal_form(1, token, 0, 4, 10, 13, out_on_twos="on"), htmx=htmx)

    response = send(client, game, deal_form(1, token, 0, 4, 10, 13), htmx=htmx)

    html = assert_answered_as(response, htmx=htmx)
    assert "Deal 1 is already recorded as Ann 0, Ben 4, Cy 10, Dee 13" in alert(html)
    assert Deal.objects.get(game=game).out_on_twos


@WAYS
def test_under_the_stronger_twos_rule_a_resend_with_other_twos_is_refused(client, htmx):
    game = twos_game("twos-double-each")
    client.force_login(game.club.owner)
    token = uuid.uuid4()
    sent = deal_form(1, token, 0, 9, 1, 1, twos_1="2")
    first_send(client, game, sent, htmx=htmx)

    response = send(client, game, sent | {"twos_1": "1"}, htmx=htmx)
    assert_answered_as(response, htmx=htmx)
    # Blank twos are none: the same deal as sent, answered as recorded.
    response = send(client, game, sent | {"twos_0": "", "twos_2": "0"}, htmx=htmx)
    assert response.status_code == (200 if htmx else 302)
    assert game.deals.count() == 1
    assert list(game.deals.get().scores.order_by("seat__position").values_list("twos_held")) == [
        (0,),
        (2,),
        (0,),
        (0,),
    ]


def test_a_spent_token_is_kept_by_the_database_once(game):
    """The undo's history line keeps the token; a second line can't claim it."""
    deal = record(game, 0, 1, 2, 3)
    services.undo_last_deal(game=game, by=game.club.owner)
    undo = GameChange.objects.get(action="undo")
    assert undo.token == deal.token
    with pytest.raises(IntegrityError), transaction.atomic():
        GameChange.objects.create(
            game=game, action="undo", deal_number=1, before=[0, 1, 2, 3], token=deal.token
        )
    # Only an undo spends a token.
    with pytest.raises(IntegrityError), transaction.atomic():
        GameChange.objects.create(
            game=game, action="record", deal_number=1, after=[0, 1, 2, 3], token=uuid.uuid4()
        )


def test_a_spent_token_is_refused_by_the_service(game):
    token = uuid.uuid4()
    owner = game.club.owner
    services.record_deal(game=game, number=1, cards_left=[0, 1, 2, 3], token=token, by=owner)
    services.undo_last_deal(game=game, by=owner)
    with pytest.raises(services.DealWasUndone) as refused:
        services.record_deal(game=game, number=1, cards_left=[0, 1, 2, 3], token=token, by=owner)
    assert refused.value.number == 1
    assert not game.deals.exists()


def test_a_spent_token_of_another_game_is_refused_too(club):
    first, second = make_game(club), make_game(club)
    token = uuid.uuid4()
    owner = club.owner
    services.record_deal(game=first, number=1, cards_left=[0, 1, 2, 3], token=token, by=owner)
    services.undo_last_deal(game=first, by=owner)
    with pytest.raises(services.ScoringError, match="already used for another game"):
        services.record_deal(game=second, number=1, cards_left=[0, 1, 2, 3], token=token, by=owner)
    assert not second.deals.exists()


@needs_postgres  # the row-lock wait: SQLite has none
@pytest.mark.django_db(transaction=True)
def test_a_resend_waiting_on_an_undo_in_progress_sees_it_once_it_commits():
    """Phone A undoes deal 1 while phone B's retry of deal 1 waits for the game's row lock:
    once the undo commits, B's resend finds its token spent and records nothing."""
    game = make_game(make_club())
    owner = game.club.owner
    token = uuid.uuid4()
    services.record_deal(game=game, number=1, cards_left=[0, 1, 2, 3], token=token, by=owner)
    undone, release = threading.Event(), threading.Event()
    outcome: list[str] = []

    def undo() -> None:
        try:
            with transaction.atomic():
                services.undo_last_deal(game=Game.objects.get(pk=game.pk), by=owner, number=1)
                undone.set()
                release.wait(timeout=10)
        finally:
            connections.close_all()

    def resend() -> None:
        try:
            services.record_deal(
                game=Game.objects.get(pk=game.pk),
                number=1,
                cards_left=[0, 1, 2, 3],
                token=token,
                by=owner,
            )
            outcome.append("recorded")
        except services.ScoringError as refused:
            outcome.append(refused.message)
        finally:
            connections.close_all()

    undoing = threading.Thread(target=undo)
    undoing.start()
    assert undone.wait(timeout=10)
    resending = threading.Thread(target=resend)
    resending.start()
    wait_for_a_lock_wait()  # the resend waits for the game's row lock, which the undo holds
    release.set()
    undoing.join(timeout=20)
    resending.join(timeout=20)

    assert outcome == ["Deal 1 was undone after this phone sent it, so it was not recorded again."]
    assert not Deal.objects.filter(game=game).exists()
