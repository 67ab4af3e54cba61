"""The rules in force, as one value: the pagat.com rules are the default.

House rules (another suit order, other straights, flushes, penalties or finish line) are other
`RuleSet` values, never `if` statements scattered through the engine. Every choice is an enum
member, and every member has a token: a rule set's `name` joins the tokens of its non-default
choices, and `parse_rules` reads a name (or anything a person might type) back.

>>> DEFAULT_RULES.label
'Standard rules'
>>> DEFAULT_RULES.suit_strength(Suit.SPADES) > DEFAULT_RULES.suit_strength(Suit.DIAMONDS)
True
>>> rules = parse_rules("Pusoy-Dos poker-flushes twos-double")
>>> rules.name
'pusoy-dos-suits,poker-flushes,twos-double'
>>> rules.label
'Pusoy Dos suits (♣ < ♠ < ♥ < ♦), poker flushes, twos rule'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from functools import cache

from rules.cards import Rank, Suit
from rules.i18n import gettext, gettext_noop, pgettext

DEFAULT_TARGET = 100
DEFAULT_DEALS = 10
# Bounds that keep a rule set's name short enough for a database column of 200 characters, and
# far beyond any game a table would play.
MAX_TARGET = 10_000
MAX_DEALS = 1_000


class SuitOrder(StrEnum):
    """Which suit breaks ties, lowest first; the 3 of the lowest suit opens every deal.

    >>> [suit.symbol for suit in SuitOrder.PUSOY_DOS.order]
    ['♣', '♠', '♥', '♦']
    >>> SuitOrder.BRIDGE.label
    'Bridge suits (♣ < ♦ < ♥ < ♠)'
    """

    STANDARD = "standard-suits"
    PUSOY_DOS = "pusoy-dos-suits"
    BRIDGE = "bridge-suits"

    @property
    def order(self) -> tuple[Suit, ...]:
        """The four suits, lowest first."""
        return _SUIT_ORDERS[self]

    @property
    def label(self) -> str:
        return gettext(_SUIT_ORDER_LABELS[self])

    @property
    def explained(self) -> str:
        return gettext(_SUIT_ORDER_HELP[self])


_SUIT_ORDERS = {
    SuitOrder.STANDARD: (Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES),
    SuitOrder.PUSOY_DOS: (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS),
    SuitOrder.BRIDGE: (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES),
}
# Suit → 0 (lowest) … 3 (highest), per order: `suit_strength` runs for every card classified.
_SUIT_STRENGTHS = {
    suits: {suit: strength for strength, suit in enumerate(order)}
    for suits, order in _SUIT_ORDERS.items()
}
_SUIT_ORDER_LABELS = {
    SuitOrder.STANDARD: gettext_noop("standard suits (♦ < ♣ < ♥ < ♠)"),
    SuitOrder.PUSOY_DOS: gettext_noop("Pusoy Dos suits (♣ < ♠ < ♥ < ♦)"),
    SuitOrder.BRIDGE: gettext_noop("Bridge suits (♣ < ♦ < ♥ < ♠)"),
}
_SUIT_ORDER_HELP = {
    SuitOrder.STANDARD: gettext_noop(
        "Diamonds lowest, then clubs, hearts and spades highest; the 3♦ opens every deal."
    ),
    SuitOrder.PUSOY_DOS: gettext_noop(
        "As in the Philippines: clubs lowest, then spades, hearts and diamonds highest;"
        " the 3♣ opens every deal."
    ),
    SuitOrder.BRIDGE: gettext_noop(
        "As at some tables in Taiwan and Hong Kong: clubs lowest, then diamonds, hearts and"
        " spades highest; the 3♣ opens every deal."
    ),
}


class Straights(StrEnum):
    """Which five ranks in a row make a straight, and how straights rank.

    >>> ["-".join(rank.label for rank in run) for run in Straights.TWO_HIGH.runs[-2:]]
    ['10-J-Q-K-A', 'J-Q-K-A-2']
    >>> ["-".join(rank.label for rank in run) for run in Straights.ACE_TWO_HIGH.runs[-3:]]
    ['10-J-Q-K-A', '2-3-4-5-6', 'A-2-3-4-5']
    """

    STANDARD = "standard-straights"
    ACE_TWO_HIGH = "ace-two-high-straights"
    NO_ACE_LOW = "no-ace-low-straights"
    TWO_HIGH = "two-high-straights"

    @property
    def runs(self) -> tuple[tuple[Rank, ...], ...]:
        """Every straight's ranks in the order its cards are shown, lowest straight first."""
        return _RUNS[self]

    @property
    def label(self) -> str:
        return gettext(_STRAIGHTS_LABELS[self])

    @property
    def explained(self) -> str:
        return gettext(_STRAIGHTS_HELP[self])


