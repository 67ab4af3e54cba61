"""Arbitrary input to every form and endpoint: never a 500, never a partial write, and a
refusal always says what to fix."""

import datetime
import uuid
from html.parser import HTMLParser
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.test import Client
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scoring import services
from scoring.models import (
    Club,
    ClubChange,
    Deal,
    DealScore,
    Game,
    GameChange,
    Membership,
    Player,
    Season,
    SeasonChange,
)
from tests.factories import PASSWORD, make_club, make_game, make_member, make_user, record

# Text a phone keyboard (or an attacker) might send: empty, unicode, control characters,
# numbers far out of range, very long strings.
wild_text = st.one_of(
    st.just(""),
    st.text(max_size=30),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=300),
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.sampled_from(["0", "13", "-1", "1e9", "NaN", "２", "٣", "\x00", "'; DROP TABLE x;--"]),
    # Digits to str.isdigit() that int() refuses (a season page's `page` was a 500), and more
    # digits than int() reads.
    st.sampled_from(["²", "①", "1²", "9" * 5000]),
)
MAYBE_MISSING = st.one_of(st.none(), wild_text)
FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
MODELS = (
    get_user_model(),
    Club,
    ClubChange,
    Membership,
    Player,
    Season,
    SeasonChange,
    Game,
    Deal,
    DealScore,
    GameChange,
)
# Dates at and past the edges of what a season may start or end on (2000–2100), and of the
# calendar itself.
EDGE_DATES = ["0001-01-01", "9999-12-31", "1999-12-31", "2000-01-01", "2100-12-31", "2101-01-01"]
DATES = st.one_of(
    MAYBE_MISSING,
    st.sampled_from(EDGE_DATES),
    st.dates().map(datetime.date.isoformat),
    st.dates(datetime.date(2000, 1, 1), datetime.date(2100, 12, 31)).map(str),
)


def counts() -> dict[str, object]:
    """How many rows of each kind, and every season as it is (a refused new season must not
    have ended the current one)."""
    return {model.__name__: model.objects.count() for model in MODELS} | {
        "seasons": list(Season.objects.order_by("pk").values())
    }


def form_data(fields: dict[str, str | None]) -> dict[str, str]:
    return {name: value for name, value in fields.items() if value is not None}


