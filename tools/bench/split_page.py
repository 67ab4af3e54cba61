"""Time "Split a hand" as a page (`/split/`) and as the API (`/api/hands/split`) on the same
random hands: figures to read, not a test.

Run it with `python -m tools.bench.split_page [--hands 1000] [--seed 1] [--rules NAME]`.
Each hand is dealt from a shuffled deck by `random.Random(seed)`, and both addresses are asked
for with Django's test client in this process, as a browser would ask minus the network: the
page's time is the API's work plus rendering, and should stay near the API's. The last line
times the hand that costs the most to split, all thirteen cards of one suit (1,287 flushes).

Times are the CPU time this process spends on each answer, so other work on the machine (a test
run, say) doesn't count in them; on an idle machine they are the answer's time.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from rules.cards import DECK, Card, Suit
from rules.ruleset import UnknownRules, parse_rules
from tools.bench.split import summary
from tools.bench.throwaway import pages_as_served, start_django


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000, help="how many hands to deal")
    parser.add_argument("--seed", type=int, default=1, help="the seed that deals them")
    parser.add_argument("--rules", default="", help="house rules, as ?rules= takes them")
    options = parser.parse_args(argv)
    if options.hands < 1:
        parser.error("--hands must be 1 or more")
    try:
        parse_rules(options.rules)
    except UnknownRules as error:
        parser.error(str(error))
    deal = random.Random(options.seed)
    hands = [deal.sample(DECK, 13) for _ in range(options.hands)]
    one_suit = [card for card in DECK if card.suit == Suit.SPADES]
    print(f"{len(hands)} random hands, seed {options.seed}, rules {options.rules or 'standard'}")
    with _site() as client:
        for name, url in (("/split/ (page)", "/split/"), ("/api/hands/split", "/api/hands/split")):
            _get(client, url, hands[0], options.rules)  # templates and lookups loaded first
            seconds = [_get(client, url, hand, options.rules) for hand in hands]
            print(f"{name}:")
            print(summary(seconds))
            print(f"  thirteen spades: {_get(client, url, one_suit, options.rules) * 1000:.2f} ms")
    return 0


@contextmanager
def _site() -> Iterator:
    """Django's test client on the site's settings, asking for pages as they are served."""
    start_django()
    from django.test import Client

    with pages_as_served():
        yield Client()


def _get(client, url: str, hand: list[Card], rules: str) -> float:
    """CPU seconds from asking to holding the whole answer."""
    query = {"hand": " ".join(card.code for card in hand)}
    if rules:
        query["rules"] = rules
    started = time.process_time()
    response = client.get(url, query)
    response.content  # noqa: B018 - the whole body, as a browser would get it
    seconds = time.process_time() - started
    if response.status_code != 200:
        raise RuntimeError(f"GET {url} {query} answered {response.status_code}")
    return seconds


if __name__ == "__main__":
    raise SystemExit(main())
