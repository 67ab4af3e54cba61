"""The deal form: the facts of one deal, exactly those the game's rules take
(`rules.deal_score.facts_wanted`), scored as it is typed by the engine's `score_deal`, the one
function the services and the JSON API score with too.

Each player has a row: their cards left (or points by hand, or place in the finishing order, or
under Pusoy Dos scoring only whether they went out), the penalty it would cost, and under the
stronger twos rule the twos they hold. Below the rows, the facts of the whole deal the rules
ask: went out on twos, the twos in the last play (Pusoy Dos scoring), who pays for the table,
whose dragon.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django import forms
from django.forms import BoundField
from django.utils.translation import gettext as _

from rules.deal_checks import MOST_POINTS, DealResult, and_list
from rules.deal_score import DealRefused, ScoredDeal, facts_wanted, score_deal
from rules.ruleset import RuleSet
from scoring.forms.deal_fields import DEAL_FIELDS, deal_fields, seat_field, twos_field, winner_field
from scoring.forms.deal_values import (
    CARDS,
    PLACE,
    POINTS,
    WINNER,
    alone,
    ordinal,
    whole,
    with_out_next,
    with_went_out,
)
from scoring.models import Seat


@dataclass(frozen=True, slots=True)
class DealRow:
    """One player's line on the deal form: the input, and the penalty it would cost."""

    seat: Seat
    field: BoundField
    penalty: int | None
    new_total: int | None
    invalid: bool
    won: bool = False
    twos_field: BoundField | None = None  # under the stronger twos rule: twos left in hand
    # The winner holds no cards, so no twos: their box isn't offered (and counts as 0).
    twos_offered: bool = True


