"""Translations for the rules engine, with the standard library's gettext and no Django.

The engine reads the same compiled catalog as the rest of the site
(locale/<language>/LC_MESSAGES/django.mo, zh-hans in zh_Hans as Django names it), so
`makemessages` collects its strings with the templates' and one .po file a language holds them
all. The active language is a context variable: the Django side sets it per request
(checker.middleware), anything else can use `use_language`.

>>> with use_language("zh-hant"):
...     gettext("four of a kind")
'四條'
>>> with use_language("zh-hans"):
...     gettext("four of a kind")
'金刚'
>>> gettext("flush")
'flush'
"""

from __future__ import annotations

import gettext as stdlib_gettext
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DEFAULT_LANGUAGE = "en"

_language: ContextVar[str] = ContextVar("rules_language", default=DEFAULT_LANGUAGE)


def to_locale(language: str) -> str:
    """A language code as catalogs are named on disk, the way Django names them.

    >>> to_locale("zh-hans"), to_locale("zh-hant"), to_locale("en"), to_locale("pt-br")
    ('zh_Hans', 'zh_Hant', 'en', 'pt_BR')
    """
    lang, _, country = language.lower().partition("-")
    if not country:
        return lang
    return f"{lang}_{country.title() if len(country) > 2 else country.upper()}"


@cache
def _catalog(language: str) -> stdlib_gettext.NullTranslations:
    # fallback=True: a language without a catalog (English) leaves every message as written.
    return stdlib_gettext.translation(
        "django", localedir=LOCALE_DIR, languages=[to_locale(language)], fallback=True
    )


def get_language() -> str:
    return _language.get()


def set_language(language: str) -> Token[str]:
    """Make `language` active in this context; pass the token to `reset_language` to undo."""
    return _language.set(language)


def reset_language(token: Token[str]) -> None:
    _language.reset(token)


@contextmanager
def use_language(language: str) -> Iterator[None]:
    token = set_language(language)
    try:
        yield
    finally:
        reset_language(token)


def gettext(message: str) -> str:
    """`message` in the active language, or as written when there is no translation."""
    return _catalog(_language.get()).gettext(message)


def pgettext(context: str, message: str) -> str:
    """Like `gettext`, for a message whose translation depends on `context`."""
    return _catalog(_language.get()).pgettext(context, message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """`singular` or `plural` as `count` calls for, in the active language."""
    return _catalog(_language.get()).ngettext(singular, plural, count)


def list_of(items: Iterable[str]) -> str:
    """The items one after another as the active language lists them.

    >>> list_of(["9♠", "9♥"])
    '9♠, 9♥'
    >>> with use_language("zh-hant"):
    ...     list_of(["9♠", "9♥"])
    '9♠、9♥'
    """
    return pgettext("list separator", ", ").join(items)


def gettext_noop(message: str) -> str:
    """Mark a string for `makemessages` without translating it yet (tables built at import)."""
    return message


_ = gettext
