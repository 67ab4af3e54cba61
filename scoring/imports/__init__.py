"""Old score sheets brought in: files read into `ScoreFile`s (scoring.imports.sheet), checked
against a season's rules, previewed, then saved in one transaction."""
