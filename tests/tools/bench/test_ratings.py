"""The ratings benchmark (`python -m tools.bench.ratings`) rates what it seeded and prints each
figure. No timing is checked: only that the figures are of what they claim."""

import re

import pytest

from scoring.models import RatingSnapshot
from tools.bench.ratings import RUNS, measure

pytestmark = pytest.mark.django_db


def test_every_figure_is_printed_for_the_games_seeded(capsys):
    measure(games=3, seed=2)
    lines = capsys.readouterr().out.splitlines()
    # Four players rated after each of the three games.
    assert lines[0] == "3 finished games, 12 snapshots" == f"3 finished games, {4 * 3} snapshots"
    assert RatingSnapshot.objects.count() == 12
    assert re.fullmatch(rf"rate every game: +[\d.]+ ms \(median of {RUNS}\)", lines[1])
    assert re.fullmatch(r"rate from the middle game: +[\d.]+ ms", lines[2])
    assert re.fullmatch(r"read when nothing changed: +[\d.]+ ms", lines[3])
    assert len(lines) == 4
