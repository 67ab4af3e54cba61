"""The one base of the house rules' choices named by a token, as Django's TextChoices without
Django: each member is written with its token, its words for a form and a line of help,

    ON = "dragon", gettext_noop("the dragon"), gettext_noop("A player dealt one card …")

>>> from rules.deal_options import Dragon
>>> Dragon("dragon") is Dragon.ON, Dragon.ON.label
(True, 'the dragon')
"""

from __future__ import annotations

from enum import StrEnum
from typing import Self

from rules.i18n import gettext


class Choice(StrEnum):
    """A choice whose value is its token. The words are marked with `gettext_noop`, so that
    `makemessages` collects them, and kept as written: `label` and `explained` translate them
    when they are read, into the language active then, for the members are made at import."""

    _label: str
    _explained: str

    def __new__(cls, token: str, label: str, explained: str) -> Self:
        choice = str.__new__(cls, token)
        choice._value_ = token
        choice._label = label
        choice._explained = explained
        return choice

    @property
    def label(self) -> str:
        """Words for a form, lower case first to sit inside a sentence."""
        return gettext(self._label)

    @property
    def explained(self) -> str:
        """A sentence of help on what the choice means at the table."""
        return gettext(self._explained)