def _windows(line: tuple[Rank, ...]) -> tuple[tuple[Rank, ...], ...]:
    return tuple(line[i : i + 5] for i in range(len(line) - 4))


# Under the standard rules the 2 counts below the 3 in straights and the ace at either end, so
# runs are windows of five over A 2 3 … K A, from A-2-3-4-5 (lowest) to 10-J-Q-K-A (highest).
_ACE_AT_BOTH_ENDS = (Rank.ACE, Rank.TWO, *(rank for rank in Rank if rank != Rank.TWO))
_STANDARD_RUNS = _windows(_ACE_AT_BOTH_ENDS)
_RUNS = {
    Straights.STANDARD: _STANDARD_RUNS,
    # The same ten runs, but the two holding a 2 jump to the top, A-2-3-4-5 highest of all.
    Straights.ACE_TWO_HIGH: (*_STANDARD_RUNS[2:], _STANDARD_RUNS[1], _STANDARD_RUNS[0]),
    Straights.NO_ACE_LOW: _STANDARD_RUNS[1:],
    # The 2 keeps its Big Two place above the ace: windows over 3 4 … K A 2.
    Straights.TWO_HIGH: _windows(tuple(Rank)),
}
_STRAIGHTS_LABELS = {
    Straights.STANDARD: gettext_noop("standard straights"),
    Straights.ACE_TWO_HIGH: gettext_noop("A-2-3-4-5 the highest straight"),
    Straights.NO_ACE_LOW: gettext_noop("no A-2-3-4-5 straight"),
    Straights.TWO_HIGH: gettext_noop("twos high in straights"),
}
_STRAIGHTS_HELP = {
    Straights.STANDARD: gettext_noop(
        "A-2-3-4-5 is the lowest straight, then 2-3-4-5-6, up to 10-J-Q-K-A, the highest;"
        " J-Q-K-A-2 is no straight."
    ),
    Straights.ACE_TWO_HIGH: gettext_noop(
        "A-2-3-4-5 is the highest straight, then 2-3-4-5-6, then 10-J-Q-K-A down to"
        " 3-4-5-6-7, the lowest."
    ),
    Straights.NO_ACE_LOW: gettext_noop(
        "A-2-3-4-5 is no straight: 2-3-4-5-6 is the lowest, up to 10-J-Q-K-A, the highest."
    ),
    Straights.TWO_HIGH: gettext_noop(
        "The 2 ranks high in straights too: 3-4-5-6-7 is the lowest, up to J-Q-K-A-2, the"
        " highest; A-2-3-4-5 and 2-3-4-5-6 are no straights."
    ),
}


class Flushes(StrEnum):
    """How two flushes compare (a flush is five cards of one suit that are not a straight)."""

    SUIT_FIRST = "suit-first-flushes"
    TOP_CARD = "top-card-flushes"
    POKER = "poker-flushes"

    @property
    def label(self) -> str:
        return gettext(_FLUSHES_LABELS[self])

    @property
    def explained(self) -> str:
        return gettext(_FLUSHES_HELP[self])


_FLUSHES_LABELS = {
    Flushes.SUIT_FIRST: gettext_noop("flushes by suit first"),
    Flushes.TOP_CARD: gettext_noop("flushes by top card"),
    Flushes.POKER: gettext_noop("poker flushes"),
}
_FLUSHES_HELP = {
    Flushes.SUIT_FIRST: gettext_noop(
        "A flush in a higher suit beats any flush in a lower suit; within one suit the highest"
        " card decides."
    ),
    Flushes.TOP_CARD: gettext_noop(
        "The highest card decides; the suit only breaks a tie between flushes with the same top"
        " card, and the lower cards don't count."
    ),
    Flushes.POKER: gettext_noop(
        "Card by card from the top, as in poker; the suit decides only between flushes of the"
        " same five ranks."
    ),
}


