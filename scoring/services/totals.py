"""What a game's deals add up to, and the steps every write on a game shares.

`recompute` writes a game's derived fields (seat totals, status, winners, end time, version)
from all its deals; `recompute_appended` does the same for a deal just added after the last,
from the stored figures and that deal alone. The rest read the deals as the rules engine reads
them, lock the game's row and hand what was written back to the caller's copy of the game.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Max

from rules.deal_score import DealRefused, ScoredDeal, facts_wanted, score_deal
from rules.options import TwosRule
from rules.penalties import DealResult, GameReplay, outcome, replay
from rules.ruleset import RuleSet
from scoring.models import Deal, DealScore, Game, GameChange, Seat
from scoring.models.facts import deal_row, figures, score_rows
from scoring.selectors.games import stored_deals
from scoring.services import ratings
from scoring.services.errors import InvalidDeal
from scoring.services.versions import game_changed

SEAT_FIGURES = ("total", "deals_played", "deals_won", "thirteens", "won")
RESULT = ["status", "winner", "win_shared", "finished_at"]


def seat_figures(replayed: GameReplay, position: int, rules: RuleSet) -> dict[str, int | None]:
    """What a seat stores about its game, derived from the deals (see `recompute`): its
    figures (deals won and times caught with a full hand as `counted_with` counts them; the
    latter None, a dash in the standings, where the rules don't ask for cards left), and
    whether it won the game (alone, or sharing the win)."""
    won = caught = 0
    for deal in replayed.deals:
        if deal.scored is not None:
            won, caught = counted_with(deal.scored, position, rules, won=won, caught=caught)
    return {
        "total": replayed.totals[position],
        "deals_played": len(replayed.deals),
        "deals_won": won,
        "thirteens": caught if asks_cards(rules) else None,
        "won": position in replayed.winners,
    }


def counted_with(
    scored: ScoredDeal, position: int, rules: RuleSet, *, won: int, caught: int
) -> tuple[int, int]:
    """A seat's deals won and times caught with a full hand, `won` and `caught` before, with
    one more deal. A deal is won by whoever the rules engine says won it (went out, went out
    first, typed 0 points, or showed a dragon). Being caught with a full hand needs the cards
    left, which finishing order, points by hand and Pusoy Dos scoring don't ask for; the
    losers of a dragon held their whole hand, and count when that hand is the largest the rules
    allow."""
    if scored.winner == position:
        return won + 1, caught
    cards = scored.cards_left
    return won, caught + (cards is not None and cards[position] == rules.hand_size)


def asks_cards(rules: RuleSet) -> bool:
    """Whether every deal under these rules says each player's cards left."""
    return "cards_left" in facts_wanted(rules).required


# Every deal of a game replayed, and when each was recorded: what `recompute` stores.
Replayed = tuple[GameReplay, dict[int, datetime.datetime]]


def recompute(
    game: Game, *, replayed: Replayed | None = None, seats: Sequence[Seat] | None = None
) -> GameReplay:
    """Derive seat totals, status, winners and end time from the deals, and store them.

    The one function that writes those fields. Call it inside the transaction that changed
    the deals, with the locked game row: it also counts the game's `version` up by one, which
    tells the phones following the game that there is something new to show.

    `replayed` (`replay_game`) and `seats` (in order) spare reading and replaying again what
    the caller read under the same lock, the deals as they now are: every deal of a long game
    is read and scored again otherwise.
    """
    was = ratings.position(game)
    replayed, recorded_at = replayed or replay_game(game)
    seats = list(seats or Seat.objects.filter(game=game).order_by("position"))
    for position, seat in enumerate(seats):
        for field, value in seat_figures(replayed, position, game.ruleset).items():
            setattr(seat, field, value)
    store_seat_figures(seats)
    finished_at = None if replayed.finished_after is None else recorded_at[replayed.finished_after]
    set_result(game, [seats[position] for position in replayed.winners], finished_at)
    game_changed(game, saving=RESULT)
    ratings.game_rerated(game, was)
    return replayed


def set_result(game: Game, winners: Sequence[Seat], finished_at: datetime.datetime | None) -> None:
    """The game's status, winner and end time (not saved): finished at `finished_at` if any
    seat won, with its one winner or its win shared; in progress if none did."""
    game.status = Game.Status.FINISHED if winners else Game.Status.IN_PROGRESS
    game.winner_id = winners[0].player_id if len(winners) == 1 else None
    game.win_shared = len(winners) > 1
    game.finished_at = finished_at if winners else None


def recompute_appended(game: Game, seats: Sequence[Seat], deal: Deal, scored: ScoredDeal) -> None:
    """`recompute` after `deal` (scored as `scored`) was added after the last deal of a game
    still going on, without reading and replaying every deal: each deal is scored on its own,
    so the seats' stored figures plus this deal's are what a replay would give. Same
    transaction, locked game row and fresh `seats` (read under the lock) as `recompute`. The new
    version is noted as this deal appended (`versions.deal_appended`).
    """
    assert not game.is_finished, "a finished game takes no more deals"
    # A game stopped after its last deal takes another only when a correction reopened it: the
    # table played on, so this deal's totals stand as any other's (a tie at the finish plays on).
    played_on = ["ended"] if game.ended else []
    game.ended = False
    rules = game.ruleset
    counts_cards = asks_cards(rules)
    for position, seat in enumerate(seats):
        seat.total += scored.penalties[position]
        seat.deals_played += 1
        seat.deals_won, caught = counted_with(
            scored, position, rules, won=seat.deals_won, caught=seat.thirteens or 0
        )
        seat.thirteens = caught if counts_cards else None
    # The caller made this deal the game's last when its time had run out.
    time_up = game.last_deal == deal.number
    standing = outcome(
        [seat.total for seat in seats], rules, deals_played=deal.number, time_up=time_up
    )
    for position, seat in enumerate(seats):
        seat.won = position in standing.winners
    store_seat_figures(seats)
    set_result(game, [seats[position] for position in standing.winners], deal.recorded_at)
    last_deal = ["last_deal"] if time_up else []
    game_changed(game, saving=[*RESULT, *played_on, *last_deal], appended=deal.number)
    ratings.game_rerated(game, None)


def store_seat_figures(seats: Sequence[Seat]) -> None:
    """Save each seat's `SEAT_FIGURES` as set on it: an UPDATE a seat. `bulk_update`'s one
    statement builds a CASE of a WHEN a seat for each figure, which cost six times the CPU of
    these four plain UPDATEs (2.8 ms against 0.5 ms a deal recorded)."""
    for seat in seats:
        Seat.objects.filter(pk=seat.pk).update(
            **{figure: getattr(seat, figure) for figure in SEAT_FIGURES}
        )


def lock_game(game: Game) -> Game:
    """The game row, locked until the transaction ends (PostgreSQL; SQLite locks the file).
    Outside a transaction the lock would end with the statement, so that is refused on every
    database (SQLite would not say so itself). A no-key lock, as `lock_club`'s: rows that only
    refer to the game (ratings snapshots written meanwhile) don't wait on it."""
    if transaction.get_autocommit():
        raise transaction.TransactionManagementError("lock_game outside a transaction")
    return Game.objects.select_for_update(no_key=True).get(pk=game.pk)


def refresh_from(game: Game, locked: Game) -> None:
    """Let the caller's game object be the game as just written: every field of its row, as
    read under the lock and changed since (a relation whose id changed is read again if used)."""
    for field in Game._meta.concrete_fields:
        setattr(game, field.attname, getattr(locked, field.attname))


def last_deal_number(game: Game) -> int:
    return Deal.objects.filter(game=game).aggregate(last=Max("number"))["last"] or 0


def normalised(facts: DealResult, rules: RuleSet) -> DealResult:
    """The facts as a form or a caller gives them, in the shape they are stored and read
    back: whole numbers in tuples, and under the stronger twos rule no twos given meaning
    none held (as before twos were asked for)."""

    def whole(values: Sequence[int] | None) -> tuple[int, ...] | None:
        return None if values is None else tuple(int(value) for value in values)

    twos = whole(facts.twos_held)
    needs_twos = rules.twos is TwosRule.EACH_TWO and facts.dragon is None
    if needs_twos and twos is None and facts.cards_left is not None:
        twos = (0,) * len(facts.cards_left)
    return DealResult(
        cards_left=whole(facts.cards_left),
        out_on_twos=bool(facts.out_on_twos),
        twos_held=twos,
        last_play_twos=facts.last_play_twos,
        order=whole(facts.order),
        dragon=facts.dragon,
        pays=facts.pays,
        points=whole(facts.points),
        went_out=facts.went_out,
    )


def scored_deal(facts: DealResult, seats: Sequence[Seat], game: Game) -> ScoredDeal:
    """The deal scored by the game's rules (`rules.deal_score.score_deal`, as the deal form
    and the JSON API score it), or InvalidDeal with every problem, naming the players."""
    try:
        return score_deal(
            normalised(facts, game.ruleset),
            game.ruleset,
            names=[seat.player.name for seat in seats],
        )
    except DealRefused as refused:
        raise InvalidDeal(refused.problems) from refused


def store_scores(
    deal: Deal,
    seats: Sequence[Seat],
    scored: ScoredDeal,
    entered_by: Sequence[AbstractBaseUser | None],
) -> None:
    """A new deal's score for each seat, with who entered each seat's figure (in seat order)."""
    DealScore.objects.bulk_create(
        DealScore(deal=deal, seat=seat, entered_by=who, **values)
        for seat, values, who in zip(seats, score_rows(scored), entered_by, strict=True)
    )


def update_scores(deal: Deal, scored: ScoredDeal) -> None:
    """A recorded deal's facts and scores replaced by a correction's."""
    for field, value in deal_row(scored.facts).items():
        setattr(deal, field, value)
    deal.save(update_fields=list(deal_row(scored.facts)))
    scores = list(DealScore.objects.filter(deal=deal).order_by("seat__position"))
    rows = score_rows(scored)
    for score, values in zip(scores, rows, strict=True):
        for field, value in values.items():
            setattr(score, field, value)
    # Places first cleared: two seats swapping places would clash on (deal, place) midway.
    if any(score.place is not None for score in scores):
        DealScore.objects.filter(deal=deal).update(place=None)
    DealScore.objects.bulk_update(scores, list(rows[0]))


def history_line(
    game: Game,
    by: AbstractBaseUser,
    action: str,
    number: int,
    *,
    before: DealResult | None = None,
    after: DealResult | None = None,
    token: object = None,
    senders: Sequence[AbstractBaseUser] | None = None,
) -> None:
    """A line of the game's history about one deal: each seat's figure (see
    `scoring.models.facts.figures`) before and after the change, and who sent each (`senders`,
    in seat order: a game played with own counts)."""
    rules = game.ruleset
    GameChange.objects.create(
        game=game,
        by=by,
        action=action,
        deal_number=number,
        before=None if before is None else figures(before, rules),
        after=None if after is None else figures(after, rules),
        token=token,
        senders=None if senders is None else [sender.get_username() for sender in senders],
    )


def facts_and_times(game: Game) -> tuple[dict[int, DealResult], dict[int, datetime.datetime]]:
    """Every deal's facts by number, as the rules read them, and when each was recorded."""
    deals = stored_deals(game)
    return {deal.number: deal.facts for deal in deals}, {
        deal.number: deal.recorded_at for deal in deals
    }


def replay_game(game: Game) -> Replayed:
    """Every deal of the game as stored, replayed, and when each was recorded."""
    by_deal, recorded_at = facts_and_times(game)
    return replay_facts(game, by_deal), recorded_at


def replay_facts(game: Game, by_deal: dict[int, DealResult]) -> GameReplay:
    deals = [by_deal[number] for number in sorted(by_deal)]
    return replay(
        deals,
        game.ruleset,
        players=game.ruleset.players,
        ended=game.ended,
        last_deal=game.last_deal,
    )
