"""The league table's columns as a page shows them (the table itself: scoring.selectors)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from scoring.selectors import Standing

# Column in the query string → (its heading, whether a higher value is better, which is the
# direction a first tap sorts in).
COLUMNS: dict[str, tuple[Promise, bool]] = {
    "rank": (gettext_lazy("Rank"), False),
    "player": (gettext_lazy("Player"), False),
    "games": (gettext_lazy("Games"), True),
    "wins": (gettext_lazy("Won"), True),
    "win_percent": (gettext_lazy("Win %"), True),
    "deals": (gettext_lazy("Deals"), True),
    "deals_won": (gettext_lazy("Went out"), True),
    "average_penalty": (gettext_lazy("Per deal"), False),
    "penalty": (gettext_lazy("Points"), False),
    "thirteens": (gettext_lazy("Caught with 13"), False),
    "best": (gettext_lazy("Best"), False),
}


def sorted_by(lines: list[Standing], column: str, descending: bool) -> list[Standing]:
    """The table sorted on a column; ties keep the league order."""

    def key(line: Standing) -> object:
        return line.name.casefold() if column == "player" else getattr(line, column)

    return sorted(lines, key=key, reverse=descending)
