"""The site's own date formats by language (FORMAT_MODULE_PATH), over Django's.

Pages name a format (`{{ day|date:"DATE_FORMAT" }}`), never a pattern, so each language writes
dates its own way: "31 Aug 2026" in English, "2026年8月31日" in Chinese. A module here sets only
what differs from Django's own formats for its language; the rest are Django's.
"""
