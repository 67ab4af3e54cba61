"""The rules in force, as one value: the pagat.com rules are the default.

House rules (another suit order, other straights, flushes, penalties or finish line) are other
`RuleSet` values, never `if` statements scattered through the engine. Every choice is a member
of one of the enums in `rules.options`, and every member has a token: a rule set's `name`
joins the tokens of its non-default choices, and `parse_rules` reads a name (or anything a
person might type) back.

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

from rules.cards import Suit  # noqa: F401 (the doctests use Suit)
from rules.i18n import gettext, gettext_noop, pgettext
from rules.options import (
    SUIT_STRENGTHS,
    Finish,
    Flushes,
    PenaltyBand,
    PenaltyScale,
    Players,
    Straights,
    SuitOrder,
    TwosRule,
)

DEFAULT_TARGET = 100
DEFAULT_DEALS = 10
# Bounds that keep a rule set's name short enough for a database column of 200 characters, and
# far beyond any game a table would play.
MAX_TARGET = 10_000
MAX_DEALS = 1_000


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
        return SUIT_STRENGTHS[self.suits][suit]

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
