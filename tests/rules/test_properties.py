"""Rules with many cases, checked on many generated cases."""

from hypothesis import given
from hypothesis import strategies as st

from rules.cards import DECK, Card, CardParseError, format_cards, parse_cards
from rules.plays import NotAPlay, Play, classify, compare
from rules.ruleset import DEFAULT_RULES
from tools.bench.hands import legal_hands

# Every legal play, by size: singles and the few pairs and triples directly, and the 19,716
# five-card hands from the bench (which test_bench checks against classify).
PLAYS_BY_SIZE: dict[int, list[tuple[Card, ...]]] = {
    1: [(card,) for card in DECK],
    2: [(a, b) for a in DECK for b in DECK if a < b and a.rank == b.rank],
    3: [
        (a, b, c)
        for a in DECK
        for b in DECK
        for c in DECK
        if a < b < c and a.rank == b.rank == c.rank
    ],
    5: [hand for hand, _, _ in legal_hands()],
}


HANDS_BY_SIZE = {size: st.sampled_from(hands) for size, hands in PLAYS_BY_SIZE.items()}


def disjoint(hands: list[tuple[Card, ...]]) -> bool:
    cards = [card for hand in hands for card in hand]
    return len(set(cards)) == len(cards)


def plays_of_one_size(count: int) -> st.SearchStrategy[list[Play]]:
    """`count` legal plays of one size that share no card, as if from one deck."""
    return (
        st.sampled_from(sorted(HANDS_BY_SIZE))
        .flatmap(lambda size: st.lists(HANDS_BY_SIZE[size], min_size=count, max_size=count))
        .filter(disjoint)
        .map(lambda hands: [classify(hand) for hand in hands])
    )


def test_every_size_has_its_textbook_number_of_plays():
    assert [len(PLAYS_BY_SIZE[size]) for size in (1, 2, 3, 5)] == [52, 78, 52, 19_716]


@given(plays_of_one_size(2))
def test_two_disjoint_plays_of_one_size_are_ordered_one_way_only(plays):
    a, b = plays
    forward, backward = compare(a, b), compare(b, a)
    assert {forward.result, backward.result} == {"a_beats_b", "b_beats_a"}
    assert forward.reason == backward.reason
    assert a.beats(b) != b.beats(a)


@given(plays_of_one_size(3))
def test_the_order_of_plays_is_transitive(plays):
    a, b, c = sorted(plays, key=lambda play: play.key)
    assert b.beats(a)
    assert c.beats(b)
    assert c.beats(a)
    assert compare(c, a).result == "a_beats_b"


@given(st.sets(st.sampled_from(DECK), max_size=13))
def test_format_then_parse_gives_the_same_cards_back(cards):
    assert parse_cards(format_cards(cards)) == tuple(sorted(cards))


@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=13, unique=True))
def test_parse_reads_cards_written_as_codes_in_any_order(cards):
    assert parse_cards(" ".join(card.code for card in cards)) == tuple(cards)
    assert parse_cards("".join(card.code.lower() for card in cards)) == tuple(cards)


CARD_ALPHABET = st.sampled_from(list("0123456789TJQKAtjqkaDCHSdchsXx1 ,\n♦♣♥♠♢♧♡♤\ufe0f\ufe0eıſ٣"))


@given(st.one_of(st.text(), st.text(CARD_ALPHABET)))
def test_parse_cards_raises_nothing_but_card_parse_error(text):
    try:
        cards = parse_cards(text)
    except CardParseError as error:
        assert str(error)
    else:
        assert all(isinstance(card, Card) for card in cards)
        assert len(set(cards)) == len(cards)


@given(st.lists(st.sampled_from(DECK), max_size=7, unique=True))
def test_classify_returns_a_play_of_the_same_cards_or_says_why_not(cards):
    try:
        play = classify(cards, DEFAULT_RULES)
    except NotAPlay as reason:
        assert str(reason)
    else:
        assert sorted(play.cards) == sorted(cards)
        assert play.description