class PenaltyScale(StrEnum):
    """What each card left in hand costs when another player goes out.

    >>> [(band.first, band.last, band.per_card) for band in PenaltyScale.DOUBLING.bands(13)]
    [(1, 7, 1), (8, 9, 2), (10, 13, 4)]
    """

    STANDARD = "standard-penalties"
    FLAT = "flat-penalties"
    HEAVY = "heavy-penalties"
    DOUBLING = "doubling-penalties"

    def bands(self, hand_size: int = 13) -> tuple[PenaltyBand, ...]:
        """The bands from 1 to `hand_size` cards left; the top band stretches to cover it."""
        return _bands(self, hand_size)

    @property
    def label(self) -> str:
        return gettext(_PENALTY_LABELS[self])

    @property
    def explained(self) -> str:
        return gettext(_PENALTY_HELP[self])


@dataclass(frozen=True, slots=True)
class PenaltyBand:
    """Everyone left holding `first`–`last` cards pays `per_card` points for each of them.

    >>> PenaltyBand(10, 12, 2).covers(11)
    True
    """

    first: int
    last: int
    per_card: int

    def covers(self, cards_left: int) -> bool:
        return self.first <= cards_left <= self.last


# (first card count, points a card) for each band; a band ends where the next begins, and the
# last one at the most cards a player can hold.
_BAND_STARTS = {
    # The untouched hand of 13 costs 39, which is simply 3 points a card.
    PenaltyScale.STANDARD: ((1, 1), (10, 2), (13, 3)),
    PenaltyScale.FLAT: ((1, 1),),
    PenaltyScale.HEAVY: ((1, 1), (8, 2), (10, 3), (13, 4)),
    PenaltyScale.DOUBLING: ((1, 1), (8, 2), (10, 4)),
}


@cache
def _bands(scale: PenaltyScale, hand_size: int) -> tuple[PenaltyBand, ...]:
    starts = _BAND_STARTS[scale]
    ends = [first - 1 for first, _ in starts[1:]] + [hand_size]
    return tuple(
        PenaltyBand(first, last, per_card)
        for (first, per_card), last in zip(starts, ends, strict=True)
    )


STANDARD_PENALTIES = PenaltyScale.STANDARD.bands(13)

_PENALTY_LABELS = {
    PenaltyScale.STANDARD: gettext_noop("standard penalties"),
    PenaltyScale.FLAT: gettext_noop("flat penalties"),
    PenaltyScale.HEAVY: gettext_noop("heavy penalties"),
    PenaltyScale.DOUBLING: gettext_noop("doubling penalties"),
}
_PENALTY_HELP = {
    PenaltyScale.STANDARD: gettext_noop(
        "1 point a card for 1–9 cards, 2 a card for 10–12, 3 a card for 13 or more (13 cost 39)."
    ),
    PenaltyScale.FLAT: gettext_noop("1 point a card, however many are left."),
    PenaltyScale.HEAVY: gettext_noop(
        "1 point a card for 1–7 cards, double for 8–9, treble for 10–12, quadruple for 13 or"
        " more (13 cost 52)."
    ),
    PenaltyScale.DOUBLING: gettext_noop(
        "1 point a card for 1–7 cards, double for 8–9 and double again from 10: ten cards"
        " cost 40, eleven 44."
    ),
}


class TwosRule(StrEnum):
    """Whether going out on twos, or being caught holding them, doubles penalties.

    Under EACH_TWO a player's penalty doubles once for every two left in their hand whether or
    not the winner went out on twos; going out on twos doubles everyone's once more, as under
    DOUBLE. So nine cards holding two twos cost 9 × 2 × 2 = 36, or 72 after a two went out last.
    """

    OFF = "no-twos-rule"
    DOUBLE = "twos-double"
    EACH_TWO = "twos-double-each"

    @property
    def label(self) -> str:
        return gettext(_TWOS_LABELS[self])

    @property
    def explained(self) -> str:
        return gettext(_TWOS_HELP[self])