class ShownErrors(HTMLParser):
    """The words a person reads inside a page's error elements: a field's `.errorlist`, a
    `.form-errors` block, or anything with role="alert"."""

    VOID = frozenset(
        {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
        | {"track", "wbr"}
    )

    def __init__(self) -> None:
        super().__init__()
        self.open: list[tuple[str, bool]] = []  # (tag, is an error element)
        self.words: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        error = bool({"errorlist", "form-errors"} & set(classes)) or found.get("role") == "alert"
        self.open.append((tag, error))

    def handle_endtag(self, tag: str) -> None:
        # Close up to the matching tag, so an unclosed <li> or <p> ends with its parent.
        for depth in range(len(self.open) - 1, -1, -1):
            if self.open[depth][0] == tag:
                del self.open[depth:]
                return

    def handle_data(self, data: str) -> None:
        if data.strip() and any(error for _, error in self.open):
            self.words.append(data.strip())


def shown_errors(html: str) -> str:
    parser = ShownErrors()
    parser.feed(html)
    parser.close()
    return " ".join(parser.words)


def assert_answered(response, before: dict[str, object]) -> None:
    """A success (redirect) may write; anything else must write nothing and say why, in
    words shown in an error element (not merely somewhere in the markup)."""
    assert response.status_code < 500
    if response.status_code in (301, 302, 303):
        return
    assert counts() == before, "a refused request wrote to the database"
    if response.status_code in (200, 400, 422, 429):
        message = shown_errors(response.content.decode(errors="replace"))
        assert any(character.isalpha() for character in message), (
            "a refusal shows no message saying what to fix"
        )


@pytest.fixture
def world(db):
    owner = make_user("owner")
    club = make_club(owner)
    game = make_game(club)
    record(game, 0, 3, 5, 7)
    client = Client()
    client.force_login(owner)
    return {"club": club, "game": game, "client": client}


@FUZZ
@given(username=MAYBE_MISSING, password1=MAYBE_MISSING, password2=MAYBE_MISSING)
def test_sign_up(db, username, password1, password2):
    before = counts()
    fields = {"username": username, "password1": password1, "password2": password2}
    assert_answered(Client().post("/accounts/signup/", form_data(fields)), before)


@FUZZ
@given(username=MAYBE_MISSING, password=MAYBE_MISSING)
def test_log_in(db, username, password):
    response = Client().post(
        "/accounts/login/", form_data({"username": username, "password": password})
    )
    assert response.status_code in (200, 302, 429)


@FUZZ
@given(username=MAYBE_MISSING, email=MAYBE_MISSING, password=MAYBE_MISSING)
@example(username="ann", email="ann at home", password=PASSWORD)
def test_sign_up_with_an_email(db, settings, username, email, password):
    settings.SITE_SENDS_EMAIL = True
    before = counts()
    fields = {"username": username, "email": email, "password1": password, "password2": password}
    assert_answered(Client().post("/accounts/signup/", form_data(fields)), before)


def password_of(user) -> str:
    return get_user_model().objects.get(pk=user.pk).password


@pytest.fixture
def ann(world):
    """A member of the world's club, signed in on a phone of her own."""
    ann = make_member(world["club"], "ann")
    client = Client()
    client.force_login(ann)
    return {"user": ann, "client": client}


@FUZZ
@given(old=MAYBE_MISSING, new1=MAYBE_MISSING, new2=MAYBE_MISSING)
@example(old=PASSWORD, new1="a brand new passphrase 8", new2="a brand new passphrase 8")
def test_change_password(ann, old, new1, new2):
    fields = {"old_password": old, "new_password1": new1, "new_password2": new2}
    before, password = counts(), password_of(ann["user"])
    response = ann["client"].post("/accounts/password/", form_data(fields))
    assert_answered(response, before)
    if response.status_code != 302:
        assert password_of(ann["user"]) == password


@FUZZ
@given(password=MAYBE_MISSING)
def test_delete_my_account(world, ann, password):
    for client in (world["client"], ann["client"]):  # the owner is refused whatever is typed
        before = counts()
        assert_answered(client.post("/accounts/delete/", form_data({"password": password})), before)


@FUZZ
@given(new1=MAYBE_MISSING, new2=MAYBE_MISSING)
@example(new1="a brand new passphrase 8", new2="a brand new passphrase 8")
def test_set_a_password_with_an_owners_link(world, ann, new1, new2):
    club = world["club"]
    member = get_user_model().objects.get(pk=ann["user"].pk)  # as set by the last example
    link = services.make_reset_link(club=club, member=member, by=club.owner)
    client = Client()
    form = client.get(f"/accounts/password/link/{club.pk}/{link.uidb64}/{link.token}/")
    before, password = counts(), password_of(ann["user"])
    response = client.post(
        form["Location"], form_data({"new_password1": new1, "new_password2": new2})
    )
    assert_answered(response, before)
    if response.status_code != 302:
        assert password_of(ann["user"]) == password


@FUZZ
@given(uidb64=MAYBE_MISSING, token=MAYBE_MISSING)
def test_open_any_password_link(world, uidb64, token):
    uidb64, token = (quote(part or "x", safe="") for part in (uidb64, token))
    path = f"/accounts/password/link/{world['club'].pk}/{uidb64}/{token}/"
    assert Client().get(path).status_code in (200, 404)


@FUZZ
@given(email=MAYBE_MISSING)
def test_forgot_your_password(world, settings, email):
    settings.SITE_SENDS_EMAIL = True
    before = counts()
    response = Client().post("/accounts/password/forgot/", form_data({"email": email}))
    assert_answered(response, before)


@FUZZ
@given(name=MAYBE_MISSING)
def test_create_club(world, name):
    before = counts()
    assert_answered(world["client"].post("/clubs/", form_data({"name": name})), before)


@FUZZ
@given(seats=st.lists(MAYBE_MISSING, min_size=4, max_size=4), season=MAYBE_MISSING)
def test_start_a_game(world, seats, season):
    fields = {f"seat_{n}": value for n, value in enumerate(seats, start=1)} | {"season": season}
    before = counts()
    response = world["client"].post(f"/clubs/{world['club'].pk}/games/new/", form_data(fields))
    assert_answered(response, before)


@FUZZ
@given(cards=st.lists(MAYBE_MISSING, min_size=4, max_size=4), went_out=MAYBE_MISSING)
# A correction the form accepts, sent without the form's hidden number and token: it was once
# refused with no message at all.
@example(cards=["0", "1", "1", "1"], went_out=None)
def test_edit_a_deal(world, cards, went_out):
    game = world["game"]
    fields = {f"cards_{n}": value for n, value in enumerate(cards)}
    before = counts()
    response = world["client"].post(f"/games/{game.pk}/deals/1/edit/", form_data(fields))
    assert_answered(response, before)
    # "Went out" only redraws the form with that player at 0: it never writes.
    before = counts()
    tapped = world["client"].post(
        f"/games/{game.pk}/deals/1/edit/", form_data(fields | {"went_out": went_out or ""})
    )
    assert tapped.status_code == 200
    assert counts() == before


@FUZZ
@given(number=MAYBE_MISSING)
def test_undo(world, number):
    game = world["game"]
    if not game.deals.exists():
        record(game, 0, 3, 5, 7)  # an earlier example undid it: the same start for each
    before = counts()
    response = world["client"].post(f"/games/{game.pk}/undo/", form_data({"number": number}))
    assert_answered(response, before)


@FUZZ
@given(name=MAYBE_MISSING, starts_on=DATES, ends_on=DATES)
def test_start_a_season(world, name, starts_on, ends_on):
    fields = {"name": name, "starts_on": starts_on, "ends_on": ends_on}
    before = counts()
    response = world["client"].post(f"/clubs/{world['club'].pk}/seasons/new/", form_data(fields))
    assert_answered(response, before)


@FUZZ
@given(starts_on=DATES, ends_on=DATES)
def test_start_a_season_on_any_date(world, starts_on, ends_on):
    """With a good name, only the dates decide: in 2000–2100 the season starts; anything else
    is refused, saying so, with nothing written (the current season not ended either)."""
    fields = {"name": "Edge", "starts_on": starts_on, "ends_on": ends_on}
    before = counts()
    response = world["client"].post(f"/clubs/{world['club'].pk}/seasons/new/", form_data(fields))
    assert_answered(response, before)
    if response.status_code == 302:
        season = Season.objects.get(club=world["club"], is_current=True)
        assert datetime.date(2000, 1, 1) <= season.starts_on <= datetime.date(2100, 12, 31)
        assert season.ends_on is None or season.ends_on <= datetime.date(2100, 12, 31)


RULE_FIELDS = ("suits", "straights", "flushes", "penalties", "twos", "players", "finish")
RULE_CHOICES = st.one_of(
    MAYBE_MISSING,
    st.sampled_from(
        ["pusoy-dos-suits", "two-high-straights", "poker-flushes", "twos-double-each", "3", "2"]
        + ["open-ended", "deals", "target", "heavy-penalties", "4"]
    ),
)


@FUZZ
@given(
    rules=st.fixed_dictionaries(dict.fromkeys(RULE_FIELDS, RULE_CHOICES)),
    target=MAYBE_MISSING,
    deals=MAYBE_MISSING,
    stake=MAYBE_MISSING,
    currency=MAYBE_MISSING,
)
def test_start_a_season_with_house_rules(world, rules, target, deals, stake, currency):
    fields = {"name": "Rules", "starts_on": "2027-01-01"} | rules
    fields |= {"target": target, "deals": deals, "stake": stake, "currency": currency}
    before = counts()
    response = world["client"].post(f"/clubs/{world['club'].pk}/seasons/new/", form_data(fields))
    assert_answered(response, before)


@FUZZ
@given(
    rules=st.fixed_dictionaries(dict.fromkeys(RULE_FIELDS, RULE_CHOICES)),
    target=MAYBE_MISSING,
    stake=MAYBE_MISSING,
)
def test_choose_a_new_clubs_house_rules(world, rules, target, stake):
    if "empty" not in world:
        world["empty"] = make_club(world["club"].owner, name="New table")
    season = world["empty"].seasons.get()
    fields = rules | {"target": target, "stake": stake}
    before = counts()
    response = world["client"].post(f"/seasons/{season.pk}/rules/", form_data(fields))
    assert_answered(response, before)


@FUZZ
@given(stake=MAYBE_MISSING)
def test_give_a_game_a_stake(world, stake):
    before = counts()
    response = world["client"].post(
        f"/games/{world['game'].pk}/stake/", form_data({"stake": stake})
    )
    assert_answered(response, before)


@FUZZ
@given(
    cards=st.lists(MAYBE_MISSING, min_size=4, max_size=4),
    twos=st.lists(MAYBE_MISSING, min_size=4, max_size=4),
    out=MAYBE_MISSING,
)
# Twos that aren't a number were once refused with no message shown.
@example(cards=["0", "0", "0", "0"], twos=[None, None, None, ":"], out=None)
def test_record_a_deal_under_the_stronger_twos_rule(world, cards, twos, out):
    from rules.ruleset import parse_rules

    season = world["club"].seasons.get(is_current=True)
    season.rules = parse_rules("twos-double-each,open-ended").name
    season.save()
    if "twos_game" not in world:
        world["twos_game"] = make_game(world["club"])
    game = world["twos_game"]
    fields = {f"cards_{seat}": value for seat, value in enumerate(cards)}
    fields |= {f"twos_{seat}": value for seat, value in enumerate(twos)}
    fields |= {
        "out_on_twos": out,
        "number": str(game.deals.count() + 1),
        "token": str(uuid.uuid4()),
    }
    before = counts()
    response = world["client"].post(f"/games/{game.pk}/deals/", form_data(fields))
    assert_answered(response, before)
    response = world["client"].post(f"/games/{game.pk}/end/")
    assert response.status_code in (200, 302)


@FUZZ
@given(season=MAYBE_MISSING)
def test_move_a_game(world, season):
    response = world["client"].post(
        f"/games/{world['game'].pk}/season/", form_data({"season": season})
    )
    assert response.status_code in (200, 302)


@FUZZ
@given(name=MAYBE_MISSING)
def test_rename_a_player(world, name):
    club = world["club"]
    if "ben" not in world:
        world["ben"] = club.players.get(name="Ben").pk
    before = counts()
    response = world["client"].post(
        f"/clubs/{club.pk}/players/{world['ben']}/rename/", form_data({"name": name})
    )
    assert_answered(response, before)


@FUZZ
@given(into=st.one_of(MAYBE_MISSING, st.integers(min_value=-1, max_value=12).map(str)))
def test_merge_a_player(world, into):
    """Into anyone, or anything: Eve and Ann never sat together, so one of them merges into the
    other once (and is not found after); the others all sat together, so merging them is
    refused, saying why."""
    club = world["club"]
    if "eve" not in world:
        make_game(club, ("Eve", "Ben", "Cy", "Dee"))
        world["eve"] = club.players.get(name="Eve").pk
        world["ann"] = club.players.get(name="Ann").pk
    before = counts()
    for merged in (world["eve"], world["ann"]):
        response = world["client"].post(
            f"/clubs/{club.pk}/players/{merged}/merge/", form_data({"into": into})
        )
        assert_answered(response, before)
        before = counts()


@FUZZ
@given(fields=st.dictionaries(wild_text, wild_text, max_size=3))
def test_the_members_and_roster_confirmations_take_nothing_else_sent(world, fields):
    """Remove, Make owner, Leave club and Remove a player: only the address says what to do."""
    club = world["club"]
    bo = make_member(club)
    membership = club.memberships.get(user=bo)
    client = world["client"]
    response = client.post(f"/clubs/{club.pk}/members/{membership.pk}/remove/", fields)
    assert response.status_code == 302
    assert not club.memberships.filter(user=bo).exists()
    bo_client = Client()
    bo_client.force_login(make_member(club))
    assert bo_client.post(f"/clubs/{club.pk}/leave/", fields).status_code == 302
    before = counts()
    ann = club.players.get(name="Ann")
    assert_answered(client.post(f"/clubs/{club.pk}/players/{ann.pk}/remove/", fields), before)
    assert_answered(client.post(f"/clubs/{club.pk}/members/0/owner/", fields), before)
    services.make_owner(club=club, member=club.owner, by=club.owner)  # no change: still theirs


@FUZZ
@given(
    token=st.text(
        alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="/?#"),
        min_size=1,
        max_size=80,
    )
)
def test_join_with_any_token(world, token):
    before = counts()
    response = world["client"].post(f"/join/{token}/")
    assert response.status_code in (302, 404)
    if response.status_code == 404:
        assert counts() == before


