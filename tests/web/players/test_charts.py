"""The server's line charts (players/charts.py): axes that show only what happened,
and labels that keep clear of each other in the corner where the axes meet."""

from __future__ import annotations

import re

from jackpot.web.players.charts import Series, line_chart

#: The charts' tick labels are 14 px (players.css); a digit is at most ~0.6 of that.
DIGIT = 0.6 * 14


def ticks(svg: str) -> list[tuple[float, float, str, str]]:
    """(x, y, anchor, text) of every tick label."""
    return [
        (float(x), float(y), anchor, text)
        for x, y, anchor, text in re.findall(
            r'<text class="tick" x="([\d.]+)" y="([\d.]+)" text-anchor="(\w+)">([^<]*)</text>',
            svg,
        )
    ]


Tick = tuple[float, float, str]


def x_and_y_ticks(svg: str) -> tuple[list[Tick], list[Tick]]:
    found = ticks(svg)
    xs = [(x, y, text) for x, y, anchor, text in found if anchor == "middle"]
    ys = [(x, y, text) for x, y, anchor, text in found if anchor == "end"]
    return xs, ys


def running_totals(points: list[list[float]]) -> str:
    series = [
        Series(f"seat {i}", [(k + 1, v) for k, v in enumerate(p)]) for i, p in enumerate(points)
    ]
    return str(line_chart(series, label="totals", x_name="round", y_name="total", y_from=0))


def test_a_one_round_match_shows_round_1_alone_and_totals_from_0() -> None:
    xs, ys = x_and_y_ticks(running_totals([[2], [9]]))
    assert [text for _, _, text in xs] == ["1"]
    assert ys[0][2] == "0"
    assert float(ys[-1][2]) >= 9


def test_the_first_round_label_keeps_clear_of_the_lowest_total() -> None:
    for points in ([[2], [9]], [[2, 7, 11], [9, 9, 20]], [[0] * 12]):
        xs, ys = x_and_y_ticks(running_totals(points))
        x_label_x, x_label_y, x_text = xs[0]
        y_label_x, y_label_y, _ = ys[0]  # right-aligned at its x
        x_left_edge = x_label_x - len(x_text) * DIGIT / 2
        assert x_left_edge >= y_label_x + 8, (points, x_left_edge, y_label_x)
        assert x_label_y > y_label_y  # below it


def test_x_ticks_are_rounds_that_were_played() -> None:
    xs, _ = x_and_y_ticks(running_totals([list(range(0, 60, 5))]))
    rounds = [int(text) for _, _, text in xs]
    assert rounds[0] == 1 and rounds[-1] <= 12
    assert all(1 <= r <= 12 for r in rounds)


def test_a_rating_chart_is_not_pulled_down_to_0() -> None:
    svg = str(
        line_chart(
            [Series("rating", [(1, 1480.0), (2, 1512.0), (3, 1530.0)])],
            label="rating",
            x_name="match",
            y_name="rating",
        )
    )
    _, ys = x_and_y_ticks(svg)
    assert float(ys[0][2]) >= 1400
