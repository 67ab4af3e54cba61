"""What can I play? (/play/), without a browser."""

import re
from html import unescape
from urllib.parse import parse_qs, urlparse

import pytest

HAND = "3d 4c 5h 6s 7d 7c 9h 9s jd qd kc 2s 2h"


def page(client, **params) -> str:
    response = client.get("/play/", params)
    assert response.status_code == 200
    return unescape(response.content.decode())


@pytest.fixture
def headings(text_of):
    """The page's group headings, as read: "Pairs (2)"."""

    def headings(html: str) -> list[str]:
        return [text_of(h).strip() for h in re.findall(r"<h3>(.*?)</h3>", html)]

    return headings


def play_links(html: str) -> list[str]:
    return re.findall(r'<a class="play-link" href="([^"]+)"', html)


def test_the_empty_page_offers_a_full_deck_and_both_fields(client):
    html = page(client)
    assert html.count('name="tap"') == 52
    assert 'name="hand"' in html and 'name="table"' in html and 'name="first"' in html
    assert "No cards yet" in html


def test_the_plays_that_beat_a_pair_are_listed_weakest_first(client, text_of, headings):
    html = page(client, hand=HAND, table="8d 8s")
    assert headings(html) == ["Pairs (2)"]
    text = text_of(html)
    assert "2 plays beat that pair of 8s" in text
    assert text.index("Pair of 9s") < text.index("Pair of 2s")


def test_a_lead_lists_every_play_grouped_by_kind_singles_first(client, text_of, headings):
    html = page(client, hand="3d 4c 5h 6s 7d 7c 9h")
    assert headings(html) == ["Singles (7)", "Pairs (1)", "Straights (2)"]
    assert "You are leading: 10 plays to choose from" in text_of(html)
    singles = text_of(html).split("Singles (7)")[1].split("Pairs (1)")[0]
    # Weakest first: 3♦ before 4♣ before … 9♥.
    assert re.findall(r"Single (\S+)", singles) == [
        "3♦",
        "4♣",
        "5♥",
        "6♠",
        "7♦",
        "7♣",
        "9♥",
    ]


def test_each_play_links_into_the_checker_with_the_table_and_the_rules(client):
    html = page(client, hand=HAND, table="8d 8s", rules="pusoy-dos")
    first = play_links(html)[0]
    assert urlparse(first).path == "/check/"
    assert parse_qs(urlparse(first).query) == {
        "a": ["9S 9H"],  # under Pusoy Dos suits ♠ is below ♥: the pair reads 9♠ 9♥
        "b": ["8D 8S"],
        "rules": ["pusoy-dos-suits"],
    }


def test_following_a_play_link_shows_it_beating_the_table(client):
    html = page(client, hand=HAND, table="8d 8s")
    checker = client.get(play_links(html)[0]).content.decode()
    assert "A beats B" in checker


def test_a_lead_links_the_play_alone(client):
    html = page(client, hand="9s")
    assert play_links(html) == ["/check/?a=9S"]


def test_nothing_beats_a_pair_of_twos_says_pass(client):
    html = page(client, hand="3d 4c 9h 9s", table="2s 2d")
    assert "Nothing in your hand beats that pair of 2s: pass" in html
    assert not play_links(html)


@pytest.mark.parametrize(
    ("table", "named"),
    [("2s", "that 2♠"), ("AS AH AC", "that triple of aces"), ("4h 5h 6h 7h 9h", "that flush")],
)
def test_the_pass_names_the_play_on_the_table(client, table, named):
    assert f"beats {named}: pass" in page(client, hand="3d", table=table)


def test_the_first_play_must_hold_the_three_of_diamonds(client, text_of, headings):
    html = page(client, hand="4c 9h 9s", first="1")
    assert "You don't hold 3♦, so you don't lead the first play" in html
    html = page(client, hand="3d 4c 5h 6s 7d 3s", first="1")
    assert headings(html) == ["Singles (1)", "Pairs (1)", "Straights (1)"]
    assert "The first play of the deal: 3 plays hold the 3♦" in text_of(html)


def test_under_pusoy_dos_the_first_play_holds_the_three_of_clubs(client):
    html = page(client, hand="3d 4c", first="1", rules="pusoy-dos")
    assert "You don't hold 3♣" in html


def test_the_first_play_needs_an_empty_table(client):
    html = page(client, hand="3d", table="4d", first="1")
    assert "The first play of the deal is made on an empty table" in html
    assert not play_links(html)


def test_text_that_is_not_cards_is_explained_and_kept(client):
    html = page(client, hand="3d 1h", table="9s")
    assert "'1h' is not a card" in html
    assert 'value="3d 1h"' in html


def test_more_than_thirteen_cards_is_refused(client):
    html = page(client, hand=HAND + " ah")
    assert "You have 14 cards: a hand holds at most 13 — take out 1" in html


def test_a_card_in_both_hand_and_table_is_refused(client):
    html = page(client, hand="9s 9h", table="9s")
    assert "9♠ can't be both in your hand and on the table" in html


def test_a_table_that_is_not_a_play_is_refused(client):
    html = page(client, hand="9s 9h", table="3d 3c 4h")
    assert "The cards on the table are not a play" in html
    assert not play_links(html)


