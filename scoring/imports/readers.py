"""A score file's bytes read into a `ScoreFile`, its format told from its content, never its
name: the site's own season CSV, a big-two-scorer score file, a KeepScore backup (XML, plain
or gzipped) or a spreadsheet's CSV of a column per player.

Pure Python, so that it can be fuzzed fast: whatever the bytes, `read_score_file` returns a
ScoreFile, whatever it could not read a `Problem` saying where and how to fix it. It reads the
file once, as it goes, and stops at the first of the `Limits` passed (what the file unpacks
to, its lines, games, deals and players), refusing the file with a problem that names it; so it
takes time and memory in step with the smaller of the file and its limits. Messages are in the
active language (`rules.i18n`, which the site sets per request).

>>> sheet = read_score_file(b"F=11\\n2013-03-19\\nC S H Jj\\n1 1 5 0\\n11 9 9t 0  # H pays\\n")
>>> sheet.format, sheet.games[0].players, sheet.games[0].deals[1].pays_for_table
(<FileFormat.SCORER_TEXT: 'big-two-scorer'>, ('C', 'S', 'H', 'Jj'), 2)
>>> read_score_file(b"").problems[0].message
'The file is empty: choose the score file itself.'
>>> read_score_file(b"A B\\n0 1\\nC D\\n1 0\\n", limits=Limits(games=1)).problems[0].line
3
"""

from __future__ import annotations

import codecs
import re
import zlib

from rules.i18n import gettext
from scoring.imports.keepscore import read_keepscore
from scoring.imports.scorer_text import looks_like_scorer_text, read_scorer_text
from scoring.imports.sheet import (
    FileFormat,
    FileRefused,
    Holds,
    Limits,
    Problem,
    ScoreFile,
    Tally,
)
from scoring.imports.tables import SITE_CSV_HEADER, read_site_csv, read_spreadsheet, table_rows

GZIP_MAGIC = b"\x1f\x8b"
# Controls that no text file holds: a tab, a line feed, a carriage return and a form feed are
# text, the rest say the bytes are an image, a program or an archive.
_XML_START = re.compile(r"\s*<")
_BINARY_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def read_score_file(
    data: bytes, *, holds: Holds = Holds.CARDS_LEFT, limits: Limits | None = None
) -> ScoreFile:
    """The games in `data`, read no further than `limits` allow. `holds` says what a
    spreadsheet's numbers are; the other formats say it themselves."""
    limits = limits or Limits()
    text, problem = decoded(data, limits)
    if problem is not None:
        return refused(problem, holds)
    assert text is not None
    if _XML_START.match(text):
        return read_keepscore(text, Tally(limits))
    if looks_like_scorer_text(text, limits.lines):
        sheet = read_scorer_text(text, Tally(limits))
        if sheet.games or sheet.problems:
            return sheet
    tally = Tally(limits)
    rows = table_rows(text, tally)
    try:
        first = next(rows, None)
    except FileRefused as refusal:
        return tally.refused(FileFormat.SPREADSHEET, holds, refusal.problem)
    if first is not None and [cell.strip().lower() for cell in first[1]] == SITE_CSV_HEADER:
        return read_site_csv(rows, tally)
    if first is not None and len(first[1]) > 1:
        return read_spreadsheet(first, rows, holds, tally)
    return refused(Problem(1, unknown_format()), holds)


def refused(problem: Problem, holds: Holds) -> ScoreFile:
    # No format could be told: the spreadsheet, which takes what the form says it holds.
    return ScoreFile(format=FileFormat.SPREADSHEET, holds=holds, games=(), problems=(problem,))


def unknown_format() -> str:
    return gettext(
        "This doesn't look like a score file. The site reads a season's deals.csv exported"
        " from this site; a big-two-scorer score file (a line of player names, then a line of"
        " cards left for each deal); a KeepScore backup (.xml or .xml.gz); and a spreadsheet"
        " saved as CSV, with the players' names in the first row and a row of numbers for"
        " each deal."
    )


def decoded(data: bytes, limits: Limits) -> tuple[str | None, Problem | None]:
    """The file as text, unpacked if gzipped; or the problem that stops it being read."""
    if data.startswith(GZIP_MAGIC):
        data, problem = unpacked(data, limits.unpacked_bytes)
        if problem is not None:
            return None, problem
    if not data.strip():
        return None, Problem(1, gettext("The file is empty: choose the score file itself."))
    try:
        text = as_text(data)
    except UnicodeDecodeError as error:
        return None, unreadable(data, error.start)
    if control := _BINARY_CONTROLS.search(text):
        return None, binary(text, control.start())
    return text, None


def as_text(data: bytes) -> str:
    """UTF-8, with or without its byte-order mark, or UTF-16 marked by one."""
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8) :].decode("utf-8")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16")
    return data.decode("utf-8")


def unpacked(data: bytes, most: int) -> tuple[bytes, Problem | None]:
    """The gzip's contents, unpacked no further than `most` bytes."""
    unpacker = zlib.decompressobj(wbits=31)  # 31: a gzip header and trailer
    try:
        unpacked = unpacker.decompress(data, most)
        # At `most` bytes, one more tells a file of exactly that size from a larger one.
        more = unpacker.decompress(unpacker.unconsumed_tail, 1) if not unpacker.eof else b""
    except zlib.error:
        unpacked, more = b"", b""
    if more:
        message = gettext(
            "The file unpacks to more than %(most)s MB, the most a score file can: choose the"
            " backup itself, or split it into smaller files."
        )
        return b"", Problem(1, message % {"most": f"{most / 1_000_000:g}"})
    # Not at the stream's end, yet nothing left to unpack: damaged, or cut short.
    if not unpacker.eof:
        message = gettext(
            "The file is gzipped but damaged, so it can't be unpacked: export it again."
        )
        return b"", Problem(1, message)
    return unpacked, None


def unreadable(data: bytes, at: int) -> Problem:
    if b"\x00" in data[:1024]:
        return Problem(1, binary_message())
    return Problem(
        data.count(b"\n", 0, at) + 1,
        gettext(
            "This line isn't UTF-8 text, so the file can't be read: save it again as UTF-8"
            " (in a spreadsheet, as “CSV UTF-8”)."
        ),
    )


def binary(text: str, at: int) -> Problem:
    return Problem(text.count("\n", 0, at) + 1, binary_message())


def binary_message() -> str:
    return gettext(
        "This is not a text file (it looks like an image, an archive or a program): choose the"
        " score file itself, a CSV, text or KeepScore backup."
    )
