"""The plain sentences the engine explains itself with: why cards make no play, and why one
play beats another, in the words of the rules in force.

`rules.plays` decides; this module only says why. Every sentence goes through `rules.i18n`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.cards import Card, Rank
from rules.i18n import gettext, gettext_noop
from rules.kinds import Kind
from rules.options import Flushes, Straights, SuitOrder
from rules.ruleset import RuleSet

if TYPE_CHECKING:
    from rules.plays import Play


def run_text(play: Play) -> str:
    """The ranks of a play in the order shown, joined by dashes: "A-2-3-4-5"."""
    return "-".join(card.rank.label for card in play.cards)


def why_no_hand(ordered: tuple[Card, ...], shape: list[int], straights: Straights) -> str:
    """Why five cards of mixed suits make no hand: `shape` is their rank counts, largest first."""
    if shape == [3, 1, 1]:
        return gettext(
            "five cards that make no hand (a triple and two odd cards: a full house needs a pair)"
        )
    if shape == [2, 2, 1]:
        return gettext("two pair is not a Big Two play, not even with a fifth card")
    if shape == [2, 1, 1, 1]:
        return gettext("five cards that make no hand (a pair with three odd cards)")
    near_run = _NEAR_RUNS[straights].get(frozenset(card.rank for card in ordered))
    if near_run is not None:
        ranks, why_not = near_run
        return gettext(why_not) % {"run": "-".join(rank.label for rank in ranks)}
    return gettext("five cards that make no hand (five ranks not in a row, and not all one suit)")


# Five ranks in a row round the circle A 2 3 … K (and on to A 2 3 4): the ones a player might
# take for a straight. Those that are none under a Straights rule get a reason of their own.
_CIRCLE = (Rank.ACE, Rank.TWO, *(rank for rank in Rank if rank not in (Rank.ACE, Rank.TWO)))
_WINDOWS = tuple((_CIRCLE * 2)[i : i + 5] for i in range(len(_CIRCLE)))
_WRAPS_PAST_THE_ACE = gettext_noop("%(run)s is not a straight: nothing wraps past the ace")
_ACE_ONLY_HIGH = gettext_noop(
    "%(run)s is not a straight under these rules: the ace counts only high,"
    " so 2-3-4-5-6 is the lowest straight"
)
_TWO_ONLY_HIGH = gettext_noop(
    "%(run)s is not a straight under these rules: the 2 ranks high,"
    " so straights run from 3-4-5-6-7 up to J-Q-K-A-2"
)
_WRAPS_PAST_THE_TWO = gettext_noop(
    "%(run)s is not a straight under these rules: nothing wraps past the 2"
)


def _why_not_a_run(straights: Straights, window: tuple[Rank, ...]) -> str:
    if straights is Straights.TWO_HIGH:
        low_end = window[0] in (Rank.ACE, Rank.TWO)  # A-2-3-4-5 and 2-3-4-5-6
        return _TWO_ONLY_HIGH if low_end else _WRAPS_PAST_THE_TWO
    if straights is Straights.NO_ACE_LOW and window[0] == Rank.ACE:
        return _ACE_ONLY_HIGH
    return _WRAPS_PAST_THE_ACE


# Straights rule → {ranks: (ranks in run order, why they are no straight)}.
_NEAR_RUNS: dict[Straights, dict[frozenset[Rank], tuple[tuple[Rank, ...], str]]] = {
    straights: {
        frozenset(window): (window, _why_not_a_run(straights, window))
        for window in _WINDOWS
        if frozenset(window) not in {frozenset(run) for run in straights.runs}
    }
    for straights in Straights
}


_SIZE_NOUNS = {
    1: gettext_noop("a single"),
    2: gettext_noop("a pair"),
    3: gettext_noop("a triple"),
    5: gettext_noop("a five-card hand"),
}


def why_sizes_differ(a: Play, b: Play) -> str:
    """Why play A can't go on play B: they hold different numbers of cards."""
    return gettext(
        "%(a)s can't answer %(b)s: a play is only answered by the same number of cards"
    ) % {
        "a": gettext(_SIZE_NOUNS[a.size]).capitalize(),
        "b": gettext(_SIZE_NOUNS[b.size]),
    }


_TIER_LADDER = gettext_noop("straight < flush < full house < four of a kind < straight flush")


