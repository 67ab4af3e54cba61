"""Ways to split a hand, each the best for something a player wants, told in a player's words.

The best three splits by one score (`rules.split.arrangements`) tend to be one split three
times over: a pair of aces kept, then the same two aces as singles. A player weighing a hand
asks other questions: how few turns do I need to go out? Can I keep my 2s and aces to win the
lead back? Will a low card be stuck in my hand at the end? Each goal searches with weights of
its own (`rules.split_score.Weights`), and its way is told in facts, not points: "7 plays",
"4 singles: 1 low (7♣), 3 high", "Kept for control: 2♥ 2♠".

Where one split is the best for two goals, or two goals' best splits read the same, it is
shown once with both goals named: the ways shown always tell the player something different.

>>> hand = parse_cards("3d 4c 5h 6s 7d 7c 9h 9s jd qd kc 2s 2h")
>>> first, second = plans(hand)
>>> first.goals
('Fewest plays', 'Keep your 2s and aces')
>>> first.facts[1:3]
('4 singles: 1 low (7♣), 3 high', 'Kept for control: 2♥ 2♠')
>>> second.goals, second.facts[1:3]
(('Fewest low singles',), ('4 singles, all high', 'Kept for control: 2♠'))
>>> [str(play) for play in second.arrangement.plays if play.size == 5], second.facts[-1]
(['2♥ 3♦ 4♣ 5♥ 6♠'], '5 cards in five-card hands: straight')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.cards import Card, Rank, parse_cards  # noqa: F401 (the doctests use parse_cards)
from rules.i18n import gettext, list_of, ngettext
from rules.ruleset import DEFAULT_RULES, RuleSet
from rules.split import Arrangement, best_for_each
from rules.split_score import CONTROL, LOW_BELOW, Weights

# A goal's weight outweighs every other point a split can score. The usual points of a hand's
# splits lie within 260 of each other (no lower than −230, thirteen low singles; no higher than
# +28, three plays with every 2 and ace kept and two straight flushes, which no hand has), so one
# play, one 2 or ace, or one low single more or less counts for more than all of them together.
# A goal's search then finds the split best at the goal outright, the usual points ordering what
# ties on it, with no pool of runners-up to look through.
GOAL_FIRST = 1000
FEWEST_PLAYS = Weights(play=GOAL_FIRST)
KEEP_CONTROL = Weights(two=CONTROL[Rank.TWO] + GOAL_FIRST, ace=CONTROL[Rank.ACE] + GOAL_FIRST)
NO_LOW_SINGLES = Weights(low_single=GOAL_FIRST)


def kept_for_control(arrangement: Arrangement) -> list[Card]:
    """The 2s and aces played alone or in pairs, where they win the lead back."""
    plays = arrangement.plays
    return [card for play in plays if play.size <= 2 for card in play.cards if card.rank in CONTROL]


def low_singles(arrangement: Arrangement) -> list[Card]:
    return [p.cards[0] for p in arrangement.plays if p.size == 1 and p.cards[0].rank < LOW_BELOW]


@dataclass(frozen=True, slots=True)
class Goal:
    name: str
    why: str
    weights: Weights  # its search's: the split they rank first is the best at the goal


@dataclass(frozen=True, slots=True)
class Way:
    """A split shown to the player: the goals it is best for, and what it comes to in facts."""

    arrangement: Arrangement
    goals: tuple[str, ...]
    facts: tuple[str, ...]


def goals() -> tuple[Goal, ...]:
    """Each goal's name and why a player would want it, in the active language."""
    return (
        Goal(
            gettext("Fewest plays"),
            gettext("Each play is a turn you must get cards down in: fewer plays, out sooner."),
            FEWEST_PLAYS,
        ),
        Goal(
            gettext("Keep your 2s and aces"),
            gettext("2s and aces alone or in pairs win tricks late and give you the lead back."),
            KEEP_CONTROL,
        ),
        Goal(
            gettext("Fewest low singles"),
            gettext("A low card alone is the one still in your hand when someone goes out."),
            NO_LOW_SINGLES,
        ),
    )


def plans(hand: Sequence[Card], rules: RuleSet = DEFAULT_RULES) -> list[Way]:
    """The best split for each goal, once for each different set of facts."""
    ways: list[Way] = []
    every_goal = goals()
    found = best_for_each(hand, rules, [goal.weights for goal in every_goal])
    for goal, best in zip(every_goal, found, strict=True):
        told = facts(best)
        same = next((n for n, way in enumerate(ways) if way.facts == told), None)
        if same is None:
            ways.append(Way(best, (goal.name,), told))
        else:
            ways[same] = Way(ways[same].arrangement, (*ways[same].goals, goal.name), told)
    return ways


def facts(arrangement: Arrangement) -> tuple[str, ...]:
    """How many plays, the singles (how many low), the control kept, the five-card hands."""
    plays = arrangement.plays
    count = len(plays)
    told = [ngettext("%(count)s play", "%(count)s plays", count) % {"count": count}]
    singles = [play.cards[0] for play in plays if play.size == 1]
    low = low_singles(arrangement)
    values = {
        "count": len(singles),
        "low": len(low),
        "high": len(singles) - len(low),
        "cards": " ".join(map(str, low)),
    }
    if not singles:
        told.append(gettext("No singles"))
    elif not low:
        told.append(
            ngettext("%(count)s single, high", "%(count)s singles, all high", len(singles)) % values
        )
    elif len(low) == len(singles):
        told.append(
            ngettext(
                "%(count)s single, low (%(cards)s)",
                "%(count)s singles, all low (%(cards)s)",
                len(singles),
            )
            % values
        )
    else:
        told.append(gettext("%(count)s singles: %(low)s low (%(cards)s), %(high)s high") % values)
    control = kept_for_control(arrangement)
    if control:
        told.append(gettext("Kept for control: %(cards)s") % {"cards": " ".join(map(str, control))})
    else:
        told.append(gettext("No 2s or aces kept for control"))
    fives = [play for play in plays if play.size == 5]
    if fives:
        told.append(
            gettext("%(count)s cards in five-card hands: %(kinds)s")
            % {"count": 5 * len(fives), "kinds": list_of(play.kind.label for play in fives)}
        )
    else:
        told.append(gettext("No five-card hands"))
    return tuple(told)
