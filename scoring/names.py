"""Names people type (players, clubs, seasons): tidied, refused when they hide characters, and
compared by how they look. Pure Python.

A name is kept in Unicode's NFKC form with its spaces collapsed, so "Ａｎｎ" is "Ann". A name
holding a control or format character (a zero-width space, a soft hyphen, a right-to-left
override) is refused: such a name prints like another, or scrambles the text around it.

Names are compared by `name_key`: Unicode's confusable skeleton (UTS #39), blind to case. Two
names with one key are one name, so "Ann", "ANN" and "Аnn" (a Cyrillic А) are one player.

>>> tidy_name("  Ａｎｎ \\t Lee ")
'Ann Lee'
>>> name_key("Ann") == name_key("аnn") == name_key("ANN")
True
>>> name_key("Ann") == name_key("Ben")
False
>>> print(name_problem("Ben\\u200b"))  # doctest: +NORMALIZE_WHITESPACE
A name can’t hold invisible or control characters, and this one holds
U+200B ZERO WIDTH SPACE: type the name again without it.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache

from confusable_homoglyphs.utils import load

from rules.deal_checks import and_list
from rules.i18n import gettext, ngettext

# Characters a name may not hold: control (Cc), format (Cf) and lone surrogates (Cs, which no
# database can store).
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})
# The zero-width joiner is a format character that emoji need ("👩‍💻" is 👩, a joiner, 💻).
ZERO_WIDTH_JOINER = "\u200d"
# The marks the confusables data puts around right-to-left letters so that its comments read
# in order; they are no part of the letters.
_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")
# Rounds of folding before a key is taken as it stands: one or two are all any name needs.
_MOST_ROUNDS = 8


def tidy_name(name: str) -> str:
    """The name as it is kept: NFKC, with each run of spaces one space and none at the ends."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def name_problem(name: str) -> str | None:
    """What is wrong with a tidied name, in words for whoever typed it, or None."""
    hidden = next(hidden_characters(name), None)
    if hidden is not None:
        return hidden_problem(hidden)
    if not name_key(name):
        return gettext("A name needs a letter, a digit or a sign that shows: type one in.")
    return None


def hidden_problem(character: str) -> str:
    """Why a name holding `character` (one of its `hidden_characters`) is refused."""
    return gettext(
        "A name can’t hold invisible or control characters, and this one holds"
        " %(character)s: type the name again without it."
    ) % {"character": character_label(character)}


def hidden_characters(name: str) -> Iterable[str]:
    """The characters of `name` it may not hold, in order: controls and format characters,
    but a zero-width joiner between two symbols (inside an emoji)."""
    for position, character in enumerate(name):
        if unicodedata.category(character) not in REFUSED_CATEGORIES:
            continue
        if character == ZERO_WIDTH_JOINER and _joins_symbols(name, position):
            continue
        yield character


def _joins_symbols(name: str, position: int) -> bool:
    before = name[:position].rstrip("".join(_marks(name[:position])))
    after = name[position + 1 : position + 2]
    return bool(before and after) and all(
        unicodedata.category(character) == "So" for character in (before[-1], after)
    )


def _marks(text: str) -> set[str]:
    # The marks an emoji carries after its symbol (a variation selector, a skin tone).
    return {c for c in text if unicodedata.category(c) in {"Mn", "Me", "Sk"}}


def settled_names(names: Iterable[str], *, max_length: int) -> list[str]:
    """Names kept from before these rules (the roster as it stood, an old backup's), each made
    one they take, in order: hidden characters taken out, a name with nothing left "Player",
    and a name that looks like an earlier one numbered ("Ben (2)"), so that no player is lost
    or merged with another.

    >>> settled_names(["Ben", "Ben\u200b", "\u200b", "BEN"], max_length=40)
    ['Ben', 'Ben (2)', 'Player', 'BEN (3)']
    """
    settled, taken = [], set()
    for name in names:
        hidden = set(hidden_characters(name))
        base = tidy_name("".join(c for c in name if c not in hidden))[:max_length]
        if not name_key(base):
            base = "Player"
        kept, number = base, 1
        while name_key(kept) in taken:
            number += 1
            suffix = f" ({number})"
            kept = base[: max_length - len(suffix)].rstrip() + suffix
        taken.add(name_key(kept))
        settled.append(kept)
    return settled