def test_the_rules_change_which_plays_beat_the_table(client):
    standard = page(client, hand="9d 5c", table="9s")
    assert "Nothing in your hand beats that 9♠: pass" in standard
    pusoy = page(client, hand="9d 5c", table="9s", rules="pusoy-dos-suits")
    assert play_links(pusoy) == ["/check/?a=9D&b=9S&rules=pusoy-dos-suits"]
    assert "House rules: Pusoy Dos suits" in pusoy


def test_under_two_high_straights_j_q_k_a_2_is_a_straight(client, headings):
    html = page(client, hand="JS QH KD AC 2D", rules="two-high-straights")
    assert "Straights (1)" in headings(html)
    assert "Straight J-Q-K-A-2" in html
    assert "Straights (1)" not in headings(page(client, hand="JS QH KD AC 2D"))


def test_unknown_rules_are_named_and_the_hand_kept(client):
    html = page(client, hand="9s", rules="jokers-wild")
    assert "'jokers-wild' is not a house rule" in html
    assert 'value="9s"' in html
    assert '<details class="house-rules" open>' in html


def test_the_house_rules_selects_show_the_rules_in_force(client):
    html = page(client, hand="9s", rules="bridge,poker-flushes")
    assert '<option value="bridge-suits" selected>' in html
    assert '<option value="poker-flushes" selected>' in html
    assert '<option value="standard-straights" selected>' in html
    assert '<details class="house-rules" open>' in html
    assert '<details class="house-rules">' in page(client, hand="9s")


def test_the_page_form_is_sent_on_to_its_shareable_address(client):
    response = client.get(
        "/play/",
        {
            "hand": "9s 9h",
            "table": "8d 8s",
            "first": "",
            "into": "hand",
            "suits": "pusoy-dos-suits",
            "straights": "standard-straights",
            "flushes": "suit-first-flushes",
        },
    )
    assert response.status_code == 302
    assert parse_qs(urlparse(response["Location"]).query) == {
        "hand": ["9S 9H"],
        "table": ["8D 8S"],
        "rules": ["pusoy-dos-suits"],
    }


def test_tapping_cards_into_the_hand_and_onto_the_table(client):
    response = client.get("/play/", {"hand": "9s", "into": "hand", "tap": "9H"})
    assert parse_qs(urlparse(response["Location"]).query) == {"hand": ["9S 9H"]}
    response = client.get("/play/", {"hand": "9s", "table": "", "into": "table", "tap": "8D"})
    assert parse_qs(urlparse(response["Location"]).query) == {
        "hand": ["9S"],
        "table": ["8D"],
        "into": ["table"],
    }


def test_the_first_play_box_is_kept_in_the_address(client):
    response = client.get("/play/", {"hand": "3d", "first": "on", "tap": "4D"})
    assert parse_qs(urlparse(response["Location"]).query) == {"hand": ["3D 4D"], "first": ["1"]}
    assert 'name="first" value="1" id="id_first" checked' in page(client, hand="3d", first="1")


def test_a_card_on_the_table_cannot_be_tapped_into_the_hand(client):
    html = page(client, hand="9s", table="8d", into="hand", tap="8d")
    assert "8♦ is on the table: tap cards into the table to take it off." in html
    html = page(client, hand="9s", table="8d", into="table", tap="9s")
    assert "9♠ is in your hand: tap cards into your hand to take it out." in html


def test_a_fourteenth_card_cannot_be_tapped_in(client, pressed):
    html = page(client, hand=HAND, into="hand", tap="AS")
    assert "You have 14 cards" in html
    # The hand stays as it was: A♠ is not picked, 2♠ still is.
    assert not pressed(html, "AS")
    assert pressed(html, "2S")


def test_picked_cards_are_tagged_with_where_they_are(client):
    html = page(client, hand="9s", table="8d")
    assert ", in your hand" in html and ", on the table" in html
    assert 'class="pick suit-diamonds in-table held-elsewhere"' in html


def test_htmx_typing_swaps_only_the_feedback(client):
    response = client.get(
        "/play/",
        {"hand": "9s 9h", "table": "8d 8s"},
        headers={"HX-Request": "true", "HX-Target": "feedback"},
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="feedback"')
    assert 'name="hand"' not in html
    assert "Pairs (1)" in html
    assert response["HX-Replace-Url"] == "/play/?hand=9S+9H&table=8D+8S"
    assert "HX-Request" in response["Vary"]


def test_htmx_tap_swaps_the_form(client):
    response = client.get(
        "/play/",
        {"hand": "9s", "into": "hand", "tap": "9h"},
        headers={"HX-Request": "true", "HX-Target": "play"},
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<form id="play"')
    assert 'value="9S 9H"' in html
    assert response["HX-Replace-Url"] == "/play/?hand=9S+9H"


def test_a_huge_lead_shows_the_weakest_hundred_of_a_kind(client, headings):
    html = page(client, hand="3h 4h 5h 6h 7h 8h 9h 10h jh qh kh ah 2h")
    assert "Flushes (1277)" in headings(html)
    assert "…and 1177 stronger plays of this kind, not shown." in html


def test_the_page_links_the_other_helpers(client):
    html = page(client)
    assert 'href="/split/"' in html and 'href="/check/"' in html


def test_the_home_page_and_the_checker_lead_to_the_helpers(client):
    for path in ("/", "/check/"):
        html = client.get(path).content.decode()
        assert 'href="/play/"' in html and 'href="/split/"' in html
