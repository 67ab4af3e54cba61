"""One deal's facts, what cards left cost, and what can be wrong with the facts, in words.

`rules.deal_score.score_deal` checks a deal with these and scores it; `rules.penalties`
keeps the older entry points (`penalty`, `validate_deal`) that the score sheet of cards left
was built on. Seats are indexes in seat order; `names` are what a message calls each seat.

>>> cards_problems([0, 0, 5, 14], ["Ann", "Ben", "Cara", "Dev"], RuleSet())
['Cards left must be between 0 and 13 — Dev has 14', \
'Only one player can go out in a deal — Ann and Ben both have 0']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.deal_options import DECK_SIZE, DrawOnPass, Scoring
from rules.i18n import gettext, list_of, pgettext
from rules.options import TwosRule
from rules.ruleset import DEFAULT_RULES, RuleSet

TWOS_IN_THE_DECK = 4
# Points by hand are typed on a phone: three digits are plenty for one deal.
MOST_POINTS = 999
# Pusoy Dos scoring: what going out earns, by the twos in the last play (0 to 4).
PUSOY_DOS_POINTS = (1, 2, 4, 8, 16)


@dataclass(frozen=True, slots=True)
class DealResult:
    """The facts of one deal, as its score sheet records them; the rules say which they need
    (`rules.deal_score.facts_wanted`).

    - `cards_left`: each seat's cards left, 0 for the winner (cards-left and Pusoy Dos scoring;
      optional with points by hand).
    - `out_on_twos`: the winner's last play was nothing but twos (either twos rule).
    - `twos_held`: the twos each seat still holds (the stronger twos rule).
    - `last_play_twos`: the twos in the winner's last play, 0–4 (Pusoy Dos scoring).
    - `order`: the seats in the order they went out, the first out first (finishing order).
    - `dragon`: the seat dealt one card of every rank, who wins at once (the dragon).
    - `pays`: the seat who pays for the table (pays-for-table).
    - `points`: each seat's points as typed, 0 for the winner (points by hand).
    - `went_out`: the seat who went out (Pusoy Dos scoring, which charges nothing for cards
      left: this, or every seat's cards left, whose 0 says it).
    """

    cards_left: tuple[int, ...] | None = None
    out_on_twos: bool = False
    twos_held: tuple[int, ...] | None = None
    last_play_twos: int | None = None
    order: tuple[int, ...] | None = None
    dragon: int | None = None
    pays: int | None = None
    points: tuple[int, ...] | None = None
    went_out: int | None = None

    @property
    def given(self) -> frozenset[str]:
        """The names of the facts given: those not None, and `out_on_twos` when true."""
        return frozenset(
            name
            for name in FACTS
            if (self.out_on_twos if name == "out_on_twos" else getattr(self, name) is not None)
        )


FACTS = (
    "cards_left",
    "went_out",
    "out_on_twos",
    "twos_held",
    "last_play_twos",
    "order",
    "dragon",
    "pays",
    "points",
)


def penalty(
    cards_left: int,
    rules: RuleSet = DEFAULT_RULES,
    *,
    out_on_twos: bool = False,
    twos_held: int = 0,
) -> int:
    """Points charged for the cards someone holds when another player goes out.

    `out_on_twos` says the winner's last play was nothing but twos, which doubles the penalty
    under either twos rule; `twos_held` counts the twos this player still holds, each doubling
    the penalty again under TwosRule.EACH_TWO. Either given under rules that don't use it is a
    mistake in the calling code: ValueError.

    >>> penalty(12)
    24
    >>> penalty(9, RuleSet(twos=TwosRule.EACH_TWO), twos_held=2)
    36
    """
    check_twos_given(rules, out_on_twos, twos_held or None)
    if not 0 <= cards_left <= rules.hand_size:
        raise ValueError(f"cards left must be between 0 and {rules.hand_size}, not {cards_left}")
    if not 0 <= twos_held <= min(cards_left, TWOS_IN_THE_DECK):
        raise ValueError(f"{cards_left} cards left can't hold {twos_held} twos")
    if cards_left == 0:
        return 0
    return cards_left * per_card(cards_left, rules) * 2 ** (int(out_on_twos) + twos_held)


def per_card(cards_left: int, rules: RuleSet) -> int:
    """What each card costs when a player is left holding `cards_left` (1 or more)."""
    return next(band.per_card for band in rules.penalty_bands if band.covers(cards_left))


def winner_of(facts: DealResult) -> int:
    """The seat who went out, for facts that say it: `went_out`, or the 0 of the cards left."""
    if facts.went_out is not None:
        return facts.went_out
    assert facts.cards_left is not None
    return facts.cards_left.index(0)


def base_penalties(facts: DealResult, rules: RuleSet, seats: int) -> tuple[int, ...]:
    """What each of the `seats` pays before anyone pays for the table: for their cards left,
    by the penalty scale and the twos rule, or under Pusoy Dos scoring the points the winner
    earned."""
    if rules.scoring is Scoring.PUSOY_DOS:
        earned = PUSOY_DOS_POINTS[facts.last_play_twos or 0]
        winner = winner_of(facts)
        return tuple(0 if seat == winner else earned for seat in range(seats))
    cards_left = facts.cards_left
    assert cards_left is not None
    twos_held = facts.twos_held or (0,) * len(cards_left)
    return tuple(
        penalty(cards, rules, out_on_twos=facts.out_on_twos, twos_held=twos)
        for cards, twos in zip(cards_left, twos_held, strict=True)
    )


def check_twos_given(rules: RuleSet, out_on_twos: bool, twos_held: Sequence[int] | None) -> None:
    """Refuse twos facts the rules don't use: the calling code asked for the wrong thing."""
    if out_on_twos and rules.twos is TwosRule.OFF:
        raise ValueError("out_on_twos given, but these rules have no twos rule")
    if twos_held is not None and rules.twos is not TwosRule.EACH_TWO:
        raise ValueError("twos_held given, but only TwosRule.EACH_TWO counts twos held")


def cards_problems(cards_left: Sequence[int], names: Sequence[str], rules: RuleSet) -> list[str]:
    """What is wrong with each seat's cards left: out of range, not one winner, or more cards
    than the deal holds."""
    problems = []
    out_of_range = [
        gettext("%(name)s has %(count)s") % {"name": names[seat], "count": cards}
        for seat, cards in enumerate(cards_left)
        if not 0 <= cards <= rules.hand_size
    ]
    if out_of_range:
        problems.append(
            gettext("Cards left must be between 0 and %(max)s — %(players)s")
            % {"max": rules.hand_size, "players": and_list(out_of_range)}
        )
    went_out = [seat for seat, cards in enumerate(cards_left) if cards == 0]
    if not went_out:
        problems.append(
            gettext("Nobody went out: enter 0 for the player who played their last card")
        )
    elif len(went_out) > 1:
        problems.append(more_than_one_winner([names[seat] for seat in went_out]))
    problems += _more_than_dealt(cards_left, names, rules)
    return problems


def more_than_one_winner(went_out: list[str]) -> str:
    message = (
        gettext("Only one player can go out in a deal — %(players)s both have 0")
        if len(went_out) == 2
        else gettext("Only one player can go out in a deal — %(players)s all have 0")
    )
    return message % {"players": and_list(went_out)}


def _more_than_dealt(cards_left: Sequence[int], names: Sequence[str], rules: RuleSet) -> list[str]:
    """Hands that each fit, but together hold more cards than the deal could leave them."""
    if rules.draw_on_pass is DrawOnPass.ON:
        # The winner played at least the cards they were dealt; the rest of the pack is all the
        # others can hold between them.
        most = DECK_SIZE - rules.cards_dealt
        held = sum(cards_left)
        if held > most and all(0 <= cards <= rules.hand_size for cards in cards_left):
            return [
                gettext(
                    "The winner played at least the %(dealt)s cards they were dealt, so the"
                    " others hold at most %(most)s between them — %(held)s are entered"
                )
                % {"dealt": rules.cards_dealt, "most": most, "held": held}
            ]
        return []
    # With three players only the one who took the eighteenth card ever held eighteen.
    holding_all = [names[seat] for seat, cards in enumerate(cards_left) if cards == rules.hand_size]
    if rules.players == 3 and len(holding_all) > 1:
        return [
            gettext(
                "Only the player who took the last card can have %(max)s left"
                " — %(players)s can't all have %(max)s"
            )
            % {"max": rules.hand_size, "players": and_list(holding_all)}
        ]
    return []


def twos_problems(
    cards_left: Sequence[int], names: Sequence[str], twos_held: Sequence[int], out_on_twos: bool
) -> list[str]:
    """What is wrong with the twos each player holds, for TwosRule.EACH_TWO."""
    problems = []
    out_of_range = [
        gettext("%(name)s has %(count)s") % {"name": names[seat], "count": twos}
        for seat, twos in enumerate(twos_held)
        if not 0 <= twos <= TWOS_IN_THE_DECK
    ]
    if out_of_range:
        problems.append(
            gettext("Twos held must be between 0 and %(max)s — %(players)s")
            % {"max": TWOS_IN_THE_DECK, "players": and_list(out_of_range)}
        )
    for seat, (cards, twos) in enumerate(zip(cards_left, twos_held, strict=True)):
        if cards == 0 and twos > 0:
            problems.append(
                gettext("%(name)s went out, so holds no twos: enter 0 twos for them")
                % {"name": names[seat]}
            )
        elif 0 < cards < twos <= TWOS_IN_THE_DECK:
            problems.append(
                gettext("%(name)s holds more twos (%(twos)s) than cards (%(cards)s)")
                % {"name": names[seat], "twos": twos, "cards": cards}
            )
    # The two (or twos) the winner went out on are on the table, not in anybody's hand.
    most = TWOS_IN_THE_DECK - 1 if out_on_twos else TWOS_IN_THE_DECK
    held = sum(twos_held)
    if not out_of_range and held > most:
        message = (
            gettext(
                "The winner went out on a two, so at most %(most)s twos are left in hands"
                " — %(held)s are entered"
            )
            if out_on_twos
            else gettext("A deck has only %(most)s twos — %(held)s are entered")
        )
        problems.append(message % {"most": most, "held": held})
    return problems


def and_list(items: list[str]) -> str:
    """ "Ann", "Ann and Ben", "Ann, Ben and Cara"."""
    if len(items) == 1:
        return items[0]
    return gettext("%(items)s and %(last)s") % {"items": list_of(items[:-1]), "last": items[-1]}


def last_play_problems(last_play_twos: int) -> list[str]:
    """Pusoy Dos scoring: the twos in the winner's last play."""
    if 0 <= last_play_twos <= TWOS_IN_THE_DECK:
        return []
    return [
        gettext("The last play can hold 0 to %(most)s twos — %(count)s are entered")
        % {"most": TWOS_IN_THE_DECK, "count": last_play_twos}
    ]


def order_problems(order: Sequence[int], names: Sequence[str]) -> list[str]:
    """Finishing order: every seat once, the first out first."""
    seats = len(names)
    strangers = [seat for seat in order if not 0 <= seat < seats]
    if strangers:
        return [
            gettext("There is no seat %(seats)s: seats are numbered 0 to %(last)s")
            % {"seats": and_list([str(seat) for seat in strangers]), "last": seats - 1}
        ]
    problems = []
    twice = sorted({seat for seat in order if order.count(seat) > 1})
    if twice:
        problems.append(
            gettext("The finishing order names %(players)s more than once")
            % {"players": and_list([names[seat] for seat in twice])}
        )
    missing = [seat for seat in range(seats) if seat not in order]
    if missing:
        problems.append(
            gettext("The finishing order leaves out %(players)s: list every player once")
            % {"players": and_list([names[seat] for seat in missing])}
        )
    return problems


def seat_problem(seat: int, seats: int, message: str) -> list[str]:
    """A seat named by a fact (`dragon`, `pays`) that isn't at the table. `message` takes
    %(seat)s and %(last)s."""
    if 0 <= seat < seats:
        return []
    return [gettext(message) % {"seat": seat, "last": seats - 1}]


def points_problems(points: Sequence[int], names: Sequence[str]) -> list[str]:
    """Points by hand: whole numbers up to MOST_POINTS, and one 0 for the winner."""
    problems = []
    out_of_range = [
        # Points, not cards: languages that count cards with a measure word say it otherwise.
        pgettext("points", "%(name)s has %(count)s") % {"name": names[seat], "count": count}
        for seat, count in enumerate(points)
        if not 0 <= count <= MOST_POINTS
    ]
    if out_of_range:
        problems.append(
            gettext("Points must be between 0 and %(most)s — %(players)s")
            % {"most": MOST_POINTS, "players": and_list(out_of_range)}
        )
    winners = [names[seat] for seat, count in enumerate(points) if count == 0]
    if not winners:
        problems.append(gettext("Nobody has 0 points: enter 0 for the player who went out"))
    elif len(winners) > 1:
        problems.append(more_than_one_winner(winners))
    return problems
