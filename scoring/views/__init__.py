"""The score-keeping app's pages, a module per area. Each view reads the request, calls one
selector or service, renders.

Everything of a club is fetched through `scoring.selectors` (`member_club`, `member_game`, …),
which only find it when the signed-in user belongs to the club: anyone else gets a 404, so not
even its existence leaks. The ways in from outside are found only by an unguessable token: a
game's live view, and a club's invite link (which names the club to whoever holds it, signed in
or not, so they can sign up and join).

- `clubs`: the list of a member's clubs, a club's page, joining, a new invite link.
- `members`: the club's history, removing a member, handing the club on, leaving it, and a
  member's password reset link (the page it opens is the accounts app's).
- `games`: a game's page and everything done on it: deals, stake, season, playing again,
  deleting it.
- `live`: sharing a game, its live view, and the polls of the game page and the live view.
- `seasons`: a season's page, the all-time standings, a new season, a season's rules.
- `sharing`: the invite and live view links, and their QR codes.
- `players`: a player's page; renaming, merging and removing a player.
- `head_to_head`: the club's head-to-head, every player against every other.
- `exports`: a game as JSON or CSV, a season's CSVs.
- `ratings`: a club's ratings as JSON.
- `pages`: the game page and the season pages as the views of several areas answer with them.
- `confirm`: a change asked for on a page of its own and made by a POST from it, and the
  buttons that make one at once: `confirm_then_act`; a form about something `gone` since.
"""