def why_beats(winner: Play, loser: Play, rules: RuleSet) -> str:
    """One sentence on why `winner` beats `loser`, two plays of the same size."""
    kind = winner.kind
    if kind is not loser.kind:
        return gettext("A %(winner)s beats any %(loser)s: five-card hands rank %(ladder)s") % {
            "winner": kind.label,
            "loser": loser.kind.label,
            "ladder": gettext(_TIER_LADDER),
        }
    win_rank, lose_rank = winner.cards[0].rank, loser.cards[0].rank
    win_top, lose_top = winner.cards[-1], loser.cards[-1]
    values = {
        "win": win_rank.plural,
        "lose": lose_rank.plural,
        "win_suit": win_top.suit.symbol,
        "lose_suit": lose_top.suit.symbol,
    }
    match kind:
        case Kind.SINGLE if win_rank == lose_rank:
            message = gettext(
                "Both are single %(win)s: the higher suit wins, %(win_suit)s beats %(lose_suit)s"
            )
            return _by_suit(message % values, rules)
        case Kind.SINGLE:
            message = gettext(
                "Both are singles: %(win)s beat %(lose)s, and rank decides before suit"
            )
        case Kind.PAIR if win_rank == lose_rank:
            message = gettext(
                "Both are pairs of %(win)s: the pair with the higher suit wins, "
                "%(win_suit)s beats %(lose_suit)s"
            )
            return _by_suit(message % values, rules)
        case Kind.PAIR:
            message = gettext("Both are pairs: %(win)s beat %(lose)s, and rank decides before suit")
        case Kind.TRIPLE:
            message = gettext("Both are triples: %(win)s beat %(lose)s")
        case Kind.FULL_HOUSE:
            message = gettext(
                "Both are full houses: only the triple counts, and %(win)s beat %(lose)s"
                " — the pair is dead weight"
            )
        case Kind.FOUR_OF_A_KIND:
            message = gettext(
                "Both are fours of a kind: only the rank of the four counts, and %(win)s beat"
                " %(lose)s — the kicker is dead weight"
            )
        case Kind.FLUSH:
            return _why_flush(winner, loser, rules)
        case _:
            return _why_run(winner, loser, rules)
    return message % values


# Named after a reason that a suit decided, when the suits are not in the standard order.
_SUIT_ORDER_NOTES = {
    SuitOrder.PUSOY_DOS: gettext_noop("Pusoy Dos order ♣ < ♠ < ♥ < ♦"),
    SuitOrder.BRIDGE: gettext_noop("Bridge order ♣ < ♦ < ♥ < ♠"),
}


def _by_suit(reason: str, rules: RuleSet) -> str:
    """A reason that turned on a suit, with the suit order in force unless it is the standard."""
    if rules.suits is SuitOrder.STANDARD:
        return reason
    return gettext("%(reason)s (%(order)s)") % {
        "reason": reason,
        "order": gettext(_SUIT_ORDER_NOTES[rules.suits]),
    }


def _why_flush(winner: Play, loser: Play, rules: RuleSet) -> str:
    """Flushes: the suit or a rank decided, in the order the flush rule looks at them."""
    win_suit, lose_suit = winner.cards[0].suit.symbol, loser.cards[0].suit.symbol
    # A flush shows its cards weakest first, and its ranks are all different.
    win_ranks = [card.rank for card in reversed(winner.cards)]
    lose_ranks = [card.rank for card in reversed(loser.cards)]
    differing = [
        (index, win, lose)
        for index, (win, lose) in enumerate(zip(win_ranks, lose_ranks, strict=True))
        if win != lose
    ]
    match rules.flushes:
        case Flushes.SUIT_FIRST if win_suit != lose_suit:
            message = gettext(
                "Both are flushes: %(win)s outranks %(lose)s, and suit decides before rank"
            )
        case Flushes.TOP_CARD if win_ranks[0] == lose_ranks[0]:
            message = gettext(
                "Both are flushes topped by %(rank)s: the suit breaks the tie, %(win)s beats"
                " %(lose)s"
            )
        case Flushes.POKER if not differing:
            message = gettext(
                "Both are flushes of the same ranks: as in poker the suit decides last,"
                " %(win)s beats %(lose)s"
            )
        case _:
            return _why_flush_by_rank(win_suit, *differing[0], rules)
    values = {"win": win_suit, "lose": lose_suit, "rank": win_ranks[0].plural}
    return _by_suit(message % values, rules)