@FUZZ
@given(
    token=st.text(
        alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="/?#"),
        min_size=1,
        max_size=80,
    )
)
def test_an_invite_opened_signed_out_with_any_token(world, token):
    """Signed out, any token but the club's own is "not found", and names no club."""
    before = counts()
    response = Client().get(f"/join/{token}/")
    assert response.status_code == 404
    assert world["club"].name not in response.content.decode()
    assert counts() == before


@FUZZ
@given(next_url=MAYBE_MISSING, username=st.sampled_from(["newcomer", "owner", ""]))
@example(next_url="/join/no-such-token/", username="newcomer")
# Once a 500: redirect() took a `next` of "0" for the name of a view.
@example(next_url="0", username="newcomer")
def test_sign_up_with_any_next(world, next_url, username):
    """Whatever `next` says, signing up never fails and joins a club only by its invite."""
    fields = {"username": username, "password1": "a long passphrase 7"}
    fields |= {"password2": "a long passphrase 7", "next": next_url}
    before = counts()
    response = Client().post("/accounts/signup/", form_data(fields))
    assert_answered(response, before)
    assert not Membership.objects.filter(user__username="newcomer").exists()
    get_user_model().objects.filter(username="newcomer").delete()


@FUZZ
@given(fields=st.dictionaries(wild_text, wild_text, max_size=3), same=MAYBE_MISSING)
def test_play_again_and_same_players(world, fields, same):
    """The "Play again" form has no fields: whatever comes with it, a game in progress is
    refused and a finished one gets its one rematch; "Same players as last time" reads only
    same=1."""
    client, game = world["client"], world["game"]
    before = counts()
    refused = client.post(f"/games/{game.pk}/play-again/", fields)
    assert refused["Location"] == f"/games/{game.pk}/"
    assert counts() == before
    if "finished" not in world:
        world["finished"] = make_game(world["club"], names=["Eve", "Fay", "Gus", "Hal"])
        for _ in range(3):
            record(world["finished"], 0, 13, 13, 13)
    opened = client.post(f"/games/{world['finished'].pk}/play-again/", fields)
    rematches = Game.objects.filter(seats__player__name="Eve", status="in_progress")
    assert opened["Location"] == f"/games/{rematches.get().pk}/"
    response = client.get(f"/clubs/{world['club'].pk}/games/new/", form_data({"same": same}))
    assert response.status_code == 200


