"""The owner's "Import scores" page: a file previewed, then imported all at once.

The file is sent once. Read and checked, it waits on disk under the owner and its SHA-256
(`scoring.imports.uploads`) only if its preview found nothing wrong, and "Import" sends only
that digest with the choices: what is saved is the file that was previewed, read and checked
again before the save takes the database (`services.save_import`)."""

from __future__ import annotations

import hashlib
from pathlib import PurePath

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from scoring import selectors, services
from scoring.forms.imports import NEW_SEASON, ImportChoicesForm, ImportForm
from scoring.imports import uploads
from scoring.imports.preview import (
    ImportPreview,
    NewSeason,
    already_imported,
    preview_import,
    read_upload,
    rules_for_file,
)
from scoring.imports.sheet import Holds, ScoreFile
from scoring.models import Club, Season
from scoring.services import ScoringError, permissions
from scoring.services.imports import Imported


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
        return previewed(request, club, form, upload.name or "", upload.read())
    return render(request, "scoring/import_scores.html", {"club": club, "form": form})


def previewed(
    request: HttpRequest, club: Club, form: ImportChoicesForm, name: str, data: bytes
) -> HttpResponse:
    """The file read once and checked: its preview, and the file kept for "Import" if it can
    be imported (or the reason it can't wait)."""
    digest = hashlib.sha256(data).hexdigest()
    target, preview = checked(club, form, name, data)
    refusal = already_imported(club, target, digest)
    if preview.can_import and refusal is None:
        try:
            uploads.keep(
                member_id=request.user.pk, club_id=club.pk, digest=digest, name=name, data=data
            )
        except uploads.UploadsFull as full:
            refusal = full.message
    return preview_page(request, club, form, digest, name, target, preview, refusal)


def import_previewed(request: HttpRequest, club: Club) -> HttpResponse:
    """ "Import": the previewed file saved, or the preview again saying why it wasn't."""
    form = ImportChoicesForm(request.POST, club=club)
    digest = request.POST.get("digest", "")
    waiting = uploads.take(request.user.pk, club.pk, digest) if form.is_valid() else None
    if waiting is None:
        form = ImportForm(club=club)
        expired = _("The preview has expired: choose the file again.")
        context = {"club": club, "form": form, "expired": expired}
        return render(request, "scoring/import_scores.html", context)
    target, preview = checked(club, form, waiting.name, waiting.data)
    try:
        imported = services.save_import(
            club=club,
            target=target,
            preview=preview,
            sha256=hashlib.sha256(waiting.data).hexdigest(),
            by=request.user,
            file_name=waiting.name,
        )
    except ScoringError as error:
        uploads.discard(request.user.pk, club.pk, digest)
        refusal = error.message
        return preview_page(request, club, form, digest, waiting.name, target, preview, refusal)
    uploads.discard(request.user.pk, club.pk, digest)
    messages.success(request, imported_message(imported))
    return redirect("scoring:season", season_id=imported.season.pk)


def imported_message(imported: Imported) -> str:
    said = ngettext(
        "%(count)s game imported into %(season)s.",
        "%(count)s games imported into %(season)s.",
        imported.games,
    ) % {"count": imported.games, "season": imported.season.name}
    if ended := imported.ended_as_they_stood:
        said += " " + ngettext(
            "%(count)s ended as it stood.", "%(count)s ended as they stood.", ended
        ) % {"count": ended}
    return said


def checked(
    club: Club, form: ImportChoicesForm, name: str, data: bytes
) -> tuple[Season | NewSeason, ImportPreview]:
    """The file read once, where it goes, and its preview there."""
    score_file = read_upload(data, Holds(form.cleaned_data["holds"]))
    target = target_of(form, score_file, name)
    ending = form.cleaned_data["end_as_they_stand"]
    return target, preview_import(club, target, score_file, end_as_they_stand=ending)


def preview_page(
    request: HttpRequest,
    club: Club,
    form: ImportChoicesForm,
    digest: str,
    name: str,
    target: Season | NewSeason,
    preview: ImportPreview,
    refusal: str | None,
) -> HttpResponse:
    context = {
        "club": club,
        "preview": preview,
        "digest": digest,
        "file_name": name,
        "choices": form.cleaned_data,
        "season_name": target.name,
        "refusal": refusal,
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
