"""The hand checker page, /check/, without a browser."""

import re
from html import unescape
from urllib.parse import parse_qs, urlparse

import pytest


def test_home_page_leads_to_the_checker(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b'href="/check/"' in response.content


def test_empty_checker_shows_a_full_deck_to_pick_from(client):
    response = client.get("/check/")
    assert response.status_code == 200
    assert response.content.count(b'name="tap"') == 52


def test_shared_url_shows_the_verdict(client):
    response = client.get("/check/", {"a": "3C 5C 6C 7C 8C", "b": "4D 9D 10D QD AD"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "A beats B" in html
    assert "Flush" in html


def test_a_hand_that_is_not_a_play_is_named_as_such(client):
    html = client.get("/check/", {"a": "9s 9d 4c 4h"}).content.decode()
    assert "Not a play" in html


def test_bad_text_is_explained_and_kept(client):
    html = client.get("/check/", {"a": "1H 2H", "b": "9s"}).content.decode()
    assert "&#x27;1H&#x27; is not a card" in html or "'1H' is not a card" in html
    assert 'value="1H 2H"' in html


def test_a_card_in_both_hands_is_refused(client):
    html = client.get("/check/", {"a": "9s", "b": "9s"}).content.decode()
    assert "in both hands" in html


def test_tapping_a_card_without_javascript_redirects_to_the_shareable_url(client):
    response = client.get("/check/", {"a": "9s", "b": "", "into": "a", "tap": "9D"})
    assert response.status_code == 302
    query = parse_qs(urlparse(response["Location"]).query)
    assert query == {"a": ["9S 9D"]}


def test_tapping_a_card_in_the_active_hand_takes_it_out(client):
    response = client.get("/check/", {"a": "9s 9d", "into": "a", "tap": "9s"})
    assert parse_qs(urlparse(response["Location"]).query) == {"a": ["9D"]}


def test_a_card_in_the_other_hand_cannot_be_tapped(client):
    response = client.get("/check/", {"a": "9s", "b": "9d", "into": "a", "tap": "9d"})
    assert response.status_code == 200
    assert "already in hand B" in response.content.decode()


def test_htmx_tap_swaps_the_checker_and_replaces_the_url(client):
    response = client.get(
        "/check/",
        {"a": "", "b": "", "into": "b", "tap": "3D"},
        headers={"HX-Request": "true", "HX-Target": "checker"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<form id="checker"')
    assert "<html" not in html
    assert response["HX-Replace-Url"] == "/check/?b=3D&into=b"
    assert "HX-Request" in response["Vary"]


def test_htmx_typing_swaps_only_the_feedback(client):
    response = client.get(
        "/check/", {"a": "9s 9d"}, headers={"HX-Request": "true", "HX-Target": "feedback"}
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="feedback"')
    assert 'name="a"' not in html


@pytest.mark.parametrize(
    ("hands", "note"),
    [
        ({"a": "3d"}, "A could open a deal: it holds the 3♦."),
        ({"a": "3d 3s", "b": "4c 4h"}, "A could open a deal: it holds the 3♦."),
        ({"a": "9s", "b": "3d"}, "B could open a deal: it holds the 3♦."),
        # No hand holds the 3♦, or the one that does is no play: nothing to say about opening.
        ({"a": "3c"}, None),
        ({"a": "5h 5s", "b": "6d 6c"}, None),
        ({"a": "3d 4c"}, None),
    ],
)
def test_the_opening_note_shows_only_for_a_hand_that_could_open(client, hands, note):
    html = client.get("/check/", hands).content.decode()
    notes = re.findall(r'<p class="opening">\s*(.*?)\s*</p>', html, re.S)
    assert notes == ([note] if note else [])


def test_pages_carry_a_content_security_policy_that_runs_the_sites_own_script_files_alone(client):
    """No inline script runs, not even one with a nonce: every script is a file of the site's."""
    response = client.get("/check/")
    policy = dict(
        directive.strip().split(" ", 1)
        for directive in response["Content-Security-Policy"].split(";")
    )
    assert policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    html = response.content.decode()
    assert "nonce" not in html
    scripts = re.findall(r"<script[^>]*>", html)
    assert scripts, "the page has its scripts"
    assert all(' src="/static/' in tag for tag in scripts), scripts


def test_a_tap_that_is_not_a_card_is_explained(client):
    response = client.get("/check/", {"a": "9s", "into": "a", "tap": "1X"})
    assert response.status_code == 200
    assert "is not a card" in response.content.decode()


def test_typing_bad_text_keeps_it_in_the_shareable_url(client):
    response = client.get(
        "/check/", {"a": "9s 1h"}, headers={"HX-Request": "true", "HX-Target": "feedback"}
    )
    assert response.status_code == 200
    assert response["HX-Replace-Url"] == "/check/?a=9s+1h"
    assert "is not a card" in response.content.decode()


def test_ping_answers_ok_for_health_checks(client):
    response = client.get("/ping/")
    assert response.status_code == 200
    assert response.content == b"ok"


# House rules on the checker


def test_under_pusoy_dos_suits_the_nine_of_diamonds_beats_the_nine_of_spades(client):
    standard = unescape(client.get("/check/", {"a": "9d", "b": "9s"}).content.decode())
    assert "B beats A" in standard
    html = unescape(
        client.get("/check/", {"a": "9d", "b": "9s", "rules": "pusoy-dos-suits"}).content.decode()
    )
    assert "A beats B" in html
    assert "Pusoy Dos order ♣ < ♠ < ♥ < ♦" in html
    # The rules in force are named above the verdict.
    assert html.index("House rules: Pusoy Dos suits") < html.index("A beats B")
    assert "House rules:" not in standard


def test_under_two_high_straights_j_q_k_a_2_is_a_straight(client):
    html = client.get(
        "/check/", {"a": "JS QH KD AC 2D", "rules": "two-high-straights"}
    ).content.decode()
    assert "Straight J-Q-K-A-2" in html
    assert "Not a play" in client.get("/check/", {"a": "JS QH KD AC 2D"}).content.decode()


def test_the_opening_card_follows_the_suit_order(client):
    html = client.get("/check/", {"a": "3c", "rules": "pusoy-dos"}).content.decode()
    assert "A could open a deal: it holds the 3♣." in html
    html = client.get("/check/", {"a": "3d", "rules": "pusoy-dos"}).content.decode()
    assert "could open a deal" not in html


def test_rules_typed_in_the_address_are_read_like_parse_rules(client):
    html = client.get("/check/", {"a": "9d", "b": "9s", "rules": "Pusoy-Dos, TWOS-DOUBLE"})
    # Only the options that decide which hand wins are kept: the twos rule is for scoring.
    assert "House rules: Pusoy Dos suits (♣ &lt; ♠ &lt; ♥ &lt; ♦)</p>" in html.content.decode()


def test_unknown_rules_are_a_form_error_and_the_hands_are_kept(client):
    response = client.get("/check/", {"a": "9d", "b": "9s", "rules": "jokers-wild"})
    assert response.status_code == 200
    html = unescape(response.content.decode())
    assert "'jokers-wild' is not a house rule: choose from standard" in html
    assert 'value="9d"' in html and 'value="9s"' in html
    assert '<details class="house-rules" open>' in html


def test_unknown_rules_stay_in_the_shareable_url_as_typed(client):
    response = client.get(
        "/check/",
        {"a": "9d", "rules": "jokers"},
        headers={"HX-Request": "true", "HX-Target": "feedback"},
    )
    assert response["HX-Replace-Url"] == "/check/?a=9d&rules=jokers"


def test_the_rule_selects_send_the_page_to_one_rules_name(client):
    response = client.get(
        "/check/",
        {
            "a": "9d",
            "b": "9s",
            "into": "a",
            "suits": "pusoy-dos-suits",
            "straights": "standard-straights",
            "flushes": "poker-flushes",
        },
    )
    assert response.status_code == 302
    assert parse_qs(urlparse(response["Location"]).query) == {
        "a": ["9D"],
        "b": ["9S"],
        "rules": ["pusoy-dos-suits,poker-flushes"],
    }


def test_the_rule_selects_win_over_a_rules_name(client):
    response = client.get("/check/", {"a": "9d", "rules": "pusoy-dos", "suits": "bridge-suits"})
    assert parse_qs(urlparse(response["Location"]).query)["rules"] == ["bridge-suits"]


def test_a_rule_select_with_a_value_that_is_no_choice_is_an_error(client):
    response = client.get("/check/", {"a": "9d", "suits": "jokers"})
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()


def test_a_tap_keeps_the_rules(client):
    response = client.get("/check/", {"a": "9s", "rules": "bridge", "tap": "9d"})
    assert parse_qs(urlparse(response["Location"]).query) == {
        "a": ["9S 9D"],
        "rules": ["bridge-suits"],
    }


def test_htmx_requests_with_the_rule_selects_replace_the_url_with_the_rules_name(client):
    response = client.get(
        "/check/",
        {"a": "9d", "b": "9s", "suits": "pusoy-dos-suits", "straights": "", "flushes": ""},
        headers={"HX-Request": "true", "HX-Target": "checker"},
    )
    assert response.status_code == 200
    assert response["HX-Replace-Url"] == "/check/?a=9D&b=9S&rules=pusoy-dos-suits"
    assert "A beats B" in response.content.decode()


def test_the_examples_carry_the_rules(client):
    html = client.get("/check/", {"rules": "poker-flushes"}).content.decode()
    assert 'href="/check/?a=9S+9D&amp;b=9H+9C&amp;rules=poker-flushes"' in html
    plain = client.get("/check/").content.decode()
    assert 'href="/check/?a=9S+9D&amp;b=9H+9C"' in plain


def test_the_house_rules_stay_closed_under_the_standard_rules(client):
    html = client.get("/check/").content.decode()
    assert '<details class="house-rules">' in html
    assert '<option value="standard-suits" selected>' in html
    assert 'form="checker"' in html


def test_clear_empties_one_hand_and_comes_back_to_the_cards_without_javascript(client):
    response = client.get("/check/", {"a": "9s 9d", "b": "10c 10h", "clear": "a"})
    assert response.status_code == 302
    assert response["Location"] == "/check/?b=10C+10H#feedback"


def test_swap_exchanges_the_hands_without_javascript(client):
    response = client.get("/check/", {"a": "9s 9d", "b": "10c 10h", "into": "b", "swap": "1"})
    assert response.status_code == 302
    assert response["Location"] == "/check/?a=10C+10H&b=9S+9D&into=b#feedback"


def test_clear_and_swap_work_on_text_that_is_not_cards(client):
    """A hand typed wrong can be cleared or moved, its text kept as typed."""
    response = client.get("/check/", {"a": "9s 1H", "b": "", "clear": "a"})
    assert response["Location"] == "/check/#feedback"
    html = client.get("/check/", {"a": "9s 1H", "b": "3d", "swap": "1"}).content.decode()
    assert 'value="3d"' in html and 'value="9s 1H"' in html
    assert "is not a card" in html


def test_a_clear_that_names_no_hand_changes_nothing(client):
    response = client.get("/check/", {"a": "9s", "clear": "c"})
    assert response.status_code == 200
    assert 'value="9s"' in response.content.decode()


def test_htmx_clear_and_swap_show_the_changed_hands_at_their_address(client):
    htmx = {"HX-Request": "true", "HX-Target": "checker"}
    response = client.get("/check/", {"a": "9s", "b": "3d", "swap": "1"}, headers=htmx)
    assert response["HX-Replace-Url"] == "/check/?a=3D&b=9S"
    assert 'value="3D"' in response.content.decode()
    response = client.get("/check/", {"a": "9s", "b": "3d", "clear": "b"}, headers=htmx)
    assert response["HX-Replace-Url"] == "/check/?a=9S"


def test_clear_and_swap_are_disabled_with_nothing_to_do(client):
    html = client.get("/check/", {"a": "9s"}).content.decode()
    buttons = dict(
        re.findall(r'<button type="submit" name="(clear" value="\w|swap)[^>]*?( disabled)?>', html)
    )
    assert buttons == {'clear" value="a': "", 'clear" value="b': " disabled", "swap": ""}
    html = client.get("/check/").content.decode()
    assert html.count('class="button" disabled>') == 3


def test_a_card_in_the_other_hand_says_so_on_its_face(client, text_of):
    html = client.get("/check/", {"a": "9s", "b": "3d"}).content.decode()
    button = re.search(r'<button[^>]*id="pick-3D".*?</button>', html, re.S).group(0)
    assert "disabled" in button
    assert text_of(button).split() == ["3♦", "in", "B"]
    assert "3 of diamonds, in hand B" in button
    assert "Cards marked “in B” are in hand B: choose Hand B above to take one out." in html
