"""What a game's page shows: its scoreboard (`Board`), each deal's line and cell, the totals,
the tie and the winner, the chart, and the settling up of a game played for a stake."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.deal_options import Scoring
from rules.deal_score import ScoredDeal
from rules.next_deal import next_deal
from rules.options import Finish
from rules.penalties import GameReplay, Outcome, ReplayedDeal, outcome, replay
from rules.settle import settle
from scoring import selectors
from scoring.models import Game, Seat
from scoring.models.facts import SeatScore, StoredDeal, score_rows
from scoring.presenters.charts import Chart, running_totals_chart
from scoring.presenters.settlements import Settling
from scoring.presenters.wording import names_and


@dataclass(frozen=True, slots=True)
class Cell:
    """One seat's part of a deal's line: its penalty, whether it won the deal, its running
    total, and a few words on what happened to it ("5 left", "went out on twos", "2nd out",
    "dragon", "pays for the table: 5 + 39 + 20"…), each shown on a line of its own."""

    penalty: int
    total: int
    won: bool
    notes: tuple[str, ...]
    cards_left: int | None = None
    twos_held: int = 0


@dataclass(frozen=True, slots=True)
class Line:
    number: int
    cells: list[Cell]
    out_on_twos: bool = False
    scored: ScoredDeal | None = None


@dataclass(frozen=True, slots=True)
class TotalCell:
    seat: Seat
    lowest: bool


def cell_notes(scored: ScoredDeal, seat: int, explained: tuple[str, ...]) -> tuple[str, ...]:
    """What a seat's cell says about its deal. Cards left keep their short words ("5 left",
    "2 twos"); finishing order, points by hand, Pusoy Dos's winner and whoever paid for the
    table say it in the rules engine's words (`ScoredDeal.explain`), as do Pusoy Dos deals told
    only who went out."""
    facts, rules = scored.facts, scored.rules
    if facts.dragon is not None:
        return (_("dragon"),) if seat == facts.dragon else (_left(rules.cards_dealt),)
    if facts.order is not None or facts.points is not None or facts.cards_left is None:
        # Without cards left (Pusoy Dos scoring told only who went out) there are no "5 left".
        return (explained[seat],)
    cards = facts.cards_left[seat]
    if cards == 0 and rules.scoring is Scoring.PUSOY_DOS:
        notes = [explained[seat]]
    elif cards == 0:
        notes = [_("went out on twos") if facts.out_on_twos else _("went out")]
    else:
        twos = facts.twos_held[seat] if facts.twos_held else 0
        left = _left(cards)
        if twos:
            left += ", " + ngettext("%(twos)s two", "%(twos)s twos", twos) % {"twos": twos}
        notes = [left]
    if facts.pays == seat:
        notes.append(explained[seat])
    return tuple(notes)


def _left(cards: int) -> str:
    return _("%(count)s left") % {"count": cards}


def board_lines(
    deals: Sequence[StoredDeal], replayed: Sequence[ReplayedDeal], names: list[str]
) -> list[Line]:
    """Each deal's line of the scoreboard, from its rows and its replay (`GameReplay.deals`)."""
    lines = []
    for deal, again in zip(deals, replayed, strict=True):
        scored = again.scored
        assert scored is not None  # every deal of a replay is scored
        explained = scored.explain(names)
        lines.append(
            Line(
                number=deal.number,
                cells=[
                    Cell(
                        penalty=score.penalty,
                        total=total,
                        won=seat == scored.winner,
                        notes=cell_notes(scored, seat, explained),
                        cards_left=score.cards_left,
                        twos_held=score.twos_held,
                    )
                    for seat, (score, total) in enumerate(
                        zip(deal.scores, again.totals, strict=True)
                    )
                ],
                out_on_twos=deal.out_on_twos,
                scored=scored,
            )
        )
    return lines