_TWOS_LABELS = {
    TwosRule.OFF: gettext_noop("no twos rule"),
    TwosRule.DOUBLE: gettext_noop("twos rule"),
    TwosRule.EACH_TWO: gettext_noop("twos rule doubled per two held"),
}
_TWOS_HELP = {
    TwosRule.OFF: gettext_noop("Going out on a two, or holding twos, changes nothing."),
    TwosRule.DOUBLE: gettext_noop(
        "When the winner goes out on a play of nothing but twos, everyone else's penalty doubles."
    ),
    TwosRule.EACH_TWO: gettext_noop(
        "As the twos rule, and each player's penalty doubles again for every two left in their"
        " hand: nine cards with two twos after the winner went out on a two cost"
        " 9 × 2 × 2 × 2 = 72."
    ),
}


class Finish(StrEnum):
    """When a match is over. Whatever the finish, the lowest total alone wins; a tie plays on.

    TARGET and DEALS take their number from the rule set (`target`, `deals`), so their tokens
    carry it: `to-100`, `10-deals`. OPEN's token is its value, `open-ended`.
    """

    TARGET = "target"
    DEALS = "deals"
    OPEN = "open-ended"

    @property
    def label(self) -> str:
        return gettext(_FINISH_LABELS[self])

    @property
    def explained(self) -> str:
        return gettext(_FINISH_HELP[self])


_FINISH_LABELS = {
    Finish.TARGET: gettext_noop("to a target score"),
    Finish.DEALS: gettext_noop("a set number of deals"),
    Finish.OPEN: gettext_noop("open-ended"),
}
_FINISH_HELP = {
    Finish.TARGET: gettext_noop(
        "The match ends after the deal that takes someone to the target score, and the lowest"
        " total wins; a tie for lowest plays on until one player is lowest alone."
    ),
    Finish.DEALS: gettext_noop(
        "The match ends after the agreed number of deals, and the lowest total wins; a tie for"
        " lowest plays on, one deal at a time."
    ),
    Finish.OPEN: gettext_noop(
        "The match goes on until the scorekeeper ends it, and the lowest total wins; it can't"
        " be ended while the lowest total is shared."
    ),
}


class Players(IntEnum):
    """How many play: a value for `RuleSet.players`, with a token and words for each count.

    >>> Players(3).token, Players.THREE.label
    ('3-players', '3 players')
    """

    FOUR = 4
    THREE = 3
    TWO = 2

    @property
    def token(self) -> str:
        return f"{self.value}-players"

    @property
    def label(self) -> str:
        return gettext("%(count)s players") % {"count": self.value}

    @property
    def explained(self) -> str:
        return gettext(_PLAYERS_HELP[self])


_PLAYERS_HELP = {
    Players.FOUR: gettext_noop("13 cards each, the whole pack."),
    Players.THREE: gettext_noop(
        "17 cards each, and the holder of the lowest 3 takes the last card: up to 18 in hand."
    ),
    Players.TWO: gettext_noop("13 cards each; the other 26 are set aside unseen."),
}

# The options a table chooses, by RuleSet field, with the name of each for a settings form.
OPTIONS: dict[str, type[StrEnum] | type[IntEnum]] = {
    "suits": SuitOrder,
    "straights": Straights,
    "flushes": Flushes,
    "penalties": PenaltyScale,
    "twos": TwosRule,
    "finish": Finish,
    "players": Players,
}
# Lower case first, to sit inside a sentence; `option_label` capitalises them for a form.
_OPTION_LABELS = {
    "suits": gettext_noop("suit order"),
    "straights": gettext_noop("straights"),
    "flushes": gettext_noop("flushes"),
    "penalties": gettext_noop("penalties"),
    "twos": gettext_noop("twos rule"),
    "finish": gettext_noop("end of the match"),
    "players": gettext_noop("number of players"),
}


def option_label(option: str) -> str:
    """The name of one of the `OPTIONS`, e.g. "Suit order" for "suits"."""
    return _capitalised(gettext(_OPTION_LABELS[option]))


