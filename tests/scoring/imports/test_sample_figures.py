"""The two sample files imported through the owner's page give, on each player's page
(`scoring.selectors.player_figures`), the figures their tool and hand working give: deals
played, deals won, penalties, and deals with the fry threshold's number of cards or more."""

from __future__ import annotations

import gzip

import pytest

from scoring.models import Club, DealScore, Game
from scoring.selectors.player_figures import player_figures
from tests.scoring.imports.samples import (
    README_EXAMPLE,
    README_FIGURES,
    README_SHEET,
    import_it,
    keepscore_backup,
    upload,
)

Figures = tuple[int, int, int | None, int]


def imported(client, club: Club, data: bytes, name: str) -> None:
    preview = upload(client, club, data=data, name=name)
    assert preview.context["preview"].can_import, preview.context["preview"].problems
    assert import_it(client, club, preview).status_code == 302


def shown(club: Club) -> dict[str, Figures]:
    """Each player's deals, deals won, deals caught with 10 or more cards and penalties, as
    their page shows them."""
    return {
        player.name: (
            (figures := player_figures(player)).deals,
            figures.deals_won,
            figures.caught_ten,
            figures.penalty,
        )
        for player in club.players.all()
    }


def recorded(club: Club, fried_from: int = 10) -> dict[str, Figures]:
    """Each player's deals, deals won, deals with `fried_from` cards or more and penalties,
    over every imported deal, games in progress too (big-two-scorer counts every line)."""
    figures: dict[str, list[int]] = {}
    for name, cards, penalty in DealScore.objects.filter(deal__game__club=club).values_list(
        "seat__player__name", "cards_left", "penalty"
    ):
        counts = figures.setdefault(name, [0, 0, 0, 0])
        counts[0] += 1
        counts[1] += cards == 0
        counts[2] += cards >= fried_from
        counts[3] += penalty
    return {name: tuple(counts) for name, counts in figures.items()}


def test_the_readmes_example_gives_big_two_scorers_own_figures(owner_client, club):
    """README_FIGURES is the README's output: game_count (a deal, in the site's words),
    win_count, fry_count (10 or more cards: no F= line) and real_losses. Its second game ends
    with b, c and d level on 0 (x took on every loss, the second time for going out without
    saying "last card"): the sheet stops there, so that game comes in ended there with the win
    shared by b, c and d, and the preview says so."""
    preview = upload(owner_client, club, data=README_EXAMPLE, name="simple.txt")
    assert any(
        "are tied for lowest at the end of this game: it comes in ended there, the win shared"
        in warning.message
        for warning in preview.context["preview"].warnings
    )
    imported(owner_client, club, README_EXAMPLE, "simple.txt")
    assert recorded(club) == README_FIGURES
    games = Game.objects.filter(club=club).order_by("pk")
    assert [(game.is_finished, game.win_shared) for game in games] == [
        (True, False),
        (True, True),
    ]
    assert sorted(games[1].seats.filter(won=True).values_list("player__name", flat=True)) == [
        "b",
        "c",
        "d",
    ]


def test_the_issues_score_sheet_gives_the_figures_worked_by_hand(owner_client, club):
    imported(owner_client, club, README_SHEET, "sheet.txt")
    # F=11: a card below 11 costs 1, from 11 to 12 cards 2, and 13 cards 3.
    # Deal 1, `1 1 5 0`: C 1, S 1, H 5, Jj 0, so Jj won.
    # Deal 2, `11 9 9t 0`: C 2 × 11 = 22 (fried: 11 or more), S 9, H 9, Jj won; H takes on
    # all of it, 22 + 9 + 9 = 40, so C and S pay nothing for it.
    # Penalties: C 1 + 0 = 1, S 1 + 0 = 1, H 5 + 40 = 45, Jj 0.
    # Deals with 11 or more cards: C 1 (deal 2). The page counts 10 or more, the same here
    # (no one was left with exactly 10).
    assert shown(club) == {
        "C": (2, 0, 1, 1),
        "S": (2, 0, 0, 1),
        "H": (2, 0, 0, 45),
        "Jj": (2, 2, 0, 0),
    }


# Two games as KeepScore backs them up (GamesBackupSerializer: each PlayerScore's history the
# changes to its score, comma-joined), dated 19 and 20 March 2013.
BACKUP = keepscore_backup(
    ("Friday", {"Ann": "0,5,10", "Ben": "3,0,4", "Cy": "7,2,0", "Dee": "12,1,26"}),
    ("Saturday", {"Ann": "2,0", "Ben": "0,6", "Cy": "8,3", "Eve": "1,9"}),
)


@pytest.mark.parametrize("packed", [False, True], ids=["plain", "gzipped"])
def test_a_keepscore_backup_gives_the_figures_worked_by_hand(owner_client, club, packed):
    imported(owner_client, club, gzip.compress(BACKUP) if packed else BACKUP, "games.xml.gz")
    # Each deal is one delta from each history; the player on 0 went out.
    # Friday:   (0, 3, 7, 12), (5, 0, 2, 1), (10, 4, 0, 26): Ann, Ben, Cy won one each.
    # Saturday: (2, 0, 8, 1), (0, 6, 3, 9): Ben, then Ann won.
    # Ann: 3 + 2 deals, won 2, 0 + 5 + 10 + 2 + 0 = 17.
    # Ben: 3 + 2 deals, won 2, 3 + 0 + 4 + 0 + 6 = 13.
    # Cy: 3 + 2 deals, won 1, 7 + 2 + 0 + 8 + 3 = 20.
    # Dee: 3 deals, won none, 12 + 1 + 26 = 39. Eve: 2 deals, won none, 1 + 9 = 10.
    # Points by hand record no cards left: the page shows a dash (None) for them.
    assert shown(club) == {
        "Ann": (5, 2, None, 17),
        "Ben": (5, 2, None, 13),
        "Cy": (5, 1, None, 20),
        "Dee": (3, 0, None, 39),
        "Eve": (2, 0, None, 10),
    }
