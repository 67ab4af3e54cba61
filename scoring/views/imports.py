"""The owner's "Import scores" page: a file previewed, then imported all at once.

The file is sent once. Its bytes wait in the cache under the owner and their SHA-256 while the
preview is read, and "Import" sends only that digest with the choices: what is saved is the
file that was previewed, read and checked again under the club's lock."""

from __future__ import annotations

import hashlib
import re
from pathlib import PurePath

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from scoring import selectors
from scoring.forms.imports import NEW_SEASON, ImportChoicesForm, ImportForm
from scoring.imports.service import (
    NewSeason,
    already_imported,
    preview_import,
    read_upload,
    rules_for_file,
    save_import,
)
from scoring.imports.sheet import Holds, ScoreFile
from scoring.models import Club, Season
from scoring.services import ScoringError, permissions

# Long enough to read a preview of a season's games, short enough not to keep files about.
PREVIEW_SECONDS = 60 * 60
DIGEST = re.compile(r"[0-9a-f]{64}")


@login_required
@require_http_methods(["GET", "POST"])
def import_scores(request: HttpRequest, club_id: int) -> HttpResponse:
    club = selectors.member_club(request.user, club_id)
    permissions.check_may_import(club=club, by=request.user)
    if request.method == "POST" and "digest" in request.POST:
        return import_previewed(request, club)
    form = ImportForm(
        request.POST if request.method == "POST" else None,
        request.FILES if request.method == "POST" else None,
        club=club,
    )
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["score_file"]
        data = upload.read()
        digest = hashlib.sha256(data).hexdigest()
        cache.set(upload_key(request, digest), (upload.name or "", data), PREVIEW_SECONDS)
        return preview_page(request, club, form, digest, upload.name or "", data)
    return render(request, "scoring/import_scores.html", {"club": club, "form": form})


def import_previewed(request: HttpRequest, club: Club) -> HttpResponse:
    """ "Import": the previewed file saved, or the preview again saying why it wasn't."""
    form = ImportChoicesForm(request.POST, club=club)
    digest = request.POST.get("digest", "")
    stored = cache.get(upload_key(request, digest)) if DIGEST.fullmatch(digest) else None
    if stored is None or not form.is_valid():
        form = ImportForm(club=club)
        expired = _("The preview has expired: choose the file again.")
        context = {"club": club, "form": form, "expired": expired}
        return render(request, "scoring/import_scores.html", context)
    name, data = stored
    score_file = read_upload(data, Holds(form.cleaned_data["holds"]))
    target = target_of(form, score_file, name)
    try:
        imported = save_import(
            club=club,
            target=target,
            score_file=score_file,
            sha256=digest,
            by=request.user,
            file_name=name,
        )
    except ScoringError as error:
        return preview_page(request, club, form, digest, name, data, refusal=error.message)
    cache.delete(upload_key(request, digest))
    messages.success(
        request,
        ngettext(
            "%(count)s game imported into %(season)s.",
            "%(count)s games imported into %(season)s.",
            imported.games,
        )
        % {"count": imported.games, "season": imported.season.name},
    )
    return redirect("scoring:season", season_id=imported.season.pk)


def preview_page(
    request: HttpRequest,
    club: Club,
    form: ImportChoicesForm,
    digest: str,
    name: str,
    data: bytes,
    refusal: str | None = None,
) -> HttpResponse:
    score_file = read_upload(data, Holds(form.cleaned_data["holds"]))
    target = target_of(form, score_file, name)
    preview = preview_import(club, target, score_file)
    context = {
        "club": club,
        "preview": preview,
        "digest": digest,
        "file_name": name,
        "choices": form.cleaned_data,
        "season_name": target.name,
        "refusal": refusal or already_imported(club, target, digest),
    }
    return render(request, "scoring/import_preview.html", context)


def target_of(form: ImportChoicesForm, score_file: ScoreFile, name: str) -> Season | NewSeason:
    """The season chosen, or the new one the file's rules make."""
    chosen = form.cleaned_data["season"]
    if chosen != NEW_SEASON:
        return form.seasons[chosen]
    default = _("From %(file)s") % {"file": PurePath(name).stem or _("a score file")}
    return NewSeason(
        form.cleaned_data["season_name"] or default,
        rules_for_file(score_file.rules, score_file.holds),
    )


def upload_key(request: HttpRequest, digest: str) -> str:
    return f"score-import:{request.user.pk}:{digest}"