class SeatingRefused(ValueError):
    """Why names can't take a game's seats, in words for whoever typed them (`message`)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def seat_names_for(seat_names: Sequence[str], *, players: int, max_length: int) -> list[str]:
    """The names as they will be seated (tidied), refused (SeatingRefused) unless there is one
    for each of the `players` seats, none empty, longer than `max_length`, hiding characters,
    or sitting twice: two names that look alike (`name_key`) are one player."""
    names = [tidy_name(name) for name in seat_names]
    if len(names) != players:
        raise SeatingRefused(gettext("A game needs %(count)s players") % {"count": players})
    empty = [
        gettext("Seat %(number)s") % {"number": position}
        for position, name in enumerate(names, start=1)
        if not name
    ]
    if empty:
        raise SeatingRefused(
            ngettext(
                "Every seat needs a player — %(seats)s is empty",
                "Every seat needs a player — %(seats)s are empty",
                len(empty),
            )
            % {"seats": and_list(empty)}
        )
    too_long = [name for name in names if len(name) > max_length]
    if too_long:
        raise SeatingRefused(
            gettext("A player's name can be at most %(count)s characters — %(name)s… is longer")
            % {"count": max_length, "name": too_long[0][:max_length]}
        )
    for position, name in enumerate(names, start=1):
        if (problem := name_problem(name)) is not None:
            raise SeatingRefused(
                gettext("Seat %(number)s: %(problem)s") % {"number": position, "problem": problem}
            )
    seen: dict[str, str] = {}
    for name in names:
        if (earlier := seen.get(name_key(name))) is not None:
            raise SeatingRefused(sits_twice(name, earlier))
        seen[name_key(name)] = name
    return names


def sits_twice(name: str, earlier: str) -> str:
    """Why a name can't take a seat: a name that looks like it (`earlier`) sits already."""
    if name.casefold() == earlier.casefold():
        return gettext("%(name)s can't sit twice — each seat needs a different player") % {
            "name": name
        }
    return gettext(
        "%(name)s looks just like %(earlier)s, so they would be one player sitting twice. If"
        " they are two people, tell the names apart (Ann B.)."
    ) % {"name": name, "earlier": earlier}


def character_label(character: str) -> str:
    """ "U+200B ZERO WIDTH SPACE": a character that doesn't show, named so it can be found."""
    name = unicodedata.name(character, "")
    return f"U+{ord(character):04X} {name}".rstrip()


def name_key(name: str) -> str:
    """What names are compared by: one key for names that look alike, whatever their case.

    The name in NFKC, casefolded and decomposed (NFD), without the characters that never
    show, each character replaced by what it looks like (`_looks_like`); folded again until
    nothing changes, so that the key of a key is itself.
    """
    key = name
    for _ in range(_MOST_ROUNDS):
        folded = _fold(key)
        if folded == key:
            break
        key = folded
    return key


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text).casefold())
    mapped = "".join(_looks_like(c) for c in decomposed if not _never_shows(c))
    return unicodedata.normalize("NFD", mapped).casefold()


@cache
def _looks_like(character: str) -> str:
    """What a small (casefolded) letter is compared as: the prototype Unicode's confusables
    data gives it where that is plain Latin (Cyrillic а as a, Greek ν as v). A letter of
    another script whose capital looks like a Latin letter is compared as that letter
    (Cyrillic в as b, since В looks like B), as names are typed with capitals; Latin letters
    keep their own case, so "Ian" is not "lan"."""
    prototypes = _prototypes()
    own = prototypes.get(character)
    if own is not None and own.isascii():
        return own
    capital = character.upper()
    if not character.isascii() and len(capital) == 1:
        latin = prototypes.get(capital)
        if latin is not None and latin.isascii():
            return latin
    return own or character


@cache
def _never_shows(character: str) -> bool:
    """Unicode's default-ignorable characters as far as a name can hold them: format
    characters, variation selectors, the Hangul fillers and the grapheme joiner."""
    if unicodedata.category(character) == "Cf":
        return True
    label = unicodedata.name(character, "")
    return "VARIATION SELECTOR" in label or label.endswith(("FILLER", "GRAPHEME JOINER"))


# Built once per process, on the first name compared: the data is read and let go, and the
# table kept is small beside it.
@cache
def _prototypes() -> dict[str, str]:
    """Each character of Unicode's confusables data and the prototype it looks like.

    The data (confusable_homoglyphs's copy of confusables.txt) pairs each character with its
    look-alikes in both directions, so its pairs split the characters into classes, and each
    member is given the class's prototype: the sequence they look like if the class has one
    ("rn" for "m"; only a prototype is longer than one character), else its plain Latin
    member, else the member with the most look-alikes (the one the others were paired with).
    """
    parent: dict[str, str] = {}

    def root(node: str) -> str:
        while (up := parent.setdefault(node, node)) != node:
            parent[node] = parent.get(up, up)
            node = up
        return node

    alikes: Counter[str] = Counter()
    for source, pairs in load("confusables.json").items():
        source = source.translate(_DIRECTION_MARKS)
        for pair in pairs:
            parent[root(source)] = root(pair["c"].translate(_DIRECTION_MARKS))
            alikes[source] += 1
    classes: dict[str, list[str]] = {}
    for node in parent:
        classes.setdefault(root(node), []).append(node)
    prototypes = {}
    for members in classes.values():
        chosen = min(members, key=lambda m: (len(m) == 1, not m.isascii(), -alikes[m], m))
        prototypes.update({m: chosen for m in members if len(m) == 1 and m != chosen})
    return prototypes
