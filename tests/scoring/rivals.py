"""A small club whose head-to-head figures are worked out by hand, for the tests of
`scoring.selectors.head_to_head` and `scoring.selectors.player_figures`, their pages and the
browser.

Under the default rules (a card left costs 1, 10 to 12 cost 2 each, 13 cost 3 each; the game
ends once someone reaches 100), each finished game is the same deal three times. In the order
they finish:

| game | seats                  | each deal      | finals              | won by |
|------|------------------------|----------------|---------------------|--------|
| A    | Ann, Ben, Cy, Dee      | 0, 13, 13, 13  | 0, 117, 117, 117    | Ann    |
| B    | Ann, Ben, Cy, Dee      | 0, 13, 1, 12   | 0, 117, 3, 72       | Ann    |
| C    | Ann, Ben, Cy, Dee      | 10, 0, 5, 13   | 60, 0, 15, 117      | Ben    |
| D    | Ann, Ben, Cy, Eve      | 5, 13, 0, 12   | 15, 117, 0, 72      | Cy     |

and a fifth game, Ann, Ben, Cy, Dee, still in progress (Ann caught with 13 once), which counts
for nothing. For Ann:

- Ben: 4 games; Ann ahead in A, B, D (3), Ben ahead in C (1); Ben's points less Ann's:
  117 + 117 − 60 + 102 = 276.
- Cy: 4 games; Ann ahead in A, B (2), Cy in C, D (2); 117 + 3 − 45 − 15 = 60.
- Dee: 3 games; Ann ahead in all 3; 117 + 72 + 57 = 246.
- Eve: 1 game; Ann ahead; 57.

Her nemesis is Cy (ahead of her twice; Ben once). Her favourite opponent is Dee: Ben and Dee
both finished behind her 3 times, and Dee in a larger share of their games (3 of 3, Ben 3 of 4).
Ann went out first in 6 of 12 deals, was caught with 10 or more cards 3 times (game C) and with
all 13 never, gave away 75 points in 12 deals (6.25 a deal), won 2 games in a row (A, B); her
best game is A (0, the first of her two games on 0), her worst C (60).
"""

from __future__ import annotations

from scoring.models import Club, Game
from tests.factories import make_club, make_game, make_user, record

GAMES = {
    "A": (("Ann", "Ben", "Cy", "Dee"), (0, 13, 13, 13)),
    "B": (("Ann", "Ben", "Cy", "Dee"), (0, 13, 1, 12)),
    "C": (("Ann", "Ben", "Cy", "Dee"), (10, 0, 5, 13)),
    "D": (("Ann", "Ben", "Cy", "Eve"), (5, 13, 0, 12)),
}


def a_club_of_rivals(owner=None) -> tuple[Club, dict[str, Game]]:
    """The club above, and its finished games by letter."""
    club = make_club(owner or make_user())
    games = {}
    for letter, (names, deal) in GAMES.items():
        game = make_game(club, names)
        for _ in range(3):
            record(game, *deal)
        game.refresh_from_db()
        assert game.is_finished, letter
        games[letter] = game
    record(make_game(club, ("Ann", "Ben", "Cy", "Dee")), 13, 0, 1, 1)
    return club, games
