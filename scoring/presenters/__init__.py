"""What a page shows, worked out from what the selectors read: plain values and small classes
the templates read, no queries of their own beyond the ones they say.

- `board`: a game's scoreboard (`Board`, `load_board`), its lines, cells and totals.
- `deal_hint`: the line under the deal form that says what to do next.
- `settlements`: who pays whom, for a game (`Settling`) or a season (`SeasonSettlement`).
- `qr`: the QR code of a link shared at the table, as SVG.
- `tables`: the league table with its sortable headings, a season's games a page at a time,
  a player's games.
- `deal_clash`, `offline`, `score_out`: a deal typed for a number another phone recorded first;
  what a phone needs to keep score offline; a game taken elsewhere (BG Stats, a score file).
- `charts`: the running totals and a player's trends, as numbers for their SVG templates.
- `wording`: lists of names as the page's language says them ("Ann, Ben and Cy").
"""
