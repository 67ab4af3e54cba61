"""Split a hand (/split/), without a browser."""

import re
from collections import Counter
from html import unescape
from urllib.parse import parse_qs, urlparse

import pytest

import rules.split
from checker.table_helpers import HandProblem, split_ways
from rules.cards import parse_cards
from rules.ruleset import DEFAULT_RULES

HAND = "3d 4c 5h 6s 7d 7c 9h 9s jd qd kc 2s 2h"
# The dearest hand to split: thirteen cards of one suit hold 1,287 flushes.
ONE_SUIT = "3s 4s 5s 6s 7s 8s 9s 10s js qs ks as 2s"


def page(client, **params) -> str:
    response = client.get("/split/", params)
    assert response.status_code == 200
    return unescape(response.content.decode())


@pytest.fixture
def ways(text_of):
    """Each arrangement's text, in the order shown."""

    def ways(html: str) -> list[str]:
        found = re.findall(r'<li class="arrangement">(.*?)</ol>', html, re.S)
        return [text_of(way) for way in found]

    return ways


def test_the_empty_page_asks_for_thirteen_cards(client, ways):
    html = page(client)
    assert html.count('name="tap"') == 52
    assert "Tap your cards" in html
    assert "No cards yet" in html
    assert not ways(html)


def test_each_way_is_the_best_for_something_a_player_wants_and_says_what(client, ways):
    """The hand's two splits worth weighing: the pair of 2s kept, with a 7 left alone; or a 2 in
    the straight, with no low card left. No third way that only splits the 2s apart."""
    found = ways(page(client, hand=HAND))
    assert len(found) == 2
    assert found[0].strip().startswith("Way 1: Fewest plays · Keep your 2s and aces")
    assert "7 plays · 4 singles: 1 low (7♣), 3 high · Kept for control: 2♥ 2♠" in found[0]
    assert found[1].strip().startswith("Way 2: Fewest low singles")
    assert "7 plays · 4 singles, all high · Kept for control: 2♠" in found[1]
    assert "5 cards in five-card hands: straight" in found[1]


def test_a_way_shows_no_points_only_facts(client, ways):
    for way in ways(page(client, hand=HAND)):
        assert "score" not in way and "−" not in way


def test_one_split_best_at_everything_is_shown_once_and_says_so(client, ways):
    hand = "4c 4d 4h 6s 7d 8c 9h ts tc qd kc ks 2d"
    (only,) = ways(page(client, hand=hand))
    assert only.strip().startswith(
        "Way 1: Fewest plays · Keep your 2s and aces · Fewest low singles"
    )
    assert "5 plays · 3 singles, all high · Kept for control: 2♦" in only
    assert "10 cards in five-card hands: straight, full house" in only
    assert "This split is the best at everything below" in page(client, hand=hand)


def test_each_way_shows_its_plays_from_the_lowest_up(client, ways):
    best = ways(page(client, hand=HAND))[0]
    order = [
        "Single 7♣",
        "Single J♦",
        "Single K♣",
        "Pair of 9s",
        "Pair of 2s",
        "Straight 3-4-5-6-7",
    ]
    places = [best.index(name) for name in order]
    assert places == sorted(places)


def test_the_page_says_what_each_goal_is_for(client, text_of):
    text = text_of(page(client, hand=HAND))
    assert "What each way is after" in text
    assert "Fewest plays: Each play is a turn you must get cards down in" in text
    assert "Keep your 2s and aces: 2s and aces alone or in pairs win tricks late" in text
    assert "Fewest low singles: A low card alone is the one still in your hand" in text


def test_fewer_than_thirteen_cards_says_how_many_to_add(client, ways):
    html = page(client, hand="3d 4c 5h 6s 7d 7c 9h 9s jd qd kc 2s")
    assert "You have 12 cards: a hand is 13 — add 1" in html
    assert "You have 1 card: a hand is 13 — add 12" in page(client, hand="3d")
    assert not ways(html)


def test_more_than_thirteen_cards_says_how_many_to_take_out(client, ways):
    html = page(client, hand=HAND + " ah as")
    assert "You have 15 cards: a hand is 13 — take out 2" in html
    assert not ways(html)


