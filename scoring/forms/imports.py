"""The owner's "Import scores" form: the file, the season it goes into, and what a
spreadsheet's numbers are."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.imports.sheet import Holds
from scoring.models import SEASON_NAME_MAX_LENGTH, Club
from scoring.names import hidden_characters, hidden_problem, tidy_name

NEW_SEASON = "new"


class ImportChoicesForm(forms.Form):
    """Where the file goes and how to read it: sent with the file to preview it, and again
    (without it) to import what was previewed."""

    season = forms.ChoiceField(label=gettext_lazy("Import into"))
    season_name = forms.CharField(
        label=gettext_lazy("Name of the new season"),
        max_length=SEASON_NAME_MAX_LENGTH,
        required=False,
        help_text=gettext_lazy("Only for “A new season for this file”."),
    )
    holds = forms.ChoiceField(
        label=gettext_lazy("For a spreadsheet: the numbers are"),
        choices=[
            (Holds.CARDS_LEFT.value, gettext_lazy("cards left")),
            (Holds.POINTS.value, gettext_lazy("points")),
        ],
        initial=Holds.CARDS_LEFT.value,
        widget=forms.RadioSelect,
    )
    # Sent by the preview's "Import and end them as they stand": each game the season's rules
    # haven't ended ends at its last deal, the lowest total winning.
    end_as_they_stand = forms.BooleanField(required=False)

    def __init__(self, *args: object, club: Club, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.seasons = {str(season.pk): season for season in club.seasons.all()}
        self.fields["season"].choices = [
            (NEW_SEASON, _("A new season for this file")),
            *((pk, season.name) for pk, season in self.seasons.items()),
        ]

    def clean_season_name(self) -> str:
        name = tidy_name(self.cleaned_data["season_name"])
        if (hidden := next(hidden_characters(name), None)) is not None:
            raise forms.ValidationError(hidden_problem(hidden))
        return name


class ImportForm(ImportChoicesForm):
    score_file = forms.FileField(
        label=gettext_lazy("Score file"),
        help_text=gettext_lazy(
            "This site's season CSV, a big-two-scorer text file, a KeepScore backup, or a"
            " spreadsheet saved as CSV with a column per player and a row per deal."
        ),
        error_messages={
            "required": gettext_lazy("Choose the score file to import"),
            "empty": gettext_lazy("That file is empty: choose the score file"),
        },
    )
    field_order = ["score_file", "season", "season_name", "holds"]

    def __init__(self, *args: object, club: Club, **kwargs: object) -> None:
        super().__init__(*args, club=club, **kwargs)
        field = self.fields["score_file"]
        field.help_text = _("%(formats)s At most %(most)s MB.") % {
            "formats": field.help_text,
            "most": megabytes(settings.IMPORT_MAX_BYTES),
        }

    def clean_score_file(self) -> UploadedFile:
        """Refused by its size, before a byte of it is read."""
        upload = self.cleaned_data["score_file"]
        if upload.size > settings.IMPORT_MAX_BYTES:
            raise forms.ValidationError(
                _(
                    "That file is %(size)s MB: a score file can be at most %(most)s MB. Split"
                    " it into smaller files, and import each."
                )
                % {
                    "size": f"{upload.size / 1_000_000:.1f}",
                    "most": megabytes(settings.IMPORT_MAX_BYTES),
                }
            )
        return upload


def megabytes(size: int) -> str:
    """A size in MB (of a million bytes, as the settings count them), as few digits as say it."""
    return f"{size / 1_000_000:g}"
