"""The backup benchmark (`python -m tools.bench.backup`) writes, reads and restores the club it
seeded and prints each figure. No timing is checked: only that the figures are of what they
claim."""

import re

import pytest

from scoring.models import Club, Game
from tools.bench.backup import RUNS, measure

pytestmark = pytest.mark.django_db


def test_every_figure_is_printed_for_the_club_seeded_and_restored(capsys):
    measure(games=2, seed=1)

    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"a club of 2 finished games: [\d.]+ MB, \d+ rows", lines[0])
    assert re.fullmatch(r"  export_club +[\d.]+ ms \(CPU +[\d.]+ ms\), +\d+ queries", lines[1])
    assert re.fullmatch(
        rf"  read +[\d.]+ ms \(CPU +[\d.]+ ms\), +0 queries  \(median of {RUNS}\)", lines[2]
    )
    assert lines[3].startswith("  import_club ")
    assert len(lines) == 4
    # The club restored into the emptied database is the only one there.
    assert Club.objects.get().name == "Bench club"
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 2
