"""Score files and uploads shared by the import tests: the samples as their tools write
them, and the owner's page driven by the test client."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

# big-two-scorer's README, "Simple example" (examples/simple.txt), as the tool's author wrote it.
README_EXAMPLE = b"""a b c d
0 11 12 13
1 1 1 0

x b c d
3t 0 1 2  # x takes on all losses for not playing high enough
0t 1 1 1  # x takes on all losses for failing to announce 'last card'
"""
# The README's output for it: game_count, win_count, fry_count, real_losses per player.
README_FIGURES = {
    "a": (2, 1, 0, 1),
    "x": (2, 1, 0, 9),
    "b": (4, 1, 1, 23),
    "c": (4, 0, 1, 25),
    "d": (4, 1, 1, 39),
}
README_SHEET = b"""F=11
2013-03-19
C S H Jj
1 1 5 0
11 9 9t 0   # S takes on all losses
"""

SHEET = b"2013-03-19\nAnn Ben Cy Dee\n0 4 10 13\n8 0 12 13\n"


# KeepScore's backup as GamesBackupSerializer writes it (nolanlawson/KeepScore).
def keepscore_backup(
    *games: tuple[str | None, dict[str, str]], started: int = 1363651200000
) -> bytes:
    parts = []
    for name, histories in games:
        players = "".join(
            f"<PlayerScore>{element('playerName', player)}<score>0</score>"
            f"<playerNumber>{number}</playerNumber>\n{element('history', history)}"
            f"<lastUpdate>0</lastUpdate></PlayerScore>\n"
            for number, (player, history) in enumerate(histories.items())
        )
        parts.append(
            f"<Game><dateGameSaved>{started}</dateGameSaved>"
            f"<dateGameStarted>{started}</dateGameStarted>{element('gameName', name)}\n"
            f"<PlayerScores>\n{players}</PlayerScores></Game>\n"
        )
    return (
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<GamesBackup>"
        f"<gameCount>{len(games)}</gameCount><version>4</version><automatic>false</automatic>"
        "<backupFilename>games.xml.gz</backupFilename><dateBackupSaved>0</dateBackupSaved>\n"
        f"<Games>\n{''.join(parts)}</Games></GamesBackup>\n"
    ).encode()


def element(name: str, text: str | None) -> str:
    """As KeepScore's addTag writes a value: "null" for null and for an empty string, marked."""
    if text is None:
        return f'<{name} isNull="true">null</{name}>'
    if text == "":
        return f'<{name} isEmpty="true">null</{name}>'
    return f"<{name}>{text}</{name}>"


def url(club):
    return f"/clubs/{club.pk}/import/"


def upload(client, club, data=SHEET, season="new", name="sheet.txt", **extra):
    fields = {"season": season, "holds": "cards", "season_name": "", **extra}
    fields["score_file"] = SimpleUploadedFile(name, data, content_type="text/plain")
    return client.post(url(club), fields)


def import_it(client, club, preview, **extra):
    """ "Import" on the preview page; `extra` as the button tapped sends it."""
    form = {name: preview.context[key] for name, key in (("digest", "digest"),)} | {
        key: preview.context["choices"][key] for key in ("season", "season_name", "holds")
    }
    return client.post(url(club), form | extra)