def _why_flush_by_rank(suit: str, index: int, win: Rank, lose: Rank, rules: RuleSet) -> str:
    """Flushes that a rank decided: the top card (`index` 0) or a lower one."""
    match rules.flushes:
        case Flushes.SUIT_FIRST if index == 0:
            message = gettext(
                "Both are flushes in %(suit)s: the higher top card wins, %(win)s beats %(lose)s"
            )
        case Flushes.SUIT_FIRST:
            message = gettext(
                "Both are flushes in %(suit)s with the same top cards: the highest card that"
                " differs decides, %(win)s beats %(lose)s"
            )
        case Flushes.TOP_CARD:
            message = gettext(
                "Both are flushes: the higher top card wins, %(win)s beats %(lose)s — the suit"
                " only breaks a tie"
            )
        case _ if index == 0:  # Flushes.POKER
            message = gettext(
                "Both are flushes: as in poker the higher top card wins, %(win)s beats %(lose)s"
            )
        case _:
            message = gettext(
                "Both are flushes with the same top cards: as in poker the highest card that"
                " differs decides, %(win)s beats %(lose)s"
            )
    return message % {"suit": suit, "win": win.label, "lose": lose.label}


# The order of straights under each rule but the standard, whose sentence names it already.
_RUN_ORDERS = {
    Straights.ACE_TWO_HIGH: gettext_noop(
        "3-4-5-6-7 (lowest), 4-5-6-7-8 … 10-J-Q-K-A, 2-3-4-5-6, A-2-3-4-5 (highest)"
    ),
    Straights.NO_ACE_LOW: gettext_noop("2-3-4-5-6 (lowest), 3-4-5-6-7 … 10-J-Q-K-A (highest)"),
    Straights.TWO_HIGH: gettext_noop(
        "3-4-5-6-7 (lowest), 4-5-6-7-8 … 10-J-Q-K-A, J-Q-K-A-2 (highest)"
    ),
    Straights.INDONESIAN: gettext_noop(
        "3-4-5-6-7 (lowest), 4-5-6-7-8 … 10-J-Q-K-A, A-2-3-4-5, 2-3-4-5-6 (highest)"
    ),
}


def _why_run(winner: Play, loser: Play, rules: RuleSet) -> str:
    """Straights and straight flushes: by sequence, then by the top card's suit."""
    plural = gettext("straights") if winner.kind is Kind.STRAIGHT else gettext("straight flushes")
    win_run, lose_run = run_text(winner), run_text(loser)
    values = {
        "kinds": plural,
        "kind": winner.kind.label,
        "win": win_run,
        "lose": lose_run,
        "win_card": winner.cards[-1],
        "lose_card": loser.cards[-1],
    }
    if win_run == lose_run:
        message = gettext(
            "Both are %(kinds)s %(win)s: the top card's suit decides, %(win_card)s beats"
            " %(lose_card)s"
        )
        return _by_suit(message % values, rules)
    if rules.straights is Straights.INDONESIAN and _holds_a_two(winner):
        return _why_indonesian(loser, values)
    if rules.straights is not Straights.STANDARD:
        message = gettext(
            "Both are %(kinds)s: %(win)s is above %(lose)s — under these rules the order runs"
            " %(order)s"
        )
        return message % (values | {"order": gettext(_RUN_ORDERS[rules.straights])})
    if loser.key[1] == 0:
        message = gettext(
            "%(lose)s is the lowest %(kind)s (its top card is the 5); %(win)s is above it"
        )
    else:
        message = gettext(
            "Both are %(kinds)s: %(win)s is above %(lose)s — the order runs "
            "A-2-3-4-5 (lowest), 2-3-4-5-6, 3-4-5-6-7 … 10-J-Q-K-A (highest)"
        )
    return message % values


def _holds_a_two(play: Play) -> bool:
    return any(card.rank is Rank.TWO for card in play.cards)


def _why_indonesian(loser: Play, values: dict[str, object]) -> str:
    """Indonesian straights, won by a run holding a 2: over one without, or over the other."""
    if _holds_a_two(loser):
        message = gettext(
            "Both are %(kinds)s holding a 2: %(win)s is above %(lose)s — between them the top"
            " card decides, as in the standard order"
        )
    else:
        message = gettext(
            "Both are %(kinds)s: %(win)s holds a 2, and under Indonesian straights a"
            " %(kind)s with a 2 beats every %(kind)s without one"
        )
    return message % values
