"""The score-keeping app: clubs, seasons, games and their deals, standings, ratings, imports,
backups and live updates. Reads are in `selectors/`, writes in `services/`, what a page shows in
`presenters/`, the pages in `views/`, the tables in `models/`; docs/development.md has the map.
"""