def test_a_card_twice_is_refused(client):
    html = page(client, hand="9s 9s")
    assert "9♠ is there twice" in html
    assert 'value="9s 9s"' in html


def test_text_that_is_not_cards_is_explained_and_kept(client):
    html = page(client, hand="3d zz")
    assert "'z' is not a card" in html or "'zz' is not a card" in html
    assert 'value="3d zz"' in html


def test_the_rules_change_the_ways(client, ways):
    # Under twos-high straights J-Q-K-A-2 is a straight: the best way plays it.
    hand = "JS QH KD AC 2D 3c 3d 5h 5s 7c 7d 9h 9s"
    standard = ways(page(client, hand=hand))[0]
    assert "Straight J-Q-K-A-2" not in standard
    twos_high = page(client, hand=hand, rules="two-high-straights")
    assert "Straight J-Q-K-A-2" in ways(twos_high)[0]
    assert "House rules: Twos high in straights" in twos_high


def test_unknown_rules_are_named_and_the_hand_kept(client):
    html = page(client, hand="9s", rules="no-such-rule")
    assert "'no-such-rule' is not a house rule" in html
    assert 'value="9s"' in html


def test_tapping_adds_a_card_up_to_thirteen(client, pressed):
    response = client.get("/split/", {"hand": "9s", "tap": "9h"})
    assert parse_qs(urlparse(response["Location"]).query) == {"hand": ["9S 9H"]}
    html = page(client, hand=HAND, tap="AS")
    assert "You have 14 cards: a hand is 13 — take out 1" in html
    assert not pressed(html, "AS")
    assert pressed(html, "3D")


def test_tapping_a_picked_card_takes_it_out(client):
    response = client.get("/split/", {"hand": "9s 9h", "tap": "9S"})
    assert parse_qs(urlparse(response["Location"]).query) == {"hand": ["9H"]}


def test_htmx_typing_swaps_only_the_feedback(client, ways):
    response = client.get(
        "/split/", {"hand": HAND}, headers={"HX-Request": "true", "HX-Target": "feedback"}
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="feedback"')
    assert len(ways(unescape(html))) == 2


def test_the_page_links_the_other_helpers(client):
    html = page(client)
    assert 'href="/play/"' in html and 'href="/check/"' in html


def test_the_ways_are_only_for_a_whole_hand():
    with pytest.raises(HandProblem, match="You have 1 card: a hand is 13 — add 12"):
        split_ways(parse_cards("3d"), DEFAULT_RULES)


@pytest.fixture
def engine_work(monkeypatch) -> Counter:
    """How often the split engine finds a hand's five-card plays, and how many choices of them
    it weighs, counted as the pages and the API ask."""
    work: Counter = Counter()
    find, weigh = rules.split.five_card_plays, rules.split._Search._expand

    def counted_find(*args, **kwargs):
        work["five-card plays found"] += 1
        return find(*args, **kwargs)

    def counted_weigh(*args, **kwargs):
        work["choices weighed"] += 1
        return weigh(*args, **kwargs)

    monkeypatch.setattr(rules.split, "five_card_plays", counted_find)
    monkeypatch.setattr(rules.split._Search, "_expand", counted_weigh)
    return work


@pytest.mark.parametrize("rules_name", ["", "two-high-straights"])
def test_the_page_splits_a_hand_with_no_more_work_than_the_api(client, engine_work, rules_name):
    """Anyone can ask for /split/ as often as they like: a hand costs it the API's answer and the
    rendering, not ten times the search (it found the flushes four times and weighed 819 choices
    of them, against the API's once and 20)."""
    query = {"hand": ONE_SUIT, "rules": rules_name}
    assert client.get("/api/hands/split", query).status_code == 200
    api = Counter(engine_work)
    engine_work.clear()
    assert client.get("/split/", query).status_code == 200
    assert engine_work["five-card plays found"] == api["five-card plays found"] == 1
    assert engine_work["choices weighed"] <= api["choices weighed"]