class DealForm(forms.Form):
    """The facts of one deal, plus which deal this is and a one-time token.

    Bound or not, `rows()` gives each player's current value and its penalty preview, so the
    same template shows a fresh form, a form being typed in and a refused one. Once valid,
    `facts()` is the deal as `services.record_deal` and `services.edit_deal` take it.
    """

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    token = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(
        self, *args: object, seats: Sequence[Seat], rules: RuleSet, **kwargs: object
    ) -> None:
        super().__init__(*args, **kwargs)
        self.seats = list(seats)
        self.rules = rules
        self.wanted = facts_wanted(rules)
        self.asks = self.asks_for(rules)
        self.invalid_positions: set[int] = set()
        self._facts: DealResult | None = None
        self._scored: ScoredDeal | None = None
        if self.asks == WINNER:
            self.fields[WINNER] = winner_field(self.seats)
        for seat in self.seats:
            if self.asks != WINNER:
                self.fields[self.key(seat)] = seat_field(seat, self.asks, rules, len(self.seats))
            if "twos_held" in self.wanted.allowed:
                self.fields[f"twos_{seat.position}"] = twos_field(seat)
        self.fields.update(deal_fields(self.wanted.allowed, self.seats))

    @staticmethod
    def asks_for(rules: RuleSet) -> str:
        """What each player's row asks under `rules`: CARDS, POINTS, PLACE or (when the rules
        take who went out instead of anyone's cards) WINNER."""
        wanted = facts_wanted(rules)
        if "went_out" in wanted.allowed:
            return WINNER
        if "points" in wanted.required:
            return POINTS
        return PLACE if "order" in wanted.required else CARDS

    @classmethod
    def tapped(
        cls, data: dict[str, str], *, seats: Sequence[Seat], rules: RuleSet
    ) -> dict[str, str] | None:
        """Without JavaScript, "Went out" and "Out next" send the form: the values with that
        player at 0, or in the next place, to show the form again (nothing is saved); None if
        neither was tapped (nor can be: Pusoy Dos's "Went out" is a choice, sent with the rest)."""
        if cls.asks_for(rules) == WINNER:
            return None
        keys = [f"{cls.asks_for(rules)}_{seat.position}" for seat in seats]
        if (went_out := data.get("went_out")) is not None:
            return with_went_out(data, keys, went_out)
        if (out_next := data.get("out_next")) is not None:
            return with_out_next(data, keys, out_next)
        return None

    def key(self, seat: Seat) -> str:
        """The name of the seat's row input: cards_0, points_0 or place_0; under WINNER the
        one choice of who went out, `winner`."""
        return WINNER if self.asks == WINNER else f"{self.asks}_{seat.position}"

    def deal_fields(self) -> list[BoundField]:
        """The facts of the whole deal the rules ask, below the players' rows."""
        return [self[name] for name in DEAL_FIELDS if name in self.fields]

    def field_errors(self) -> list[str]:
        """Every field's errors, in the order the form shows the fields."""
        return [error for name in self.fields for error in self[name].errors]

    # Checking

    def clean(self) -> dict[str, object]:
        data = super().clean()
        if data.get("dragon") is not None and "dragon" not in self.errors:
            # A dragon wins before a card is played: whatever else was typed is left out.
            for name in list(self.errors):
                if name not in ("number", "token", "dragon"):
                    del self.errors[name]
            self._facts = DealResult(dragon=data["dragon"])
        elif self._every_seat_given(data) and not self.errors:
            self._facts = self._facts_from(data.get)
        if self._facts is not None:
            self._score(self._facts)
        return data

    def _every_seat_given(self, data: dict[str, object]) -> bool:
        """Each row filled in (a place may be left for the last player left), and no two
        players in one place."""
        if self.asks == PLACE:
            return self._places_apart(data)
        if self.asks == WINNER:
            if data.get(WINNER) is None and WINNER not in self.errors:
                self.add_error(WINNER, _("Say who went out: the player who played their last card"))
            return data.get(WINNER) is not None
        given = True
        for seat in self.seats:
            key = self.key(seat)
            if data.get(key) is None and key not in self.errors:
                given = False
                self.add_error(key, self._missing(seat.player.name))
        return given

    def _missing(self, name: str) -> str:
        if self.asks == POINTS:
            return _("Enter %(name)s's points") % {"name": name}
        return _("Enter %(name)s's cards left") % {"name": name}

    def _places_apart(self, data: dict[str, object]) -> bool:
        by_place: dict[object, list[Seat]] = {}
        for seat in self.seats:
            if (place := data.get(self.key(seat))) is not None:
                by_place.setdefault(place, []).append(seat)
        shared = {place: seats for place, seats in by_place.items() if len(seats) > 1}
        for place, seats in shared.items():
            self.invalid_positions.update(seat.position for seat in seats)
            self.add_error(
                None,
                _("%(players)s can't both be %(place)s: each player goes out once")
                % {
                    "players": and_list([seat.player.name for seat in seats]),
                    "place": ordinal(int(str(place))),
                },
            )
        return not shared

    def _score(self, facts: DealResult) -> None:
        names = [seat.player.name for seat in self.seats]
        try:
            self._scored = score_deal(facts, self.rules, names=names)
        except DealRefused as refused:
            for problem in refused.problems:
                self.add_error(None, problem)
            self.invalid_positions |= self._out_of_line(facts)

    def _out_of_line(self, facts: DealResult) -> set[int]:
        """The rows to mark: counts out of range, and everyone at 0 when several are."""
        counts = facts.points if facts.points is not None else facts.cards_left
        if counts is None:
            return set()
        most = MOST_POINTS if facts.points is not None else self.rules.hand_size
        marked = {seat for seat, count in enumerate(counts) if not 0 <= count <= most}
        zeros = {seat for seat, count in enumerate(counts) if count == 0}
        return marked | (zeros if len(zeros) > 1 else set())

    def _facts_from(self, value: Callable[[str], object]) -> DealResult:
        """The deal's facts from each field's value (`value(name)`: a whole number, or None
        where nothing usable is given); only the facts the rules take."""

        def number(name: str) -> int | None:
            found = value(name)
            return found if isinstance(found, int) else None

        def every_seat(prefix: str) -> tuple[int, ...] | None:
            found = [number(f"{prefix}_{seat.position}") for seat in self.seats]
            return None if any(count is None for count in found) else tuple(found)

        allowed = self.wanted.allowed
        cards = every_seat(CARDS) if self.asks == CARDS else None
        twos = None
        if "twos_held" in allowed and cards is not None:
            # The winner holds no cards, so no twos: a box left filled in for them is none.
            held = [number(f"twos_{seat.position}") or 0 for seat in self.seats]
            twos = tuple(0 if count == 0 else held[seat] for seat, count in enumerate(cards))
        return DealResult(
            cards_left=cards,
            out_on_twos=bool(value("out_on_twos")) if "out_on_twos" in allowed else False,
            twos_held=twos,
            last_play_twos=number("last_play_twos") if "last_play_twos" in allowed else None,
            order=self._order(number) if self.asks == PLACE else None,
            pays=number("pays") if "pays" in allowed else None,
            points=every_seat(POINTS) if self.asks == POINTS else None,
            went_out=number(WINNER) if self.asks == WINNER else None,
        )

    def _order(self, number: Callable[[str], int | None]) -> tuple[int, ...] | None:
        """The seats in the order they went out, from each one's place; the last one left
        needs no place of their own."""
        places = [number(self.key(seat)) for seat in self.seats]
        missing = [seat for seat, place in enumerate(places) if place is None]
        free = set(range(1, len(places) + 1)) - set(places)
        if len(missing) == 1 and len(free) == 1:
            places[missing[0]] = free.pop()
        if sorted(place or 0 for place in places) != list(range(1, len(places) + 1)):
            return None
        return tuple(sorted(range(len(places)), key=lambda seat: places[seat] or 0))

    def facts(self) -> DealResult:
        """The deal, once the form is valid."""
        assert self._facts is not None, "facts() of a form that isn't valid"
        return self._facts

    def scored(self) -> ScoredDeal:
        """The deal as `score_deal` scored it, once the form is valid."""
        assert self._scored is not None, "scored() of a form that isn't valid"
        return self._scored

    # Showing

    def typed_facts(self) -> DealResult:
        """What is typed so far, whole numbers only (a dragon chosen is the whole deal)."""
        if "dragon" in self.fields and (seat := whole(self["dragon"].value())) is not None:
            return DealResult(dragon=seat)

        def value(name: str) -> object:
            if name not in self.fields:
                return None
            typed = self[name].value()
            if name == "out_on_twos":
                return typed in (True, "on", "true", "1")
            return whole(typed)

        return self._facts_from(value)

    def _typed(self, name: str, blank: int | None = None) -> int | None:
        return whole(self[name].value(), blank) if name in self.fields else blank

    def preview(self, facts: DealResult) -> list[int | None]:
        """Each row's penalty for what is typed: the whole deal as `score_deal` scores it
        once it can be; until then, each row that can be worked out on its own (cards left,
        points, a place), by the same rules engine."""
        try:
            return list(score_deal(facts, self.rules).penalties)
        except ValueError:  # DealRefused: not all typed yet, or not a deal yet
            pass
        if self.asks == WINNER:  # nothing to show until who went out is chosen
            return [None] * len(self.seats)
        out_on_twos = bool(facts.out_on_twos)
        last_play = self._typed("last_play_twos", blank=0)
        return [
            alone(
                self.rules,
                self.asks,
                self._typed(self.key(seat)),
                twos=self._typed(f"twos_{seat.position}", blank=0),
                out_on_twos=out_on_twos,
                last_play_twos=last_play,
            )
            for seat in self.seats
        ]

    def rows(self) -> list[DealRow]:
        facts = self.typed_facts()
        penalties = self.preview(facts)
        rows = []
        for seat, points in zip(self.seats, penalties, strict=True):
            field = self[self.key(seat)]
            twos_key = f"twos_{seat.position}"
            twos_field = self[twos_key] if twos_key in self.fields else None
            typed = whole(field.value())
            if facts.dragon is not None:
                won = facts.dragon == seat.position
            elif self.asks == WINNER:
                won = typed == seat.position
            else:
                won = typed == (1 if self.asks == PLACE else 0)
            rows.append(
                DealRow(
                    seat=seat,
                    field=field,
                    penalty=points,
                    new_total=None if points is None else seat.total + points,
                    invalid=bool(field.errors)
                    or seat.position in self.invalid_positions
                    or bool(twos_field is not None and twos_field.errors),
                    won=won,
                    twos_field=twos_field,
                    twos_offered=not (self.asks == CARDS and typed == 0),
                )
            )
        return rows
