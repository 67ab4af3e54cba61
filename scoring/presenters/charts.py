"""The running-totals chart, worked out in plain Python and drawn as SVG by a template.

Players are told apart by the shape of their markers and the dash of their lines as well as by
colour, and each line ends in a label with the name and total. Everything here is numbers and
strings; `templates/scoring/_chart.html` turns it into SVG.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

WIDTH = 360
HEIGHT = 230
LEFT = 32  # room for the y-axis numbers
RIGHT = 92  # room for the labels at the lines' ends
TOP = 10
BOTTOM = 30  # room for the deal numbers and the axis title
LABEL_GAP = 13  # the least vertical distance between two end labels
LABEL_CHARS = 7

SHAPES = ("circle", "square", "triangle", "diamond")
# The shapes as the legend names them.
SHAPE_NAMES = {
    "circle": gettext_lazy("circle"),
    "square": gettext_lazy("square"),
    "triangle": gettext_lazy("triangle"),
    "diamond": gettext_lazy("diamond"),
}
DASHES = ("", "7 4", "2 3", "9 3 2 3")


@dataclass(frozen=True, slots=True)
class Series:
    index: int
    name: str
    total: int
    shape: str

    @property
    def shape_name(self) -> str:
        return str(SHAPE_NAMES[self.shape])

    dash: str
    points: str  # for <polyline points="...">
    markers: str  # one path with a marker at every deal
    legend_marker: str  # a marker for the legend's own small drawing
    label: str
    label_x: float
    label_y: float


@dataclass(frozen=True, slots=True)
class Tick:
    value: int
    position: float


@dataclass(frozen=True, slots=True)
class Frame:
    """A chart's size, and the edges of the area its lines are drawn in."""

    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float


@dataclass(frozen=True, slots=True)
class Chart(Frame):
    series: tuple[Series, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    target: int | None  # None when the match doesn't end at a score
    target_y: float
    title: str
    description: str


def running_totals_chart(
    names: Sequence[str], running_totals: Sequence[Sequence[int]], target: int | None = 100
) -> Chart:
    """A chart of each player's total after every deal (all start at 0 before deal 1).

    `running_totals` holds one tuple of totals, in seat order, per deal. `target` draws the
    score where the game can end; None (a match of set deals, or open-ended) draws none.
    """
    deals = len(running_totals)
    right = WIDTH - RIGHT
    bottom = HEIGHT - BOTTOM
    highest = max([target or 0, *(total for totals in running_totals for total in totals)])
    step = tick_step(highest)
    top_value = step * math.ceil((highest + 1) / step)

    def x_of(deal: int) -> float:
        return round(LEFT + (right - LEFT) * deal / max(deals, 1), 1)

    def y_of(value: int) -> float:
        return round(bottom - (bottom - TOP) * value / top_value, 1)

    end_ys = spread(
        [y_of(running_totals[-1][seat] if deals else 0) for seat in range(len(names))],
        gap=LABEL_GAP,
        low=TOP + 4,
        high=bottom,
    )
    series = [
        line_of(seat, name, running_totals, x_of, y_of, label_y=end_ys[seat])
        for seat, name in enumerate(names)
    ]
    y_ticks = tuple(Tick(value, y_of(value)) for value in range(0, top_value + 1, step))
    every = math.ceil(deals / 12) if deals else 1
    x_ticks = tuple(Tick(deal, x_of(deal)) for deal in range(every, deals + 1, every))
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=right,
        top=TOP,
        bottom=bottom,
        series=tuple(series),
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        target=target,
        target_y=y_of(target or 0),
        title=_("Running totals after each deal"),
        description=described(names, series, deals, target),
    )


