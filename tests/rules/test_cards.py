"""Cards: Big Two order, how they print, and the forgiving card text."""

import pytest

from rules.cards import DECK, Card, CardParseError, Rank, Suit, format_cards, parse_cards


def parse_error(text: str) -> str:
    with pytest.raises(CardParseError) as error:
        parse_cards(text)
    return str(error.value)


def test_ranks_run_from_three_up_to_ace_then_two():
    assert sorted(Rank) == list(Rank)
    assert [rank.label for rank in Rank] == [
        "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"
    ]  # fmt: skip
    assert Rank.TWO > Rank.ACE > Rank.KING


def test_ranks_have_words_for_screen_readers_and_sentences():
    assert [rank.word for rank in (Rank.THREE, Rank.TEN, Rank.JACK, Rank.ACE, Rank.TWO)] == [
        "three", "ten", "jack", "ace", "two"
    ]  # fmt: skip
    assert Rank.TEN.plural == "10s"
    assert Rank.QUEEN.plural == "queens"


def test_suits_run_diamonds_clubs_hearts_spades():
    assert list(Suit) == [Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES]
    assert [suit.symbol for suit in Suit] == ["♦", "♣", "♥", "♠"]
    assert [suit.letter for suit in Suit] == ["D", "C", "H", "S"]
    assert [suit.word for suit in Suit] == ["diamonds", "clubs", "hearts", "spades"]


def test_diamonds_and_hearts_are_red():
    assert [suit for suit in Suit if suit.is_red] == [Suit.DIAMONDS, Suit.HEARTS]


def test_card_prints_with_symbol_codes_in_ascii_and_reads_as_words():
    card = Card(Rank.TEN, Suit.SPADES)
    assert str(card) == "10♠"
    assert card.code == "10S"
    assert card.name == "10 of spades"
    assert Card(Rank.JACK, Suit.SPADES).name == "jack of spades"
    assert Card(Rank.NINE, Suit.HEARTS).name == "9 of hearts"


def test_cards_sort_by_rank_then_suit():
    assert Card(Rank.NINE, Suit.SPADES) < Card(Rank.TEN, Suit.DIAMONDS)
    assert Card(Rank.NINE, Suit.HEARTS) < Card(Rank.NINE, Suit.SPADES)


def test_deck_holds_52_cards_in_strength_order_from_three_of_diamonds_to_two_of_spades():
    assert len(set(DECK)) == 52
    assert list(DECK) == sorted(DECK)
    assert str(DECK[0]) == "3♦"
    assert str(DECK[-1]) == "2♠"


def test_parse_accepts_any_case_symbols_and_separators():
    expected = parse_cards("9S 9D 10S JS")
    assert parse_cards("9s9d10sjs") == expected
    assert parse_cards("9♠ 9♦, 10♠,J♠") == expected
    assert parse_cards("9♤9♢ T♠ j♤") == expected
    assert parse_cards("9♠\ufe0f 9♦\ufe0f 10♠\ufe0f J♠\ufe0f") == expected


def test_parse_reads_outlined_clubs_and_hearts():
    assert parse_cards("2♧ 2♡") == (Card(Rank.TWO, Suit.CLUBS), Card(Rank.TWO, Suit.HEARTS))


def test_parse_keeps_the_order_typed():
    assert [card.code for card in parse_cards("2s 3d ah")] == ["2S", "3D", "AH"]


def test_blank_text_is_no_cards():
    assert parse_cards("") == ()
    assert parse_cards("  , \n") == ()


def test_rank_one_or_eleven_is_not_a_card():
    assert parse_error("1H") == "'1H' is not a card: ranks are 2–10, J, Q, K, A"
    assert parse_error("9s 11h") == "'11h' is not a card: ranks are 2–10, J, Q, K, A"


def test_unknown_suit_names_the_text_and_the_suits():
    assert parse_error("9X") == "'9X' is not a card: suits are D, C, H, S (or ♦ ♣ ♥ ♠)"


def test_rank_without_a_suit_asks_for_one():
    assert parse_error("9s 9") == (
        "'9' is not a card: it needs a suit; suits are D, C, H, S (or ♦ ♣ ♥ ♠)"
    )


def test_same_card_twice_is_an_error():
    assert parse_error("9s 9S") == "9♠ is there twice: each card can be played only once"


def test_card_parse_reads_exactly_one_card():
    assert Card.parse(" qh ") == Card(Rank.QUEEN, Suit.HEARTS)
    with pytest.raises(CardParseError, match="No card given"):
        Card.parse(" ")
    with pytest.raises(CardParseError, match="'9s 9d' is 2 cards: write just one"):
        Card.parse("9s 9d")


def test_format_cards_prints_in_strength_order_and_parses_back():
    cards = parse_cards("5h 3d 4c")
    assert format_cards(cards) == "3♦ 4♣ 5♥"
    assert set(parse_cards(format_cards(cards))) == set(cards)
