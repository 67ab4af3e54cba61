"""The import service: a file's games previewed under a season's rules, checked deal by deal as
the deal form checks a deal, and saved all together or not at all."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from rules.options import Finish
from rules.ruleset import RuleSet, parse_rules
from scoring import services
from scoring.imports.preview import NewSeason, preview_import, rules_for_file
from scoring.imports.sheet import FileRules, Holds
from scoring.models import Deal, DealScore, Game, GameChange, ImportedFile, Player, Season
from scoring.models.ratings import RatingsMark
from scoring.services.imports import AlreadyImported, ImportRefused
from tests.factories import make_member
from tests.scoring.imports.sheets import DAY, saved, scorer_file

DIGEST = "a" * 64


@pytest.fixture
def open_season(club, owner):
    """The club's current season, played until the table stops."""
    season = club.seasons.get(is_current=True)
    services.set_season_rules(season=season, rules=parse_rules("open-ended"), stake=None, by=owner)
    season.refresh_from_db()
    return season


def test_players_are_matched_to_the_roster_ignoring_case_and_spaces(club, open_season):
    ann = Player.named("Ann", club=club)
    ann.save()
    preview = preview_import(
        club, open_season, scorer_file([0, 4, 10, 13], players=(" ann ", "Ben", "Cy", "Dee"))
    )
    seats = preview.games[0].seats
    assert [(seat.name, seat.player_id) for seat in seats[:2]] == [("ann", ann.pk), ("Ben", None)]
    assert not seats[0].is_new and seats[1].is_new


def test_totals_are_the_seasons_and_the_lowest_wins_at_the_last_deal(club, open_season):
    preview = preview_import(club, open_season, scorer_file([0, 4, 10, 13], [8, 0, 12, 13]))
    game = preview.games[0]
    assert game.totals == (8, 4, 44, 78)
    assert game.winner == "Ben"
    assert preview.can_import and not preview.problems


@pytest.mark.parametrize(
    ("deals", "line", "words"),
    [
        (([0, 4, 10],), 3, "3 numbers for 4 players"),
        (([1, 4, 10, 13],), 3, "went out"),
        (([0, 4, 10, 14],), 3, "between 0 and 13"),
        (([0, 4, 10, 13], [0, 0, 3, 4]), 4, "Only one player can go out"),
    ],
)
def test_each_deal_is_checked_as_the_deal_form_checks_it(club, open_season, deals, line, words):
    preview = preview_import(club, open_season, scorer_file(*deals))
    assert not preview.can_import
    assert any(problem.line == line and words in problem.message for problem in preview.problems)


def test_a_game_needs_the_seasons_number_of_players(club, open_season):
    preview = preview_import(club, open_season, scorer_file([0, 4, 10], players=("A", "B", "C")))
    assert [problem.line for problem in preview.problems] == [2]
    assert "needs 4 players" in preview.problems[0].message


def test_a_game_the_seasons_rules_end_earlier_is_refused_at_the_deal_after(club):
    season = club.seasons.get(is_current=True)  # to 100 points
    full = [0, 13, 13, 13]  # 39 each: 117 after three deals
    sheet = scorer_file(full, full, full, [0, 1, 1, 1])
    preview = preview_import(club, season, sheet)
    assert not preview.can_import
    (problem,) = preview.problems
    assert problem.line == 6 and "over after deal 3" in problem.message


def test_paying_for_the_table_needs_a_season_that_plays_it(club, open_season):
    sheet = scorer_file([0, 1, 9, 0 + 13], payers={0: 2})
    problems = preview_import(club, open_season, sheet).problems
    assert "paid for the table" in problems[0].message
    new = NewSeason("From the sheet", rules_for_file(sheet.rules))
    preview = preview_import(club, new, sheet)
    assert preview.games[0].totals == (0, 0, 1 + 9 + 39, 0)


def test_a_new_season_takes_the_files_rules():
    rules = rules_for_file(FileRules(doubled_from=14, pays_for_table=True))
    assert rules.finish is Finish.OPEN
    assert rules.pays_for_table.value == "pays-for-table"
    assert rules.penalties.value == "flat-penalties"
    assert rules_for_file(FileRules()).penalties == RuleSet().penalties