def line_of(
    seat: int,
    name: str,
    running_totals: Sequence[Sequence[int]],
    x_of: Callable[[int], float],
    y_of: Callable[[int], float],
    *,
    label_y: float,
) -> Series:
    """One player's line: from 0 through their total after each deal, to its end label."""
    totals = [0, *(totals[seat] for totals in running_totals)]
    coordinates = [(x_of(deal), y_of(total)) for deal, total in enumerate(totals)]
    shape = SHAPES[seat % len(SHAPES)]
    return Series(
        index=seat,
        name=name,
        total=totals[-1],
        shape=shape,
        dash=DASHES[seat % len(DASHES)],
        points=" ".join(f"{x:g},{y:g}" for x, y in coordinates),
        markers=" ".join(marker_path(shape, x, y) for x, y in coordinates[1:]),
        legend_marker=marker_path(shape, 15, 6),
        label=f"{shorten(name)} {totals[-1]}",
        label_x=WIDTH - RIGHT + 6,
        label_y=round(label_y + 4, 1),
    )


def described(
    names: Sequence[str], series: Sequence[Series], deals: int, target: int | None
) -> str:
    """The chart in words, for those who can't see it."""
    standing = ", ".join(f"{name} {s.total}" for name, s in zip(names, series, strict=True))
    description = (
        _("Running totals after deal %(deals)s: %(standing)s.")
        % {"deals": deals, "standing": standing}
        if deals
        else _("No deals yet: %(names)s all start at 0.") % {"names": ", ".join(names)}
    )
    if target is not None:
        description += " " + _("The dashed line marks %(target)s, where the game can end.") % {
            "target": target
        }
    return description


def tick_step(highest: int) -> int:
    """A round step giving at most seven grid lines up to `highest`."""
    for step in (10, 20, 25, 50, 100, 200, 500):
        if highest / step <= 6:
            return step
    return 1000


def spread(ys: Sequence[float], *, gap: float, low: float, high: float) -> list[float]:
    """Move label positions apart so that none are closer than `gap`, keeping their order
    and staying between `low` and `high` where there is room; returned in the given order."""
    order = sorted(range(len(ys)), key=lambda i: (ys[i], i))
    placed = [min(max(ys[i], low), high) for i in order]
    for k in range(1, len(placed)):
        placed[k] = max(placed[k], placed[k - 1] + gap)
    overflow = placed[-1] - high if placed else 0
    if overflow > 0:
        placed[-1] -= overflow
        for k in range(len(placed) - 2, -1, -1):
            placed[k] = min(placed[k], placed[k + 1] - gap)
    result = [0.0] * len(ys)
    for k, i in enumerate(order):
        result[i] = round(placed[k], 1)
    return result


def shorten(name: str, limit: int = LABEL_CHARS) -> str:
    return name if len(name) <= limit else name[: limit - 1].rstrip() + "…"


def marker_path(shape: str, x: float, y: float, r: float = 3.5) -> str:
    """An SVG path drawing `shape` centred on (x, y)."""
    if shape == "circle":
        return f"M{x - r:g},{y:g}a{r:g},{r:g} 0 1,0 {2 * r:g},0a{r:g},{r:g} 0 1,0 {-2 * r:g},0Z"
    if shape == "square":
        s = r * 0.9
        return f"M{x - s:g},{y - s:g}h{2 * s:g}v{2 * s:g}h{-2 * s:g}Z"
    if shape == "triangle":
        t = r * 1.25
        return f"M{x:g},{y - t:g}L{x + t:g},{y + t * 0.8:g}L{x - t:g},{y + t * 0.8:g}Z"
    if shape == "diamond":
        d = r * 1.3
        return f"M{x:g},{y - d:g}L{x + d:g},{y:g}L{x:g},{y + d:g}L{x - d:g},{y:g}Z"
    raise ValueError(f"unknown marker shape {shape!r}")


@dataclass(frozen=True, slots=True)
class Trend(Frame):
    """A small line of one player's average penalty per deal, game by game."""

    points: str
    markers: str
    y_ticks: tuple[Tick, ...]
    title: str
    description: str


