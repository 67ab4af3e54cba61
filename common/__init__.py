"""What both apps share, below them both: the typed htmx request and the htmx login redirect
(`common.http`). It imports neither app nor the site."""
