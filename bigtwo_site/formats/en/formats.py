"""English dates as the site writes them: day, short month, year, short enough for a phone."""

DATE_FORMAT = "j M Y"  # 31 Aug 2026
DATETIME_FORMAT = "j M Y, H:i"  # 31 Aug 2026, 19:05
# A game's history: its changes fall within days of each other, so the year goes unsaid.
SHORT_DATETIME_FORMAT = "j M, H:i"  # 31 Aug, 19:05