def test_points_are_imported_under_points_by_hand(club, open_season):
    sheet = scorer_file([0, 7, 20, 3], holds=Holds.POINTS)
    game = preview_import(club, open_season, sheet).games[0]
    assert game.rules.scoring.value == "points-by-hand"
    assert game.totals == (0, 7, 20, 3)


def test_recorded_penalties_unlike_the_seasons_are_warned_about(club, open_season):
    sheet = scorer_file([0, 4, 10, 13], recorded={0: (0, 4, 10, 26)})
    preview = preview_import(club, open_season, sheet)
    assert preview.can_import
    assert "scored again by this season's rules" in preview.warnings[0].message


def test_save_writes_every_game_dated_by_the_file_and_finished(club, open_season, owner):
    imported = saved(
        club=club,
        target=open_season,
        score_file=scorer_file([0, 4, 10, 13], [8, 0, 12, 13]),
        sha256=DIGEST,
        by=owner,
    )
    assert imported.games == 1
    game = Game.objects.get(season=open_season)
    assert game.is_finished and game.winner.name == "Ben"
    assert game.created_at.date() == DAY and game.finished_at.date() == DAY
    assert [seat.total for seat in game.seats.order_by("position")] == [8, 4, 44, 78]
    assert game.deals.count() == 2


def test_a_file_with_a_problem_saves_nothing(club, open_season, owner):
    with pytest.raises(ImportRefused) as refused:
        saved(
            club=club,
            target=open_season,
            score_file=scorer_file([0, 4, 10, 13], [0, 0, 1, 1], players=("Zed", "B", "C", "D")),
            sha256=DIGEST,
            by=owner,
        )
    assert "Line 4" in refused.value.message
    assert not Game.objects.exists() and not Player.objects.filter(name="Zed").exists()
    assert not ImportedFile.objects.exists()


def test_the_same_file_twice_into_a_season_is_refused_with_its_date(club, open_season, owner):
    sheet = scorer_file([0, 4, 10, 13])
    saved(club=club, target=open_season, score_file=sheet, sha256=DIGEST, by=owner)
    with pytest.raises(AlreadyImported, match="already imported into"):
        saved(club=club, target=open_season, score_file=sheet, sha256=DIGEST, by=owner)
    assert Game.objects.count() == 1 and Deal.objects.count() == 1


def test_a_new_season_for_the_same_file_is_made_once(club, owner):
    sheet = scorer_file([0, 4, 10, 13])
    new = NewSeason("Old sheets", rules_for_file(sheet.rules))
    imported = saved(club=club, target=new, score_file=sheet, sha256=DIGEST, by=owner)
    assert imported.season.name == "Old sheets" and not imported.season.is_current
    assert imported.season.starts_on == DAY
    with pytest.raises(AlreadyImported):
        saved(club=club, target=new, score_file=sheet, sha256=DIGEST, by=owner)
    assert Season.objects.filter(club=club).count() == 2


def test_the_database_refuses_a_second_import_that_got_past_the_check(club, open_season, owner):
    """The unique constraint decides a race: the loser hears when the file came in."""
    sheet = scorer_file([0, 4, 10, 13])
    saved(club=club, target=open_season, score_file=sheet, sha256=DIGEST, by=owner)
    from scoring.services import imports as service

    # The looks before and under the lock find nothing, as if the other had not committed.
    checks = iter([None, None])
    real = service.refuse_if_imported

    def late(*args):
        if next(checks, "again") is None:
            return None
        return real(*args)

    service.refuse_if_imported = late
    try:
        with pytest.raises(AlreadyImported):
            saved(club=club, target=open_season, score_file=sheet, sha256=DIGEST, by=owner)
    finally:
        service.refuse_if_imported = real
    assert Game.objects.count() == 1


def test_only_the_owner_imports(club, open_season):
    member = make_member(club)
    with pytest.raises(services.NotAllowed):
        saved(
            club=club,
            target=open_season,
            score_file=scorer_file([0, 4, 10, 13]),
            sha256=DIGEST,
            by=member,
        )


