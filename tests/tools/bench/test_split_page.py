"""The split page's benchmark (`python -m tools.bench.split_page`) prints its figures: it times
nothing the suite relies on."""

import pytest

from rules.cards import parse_cards
from tools.bench import split_page as bench_split


def test_the_benchmark_prints_the_page_and_the_api_on_the_same_hands(capsys):
    assert bench_split.main(["--hands", "3", "--seed", "2", "--rules", "two-high-straights"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "3 random hands, seed 2, rules two-high-straights"
    assert lines[1] == "/split/ (page):"
    assert lines[4] == "/api/hands/split:"
    for figures, one_suit in ((lines[2], lines[3]), (lines[5], lines[6])):
        assert figures.startswith("  median ") and " ms, 95th percentile " in figures
        assert one_suit.startswith("  thirteen spades: ") and one_suit.endswith(" ms")
    assert len(lines) == 7


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--hands", "0"], "--hands must be 1 or more"),
        (["--rules", "no-such-rule"], "'no-such-rule' is not a house rule"),
    ],
)
def test_the_benchmark_refuses_what_it_cannot_time(capsys, argv, message):
    with pytest.raises(SystemExit):
        bench_split.main(argv)
    assert message in capsys.readouterr().err


def test_an_answer_that_is_not_a_split_stops_the_benchmark():
    """Timing a refusal would print figures for work never done."""
    with bench_split._site() as client, pytest.raises(RuntimeError, match="answered 400"):
        bench_split._get(client, "/api/hands/split", list(parse_cards("3d 4d")), "")
