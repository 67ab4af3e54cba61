"""The score files a club's owner has imported: each is taken once into a season."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from scoring.models.clubs import Club, Season


class ImportedFile(models.Model):
    """A score file (by the SHA-256 of its bytes) imported into `season`.

    The database refuses the same file twice into one season, and twice into a new season of
    its own (`made_season`) in one club: whichever of two imports sent at once commits first
    keeps it, and the other is told when it came in (scoring.services.imports.save_import)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="imported_files")
    sha256 = models.CharField(max_length=64)
    name = models.CharField(max_length=200, blank=True, default="")
    imported_at = models.DateTimeField(default=timezone.now)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # The season was made for this file ("A new season for this file").
    made_season = models.BooleanField(default=False)

    class Meta:
        ordering = ["-imported_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "sha256"], name="importedfile_once_per_season"
            ),
            models.UniqueConstraint(
                fields=["club", "sha256"],
                condition=Q(made_season=True),
                name="importedfile_one_new_season_per_file",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.sha256[:12]} into {self.season_id}"