@FUZZ
@given(a=MAYBE_MISSING, b=MAYBE_MISSING, into=MAYBE_MISSING, tap=MAYBE_MISSING)
def test_hand_checker(db, a, b, into, tap):
    params = form_data({"a": a, "b": b, "into": into, "tap": tap})
    assert Client().get("/check/", params).status_code in (200, 302)


# Names of house rules, real and not, for the hand pages' `rules=` and their selects.
RULES_TEXT = st.one_of(
    MAYBE_MISSING,
    st.sampled_from(
        ["pusoy-dos", "bridge,poker-flushes", "two-high-straights", "to-50", "3-players"]
        + ["standard-suits", "jokers", "pusoy-dos bridge", "to-0", "TOP-CARD-FLUSHES"]
    ),
)
CARDS_TEXT = st.one_of(
    MAYBE_MISSING,
    st.sampled_from(["3d 4c 5h 6s 7d 7c 9h 9s jd qd kc 2s 2h", "9s 9h", "2s 2d", "3d", "as"]),
)


@FUZZ
@given(
    a=MAYBE_MISSING,
    rules=RULES_TEXT,
    suits=RULES_TEXT,
    straights=MAYBE_MISSING,
    tap=MAYBE_MISSING,
)
def test_hand_checker_with_house_rules(db, a, rules, suits, straights, tap):
    params = form_data(
        {"a": a, "b": "9s", "rules": rules, "suits": suits, "straights": straights, "tap": tap}
    )
    assert Client().get("/check/", params).status_code in (200, 302)


