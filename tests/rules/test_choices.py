"""A house rule's choices: each a member of a `Choice`, carrying its token, its words for a form
and its line of help, read in the language active when they are read."""

import pytest

from rules import i18n
from rules.choices import Choice
from rules.deal_options import Dragon
from rules.i18n import gettext_noop
from rules.options import SuitOrder
from rules.ruleset import OPTIONS


class Colour(Choice):
    RED = "red-cards", gettext_noop("red"), gettext_noop("Hearts and diamonds.")
    BLACK = "black-cards", gettext_noop("black"), gettext_noop("Clubs and spades.")


def test_a_choice_is_its_token_and_carries_its_words():
    assert Colour("red-cards") is Colour.RED
    assert Colour.RED == "red-cards"
    assert str(Colour.RED) == f"{Colour.RED}" == "red-cards"
    assert [choice.value for choice in Colour] == ["red-cards", "black-cards"]
    assert (Colour.BLACK.label, Colour.BLACK.explained) == ("black", "Clubs and spades.")


def test_a_token_that_is_no_choice_is_refused_by_name():
    with pytest.raises(ValueError, match="'blue-cards' is not a valid Colour"):
        Colour("blue-cards")


def test_every_choice_of_a_house_rule_named_by_a_token_is_a_choice():
    tokens = [choices for choices in OPTIONS.values() if issubclass(choices, str)]
    assert len(tokens) == 11
    assert all(issubclass(choices, Choice) for choices in tokens)


def test_the_words_follow_the_language_active_when_they_are_read():
    """The members are made once, at import, in English; their words are read each time."""
    with i18n.use_language("zh-hant"):
        assert SuitOrder.BRIDGE.label == "橋牌花色（♣ < ♦ < ♥ < ♠）"
        assert Dragon.OFF.label == "沒有一條龍"
        assert Dragon.OFF.explained == "每個點數各一張的手牌，和其他手牌一樣照打。"
    assert SuitOrder.BRIDGE.label == "Bridge suits (♣ < ♦ < ♥ < ♠)"
    assert Dragon.OFF.explained == "A hand of one card of every rank is played like any other."