def _capitalised(text: str) -> str:
    # Only the first letter: "Pusoy Dos" and "A-2-3-4-5" keep their capitals.
    return text[:1].upper() + text[1:]


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Everything a table could agree differently on. The defaults are the site's rule book.

    `target` counts only when the finish is TARGET and `deals` only when it is DEALS; each must
    keep its default otherwise, so one rule set has one name.

    >>> RuleSet(penalties=PenaltyScale.DOUBLING, finish=Finish.DEALS, deals=8).name
    'doubling-penalties,8-deals'
    >>> RuleSet(players=3).hand_size, RuleSet(players=3).penalty_bands[-1]
    (18, PenaltyBand(first=13, last=18, per_card=3))
    """

    suits: SuitOrder = SuitOrder.STANDARD
    straights: Straights = Straights.STANDARD
    flushes: Flushes = Flushes.SUIT_FIRST
    penalties: PenaltyScale = PenaltyScale.STANDARD
    twos: TwosRule = TwosRule.OFF
    finish: Finish = Finish.TARGET
    target: int = DEFAULT_TARGET
    deals: int = DEFAULT_DEALS
    players: int = 4

    def __post_init__(self) -> None:
        # A bad rule set would give wrong answers far from where it was made; refuse it here.
        for option, choices in OPTIONS.items():
            if option != "players" and not isinstance(getattr(self, option), choices):
                raise ValueError(
                    f"{option} must be a {choices.__name__}, not {getattr(self, option)!r}"
                )
        if self.players not in (2, 3, 4):
            raise ValueError(f"players must be 2, 3 or 4, not {self.players!r}")
        if not 1 <= self.target <= MAX_TARGET:
            raise ValueError(f"target must be between 1 and {MAX_TARGET}, not {self.target}")
        if not 1 <= self.deals <= MAX_DEALS:
            raise ValueError(f"deals must be between 1 and {MAX_DEALS}, not {self.deals}")
        if self.finish is not Finish.TARGET and self.target != DEFAULT_TARGET:
            raise ValueError("target only counts when the finish is Finish.TARGET")
        if self.finish is not Finish.DEALS and self.deals != DEFAULT_DEALS:
            raise ValueError("deals only counts when the finish is Finish.DEALS")

    @property
    def suit_order(self) -> tuple[Suit, ...]:
        """The four suits, lowest first."""
        return self.suits.order

    def suit_strength(self, suit: Suit) -> int:
        """0 for the lowest suit up to 3 for the highest."""
        return _SUIT_STRENGTHS[self.suits][suit]

    @property
    def hand_size(self) -> int:
        """The most cards a player can be left holding: 18 with three players, else 13."""
        return 18 if self.players == 3 else 13

    @property
    def penalty_bands(self) -> tuple[PenaltyBand, ...]:
        return self.penalties.bands(self.hand_size)

    def _changed_choices(self) -> list[StrEnum]:
        """The enum choices (all but the finish and players) that differ from the defaults."""
        return [
            choice
            for choice, default in (
                (self.suits, SuitOrder.STANDARD),
                (self.straights, Straights.STANDARD),
                (self.flushes, Flushes.SUIT_FIRST),
                (self.penalties, PenaltyScale.STANDARD),
                (self.twos, TwosRule.OFF),
            )
            if choice is not default
        ]

    @property
    def tokens(self) -> tuple[str, ...]:
        """The tokens of the choices that differ from the defaults, in field order."""
        tokens = [choice.value for choice in self._changed_choices()]
        match self.finish:
            case Finish.TARGET if self.target != DEFAULT_TARGET:
                tokens.append(f"to-{self.target}")
            case Finish.DEALS:
                tokens.append(f"{self.deals}-deals")
            case Finish.OPEN:
                tokens.append(Finish.OPEN.value)
        if self.players != 4:
            tokens.append(Players(self.players).token)
        return tuple(tokens)

    @property
    def name(self) -> str:
        """The canonical name, for URLs and storage: "standard", or the tokens of the choices
        that differ from the defaults, comma-joined in field order. `parse_rules` reads it back.
        """
        return ",".join(self.tokens) or "standard"

    @property
    def finish_label(self) -> str:
        """The finish with its number: "to 100 points", "10 deals" or "open-ended"."""
        match self.finish:
            case Finish.TARGET:
                return gettext("to %(target)s points") % {"target": self.target}
            case Finish.DEALS:
                return gettext("%(deals)s deals") % {"deals": self.deals}
            case _:
                return Finish.OPEN.label

    @property
    def label(self) -> str:
        """The rules in force in a short line: "Standard rules", or each choice that differs."""
        labels = [choice.label for choice in self._changed_choices()]
        if self.finish is not Finish.TARGET or self.target != DEFAULT_TARGET:
            labels.append(self.finish_label)
        if self.players != 4:
            labels.append(Players(self.players).label)
        if not labels:
            return gettext("Standard rules")
        return _capitalised(pgettext("between house rules in a list", ", ").join(labels))


DEFAULT_RULES = RuleSet()


class UnknownRules(ValueError):
    """Text that names no rule set; the message says which token is wrong and why."""


# Token → the RuleSet fields it sets. Finish tokens with a number are matched by pattern.
_TOKENS: dict[str, dict[str, object]] = {
    **{
        choice.value: {option: choice}
        for option, choices in OPTIONS.items()
        if option not in ("finish", "players")
        for choice in choices
    },
    Finish.OPEN.value: {"finish": Finish.OPEN},
    **{players.token: {"players": int(players)} for players in Players},
    "pusoy-dos": {"suits": SuitOrder.PUSOY_DOS},
    "bridge": {"suits": SuitOrder.BRIDGE},
}
_TARGET_TOKEN = re.compile(r"to-([0-9]+)")
_DEALS_TOKEN = re.compile(r"([0-9]+)-deals")
_SEPARATORS = re.compile(r"[\s,]+")


def parse_rules(text: str) -> RuleSet:
    """The rule set named by tokens in any order, any case, separated by commas or spaces.

    "standard" (or nothing at all) leaves every option at its default; "pusoy-dos" and
    "bridge" are short for the suit orders.

    >>> parse_rules("to-50, BRIDGE").name
    'bridge-suits,to-50'
    >>> parse_rules("") == parse_rules("standard") == DEFAULT_RULES
    True
    >>> parse_rules("bridge pusoy-dos")
    Traceback (most recent call last):
    ...
    rules.ruleset.UnknownRules: 'bridge' and 'pusoy-dos' both choose the suit order: keep one
    """
    chosen: dict[str, tuple[str, dict[str, object]]] = {}
    for token in _SEPARATORS.split(text.strip()):
        if token.lower() in ("", "standard"):
            continue
        settings = _settings(token)
        option = next(iter(settings))
        if option in chosen and chosen[option][1] != settings:
            raise UnknownRules(
                gettext("'%(first)s' and '%(second)s' both choose the %(option)s: keep one")
                % {
                    "first": _shown(chosen[option][0]),
                    "second": _shown(token),
                    "option": gettext(_OPTION_LABELS[option]),
                }
            )
        chosen[option] = (token, settings)
    values = {field: value for _, settings in chosen.values() for field, value in settings.items()}
    return RuleSet(**values)


def _settings(token: str) -> dict[str, object]:
    """The fields one token sets, the option it chooses first; UnknownRules if none."""
    lowered = token.lower()
    if lowered in _TOKENS:
        return _TOKENS[lowered]
    if match := _TARGET_TOKEN.fullmatch(lowered):
        return {"finish": Finish.TARGET, "target": _number(token, match[1], MAX_TARGET)}
    if match := _DEALS_TOKEN.fullmatch(lowered):
        return {"finish": Finish.DEALS, "deals": _number(token, match[1], MAX_DEALS)}
    raise UnknownRules(
        gettext("'%(token)s' is not a house rule: choose from %(tokens)s")
        % {"token": _shown(token), "tokens": ", ".join(_KNOWN_TOKENS)}
    )


def _number(token: str, digits: str, most: int) -> int:
    # Count the digits first: int() refuses thousands of them with a ValueError of its own.
    significant = digits.lstrip("0")
    if len(significant) > len(str(most)) or not 1 <= int(significant or "0") <= most:
        raise UnknownRules(
            gettext("'%(token)s' is not a house rule: the number must be between 1 and %(most)s")
            % {"token": _shown(token), "most": most}
        )
    return int(significant)


def _shown(token: str) -> str:
    # Whatever was typed is echoed back, but not a page of it.
    return token if len(token) <= 30 else f"{token[:29]}…"


_KNOWN_TOKENS = (
    "standard",
    *(choice.value for choices in (SuitOrder, Straights, Flushes, PenaltyScale, TwosRule)
      for choice in choices),
    "to-N",
    "N-deals",
    Finish.OPEN.value,
    *(players.token for players in Players),
)  # fmt: skip
