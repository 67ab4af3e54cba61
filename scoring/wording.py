"""Words the app puts together in more than one place."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _


def names_and(items: Sequence[str]) -> str:
    """ "Ann", "Ann and Ben", "Ann, Ben and Cy"."""
    if len(items) == 1:
        return items[0]
    return _("%(items)s and %(last)s") % {"items": ", ".join(items[:-1]), "last": items[-1]}
