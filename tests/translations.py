"""Reading the site's catalogs and what a page shows a reader, to check a page's language.

A helper module (neither a test file nor a conftest): tests/test_i18n.py checks the catalogs,
tests/test_access_matrix.py every page in Simplified Chinese.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale"
# Every language the site translates into, by its code, with its catalog.
CATALOGS = {
    "zh-hans": LOCALE / "zh_Hans" / "LC_MESSAGES" / "django.po",
    "zh-hant": LOCALE / "zh_Hant" / "LC_MESSAGES" / "django.po",
}
# The characters OpenCC turns into others in Simplified Chinese, written by
# tools/traditional_only.py; and the corner quotes Taiwan and Hong Kong write, where the
# mainland writes “” and ‘’.
TRADITIONAL_ONLY = frozenset(
    (Path(__file__).parent / "data" / "traditional_only.txt").read_text("utf-8").replace("\n", "")
) | frozenset("「」『』")


def po_entries(path: Path) -> list[dict]:
    """Every entry of a .po file but the header and the obsolete ones: msgctxt, msgid,
    msgid_plural, msgstr (its forms joined), fuzzy."""
    entries, entry, field = [], {}, ""
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if entry.get("msgid"):
                entries.append(entry)
            entry, field = {}, ""
        elif line.startswith("#,"):
            entry["fuzzy"] = "fuzzy" in line
        elif line.startswith(("msgctxt ", "msgid ", "msgid_plural ", "msgstr")):
            keyword, text = line.split(" ", 1)
            field = "msgstr" if keyword.startswith("msgstr") else keyword
            entry[field] = entry.get(field, "") + ast.literal_eval(text)
        elif line.startswith('"'):
            entry[field] += ast.literal_eval(line)
    return entries


# What a message fills in or marks up, which a page shows in place of the message's own words.
FILLED_IN = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[a-z]|%[sd%]|\{\w*\}|<[^>]*>|\n")
WORD = re.compile(r"[A-Za-z]{3,}")


@cache
def english_pieces(path: Path) -> frozenset[str]:
    """The English words of every message the catalog translates, cut where the message fills
    something in: on a page in that language, any of them showing is a message untranslated.
    Words the translation keeps (KeepScore, Pusoy Dos, CSV) are left out."""
    pieces = set()
    for entry in po_entries(path):
        for message in (entry["msgid"], entry.get("msgid_plural", "")):
            for piece in FILLED_IN.split(message):
                piece = piece.strip(" \t,.:;!?—–-()…'\"“”")
                if WORD.search(piece) and piece not in entry["msgstr"]:
                    pieces.add(piece)
    return frozenset(pieces)


# Attributes a reader sees or hears (a screen reader reads the labels), and what the scripts
# write on the page (the offline notices and the round clock take their words from data-say-*).
READ_ATTRIBUTES = {"alt", "title", "placeholder", "aria-label", "aria-description"}


class ShownText(HTMLParser):
    """A page's text as a reader meets it: no scripts or styles, nothing marked as written in
    another language (the language picker's "English"), with the attributes read out."""

    def __init__(self, language: str) -> None:
        super().__init__(convert_charrefs=True)
        self.language = language
        self.parts: list[str] = []
        self.open: list[tuple[str, bool]] = []  # each open element: its tag, whether it is shown

    def shown(self) -> bool:
        return all(shown for _, shown in self.open)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        other_language = values.get("lang") not in (None, self.language)
        if tag not in {"br", "hr", "img", "input", "link", "meta", "source", "wbr"}:
            self.open.append((tag, tag not in {"script", "style"} and not other_language))
        if self.shown() and not other_language:
            self.parts += [
                value or ""
                for name, value in attrs
                if name in READ_ATTRIBUTES
                or name.startswith("data-say")
                or (name == "value" and values.get("type") in {"submit", "button"})
            ]

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.shown():
            self.parts.append(data)


def shown_text(html: str, language: str) -> str:
    reader = ShownText(language)
    reader.feed(html)
    reader.close()
    return "\n".join(part.strip() for part in reader.parts if part.strip())


ENGLISH_WORDS = re.compile(r"\b[A-Za-z]{3,}\b")
ENGLISH_SENTENCE = re.compile(r"\b[A-Za-z]{2,}(?: [A-Za-z]{2,}){2,}\b")


class UntranslatedFinder:
    """What of a page's text is not in `language`: the catalog's English messages, any three
    English words in a row (what a message of Django's or a template's own would show), and
    Traditional-only characters on a Simplified page. Users' names are left out first."""

    def __init__(self, language: str, names: set[str]) -> None:
        self.language = language
        self.names = re.compile(
            r"\b(?:"
            + "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
            + r")\b"
        )
        # Each piece under its first English word: a page is looked at only for the pieces
        # whose first word it shows at all.
        self.pieces: dict[str, list[str]] = {}
        for piece in english_pieces(CATALOGS[language]):
            self.pieces.setdefault(ENGLISH_WORDS.search(piece).group(), []).append(piece)

    def found(self, html: str) -> list[str]:
        # The scripts' words keep their {placeholders} until a script fills them in.
        text = re.sub(r"\{\w*\}", "", self.names.sub("", shown_text(html, self.language)))
        words = set(ENGLISH_WORDS.findall(text))
        found = [piece for word in words for piece in self.pieces.get(word, ()) if piece in text]
        found += ENGLISH_SENTENCE.findall(text)
        if self.language == "zh-hans":
            found += sorted({character for character in text if character in TRADITIONAL_ONLY})
        return found