@FUZZ
@given(
    hand=CARDS_TEXT,
    table=CARDS_TEXT,
    first=MAYBE_MISSING,
    into=MAYBE_MISSING,
    tap=MAYBE_MISSING,
    rules=RULES_TEXT,
    flushes=RULES_TEXT,
)
def test_what_can_i_play(db, hand, table, first, into, tap, rules, flushes):
    fields = {"hand": hand, "table": table, "first": first, "into": into, "tap": tap}
    params = form_data(fields | {"rules": rules, "flushes": flushes})
    assert Client().get("/play/", params).status_code in (200, 302)
    htmx = {"HX-Request": "true", "HX-Target": "feedback"}
    assert Client().get("/play/", params, headers=htmx).status_code == 200


@FUZZ
@given(hand=CARDS_TEXT, tap=MAYBE_MISSING, rules=RULES_TEXT, suits=RULES_TEXT)
def test_split_a_hand(db, hand, tap, rules, suits):
    params = form_data({"hand": hand, "tap": tap, "rules": rules, "suits": suits})
    assert Client().get("/split/", params).status_code in (200, 302)


@FUZZ
@given(hand=CARDS_TEXT, table=CARDS_TEXT, first=MAYBE_MISSING, rules=RULES_TEXT)
def test_the_helpers_json_api(db, hand, table, first, rules):
    client = Client()
    plays = form_data({"hand": hand, "table": table, "first": first, "rules": rules})
    for response in (
        client.get("/api/hands/plays", plays),
        client.get("/api/hands/split", form_data({"hand": hand, "rules": rules})),
        client.get("/api/hands/classify", form_data({"cards": hand, "rules": rules})),
        client.get("/api/hands/compare", form_data({"a": hand, "b": table, "rules": rules})),
    ):
        assert response.status_code in (200, 400)
        if response.status_code == 400:
            assert response.json()["error"]


