"""The report's figures as SVG written by hand, so a plain install draws them (no plotting package).

Three kinds, the seed paper's: a heatmap of success over #States × StarDepth, titled with its
metric, that prints each cell's rate, its number of finished runs and any unfinished ones (a cell
without a target says so) beside a colour scale; lines of a metric over labeled-example budgets
(each series its own colour and dash, keyed beside the plot; log-scaled x axis whose ticks read
"≤ N", y axis from 0 to 1, both stated on the axes, and a note under the title saying what the
metric is) with the number of runs behind each point under the axis; success against mean tokens
per run with the Pareto front, its ticks at round numbers, each arm labelled inside the frame where
no other label or mark is, and a key to its marks. Each function takes the numbers the tables
computed and a path, and returns the path written. SVG is text: the figures diff, and any browser
or Markdown viewer shows them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path

from experiments.report.tables import NO_TARGETS, HeatCell

#: Matplotlib's tab10, so lines keep the colours readers know.
PALETTE = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)
#: The width of one character of a 10-pixel label, and the height of its line: the room a label takes.
LABEL_WIDTH, LABEL_HEIGHT = 6.0, 12.0
#: Viridis at five stops; a rate is interpolated between them.
_VIRIDIS = ((68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37))


def heatmap(
    grid: Sequence[Sequence[HeatCell | None]],
    states: Sequence[int],
    depths: Sequence[int],
    title: str,
    path: Path,
) -> Path:
    """Success rate over #States (rows) × StarDepth (columns), titled with the metric, each cell
    labelled as the table labels it and coloured by its rate on the scale drawn beside the grid; a
    cell without a target, or without a finished run, is grey."""
    labels = [[NO_TARGETS if cell is None else cell.label for cell in row] for row in grid]
    cell_w = max(92, 7 * max((len(label) for row in labels for label in row), default=0) + 12)
    cell_h, left, top = 36, 64, 44
    grid_right, grid_bottom = left + cell_w * len(depths), top + cell_h * len(states)
    scale = max(grid_bottom - top, 120)
    width, height = grid_right + 96, max(grid_bottom + 48, top + scale + 40)
    body = [_text(width / 2, 20, f"Success rate of finished runs · {title}", size=12)]
    for i, row in enumerate(grid):
        for j, cell in enumerate(row):
            x, y = left + j * cell_w, top + i * cell_h
            rate = None if cell is None else cell.rate
            fill = "#eeeeee" if rate is None else _viridis(rate)
            body.append(
                f'<rect x="{x}" y="{y}" width="{cell_w}" height="{cell_h}" fill="{fill}" stroke="white"/>'
            )
            ink = "#555555" if rate is None else ("white" if rate < 0.6 else "black")
            body.append(_text(x + cell_w / 2, y + cell_h / 2 + 4, labels[i][j], fill=ink))
    for j, depth in enumerate(depths):
        body.append(_text(left + (j + 0.5) * cell_w, grid_bottom + 16, str(depth)))
    for i, count in enumerate(states):
        body.append(_text(left - 8, top + (i + 0.5) * cell_h + 4, str(count), anchor="end"))
    body.append(_text(left + cell_w * len(depths) / 2, grid_bottom + 38, "StarDepth"))
    body.append(_text(14, top + cell_h * len(states) / 2, "#States", rotate=True))
    body += _colour_scale(grid_right + 20, top, scale)
    return _write(path, width, height, body)


def _colour_scale(x: float, top: float, height: float) -> list[str]:
    """A vertical bar from 0 % (bottom) to 100 % (top) in the heatmap's colours, with ticks, and
    the grey that means no finished run."""
    stops = "".join(
        f'<stop offset="{k / (len(_VIRIDIS) - 1):.2f}" stop-color="{_viridis(1 - k / (len(_VIRIDIS) - 1))}"/>'
        for k in range(len(_VIRIDIS))
    )
    out = [
        f'<defs><linearGradient id="scale" x1="0" y1="0" x2="0" y2="1">{stops}</linearGradient></defs>',
        f'<rect x="{x}" y="{top}" width="14" height="{height}" fill="url(#scale)" stroke="black" stroke-width="0.5"/>',
    ]
    for k in range(5):
        y = top + height - k / 4 * height
        out.append(f'<line x1="{x + 14}" y1="{y:.1f}" x2="{x + 18}" y2="{y:.1f}" stroke="black"/>')
        out.append(_text(x + 21, y + 4, f"{25 * k}%", anchor="start", size=10))
    out.append(
        f'<rect x="{x}" y="{top + height + 12}" width="14" height="14" fill="#eeeeee"'
        ' stroke="black" stroke-width="0.5"/>'
    )
    out.append(_text(x + 21, top + height + 23, "none", anchor="start", size=10))
    return out


def curves(
    series: Mapping[str, Sequence[tuple[float | None, int]]],
    budgets: Sequence[int],
    ylabel: str,
    xlabel: str,
    title: str,
    path: Path,
    note: str = "",
) -> Path:
    """One line per series over ``budgets`` (log-scaled x axis, each tick "≤ budget"; y axis from 0
    to 1); a series gives at each budget its mean (None: no point) and how many runs it averages,
    printed in the series' colour in a row under the axis, so a step that only a change of runs
    makes shows. ``note``, under the title (a line per ``\\n``), says what the metric is."""
    notes = note.split("\n") if note else []
    left, right, top, bottom = 64, 470, 40 + 12 * len(notes), 330
    lo, hi = math.log(min(budgets)), math.log(max(budgets))
    rows_top = bottom + 44

    def at(budget: int, value: float) -> tuple[float, float]:
        share = 0.5 if hi == lo else (math.log(budget) - lo) / (hi - lo)
        return left + share * (right - left), bottom - value * (bottom - top)

    body = [
        _text((left + right) / 2, 20, title, size=12),
        *(_text((left + right) / 2, 34 + 12 * k, line, size=9) for k, line in enumerate(notes)),
        *_y_axis(left, right, top, bottom, f"{ylabel} (axis 0 to 1)"),
    ]
    for budget in budgets:
        x, _ = at(budget, 0.0)
        body.append(
            f'<line x1="{x:.1f}" y1="{bottom}" x2="{x:.1f}" y2="{bottom + 4}" stroke="black"/>'
        )
        body.append(_text(x, bottom + 16, f"≤{budget}"))
    body.append(_text((left + right) / 2, bottom + 32, f"at most N {xlabel} (log scale)"))
    body.append(_text(left - 16, rows_top, "runs (n)", anchor="end", size=9))
    for k, (label, values) in enumerate(series.items()):
        colour, dash = line_style(k)
        points = [at(b, v) for b, (v, _) in zip(budgets, values) if v is not None]
        if len(points) > 1:
            joined = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
            body.append(
                f'<polyline points="{joined}" fill="none" stroke="{colour}" stroke-width="1.5"'
                f"{dash}/>"
            )
        body += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>' for x, y in points]
        key_y = top + 16 * k + 5
        body.append(
            f'<line x1="{right + 8}" y1="{key_y}" x2="{right + 26}" y2="{key_y}" stroke="{colour}"'
            f' stroke-width="2"{dash}/>'
        )
        body.append(_text(right + 30, top + 16 * k + 9, label, anchor="start", size=10))
        for budget, (_, n) in zip(budgets, values):
            body.append(_text(at(budget, 0.0)[0], rows_top + 12 * k, str(n), size=9, fill=colour))
    return _write(path, 640, rows_top + 12 * len(series) + 8, body)


def line_style(index: int) -> tuple[str, str]:
    """The colour and the dash attribute of series ``index``: the palette's colours in solid
    lines, then again dashed, then dotted, so a figure of more series than colours (a smoke run's
    twelve arms) tells each apart."""
    dash = ("", ' stroke-dasharray="6 3"', ' stroke-dasharray="2 2"')[index // len(PALETTE) % 3]
    return PALETTE[index % len(PALETTE)], dash


def pareto(points: Sequence[tuple[str, float | None, float, bool]], title: str, path: Path) -> Path:
    """Success against mean tokens per run, one point per arm, each labelled beside it inside the
    frame (moved up or down, with a leader line, where another label or a mark already is); the
    Pareto-optimal arms filled and joined, the others faded, as the key beside the plot says. An
    arm whose tokens are unknown (None: a server did not report usage) has no place on the token
    axis: it is named under the figure, not drawn."""
    unknown = [label for label, tokens, _, _ in points if tokens is None]
    drawn = [
        (label, tokens, success, optimal)
        for label, tokens, success, optimal in points
        if tokens is not None
    ]
    left, right, top, bottom = 64, 520, 40, 330
    ticks = nice_ticks(max((tokens for _, tokens, _, _ in drawn), default=0.0))

    def at(tokens: float, success: float) -> tuple[float, float]:
        return left + tokens / ticks[-1] * (right - left), bottom - success * (bottom - top)

    body = [
        _text((left + right) / 2, 20, title, size=12),
        *_y_axis(left, right, top, bottom, "success rate (axis 0 to 1)"),
    ]
    for tokens in ticks:
        x, _ = at(tokens, 0.0)
        body.append(
            f'<line x1="{x:.1f}" y1="{bottom}" x2="{x:.1f}" y2="{bottom + 4}" stroke="black"/>'
        )
        body.append(_text(x, bottom + 16, _number(tokens)))
    body.append(_text((left + right) / 2, bottom + 36, "mean tokens per run (axis from 0)"))
    front = sorted((tokens, success) for _, tokens, success, optimal in drawn if optimal)
    if len(front) > 1:
        joined = " ".join(f"{x:.1f},{y:.1f}" for x, y in (at(t, s) for t, s in front))
        body.append(
            f'<polyline points="{joined}" fill="none" stroke="black" stroke-dasharray="4 3"/>'
        )
    marks = [at(tokens, success) for _, tokens, success, _ in drawn]
    placed = [(x - 4, y - 4, x + 4, y + 4) for x, y in marks]  # a label covers no mark
    for k, ((_, _, _, optimal), (x, y)) in enumerate(zip(drawn, marks)):
        body.append(_mark(x, y, PALETTE[k % len(PALETTE)], optimal))
    for (label, _, _, _), (x, y) in zip(drawn, marks):
        width = LABEL_WIDTH * len(label)
        # beside the mark on its right, or on its left where the frame ends first
        wanted = x + 7 if x + 7 + width <= right else x - 7 - width
        lx, ly = _free_spot(wanted, y - 7, width, placed, (top - 8, bottom - 3))
        if abs(ly - (y - 7)) > 1:  # moved: a leader line says whose label it is
            end = lx - 1 if lx > x else lx + width + 1
            body.append(
                f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{end:.1f}" y2="{ly - 4:.1f}"'
                ' stroke="#999999" stroke-width="0.5"/>'
            )
        body.append(_text(lx, ly, label, anchor="start", size=10))
    body += _pareto_key(right + 16, top)
    if unknown:
        note = f"not drawn, tokens unknown (a server did not report usage): {', '.join(unknown)}"
        body.append(_text((left + right) / 2, bottom + 54, note, size=10))
    return _write(path, 720, 396 if unknown else 380, body)


def nice_ticks(most: float) -> list[float]:
    """Ticks from 0 at a round step (1, 2, 2.5 or 5 times a power of ten), about five of them,
    the last at or past ``most``."""
    most = most if most > 0 else 1.0
    raw = most / 4
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(f * power for f in (1, 2, 2.5, 5, 10) if f * power >= raw)
    count = math.ceil(most / step - 1e-9)
    return [k * step for k in range(count + 1)]


def _number(value: float) -> str:
    return f"{round(value):,}" if value == round(value) else f"{value:g}"


def _mark(x: float, y: float, colour: str, optimal: bool) -> str:
    faded = "" if optimal else ' fill-opacity="0.3"'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{colour}"{faded}/>'


def _free_spot(
    x: float,
    y: float,
    width: float,
    placed: list[tuple[float, float, float, float]],
    baselines: tuple[float, float],
) -> tuple[float, float]:
    """Where a label of ``width`` goes: at (``x``, ``y``) (its baseline) or the nearest line above or
    below, between the ``baselines`` (highest, lowest: inside the frame), that nothing ``placed``
    (a label or a mark) overlaps; recorded in ``placed``."""
    height = LABEL_HEIGHT
    for shift in (0, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6, -7, 7, -8, 8, -9, 9, -10, 10):
        baseline = y + shift * height
        if not baselines[0] <= baseline <= baselines[1]:
            continue
        box = (x, baseline - height + 2, x + width, baseline + 2)
        if not any(_overlap(box, other) for other in placed):
            placed.append(box)
            return x, baseline
    placed.append((x, y - height + 2, x + width, y + 2))
    return x, y


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _pareto_key(x: float, top: float) -> list[str]:
    """What the marks of the success-against-tokens figure mean."""
    return [
        _text(x, top + 8, "Key", anchor="start", size=10),
        _mark(x + 5, top + 24, "#555555", True),
        _text(x + 14, top + 28, "Pareto-optimal: no arm has", anchor="start", size=9),
        _text(x + 14, top + 40, "as much success for fewer tokens", anchor="start", size=9),
        _mark(x + 5, top + 58, "#555555", False),
        _text(x + 14, top + 62, "dominated, or 0% success", anchor="start", size=9),
        f'<line x1="{x}" y1="{top + 78}" x2="{x + 10}" y2="{top + 78}" stroke="black"'
        ' stroke-dasharray="4 3"/>',
        _text(x + 14, top + 82, "the Pareto front", anchor="start", size=9),
    ]


def _y_axis(left: float, right: float, top: float, bottom: float, label: str) -> list[str]:
    """The frame, horizontal grid lines at 0, 0.25, ..., 1 with their values, and the y label."""
    out = [
        f'<rect x="{left}" y="{top}" width="{right - left}" height="{bottom - top}" fill="none" stroke="black"/>'
    ]
    for k in range(5):
        y = bottom - k / 4 * (bottom - top)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}" stroke="#dddddd"/>')
        out.append(_text(left - 6, y + 4, f"{k / 4:.2f}", anchor="end"))
    out.append(_text(16, (top + bottom) / 2, label, rotate=True))
    return out


def _viridis(value: float) -> str:
    share = min(max(value, 0.0), 1.0) * (len(_VIRIDIS) - 1)
    k = min(int(share), len(_VIRIDIS) - 2)
    low, high = _VIRIDIS[k], _VIRIDIS[k + 1]
    mixed = (round(a + (share - k) * (b - a)) for a, b in zip(low, high))
    return "#" + "".join(f"{c:02x}" for c in mixed)


def _text(
    x: float,
    y: float,
    text: str,
    *,
    size: int = 11,
    anchor: str = "middle",
    fill: str = "black",
    rotate: bool = False,
) -> str:
    turn = f' transform="rotate(-90 {x:.1f} {y:.1f})"' if rotate else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"'
        f' fill="{fill}"{turn}>{escape(text)}</text>'
    )


def _write(path: Path, width: float, height: float, body: list[str]) -> Path:
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}"'
        f' viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">\n'
        f'<rect width="100%" height="100%" fill="white"/>\n' + "\n".join(body) + "\n</svg>\n"
    )
    path.write_text(svg, encoding="utf-8")
    return path