@dataclass(frozen=True, slots=True)
class Figure:
    """One finished game's average penalty per deal, told as a number: a single point draws no
    line, only a dot."""

    value: float
    description: str


def trend(
    values: Sequence[float], *, low: int, high: int, step: int, title: str, description: str
) -> Trend:
    """A line of `values`, oldest first, on a scale from `low` to `high` ticked every `step`:
    the player page's charts all draw alike."""
    width, height, left, right, top, bottom = 360, 140, 32, 350, 10, 120

    def x_of(game: int) -> float:
        return round(left + (right - left) * game / (len(values) - 1), 1)

    def y_of(value: float) -> float:
        return round(bottom - (bottom - top) * (value - low) / (high - low), 1)

    coordinates = [(x_of(game), y_of(value)) for game, value in enumerate(values)]
    return Trend(
        width=width,
        height=height,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        points=" ".join(f"{x:g},{y:g}" for x, y in coordinates),
        markers=" ".join(marker_path("circle", x, y, r=2.5) for x, y in coordinates),
        y_ticks=tuple(Tick(value, y_of(value)) for value in range(low, high + 1, step)),
        title=title,
        description=description,
    )


def average_penalty_figure(averages: Sequence[float]) -> Figure | None:
    """The average of the one finished game there is; None with none, or with a line to draw."""
    if len(averages) != 1:
        return None
    return Figure(value=averages[0], description=trend_description(averages))


def average_penalty_chart(averages: Sequence[float]) -> Trend | None:
    """Average penalty per deal in each finished game, oldest first; None with fewer than two
    games (`average_penalty_figure` tells one game's)."""
    if len(averages) < 2:
        return None
    highest = max(averages)
    step = next((step for step in (1, 2, 5, 10, 20) if highest / step < 5), 50)
    return trend(
        averages,
        low=0,
        high=step * math.ceil((highest + 0.01) / step),
        step=step,
        title=_("Average penalty per deal, game by game"),
        description=trend_description(averages),
    )


def trend_description(averages: Sequence[float]) -> str:
    """The trend in words: one game's average alone, games all alike without a range."""
    figures = {
        "count": len(averages),
        "average": averages[0],
        "first": averages[0],
        "last": averages[-1],
        "lowest": min(averages),
        "highest": max(averages),
    }
    if len(averages) == 1:
        return _("1 finished game: %(average).1f points a deal. Lower is better.") % figures
    # Alike as shown, to one decimal: "from 2.1 to 2.1" says nothing.
    if len({f"{average:.1f}" for average in averages}) == 1:
        return (
            ngettext(
                "%(count)s finished game, each at %(average).1f points a deal. Lower is better.",
                "%(count)s finished games, each at %(average).1f points a deal. Lower is better.",
                len(averages),
            )
            % figures
        )
    return (
        ngettext(
            "%(count)s finished game, oldest first: from %(first).1f to %(last).1f points a deal;"
            " lowest %(lowest).1f, highest %(highest).1f. Lower is better.",
            "%(count)s finished games, oldest first: from %(first).1f to %(last).1f points a deal;"
            " lowest %(lowest).1f, highest %(highest).1f. Lower is better.",
            len(averages),
        )
        % figures
    )


def rating_chart(values: Sequence[float]) -> Trend | None:
    """A player's rating after each of their finished games, oldest first (it can be below
    0); None with fewer than two games."""
    if len(values) < 2:
        return None
    step = 5 if max(values) - min(values) < 25 else 10
    return trend(
        values,
        low=step * math.floor(min(values) / step),
        high=step * math.ceil((max(values) + 0.01) / step),
        step=step,
        title=_("Rating, game by game"),
        description=_(
            "%(count)s finished games, oldest first: rating from %(first).1f to %(last).1f;"
            " lowest %(lowest).1f, highest %(highest).1f. Higher is better."
        )
        % {
            "count": len(values),
            "first": values[0],
            "last": values[-1],
            "lowest": min(values),
            "highest": max(values),
        },
    )
