"""Reading the site's catalogs, to check a page's language.

A helper module (neither a test file nor a conftest): tests/test_i18n.py checks the catalogs.
"""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale"
# Every language the site translates into, by its code, with its catalog.
CATALOGS = {
    "zh-hans": LOCALE / "zh_Hans" / "LC_MESSAGES" / "django.po",
    "zh-hant": LOCALE / "zh_Hant" / "LC_MESSAGES" / "django.po",
}
# The characters OpenCC turns into others in Simplified Chinese, written by
# tools/traditional_only.py; and the corner quotes Taiwan and Hong Kong write, where the
# mainland writes “” and ‘’.
TRADITIONAL_ONLY = frozenset(
    (Path(__file__).parent / "data" / "traditional_only.txt").read_text("utf-8").replace("\n", "")
) | frozenset("「」『』")


def po_entries(path: Path) -> list[dict]:
    """Every entry of a .po file but the header and the obsolete ones: msgctxt, msgid,
    msgid_plural, msgstr (its forms joined), fuzzy."""
    entries, entry, field = [], {}, ""
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if entry.get("msgid"):
                entries.append(entry)
            entry, field = {}, ""
        elif line.startswith("#,"):
            entry["fuzzy"] = "fuzzy" in line
        elif line.startswith(("msgctxt ", "msgid ", "msgid_plural ", "msgstr")):
            keyword, text = line.split(" ", 1)
            field = "msgstr" if keyword.startswith("msgstr") else keyword
            entry[field] = entry.get(field, "") + ast.literal_eval(text)
        elif line.startswith('"'):
            entry[field] += ast.literal_eval(line)
    return entries
