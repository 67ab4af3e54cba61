"""One game of a score file checked deal by deal, as the deal form checks each deal typed at
the table, each problem kept with the file's line.

The game goes through the rules engine once: `rules.penalties.replay` scores every deal
(`rules.deal_score.score_deal`) and says where the game ended, and what it scored is what the
import saves. Only a game the engine refuses is scored again, deal by deal, to name every deal
that is wrong and the players in it.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from rules.deal_checks import DealResult, and_list
from rules.deal_options import Dragon, PaysForTable, Scoring
from rules.deal_score import DealRefused, score_deal
from rules.options import PenaltyScale, TwosRule
from rules.penalties import GameReplay, replay
from rules.ruleset import RuleSet
from scoring.imports.sheet import Holds, ScoreFile, SheetDeal, SheetGame
from scoring.models import PLAYER_NAME_MAX_LENGTH
from scoring.names import SeatingRefused, seat_names_for
from scoring.selectors import roster_key

Tell = Callable[[int, str], None]  # a problem or a warning, with its line


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
    # Every deal scored, the totals and where the game ended; None when it can't be scored.
    replayed: GameReplay | None
    winner: str | None
    # The game's last deal when it was ended there as it stood ("End them as they stand": the
    # lowest total wins, a tie shares the win), though the season's rules hadn't ended it.
    last_deal: int | None = None

    @property
    def goes_on(self) -> bool:
        """Whether the game isn't over under the season's rules, and comes in still played."""
        return self.replayed is not None and self.replayed.finished_after is None

    @property
    def lowest(self) -> tuple[str, ...]:
        """Who is on the lowest total at the game's last deal: who wins if it ends there."""
        if self.replayed is None:
            return ()
        return tuple(self.seats[seat].name for seat in self.replayed.outcome.lowest)

    @property
    def lowest_named(self) -> str:
        return and_list(list(self.lowest))

    @property
    def totals(self) -> tuple[int, ...] | None:
        """Each seat's total under the rules, or None when the game can't be scored."""
        return None if self.replayed is None else self.replayed.totals

    @property
    def shared_by(self) -> str:
        """Who shares the win ("Ann and Ben") when the game ends on a tie, else ""."""
        if self.replayed is None or len(self.replayed.winners) < 2:
            return ""
        return and_list([self.seats[seat].name for seat in self.replayed.winners])

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
    """One game of the file checked deal by deal, as the deal form checks each deal; what is
    wrong is told to `problem`, what is worth knowing to `warning`."""

    def __init__(
        self,
        game: SheetGame,
        rules: RuleSet,
        score_file: ScoreFile,
        roster: dict[str, int],
        *,
        problem: Tell,
        warning: Tell,
        end_as_it_stands: bool = False,
    ) -> None:
        self.game, self.score_file, self.roster = game, score_file, roster
        self.rules = points_rules(rules) if score_file.holds is Holds.POINTS else rules
        self.problem, self.warning = problem, warning
        self.end_as_it_stands = end_as_it_stands
        self.last_deal: int | None = None  # the deal the game was ended on as it stood
        self.wrong = False

    def tell(self, line: int, message: str) -> None:
        self.wrong = True
        self.problem(line, message)

    def preview(self) -> GamePreview:
        try:
            names = seat_names_for(
                self.game.players, players=self.rules.players, max_length=PLAYER_NAME_MAX_LENGTH
            )
        except SeatingRefused as refused:
            self.tell(self.game.line, refused.message)
            names = []
        facts = [self.deal_facts(number, deal, names) for number, deal in self.numbered]
        replayed, winner = None, None
        found = [deal for deal in facts if deal is not None]
        if names and not self.wrong and self.whole:
            replayed = self.replayed(found, names)
        elif names and not self.wrong:
            self.each_deal(found, names)  # no totals of a game that lacks a deal
        if replayed is not None:
            winner = self.result(replayed, names)
        seats = tuple(SeatMatch(name, self.roster.get(roster_key(name))) for name in names)
        return GamePreview(
            self.game.line,
            self.game.label,
            self.game.played_on,
            seats,
            self.rules,
            tuple(deal for deal in facts if deal is not None),
            None if self.wrong else replayed,
            None if self.wrong else winner,
            None if self.wrong else self.last_deal,
        )

    @property
    def numbered(self) -> list[tuple[int, SheetDeal]]:
        """Each deal with its number in the file (a deal the reader refused leaves a gap)."""
        return [(deal.number or place, deal) for place, deal in enumerate(self.game.deals, 1)]

    @property
    def whole(self) -> bool:
        """Whether the reader found every deal of the game (none refused, leaving a gap)."""
        places = enumerate(self.game.deals, start=1)
        return bool(self.game.deals) and all(deal.number in (0, place) for place, deal in places)

    def replayed(self, facts: list[DealResult], names: list[str]) -> GameReplay | None:
        """The game through the rules engine once; if it refuses a deal, every deal it
        refuses, each named with its line and players."""
        try:
            # The file stops at its last deal, as a table that stopped there: a tie for lowest
            # at the finish is then a win shared, as "End match" shares it.
            replayed = replay(facts, self.rules, players=len(names), ended=True)
            if replayed.finished_after is None and self.end_as_it_stands:
                # Ended as it stands, whatever the finish rule: as a game whose time ran out.
                self.last_deal = len(facts)
                return replay(
                    facts, self.rules, players=len(names), ended=True, last_deal=self.last_deal
                )
            return replayed
        except DealRefused:
            self.each_deal(facts, names)
            return None

    def each_deal(self, facts: list[DealResult], names: list[str]) -> None:
        """Every deal scored on its own, each the rules refuse told with its line."""
        for (number, deal), found in zip(self.numbered, facts, strict=True):
            try:
                score_deal(found, self.rules, names=names)
            except DealRefused as refused:
                for problem in refused.problems:
                    said = _("Deal %(number)s: %(problem)s")
                    self.tell(deal.line, said % {"number": number, "problem": problem})

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

    def deal_facts(self, number: int, deal: SheetDeal, names: Sequence[str]) -> DealResult | None:
        """The deal's facts as the rules engine reads them, or None with what is wrong."""
        numbers, line = deal.numbers, deal.line
        if names and len(numbers) != len(names):
            self.tell(
                line,
                _("Deal %(number)s has %(count)s numbers for %(players)s players")
                % {"number": number, "count": len(numbers), "players": len(names)},
            )
            return None
        pays = deal.pays_for_table if deal.pays_for_table is not None else self.paid_by(deal)
        if pays is not None and self.rules.pays_for_table is not PaysForTable.ON:
            who = names[pays] if pays < len(names) else pays
            self.tell(
                line,
                _(
                    "Deal %(number)s: %(name)s paid for the table, which this season's"
                    " rules don't play"
                )
                % {"number": number, "name": who},
            )
            return None
        if self.score_file.holds is Holds.POINTS:
            return DealResult(points=tuple(numbers))
        # Under the stronger twos rule, a file's cards left say no twos were held.
        twos = (0,) * len(numbers) if self.rules.twos is TwosRule.EACH_TWO else None
        return DealResult(cards_left=tuple(numbers), twos_held=twos, pays=pays)

    def result(self, replayed: GameReplay, names: list[str]) -> str | None:
        """The winner, refusing a game the rules end before the file does; a warning where
        the file's penalties differ from the season's, or the game isn't over."""
        recorded = [deal.recorded_penalties for deal in self.game.deals]
        if any(
            mine is not None and mine != deal.penalties
            for mine, deal in zip(recorded, replayed.deals, strict=True)
        ):
            self.warning(
                self.game.line,
                _(
                    "The file's penalties differ from this season's scoring: they are"
                    " scored again by this season's rules"
                ),
            )
        if replayed.ends_before_last_deal:
            assert replayed.finished_after is not None and replayed.winner is not None
            self.tell(
                self.game.deals[replayed.finished_after].line,
                _(
                    "Under this season's rules the game was over after deal %(number)s"
                    " (%(winner)s won), but the file goes on to deal %(last)s"
                )
                % {
                    "number": replayed.finished_after,
                    "winner": names[replayed.winner],
                    "last": len(replayed.deals),
                },
            )
            return None
        if replayed.winner is not None:
            return names[replayed.winner]
        if replayed.winners:
            shared = and_list([names[seat] for seat in replayed.winners])
            said = _(
                "%(names)s are tied for lowest at the end of this game: it comes in ended"
                " there, the win shared"
            ) % {"names": shared}
            self.warning(self.game.line, said)
            return None
        said = _(
            "This game isn't over under this season's rules: it comes in still being played,"
            " unless you end it as it stands"
        )
        self.warning(self.game.line, said)
        return None