def queries_to_save(club, owner, sheet, digest) -> int:
    target = NewSeason(f"Sheet {digest}", rules_for_file(sheet.rules))
    preview = preview_import(club, target, sheet)
    with CaptureQueriesContext(connection) as saving:
        services.save_import(club=club, target=target, preview=preview, sha256=digest, by=owner)
    return len(saving.captured_queries)


def test_a_file_is_saved_a_table_at_a_time_however_many_deals_it_has(club, owner):
    """The writes under the lock don't grow with the deals: each table is written at once."""
    one = queries_to_save(club, owner, scorer_file([0, 4, 10, 13]), "1" * 64)
    many = [[0, 1, 1, 1]] * 40
    forty = queries_to_save(club, owner, scorer_file(*many, players=("E", "F", "G", "H")), "2" * 64)
    assert forty == one
    assert Deal.objects.count() == 41 and DealScore.objects.count() == 41 * 4
    assert GameChange.objects.count() == 41


@pytest.mark.parametrize("rules", ["", "pays-for-table", "twos-double-each", "points-by-hand"])
def test_an_imported_game_is_what_the_table_would_have_recorded(club, owner, rules):
    """`recompute`, which derives a game's figures from its deals, finds nothing to change."""
    holds = Holds.POINTS if rules == "points-by-hand" else Holds.CARDS_LEFT
    deals = [[0, 4, 10, 13], [8, 0, 12, 13], [3, 3, 0, 13]]
    sheet = scorer_file(*deals, holds=holds, payers={1: 2} if rules == "pays-for-table" else {})
    season_rules = parse_rules(" ".join(filter(None, ["open-ended", rules])))
    target = NewSeason("Paper", season_rules)
    imported = saved(club=club, target=target, score_file=sheet, sha256=DIGEST, by=owner)
    game = Game.objects.get(season=imported.season)
    fields = ("status", "winner_id", "finished_at", "ended")
    seats = ("total", "deals_played", "deals_won", "thirteens")
    before = [getattr(game, field) for field in fields], list(game.seats.values_list(*seats))
    with transaction.atomic():
        services.recompute(game)
    game.refresh_from_db()
    after = [getattr(game, field) for field in fields], list(game.seats.values_list(*seats))
    assert after == before and game.is_finished
    assert list(game.changes.values_list("deal_number", flat=True)) == [3, 2, 1]


def test_the_season_and_the_clubs_ratings_are_told(club, open_season, owner):
    version = open_season.version
    saved(
        club=club,
        target=open_season,
        score_file=scorer_file([0, 4, 10, 13], [8, 0, 12, 13]),
        sha256=DIGEST,
        by=owner,
    )
    open_season.refresh_from_db()
    assert open_season.version > version
    assert RatingsMark.objects.get(club=club).version >= 1


def test_rules_changed_after_the_preview_refuse_the_import(club, open_season, owner):
    sheet = scorer_file([0, 4, 10, 13])
    preview = preview_import(club, open_season, sheet)
    services.set_season_rules(season=open_season, rules=parse_rules(""), stake=None, by=owner)
    with pytest.raises(services.PreviewOutdated, match="choose the file again"):
        services.save_import(
            club=club, target=open_season, preview=preview, sha256=DIGEST, by=owner
        )
    assert not Game.objects.exists() and not ImportedFile.objects.exists()


def test_a_player_renamed_after_the_preview_refuses_the_import(club, open_season, owner):
    ann = Player.named("Ann", club=club)
    ann.save()
    preview = preview_import(club, open_season, scorer_file([0, 4, 10, 13]))
    services.rename_player(player=ann, name="Anne", by=owner)
    with pytest.raises(services.PreviewOutdated):
        services.save_import(
            club=club, target=open_season, preview=preview, sha256=DIGEST, by=owner
        )
    assert not Game.objects.exists() and list(Player.objects.values_list("name", flat=True)) == [
        "Anne"
    ]
