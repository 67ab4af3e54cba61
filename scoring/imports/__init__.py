"""Old score sheets brought in: files read into `ScoreFile`s within the site's bounds (`readers`,
pure Python), checked against a season's rules and previewed (`checks`, `preview`, reads only),
kept on disk while they wait for "Import" (`uploads`), then saved in one transaction by
`scoring.services.imports.save_import`."""