class Board:
    """A game with its seats: its scoreboard, where it stands, and what comes next.

    Where the game stands (the lowest total, a tie, the end) comes from the seats' stored
    totals, and the chart from the stored penalties. The deals are read and scored again only
    for what needs every one of them explained (the scoreboard's lines), which the game page
    mostly finds cached for this version of the game.

    `appended` is the deal just recorded, as its write scored it, with the game and seats as
    that write left them: the answer to the write shows them and the deal's line without
    reading them again, and reads the deals only as of that version (`still_as_written`).
    """

    def __init__(self, game: Game, seats: list[Seat], appended: ScoredDeal | None = None) -> None:
        self.game = game
        self.seats = seats
        self.appended = appended
        self._as_of = None if appended is None else game.version

    def still_as_written(self, *, whole: bool) -> bool:
        """For a board left by a write (`appended`), read before the page's snapshot began:
        whether the game is still as written, told by the first read the page makes of its
        deals anyway (each deal, for the `whole` board; else their penalties, for the chart),
        made only as of the write's version. False: another phone changed the game since, and
        the page reads it again."""
        return bool(self._stored[0] if whole else self._penalties)

    @cached_property
    def _penalties(self) -> list[tuple[int, ...]]:
        return selectors.deal_penalties(self.game, version=self._as_of)

    @cached_property
    def _stored(self) -> tuple[list[StoredDeal], GameReplay]:
        deals = selectors.stored_deals(self.game, version=self._as_of)
        facts = [deal.facts for deal in deals]
        rules = self.game.ruleset
        replayed = replay(facts, rules, players=len(self.seats), ended=self.game.ended)
        return deals, replayed

    @cached_property
    def lines(self) -> list[Line]:
        deals, replayed = self._stored
        return board_lines(deals, replayed.deals, self.names)

    @cached_property
    def last_line(self) -> Line | None:
        """The last deal's line alone: what a deal recorded adds to the board."""
        if self.appended is not None and self.last_number is not None:
            return self._appended_line(self.appended, self.last_number)
        deals, replayed = self._stored
        if not deals:
            return None
        return board_lines(deals[-1:], replayed.deals[-1:], self.names)[0]

    def _appended_line(self, scored: ScoredDeal, number: int) -> Line:
        rows = score_rows(scored)
        scores = tuple(
            SeatScore(row["penalty"], row["cards_left"], row["twos_held"]) for row in rows
        )
        out_on_twos = bool(scored.facts.out_on_twos)
        again = ReplayedDeal(
            number=number,
            cards_left=(),
            penalties=scored.penalties,
            totals=tuple(seat.total for seat in self.seats),
            outcome=self.outcome,
            scored=scored,
        )
        return board_lines(
            [StoredDeal(number, out_on_twos, scored.facts, scores)], [again], self.names
        )[0]

    @cached_property
    def outcome(self) -> Outcome:
        """Where the game stands, from the seats' totals."""
        totals = [seat.total for seat in self.seats]
        played = self.last_number or 0
        return outcome(totals, self.game.ruleset, deals_played=played, ended=self.game.ended)

    @cached_property
    def last_scored(self) -> ScoredDeal | None:
        if self.appended is not None:
            return self.appended
        if not self.has_deals:
            return None
        return self._stored[1].deals[-1].scored

    @property
    def has_deals(self) -> bool:
        return self.last_number is not None

    @property
    def names(self) -> list[str]:
        return [seat.player.name for seat in self.seats]

    @property
    def next_number(self) -> int:
        # Every seat plays every deal, and recompute keeps the count in the same transaction.
        return self.seats[0].deals_played + 1

    @property
    def last_number(self) -> int | None:
        return self.next_number - 1 or None  # as `next_number`: no deal read

    @property
    def next_deal_text(self) -> str:
        """ "Ann deals; Ben leads" (or "…; whoever holds 3♦ leads"), while the game goes on."""
        if self.game.is_finished:
            return ""
        return next_deal(self.game.ruleset, self.last_scored).sentence(self.names)

    @property
    def winner_name(self) -> str | None:
        """The one winner's name; None while the game goes on and when the win is shared."""
        if not self.game.is_finished or self.game.win_shared:
            return None
        return next(s.player.name for s in self.seats if s.player_id == self.game.winner_id)

    @property
    def winner_names(self) -> list[str]:
        """Whoever won the game, clockwise: its winner, or every player sharing the win."""
        return [seat.player.name for seat in self.seats if seat.won]

    @property
    def winner_text(self) -> str:
        """ "Ann wins with 57", or "Ann and Ben share the win with 57", once the game is over."""
        won = [seat for seat in self.seats if seat.won]
        if not self.game.is_finished or not won:
            return ""
        if len(won) > 1:
            return _("%(names)s share the win with %(total)s") % {
                "names": names_and([seat.player.name for seat in won]),
                "total": won[0].total,
            }
        return _("%(name)s wins with %(total)s") % {
            "name": won[0].player.name,
            "total": won[0].total,
        }

    @property
    def end_tied(self) -> list[Seat]:
        """The seats tied for lowest in an open-ended match still going on, which ending it now
        shares the win between (what "End match" offers); empty unless two or more are."""
        if self.game.is_finished or not self.has_deals:
            return []
        low = self.lowest_total
        tied = [seat for seat in self.seats if seat.total == low]
        return tied if len(tied) > 1 else []

    @property
    def end_tied_names(self) -> str:
        return names_and([seat.player.name for seat in self.end_tied])

    @cached_property
    def play_again_note(self) -> str:
        """Why "Play again" can't seat this finished game's table, said before it is tapped:
        the club's current season is played by another number of players (one query)."""
        season = selectors.current_season(self.game.club_id)
        if season is None or season.ruleset.players == len(self.seats):
            return ""
        return _(
            "%(season)s is played by %(count)s players and this game had %(had)s: "
            "start a new game and choose who plays"
        ) % {"season": season.name, "count": season.ruleset.players, "had": len(self.seats)}

    @property
    def final_totals(self) -> str:
        return ", ".join(f"{seat.player.name} {seat.total}" for seat in self.seats)

    @property
    def tied_text(self) -> str:
        """ "Ann and Ben are tied for lowest on 57 — play another deal" while that holds."""
        names = self.tied_names
        if not names:
            return ""
        return _("%(names)s are tied for lowest on %(total)s — play another deal") % {
            "names": names_and(names),
            "total": self.lowest_total,
        }

    @property
    def totals(self) -> list[TotalCell]:
        lowest = set(self.outcome.lowest) if self.has_deals else set()
        return [TotalCell(seat, seat.position in lowest) for seat in self.seats]

    @property
    def tied_names(self) -> list[str]:
        standing = self.outcome
        if self.game.is_finished or not standing.tied:
            return []
        return [self.seats[position].player.name for position in standing.lowest]

    @property
    def lowest_total(self) -> int:
        return min(seat.total for seat in self.seats)

    def chart(self) -> Chart | None:
        if not self.has_deals:
            return None
        rules = self.game.ruleset
        target = rules.target if rules.finish is Finish.TARGET else None
        return running_totals_chart(self.names, self.running_totals, target)

    @property
    def running_totals(self) -> list[tuple[int, ...]]:
        """Each seat's total after each deal: from the deals replayed, which the rest of the
        board reads, or after a deal appended, from the stored penalties alone."""
        if self.appended is None or "_stored" in self.__dict__:  # replayed already
            return list(self._stored[1].running_totals)
        totals, running = [0] * len(self.seats), []
        for penalties in self._penalties:
            totals = [total + penalty for total, penalty in zip(totals, penalties, strict=True)]
            running.append(tuple(totals))
        return running

    @property
    def settlement(self) -> Settling | None:
        """Who pays whom at the end of a game played for a stake."""
        if not self.game.is_finished or not self.game.stake:
            return None
        totals = [seat.total for seat in self.seats]
        return Settling(
            settle(self.names, totals, self.game.stake), self.game.stake, self.game.club.currency
        )


def load_board(game_id: int, within: QuerySet[Game] | None = None) -> Board:
    """The game as it is now with its seats, in one query; its deals and their scores (two
    more) when first read. Http404 if the game is gone, or no longer one of the games `within`
    (those the member may see, or the shared view shows): the same query checks it.

    Load and render it in a `read_snapshot()`, so that all of it is of one state of the game,
    and show the game as `board.game`, read here beside the seats: a copy of the game the
    caller holds may be from before a change (a view that has just made one holds such a
    copy), and another phone may have changed the game since.
    """
    return _board_of(selectors.board_seats(game_id, within))


def member_board(user: AbstractBaseUser, game_id: int) -> Board:
    """`load_board` of a game whose club `user` is a member of, or Http404: the same one
    query, with the member's access checked in it."""
    return load_board(game_id, within=selectors.member_games(user))


def _board_of(seats: list[Seat]) -> Board:
    if not seats:
        raise Http404  # gone, or no longer theirs to see
    return Board(seats[0].game, seats)
