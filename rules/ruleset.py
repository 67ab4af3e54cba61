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
from enum import IntEnum

from rules.cards import Suit  # noqa: F401 (the doctests use Suit)
from rules.choices import Choice
from rules.deal_options import (
    DECK_SIZE,
    Dragon,
    DrawOnPass,
    Lead,
    PaysForTable,
    Scoring,
    TwoPlayerDeal,
)
from rules.i18n import gettext, pgettext
from rules.options import (
    OPTION_LABELS,
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
from rules.penalty_scales import (
    DEFAULT_DOUBLED_FROM,
    doubled_from_problem,
    doubled_from_settings,
    doubled_from_token,
    scale_label,
    scale_token,
)
from rules.rule_clashes import clashes

DEFAULT_TARGET = 100
DEFAULT_DEALS = 10
# Bounds that keep a rule set's name short enough for a database column of 200 characters, and
# far beyond any game a table would play. A site bounds the deals of a game more tightly (its
# GAME_MAX_DEALS, 500 unless set) and refuses rules whose match would outlast that:
# `rules.presets.deals_to_finish` says about how many deals a match takes.
MAX_TARGET = 10_000
MAX_DEALS = 1_000


# The options a table chooses, by RuleSet field, with the name of each for a settings form.
# `two_player_deal` counts only with two players, as `target` only with Finish.TARGET.
OPTIONS: dict[str, type[Choice] | type[IntEnum]] = {
    "suits": SuitOrder,
    "straights": Straights,
    "flushes": Flushes,
    "penalties": PenaltyScale,
    "twos": TwosRule,
    "scoring": Scoring,
    "dragon": Dragon,
    "pays_for_table": PaysForTable,
    "finish": Finish,
    "players": Players,
    "two_player_deal": TwoPlayerDeal,
    "draw_on_pass": DrawOnPass,
    "lead": Lead,
}
# The options whose value is a number rather than a Choice.
_NUMBER_OPTIONS = ("players", "two_player_deal")


def option_label(option: str) -> str:
    """The name of one of the `OPTIONS`, e.g. "Suit order" for "suits"."""
    return _capitalised(gettext(OPTION_LABELS[option]))


def _capitalised(text: str) -> str:
    # Only the first letter: "Pusoy Dos" and "A-2-3-4-5" keep their capitals.
    return text[:1].upper() + text[1:]


class UnknownRules(ValueError):
    """Text that names no rule set, or choices that clash; the message says which token is
    wrong and why."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Everything a table could agree differently on. The defaults are the site's rule book.

    `target` counts only when the finish is TARGET, `deals` only when it is DEALS,
    `doubled_from` only on the DOUBLED_FROM penalty scale and `two_player_deal` only with two
    players; each must keep its default otherwise, so one rule set has one name. Choices that
    can't be played together (`rules.rule_clashes`) are refused with UnknownRules, saying why.

    >>> RuleSet(penalties=PenaltyScale.DOUBLING, finish=Finish.DEALS, deals=8).name
    'doubling-penalties,8-deals'
    >>> RuleSet(players=3).hand_size, RuleSet(players=3).penalty_bands[-1]
    (18, PenaltyBand(first=13, last=18, per_card=3))
    >>> RuleSet(players=2, two_player_deal=17, draw_on_pass=DrawOnPass.ON).hand_size
    35
    >>> RuleSet(penalties=PenaltyScale.DOUBLED_FROM, doubled_from=8).label
    'Doubled from 8 cards'
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
    scoring: Scoring = Scoring.CARDS_LEFT
    lead: Lead = Lead.LOWEST_THREE
    dragon: Dragon = Dragon.OFF
    pays_for_table: PaysForTable = PaysForTable.OFF
    draw_on_pass: DrawOnPass = DrawOnPass.OFF
    two_player_deal: int = TwoPlayerDeal.THIRTEEN
    doubled_from: int = DEFAULT_DOUBLED_FROM

    def __post_init__(self) -> None:
        # A bad rule set would give wrong answers far from where it was made; refuse it here.
        for option, choices in OPTIONS.items():
            if option not in _NUMBER_OPTIONS and not isinstance(getattr(self, option), choices):
                raise ValueError(
                    f"{option} must be a {choices.__name__}, not {getattr(self, option)!r}"
                )
        if self.players not in (2, 3, 4):
            raise ValueError(f"players must be 2, 3 or 4, not {self.players!r}")
        if self.two_player_deal not in (13, 17, 21):
            raise ValueError(f"two_player_deal must be 13, 17 or 21, not {self.two_player_deal!r}")
        if self.players != 2 and self.two_player_deal != TwoPlayerDeal.THIRTEEN:
            raise ValueError("two_player_deal only counts with two players")
        if not 1 <= self.target <= MAX_TARGET:
            raise ValueError(f"target must be between 1 and {MAX_TARGET}, not {self.target}")
        if not 1 <= self.deals <= MAX_DEALS:
            raise ValueError(f"deals must be between 1 and {MAX_DEALS}, not {self.deals}")
        if self.finish is not Finish.TARGET and self.target != DEFAULT_TARGET:
            raise ValueError("target only counts when the finish is Finish.TARGET")
        if self.finish is not Finish.DEALS and self.deals != DEFAULT_DEALS:
            raise ValueError("deals only counts when the finish is Finish.DEALS")
        if problem := doubled_from_problem(self.penalties, self.doubled_from):
            raise ValueError(problem)
        if problems := clashes(self):
            raise UnknownRules(gettext("; ").join(problems))

    @property
    def suit_order(self) -> tuple[Suit, ...]:
        """The four suits, lowest first."""
        return self.suits.order

    def suit_strength(self, suit: Suit) -> int:
        """0 for the lowest suit up to 3 for the highest."""
        return SUIT_STRENGTHS[self.suits][suit]

    @property
    def cards_dealt(self) -> int:
        """Cards dealt to each player: 13 with four; 17 with three (and the 18th to the holder
        of the lowest 3), or 13 with draw-on-pass; 13, 17 or 21 with two."""
        if self.players == 2:
            return self.two_player_deal
        if self.players == 3 and self.draw_on_pass is DrawOnPass.OFF:
            return 17
        return 13

    @property
    def whole_pack_dealt(self) -> bool:
        """Every card is in a hand, so the lowest 3 is too: four players, or three without a
        stock. Otherwise the lowest card dealt opens."""
        return self.players == 4 or (self.players == 3 and self.draw_on_pass is DrawOnPass.OFF)

    @property
    def hand_size(self) -> int:
        """The most cards a player can be left holding: 13 with four players, 18 with three
        (the 17 dealt and the last card); with two, the cards dealt. With draw-on-pass, a hand
        can take the whole stock: the pack less what the others were dealt."""
        if self.players == 2 and self.draw_on_pass is DrawOnPass.OFF:
            return self.two_player_deal
        return DECK_SIZE - (self.players - 1) * self.cards_dealt

    @property
    def penalty_bands(self) -> tuple[PenaltyBand, ...]:
        return self.penalties.bands(self.hand_size, self.doubled_from)

    def _changed(self, *options: str) -> list[Choice]:
        """The choices of these options (Choice ones) that differ from the defaults."""
        return [
            getattr(self, option)
            for option in options
            if getattr(self, option) is not getattr(DEFAULT_RULES, option)
        ]

    def _changed_choices(self) -> list[Choice]:
        """The choices named before the finish: how plays compare and how a deal is scored."""
        return self._changed(*_BEFORE_THE_FINISH)

    @property
    def _players_token(self) -> str | None:
        if self.players == 2:
            return TwoPlayerDeal(self.two_player_deal).token
        return Players(self.players).token if self.players != 4 else None

    @property
    def tokens(self) -> tuple[str, ...]:
        """The tokens of the choices that differ from the defaults, in field order."""
        tokens = [scale_token(choice, self.doubled_from) for choice in self._changed_choices()]
        match self.finish:
            case Finish.TARGET if self.target != DEFAULT_TARGET:
                tokens.append(f"to-{self.target}")
            case Finish.DEALS:
                tokens.append(f"{self.deals}-deals")
            case Finish.OPEN:
                tokens.append(Finish.OPEN.value)
        if self._players_token is not None:
            tokens.append(self._players_token)
        tokens += [choice.value for choice in self._changed(*_AFTER_THE_PLAYERS)]
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
        labels = [scale_label(choice, self.doubled_from) for choice in self._changed_choices()]
        if self.finish is not Finish.TARGET or self.target != DEFAULT_TARGET:
            labels.append(self.finish_label)
        if self.players == 2 and self.two_player_deal != TwoPlayerDeal.THIRTEEN:
            labels.append(TwoPlayerDeal(self.two_player_deal).label)
        elif self.players != 4:
            labels.append(Players(self.players).label)
        labels += [choice.label for choice in self._changed(*_AFTER_THE_PLAYERS)]
        if not labels:
            return gettext("Standard rules")
        return _capitalised(pgettext("between house rules in a list", ", ").join(labels))


# A name lists its tokens in this order: these, then the finish and the players, then the rest.
# New options go last in their group, so every older rule set keeps its name.
_BEFORE_THE_FINISH = (
    "suits",
    "straights",
    "flushes",
    "penalties",
    "twos",
    "scoring",
    "dragon",
    "pays_for_table",
)
_AFTER_THE_PLAYERS = ("draw_on_pass", "lead")


DEFAULT_RULES = RuleSet()


# Token → the RuleSet fields it sets. Finish tokens with a number are matched by pattern.
_TOKENS: dict[str, dict[str, object]] = {
    **{
        choice.value: {option: choice}
        for option, choices in OPTIONS.items()
        if option not in ("finish", *_NUMBER_OPTIONS)
        for choice in choices
        if choice is not PenaltyScale.DOUBLED_FROM
    },
    Finish.OPEN.value: {"finish": Finish.OPEN},
    **{players.token: {"players": int(players)} for players in Players},
    **{
        deal.token: {"players": 2, "two_player_deal": int(deal)}
        for deal in TwoPlayerDeal
        if deal is not TwoPlayerDeal.THIRTEEN
    },
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
                    "option": gettext(OPTION_LABELS[option]),
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
    if (settings := doubled_from_settings(lowered)) is not None:
        return settings
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
    *(choice.value for choices in (SuitOrder, Straights, Flushes) for choice in choices),
    *(choice.value for choice in PenaltyScale if choice is not PenaltyScale.DOUBLED_FROM),
    doubled_from_token("N"),
    *(choice.value for choice in TwosRule),
    *(choice.value for choices in (Scoring, Dragon, PaysForTable) for choice in choices),
    "to-N",
    "N-deals",
    Finish.OPEN.value,
    *(players.token for players in Players),
    *(deal.token for deal in TwoPlayerDeal if deal is not TwoPlayerDeal.THIRTEEN),
    *(choice.value for choices in (DrawOnPass, Lead) for choice in choices),
)  # fmt: skip
