"""Names as the site keeps and compares them: NFKC with tidy spaces, no hidden characters, and
one key for names that look alike whatever their case (scoring.names)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from scoring.names import name_key, name_problem, settled_names, tidy_name

# Characters that never show, each able to make one name print like another.
HIDDEN = {
    "\u200b": "U+200B ZERO WIDTH SPACE",
    "\u00ad": "U+00AD SOFT HYPHEN",
    "\u202e": "U+202E RIGHT-TO-LEFT OVERRIDE",
    "\u2060": "U+2060 WORD JOINER",
    "\ufeff": "U+FEFF ZERO WIDTH NO-BREAK SPACE",
    "\x07": "U+0007",
    "\x1b": "U+001B",
}

names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
format_characters = st.characters(categories=("Cf",))


def test_a_name_is_kept_in_nfkc_with_its_spaces_collapsed():
    assert tidy_name("  Ａｎｎ\u3000\t Lee ") == "Ann Lee"
    assert tidy_name("ﬁona") == "fiona"


@pytest.mark.parametrize(("character", "label"), HIDDEN.items())
def test_a_name_holding_a_hidden_character_is_refused_naming_it(character, label):
    problem = name_problem(tidy_name(f"Ben{character}"))
    assert problem is not None
    assert label in problem and "type the name again without it" in problem


def test_a_name_of_nothing_but_a_hidden_character_is_refused():
    assert "U+200B ZERO WIDTH SPACE" in name_problem("\u200b")
    # A Hangul filler is a letter that prints as nothing: no name is made of it alone.
    assert "a sign that shows" in name_problem(tidy_name("\u3164"))


@pytest.mark.parametrize(
    "name", ["Ann", "李小龍", "Zoë", "O'Neill", "Ann 👩\u200d💻", "🏳️\u200d🌈", "Ann ❤️"]
)
def test_names_people_have_are_taken(name):
    assert name_problem(tidy_name(name)) is None


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ben", "Ben\u200b"),  # a zero-width space
        ("Ben", "Be\u00adn"),  # a soft hyphen
        ("Ann", "\u0410nn"),  # a Cyrillic А
        ("Ann", "ANN"),
        ("Ben", "\u0412en"),  # a Cyrillic В
        ("Ben", "\u0392en"),  # a Greek Β
        ("Hal", "\u041dal"),  # a Cyrillic Н
        ("paypal", "\u0440\u0430ypal"),
        ("Bob", "B0b"),
        ("Ivy", "I\u03bdy"),  # a Greek ν
        ("Ann", "Ａｎｎ"),
    ],
)
def test_names_that_look_alike_have_one_key(one, other):
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [("Ann", "Anne"), ("Ian", "Lan"), ("Zi", "Yi"), ("Dan", "Dav"), ("李", "季"), ("Zoë", "Zoe")],
)
def test_names_that_look_different_have_different_keys(one, other):
    assert name_key(one) != name_key(other)


@given(names)
@example("Ian")
@example("ß")
@example("Βen")
def test_the_key_of_a_key_is_itself(name):
    assert name_key(name_key(name)) == name_key(name)


@given(names)
@example("①")
@example("ﬁ")
def test_the_key_is_the_same_for_a_name_and_its_nfkc(name):
    assert name_key(unicodedata.normalize("NFKC", name)) == name_key(name)


@given(names)
@example("Ian")
@example("Вen")
@example("ß")
def test_the_key_ignores_case(name):
    assert name_key(name.upper()) == name_key(name.casefold()) == name_key(name)


@given(names, format_characters, st.integers(min_value=0))
def test_the_key_ignores_format_characters(name, hidden, at):
    at %= len(name) + 1
    assert name_key(name[:at] + hidden + name[at:]) == name_key(name)


def test_names_kept_from_before_are_settled_without_losing_or_merging_anyone():
    settled = settled_names(
        ["Ben", "Ben\u200b", "\u200b", "\u0410nn", "Ann", "x" * 40, "X" * 40], max_length=40
    )
    assert settled == ["Ben", "Ben (2)", "Player", "Аnn", "Ann (2)", "x" * 40, "X" * 36 + " (2)"]
    assert len({name_key(name) for name in settled}) == len(settled)
    assert all(name_problem(name) is None for name in settled)