# Rule sets for scoring, real, clashing and not, and facts in and out of shape.
SCORING_RULES = st.one_of(
    RULES_TEXT,
    st.sampled_from(
        ["pusoy-dos-scoring", "finishing-order", "points-by-hand", "dragon", "pays-for-table"]
        + ["twos-double-each", "2-players-17,draw-on-pass", "3-players", "dragon 3-players"]
    ),
)
NUMBERS = st.one_of(
    MAYBE_MISSING,
    st.lists(st.integers(-3, 1000).map(str), max_size=5).map(",".join),
    st.sampled_from(["0,5,13,10", "2,0,3,1", "0, 4 ,9 ,2", "0,0,0,0", "1", "3", "-1", "yes"]),
)


@FUZZ
@given(
    rules=SCORING_RULES,
    cards=NUMBERS,
    twos=NUMBERS,
    order=NUMBERS,
    points=NUMBERS,
    single=st.fixed_dictionaries(
        dict.fromkeys(("out_on_twos", "last_play_twos", "dragon", "pays"), NUMBERS)
    ),
)
def test_the_scoring_json_api(db, rules, cards, twos, order, points, single):
    params = {"rules": rules, "cards": cards, "twos": twos, "order": order, "points": points}
    response = Client().get("/api/deals/score", form_data(params | single))
    assert response.status_code in (200, 400)
    body = response.json()
    if response.status_code == 400:
        assert body["error"]
    else:
        assert len(body["penalties"]) == len(body["explanation"]) > 1


@FUZZ
@given(sort=MAYBE_MISSING, order=MAYBE_MISSING, page=MAYBE_MISSING)
def test_standings_and_csv_parameters(world, sort, order, page):
    season = world["game"].season
    params = form_data({"sort": sort, "order": order, "page": page})
    client = world["client"]
    assert client.get(f"/seasons/{season.pk}/", params).status_code == 200
    assert client.get(f"/clubs/{world['club'].pk}/", params).status_code == 200
    assert client.get(f"/seasons/{season.pk}/standings.csv", params).status_code == 200


def test_dates_far_outside_the_calendar_are_refused_plainly(world):
    response = world["client"].post(
        f"/clubs/{world['club'].pk}/seasons/new/",
        {"name": "Far", "starts_on": "99999-01-01", "ends_on": str(datetime.date.max)},
    )
    assert response.status_code == 200
    assert "Enter a date" in response.content.decode()


def test_the_refusal_check_reads_the_message_shown_not_the_markup(world):
    """The check can fail: a page whose markup says "error" here and there, with no message
    in an error element, is no refusal that says what to fix."""
    game_page = world["client"].get(f"/games/{world['game'].pk}/")
    assert "error" in game_page.content.decode()  # what the old substring check accepted
    with pytest.raises(AssertionError, match="shows no message"):
        assert_answered(game_page, counts())
    empty = HttpResponse('<p class="form-errors" role="alert"> </p><ul class="errorlist"></ul>')
    with pytest.raises(AssertionError, match="shows no message"):
        assert_answered(empty, counts())
    # A real refusal passes: the stake page says what is wrong in its alert.
    refused = world["client"].post(f"/games/{world['game'].pk}/stake/", {"stake": "-1"})
    assert_answered(refused, counts())
    assert shown_errors(refused.content.decode()).startswith("The stake wasn't saved")
