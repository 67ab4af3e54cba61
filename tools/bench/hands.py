"""Classify and rank every five-card hand, to show the engine's lookup tables are fast.

Run it with `python -m tools.bench.hands`. Hands are enumerated with nested loops that build
each hand's prime product (and whether it is one suit) a card at a time, and every hand is
looked up in the tables `rules.plays.classify` uses (`rules.lookups`); each legal hand gets its
full strength key.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator, Sequence
from math import comb

from rules.cards import DECK, Card
from rules.kinds import Kind
from rules.lookups import FLUSH_KEYS, PRODUCT_KEYS, RANK_BITS, RANK_PRIMES
from rules.plays import complete_key
from rules.ruleset import DEFAULT_RULES, RuleSet

type Hand = tuple[Card, Card, Card, Card, Card]


def legal_hands(
    deck: Sequence[Card] = DECK, rules: RuleSet = DEFAULT_RULES
) -> Iterator[tuple[Hand, Kind, tuple[int, ...]]]:
    """Every five-card play that can be taken from `deck`, with its kind and strength key."""
    # Suit by suit, so the cards that complete a one-suit start are the rest of that suit.
    cards = sorted(deck, key=lambda card: (rules.suit_strength(card.suit), card.rank))
    n = len(cards)
    primes = [RANK_PRIMES[card.rank] for card in cards]
    bits = [RANK_BITS[card.rank] for card in cards]
    suit_ends = [
        max(i for i, other in enumerate(cards) if other.suit == card.suit) + 1 for card in cards
    ]
    mixed = PRODUCT_KEYS[rules.straights].get
    one_suit = FLUSH_KEYS[rules.straights]
    for a in range(n - 4):
        prime_a, suit_end = primes[a], suit_ends[a]
        for b in range(a + 1, n - 3):
            prime_ab = prime_a * primes[b]
            for c in range(b + 1, n - 2):
                prime_abc = prime_ab * primes[c]
                for d in range(c + 1, n - 1):
                    prime_abcd = prime_abc * primes[d]
                    first_mixed = d + 1
                    if d < suit_end:
                        mask = bits[a] | bits[b] | bits[c] | bits[d]
                        for e in range(d + 1, suit_end):
                            kind, partial = one_suit[mask | bits[e]]
                            hand = (cards[a], cards[b], cards[c], cards[d], cards[e])
                            yield hand, kind, complete_key(kind, partial, hand, rules)
                        first_mixed = suit_end
                    # The hot loop: almost every hand ends here as a miss in one dict lookup.
                    for e in range(first_mixed, n):
                        entry = mixed(prime_abcd * primes[e])
                        if entry is not None:
                            hand = (cards[a], cards[b], cards[c], cards[d], cards[e])
                            yield hand, entry[0], complete_key(*entry, hand, rules)


def count_kinds(deck: Sequence[Card] = DECK, rules: RuleSet = DEFAULT_RULES) -> dict[str, int]:
    """How many five-card hands from `deck` make each kind of play, and how many make none."""
    counts = Counter(kind for _, kind, _ in legal_hands(deck, rules))
    totals = {str(kind): counts[kind] for kind in reversed(Kind) if kind in _FIVE_CARD_KINDS}
    totals["not_a_play"] = comb(len(deck), 5) - counts.total()
    return totals


_FIVE_CARD_KINDS = frozenset(
    {Kind.STRAIGHT, Kind.FLUSH, Kind.FULL_HOUSE, Kind.FOUR_OF_A_KIND, Kind.STRAIGHT_FLUSH}
)


def main() -> None:
    started = time.perf_counter()
    totals = count_kinds()
    seconds = time.perf_counter() - started
    for kind, count in totals.items():
        print(f"{kind}: {count}")
    print(f"{sum(totals.values())} hands in {seconds:.2f} s")


if __name__ == "__main__":
    main()
