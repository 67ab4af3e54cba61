"""Words the app puts together in more than one place."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def list_of(items: Iterable[str]) -> str:
    """The items one after another as the page's language lists them: "Ann, Ben" ("Ann、Ben"
    in Chinese). The same message as the rules engine's (rules/i18n.py)."""
    return pgettext("list separator", ", ").join(items)


def names_and(items: Sequence[str]) -> str:
    """ "Ann", "Ann and Ben", "Ann, Ben and Cy"."""
    if len(items) == 1:
        return items[0]
    return _("%(items)s and %(last)s") % {"items": list_of(items[:-1]), "last": items[-1]}
