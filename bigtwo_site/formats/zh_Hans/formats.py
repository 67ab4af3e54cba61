"""Simplified Chinese dates: Django's own (2026年8月31日, 2026年8月31日 19:05), and a game's
history without the year, as the English pages have it."""

SHORT_DATETIME_FORMAT = "n月j日 H:i"  # 8月31日 19:05
