"""Club nights: several tables at once in one room, seated by a fair draw planned for the whole
night (`rules.seating`), each round's tables started as ordinary games, and a board for the
room's TV.

`models` (a night, who is here, its rounds, their drawn seats and the games they started),
`selectors` (every read: a night found through the user's memberships, or by its TV link),
`services` (every write: a night drawn, the rounds to come drawn again, a round started, the TV
link given or stopped), `forms`, `views`, `urls`. The games themselves are the scoring app's:
scored, corrected, rated and in the standings as any other.
"""
