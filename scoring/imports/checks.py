"""One game of a score file checked deal by deal, as the deal form checks each deal typed at
the table (`rules.deal_score.score_deal`), each problem kept with the file's line."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from rules.deal_checks import DealResult
from rules.deal_options import Dragon, PaysForTable, Scoring
from rules.deal_score import DealRefused, score_deal
from rules.options import Finish, PenaltyScale, TwosRule
from rules.penalties import outcome
from rules.ruleset import RuleSet
from scoring.imports.sheet import Holds, Problem, ScoreFile, SheetDeal, SheetGame
from scoring.services.errors import ScoringError
from scoring.services.games import seat_names_for
from scoring.services.totals import normalised
from scoring.wording import names_and


@dataclass(frozen=True)
class SeatMatch:
    name: str
    player_id: int | None  # the club's player of that name (ignoring case), None if new

    @property
    def is_new(self) -> bool:
        return self.player_id is None


@dataclass(frozen=True)
class GamePreview:
    line: int
    label: str
    played_on: datetime.date | None
    seats: tuple[SeatMatch, ...]
    rules: RuleSet
    deals: tuple[DealResult, ...]
    # Each seat's total under the rules, or None when the game can't be scored.
    totals: tuple[int, ...] | None
    winner: str | None

    @property
    def rows(self) -> list[tuple[SeatMatch, int | None]]:
        """Each seat with its total (None where the game can't be scored)."""
        totals = self.totals or (None,) * len(self.seats)
        return list(zip(self.seats, totals, strict=True))


def points_rules(rules: RuleSet) -> RuleSet:
    """`rules` with the points typed by hand: what a file of points is imported under (its
    choices that only price cards left set aside, as the rules require)."""
    return dataclasses.replace(
        rules,
        scoring=Scoring.POINTS_BY_HAND,
        penalties=PenaltyScale.STANDARD,
        twos=TwosRule.OFF,
        dragon=Dragon.OFF,
        pays_for_table=PaysForTable.OFF,
    )


class GameCheck:
    """One game of the file checked deal by deal, as the deal form checks each deal."""

    def __init__(
        self, game: SheetGame, rules: RuleSet, score_file: ScoreFile, roster: dict[str, int]
    ) -> None:
        self.game, self.score_file, self.roster = game, score_file, roster
        self.rules = points_rules(rules) if score_file.holds is Holds.POINTS else rules
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []

    def preview(self) -> GamePreview:
        try:
            names = seat_names_for(self.game.players, players=self.rules.players)
        except ScoringError as error:
            self.problems.append(Problem(self.game.line, error.message))
            names = []
        deals = self.deals(names) if names else []
        totals, winner = self.result(names, deals) if names and not self.problems else (None, None)
        seats = tuple(SeatMatch(name, self.roster.get(name.casefold())) for name in names)
        return GamePreview(
            self.game.line,
            self.game.label,
            self.game.played_on,
            seats,
            self.rules,
            tuple(deals),
            totals,
            winner,
        )

    def deals(self, names: list[str]) -> list[DealResult]:
        facts = []
        rescored = False
        for number, deal in enumerate(self.game.deals, start=1):
            pays = deal.pays_for_table if deal.pays_for_table is not None else self.paid_by(deal)
            found = self.deal_facts(number, deal.numbers, pays, deal.line, names)
            if found is None:
                continue
            try:
                scored = score_deal(normalised(found, self.rules), self.rules, names=names)
            except DealRefused as refused:
                self.problems += [
                    Problem(
                        deal.line,
                        _("Deal %(number)s: %(problem)s") % {"number": number, "problem": problem},
                    )
                    for problem in refused.problems
                ]
                continue
            recorded = deal.recorded_penalties
            rescored = rescored or (recorded is not None and recorded != scored.penalties)
            facts.append(scored.facts)
        if rescored:
            self.warnings.append(
                Problem(
                    self.game.line,
                    _(
                        "The file's penalties differ from this season's scoring: they are"
                        " scored again by this season's rules"
                    ),
                )
            )
        return facts

    def paid_by(self, deal: SheetDeal) -> int | None:
        """The seat that paid for the table, as the site's season CSV shows it without a
        column for it: all of the deal's penalties on one losing seat, none on the other
        losers. Read only for a season that pays for the table; the deal is scored with that
        payer, and penalties that still differ from the file's are warned about as any are."""
        recorded = deal.recorded_penalties
        if (
            recorded is None
            or self.rules.pays_for_table is not PaysForTable.ON
            or self.score_file.holds is not Holds.CARDS_LEFT
        ):
            return None
        charged = [seat for seat, points in enumerate(recorded) if points]
        losers = [seat for seat, cards in enumerate(deal.numbers) if cards]
        if len(charged) == 1 and len(losers) > 1 and charged[0] in losers:
            return charged[0]
        return None

    def deal_facts(
        self,
        number: int,
        numbers: Sequence[int],
        pays: int | None,
        line: int,
        names: list[str],
    ) -> DealResult | None:
        if len(numbers) != len(names):
            self.problems.append(
                Problem(
                    line,
                    _("Deal %(number)s has %(count)s numbers for %(players)s players")
                    % {"number": number, "count": len(numbers), "players": len(names)},
                )
            )
            return None
        if pays is not None and self.rules.pays_for_table is not PaysForTable.ON:
            self.problems.append(
                Problem(
                    line,
                    _(
                        "Deal %(number)s: %(name)s paid for the table, which this season's"
                        " rules don't play"
                    )
                    % {"number": number, "name": names[pays] if pays < len(names) else pays},
                )
            )
            return None
        if self.score_file.holds is Holds.POINTS:
            return DealResult(points=tuple(numbers))
        return DealResult(cards_left=tuple(numbers), pays=pays)

    def result(
        self, names: list[str], deals: list[DealResult]
    ) -> tuple[tuple[int, ...] | None, str | None]:
        """The totals and the winner, refusing a game the rules end before the file does."""
        open_ended = self.rules.finish is Finish.OPEN
        totals = (0,) * len(names)
        standing = None
        for number, facts in enumerate(deals, start=1):
            penalties = score_deal(facts, self.rules, names=names).penalties
            totals = tuple(
                total + penalty for total, penalty in zip(totals, penalties, strict=True)
            )
            last = number == len(deals)
            standing = outcome(totals, self.rules, deals_played=number, ended=open_ended and last)
            if standing.finished and not last:
                self.problems.append(
                    Problem(
                        self.game.deals[number].line,
                        _(
                            "Under this season's rules the game was over after deal %(number)s"
                            " (%(winner)s won), but the file goes on to deal %(last)s"
                        )
                        % {
                            "number": number,
                            "winner": names[standing.winner],
                            "last": len(deals),
                        },
                    )
                )
                return None, None
            if last and standing.shared:
                # The file stops on a tie, as a table may: it comes in ended there, as "End
                # match" ends a tied match when the table chooses to share the win.
                shared = names_and([names[seat] for seat in standing.winners])
                said = _(
                    "%(names)s are tied for lowest at the end of this game: it comes in ended"
                    " there, the win shared"
                ) % {"names": shared}
                self.warnings.append(Problem(self.game.line, said))
                return totals, None
            if last and standing.finished:
                return totals, names[standing.winner]
        if standing is not None and standing.tied:
            # As at the table, where a tie at the finish plays on until one more deal settles it.
            tied = names_and([names[seat] for seat in standing.lowest])
            said = _(
                "%(names)s are tied for lowest at the end of this game: it comes in still being"
                " played, for one more deal to settle it"
            ) % {"names": tied}
        else:
            said = _(
                "This game isn't over under this season's rules: it comes in still being played"
            )
        self.warnings.append(Problem(self.game.line, said))
        return totals, None
