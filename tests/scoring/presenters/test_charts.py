"""The running-totals chart's geometry (scoring/presenters/charts.py), without a page."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.presenters.charts import (
    average_penalty_chart,
    average_penalty_figure,
    marker_path,
    running_totals_chart,
    shorten,
    spread,
    tick_step,
)

NAMES = ["Ann", "Ben", "Cy", "Dee"]
TOTALS = [(0, 5, 9, 39), (3, 5, 29, 41), (3, 25, 29, 104)]


def points(series) -> list[tuple[float, float]]:
    return [tuple(map(float, pair.split(","))) for pair in series.points.split()]


def test_every_line_starts_at_zero_and_has_a_point_per_deal():
    chart = running_totals_chart(NAMES, TOTALS)
    for series in chart.series:
        line = points(series)
        assert len(line) == len(TOTALS) + 1
        assert line[0] == (chart.left, chart.bottom)
        assert line[-1][0] == chart.right


def test_higher_totals_are_drawn_higher():
    chart = running_totals_chart(NAMES, TOTALS)
    ends = [points(series)[-1][1] for series in chart.series]
    assert ends[3] < ends[2] < ends[1] < ends[0]  # SVG y grows downwards


def test_the_100_line_sits_at_100_on_the_scale():
    chart = running_totals_chart(NAMES, TOTALS)
    zero = next(t.position for t in chart.y_ticks if t.value == 0)
    hundred = next(t.position for t in chart.y_ticks if t.value == 100)
    assert chart.target_y == hundred
    assert zero == chart.bottom
    assert chart.y_ticks[-1].value > 104  # the highest total fits under the top


def test_players_differ_by_marker_shape_and_dash_not_only_colour():
    chart = running_totals_chart(NAMES, TOTALS)
    assert len({series.shape for series in chart.series}) == 4
    assert len({series.dash for series in chart.series}) == 4


def test_lines_end_in_a_label_with_the_name_and_total():
    chart = running_totals_chart(["Annabelle-Marie", "Ben", "Cy", "Dee"], TOTALS)
    assert [series.label for series in chart.series] == ["Annabe… 3", "Ben 25", "Cy 29", "Dee 104"]


def test_end_labels_never_overlap_even_when_totals_are_equal():
    chart = running_totals_chart(NAMES, [(0, 5, 5, 5)])
    ys = sorted(series.label_y for series in chart.series)
    assert all(b - a >= 13 for a, b in zip(ys, ys[1:], strict=False))


def test_the_description_reads_out_the_standings():
    chart = running_totals_chart(NAMES, TOTALS)
    assert chart.description == (
        "Running totals after deal 3: Ann 3, Ben 25, Cy 29, Dee 104. "
        "The dashed line marks 100, where the game can end."
    )


def test_long_games_label_at_most_a_dozen_deals():
    chart = running_totals_chart(NAMES, [(0, 1, 1, 1)] * 40)
    assert len(chart.x_ticks) <= 13
    assert chart.x_ticks[-1].value <= 40


@pytest.mark.parametrize(("highest", "step"), [(100, 20), (60, 10), (150, 25), (290, 50)])
def test_grid_steps_are_round(highest, step):
    assert tick_step(highest) == step


def test_markers_are_closed_paths_of_each_shape():
    for shape in ("circle", "square", "triangle", "diamond"):
        assert re.fullmatch(r"M[-\d.,a-zA-Z ]+Z", marker_path(shape, 10, 10))
    with pytest.raises(ValueError):
        marker_path("star", 0, 0)


def test_short_names_are_kept_whole():
    assert shorten("Dee") == "Dee"
    assert shorten("Bartholomew") == "Bartho…"


@given(st.lists(st.floats(min_value=0, max_value=200), min_size=1, max_size=4))
def test_spread_labels_keep_their_order_and_gap(ys):
    placed = spread(ys, gap=13, low=14, high=200)
    order = sorted(range(len(ys)), key=lambda i: (ys[i], i))
    ranked = [placed[i] for i in order]
    assert all(b - a >= 12.9 for a, b in zip(ranked, ranked[1:], strict=False))
    assert max(placed) <= 200


def test_the_average_penalty_trend_has_a_point_per_game_and_few_grid_lines():
    trend = average_penalty_chart([0.0, 39.0, 1.0])
    assert len(trend.points.split()) == 3
    assert [tick.value for tick in trend.y_ticks] == [0, 10, 20, 30, 40]
    assert "3 finished games" in trend.description


def test_one_game_is_a_figure_not_a_chart_and_no_games_are_neither():
    """One game's point would be a lone dot: it is told as a number until there is a line."""
    assert average_penalty_chart([4.5]) is None
    assert average_penalty_figure([4.5]).value == 4.5
    assert average_penalty_chart([]) is None and average_penalty_figure([]) is None
    assert average_penalty_figure([4.5, 2.0]) is None


def test_one_games_figure_is_told_as_one_game_with_no_range():
    """Not "1 finished games … from 2.1 to 2.1"."""
    description = average_penalty_figure([2.125]).description
    assert description == "1 finished game: 2.1 points a deal. Lower is better."


def test_games_all_alike_are_told_without_a_range():
    description = average_penalty_chart([3.0, 3.0]).description
    assert description == "2 finished games, each at 3.0 points a deal. Lower is better."


def test_games_that_differ_are_told_from_the_first_to_the_last():
    description = average_penalty_chart([4.0, 1.5, 2.0]).description
    assert description == (
        "3 finished games, oldest first: from 4.0 to 2.0 points a deal; lowest 1.5, highest 4.0."
        " Lower is better."
    )
