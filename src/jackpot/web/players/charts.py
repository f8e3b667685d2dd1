"""Small line charts drawn on the server as inline SVG.

Two charts on the whole site (rating over matches, running totals by round) do not
justify a chart library: an SVG string is a few lines, needs no JavaScript, scales
to a phone through its viewBox, and prints. Each chart comes with the same numbers
as a table in the page, which is what a screen reader reads; the SVG itself gets
a short label saying what it shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from markupsafe import Markup

from jackpot.i18n import gettext

#: Colours told apart by people with the common colour-blindnesses (Okabe-Ito),
#: and a dash pattern each so that print and greyscale keep them apart too.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7")
DASHES = ("", "6 3", "2 3", "8 3 2 3")
#: Pixels between the y axis (and the right edge) and the nearest point.
INSET = 16


@dataclass(frozen=True)
class Series:
    label: str
    #: (x, y) points; y None leaves a gap (a seat that was out that round).
    points: Sequence[tuple[float, float | None]]


def _nice_step(span: float, ticks: int = 5) -> float:
    raw = max(span, 1e-9) / ticks
    mag = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1.0
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def line_chart(
    series: Sequence[Series],
    *,
    label: str,
    x_name: str,
    y_name: str,
    width: int = 520,
    height: int = 240,
    y_from: float | None = None,
) -> Markup:
    """An SVG line chart of ``series``; ``label`` is what a screen reader announces.

    ``y_from`` is a value the y axis always reaches (0 for totals that start from
    nothing), so a chart of one round does not start its axis at that round's lowest
    total. The lines keep ``INSET`` pixels from the y axis, which keeps the first x
    label clear of the lowest y label in the corner between them."""
    pts = [(x, y) for s in series for x, y in s.points if y is not None]
    left, right, top, bottom = 72, 12, 12, 40
    w, h = width - left - right, height - top - bottom
    out = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(label)}" preserveAspectRatio="xMidYMid meet">'
    ]
    if not pts:
        empty = gettext("nothing yet")  # outside the f-string, where Babel finds it
        out.append(
            f'<text x="{width / 2}" y="{height / 2}" text-anchor="middle">'
            f"{escape(empty)}</text></svg>"
        )
        return Markup("".join(out))
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts if p[1] is not None]
    if y_from is not None:
        ys.append(y_from)
    first_x, last_x = min(xs), max(xs)
    # One x alone stands in the middle, with no neighbours on the axis that do not exist.
    x0, x1 = (first_x - 0.5, last_x + 0.5) if first_x == last_x else (first_x, last_x)
    step = _nice_step(max(ys) - min(ys) or 1)
    y0 = (min(ys) // step) * step
    y1 = -((-max(ys)) // step) * step
    if y1 == y0:
        y1 = y0 + step

    def sx(x: float) -> float:
        return round(left + INSET + (x - x0) / (x1 - x0) * (w - 2 * INSET), 1)

    def sy(y: float) -> float:
        return round(top + h - (y - y0) / (y1 - y0) * h, 1)

    y = y0
    while y <= y1 + 1e-9:
        out.append(
            f'<line class="grid" x1="{left}" x2="{left + w}" y1="{sy(y)}" y2="{sy(y)}"/>'
            f'<text class="tick" x="{left - 6}" y="{sy(y) + 4}" text-anchor="end">{y:g}</text>'
        )
        y += step
    # x ticks on round multiples of a nice step (5, 10, 20...), plus the first x; only
    # where there are points (a chart of round 1 has no round 0 or 2).
    xstep = max(1, int(_nice_step(last_x - first_x, 6)))
    first = int(first_x) if first_x == int(first_x) else int(first_x) + 1
    xticks = [first] + [
        k
        for k in range(-(-first // xstep) * xstep, int(last_x) + 1, xstep)
        if k - first >= xstep / 2
    ]
    for x in xticks:
        out.append(
            f'<text class="tick" x="{sx(x)}" y="{top + h + 16}" text-anchor="middle">{x}</text>'
        )
    out.append(
        f'<text class="axis" x="{left + w / 2}" y="{height - 4}" text-anchor="middle">'
        f"{escape(x_name)}</text>"
        f'<text class="axis" x="12" y="{top + h / 2}" text-anchor="middle" '
        f'transform="rotate(-90 12 {top + h / 2})">{escape(y_name)}</text>'
    )
    for i, s in enumerate(series):
        colour, dash = COLOURS[i % len(COLOURS)], DASHES[i % len(DASHES)]
        runs: list[list[tuple[float, float]]] = [[]]
        for px, py in s.points:
            if py is None:
                runs.append([])
            else:
                runs[-1].append((sx(px), sy(py)))
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        for run in runs:
            if len(run) > 1:
                d = " ".join(f"{a},{b}" for a, b in run)
                out.append(
                    f'<polyline fill="none" stroke="{colour}" stroke-width="2.5"{dash_attr} '
                    f'points="{d}"/>'
                )
            for a, b in run:
                out.append(f'<circle cx="{a}" cy="{b}" r="3" fill="{colour}"/>')
    out.append("</svg>")
    return Markup("".join(out))


def legend(series: Sequence[Series]) -> Markup:
    """A key for the lines, in HTML so it wraps on a narrow screen."""
    items = []
    for i, s in enumerate(series):
        colour, dash = COLOURS[i % len(COLOURS)], DASHES[i % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        items.append(
            '<li><svg width="28" height="10" aria-hidden="true">'
            f'<line x1="0" y1="5" x2="28" y2="5" stroke="{colour}" stroke-width="3"{dash_attr}/>'
            f"</svg> {escape(s.label)}</li>"
        )
    return Markup('<ul class="legend">' + "".join(items) + "</ul>")
