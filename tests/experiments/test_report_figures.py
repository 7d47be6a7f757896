"""The report says what happened: its figures are drawn on a plain install (SVG, no plotting
package), state their axes, show how many targets each heatmap cell holds, and a run in which no
arm asked a model has no token columns or token figure, with a sentence saying so."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from experiments.report import figures
from experiments.report.tables import HeatCell
from tests.experiments.runner_support import toml_text, write_regex_list


def _texts(path: Path) -> list[str]:
    tree = ElementTree.parse(path)  # well-formed XML, or this raises
    return [t.text or "" for t in tree.iter("{http://www.w3.org/2000/svg}text")]


def test_a_heatmap_prints_each_cells_rate_and_count_and_labels_empty_cells(tmp_path: Path) -> None:
    grid: list[list[HeatCell | None]] = [
        [HeatCell(3, 0, 1.0), None],
        [HeatCell(4, 2, 0.25), HeatCell(0, 1, None)],
    ]
    path = figures.heatmap(grid, [2, 3], [0, 1], "d · arm", tmp_path / "h.svg")
    texts = _texts(path)
    assert {
        "100% (n=3)",
        "no targets",
        "25% (n=4, 2 unfinished)",
        "— (1 unfinished)",
        "StarDepth",
        "#States",
    } <= set(texts)


def test_a_heatmap_names_its_metric_and_draws_its_colour_scale(tmp_path: Path) -> None:
    grid: list[list[HeatCell | None]] = [[HeatCell(3, 0, 1.0), HeatCell(2, 0, 0.5)]]
    path = figures.heatmap(grid, [2], [0, 1], "d · arm", tmp_path / "h.svg")
    texts = _texts(path)
    assert texts[0] == "Success rate of finished runs · d · arm"
    assert {"0%", "25%", "50%", "75%", "100%", "none"} <= set(texts)
    svg = path.read_text(encoding="utf-8")
    stops = [
        figures._viridis(rate) for rate in (1.0, 0.0)
    ]  # the scale runs from 100 % at the top to 0 %
    assert all(f'stop-color="{colour}"' in svg for colour in stops) and 'fill="url(#scale)"' in svg


def test_curves_state_both_axes_and_start_the_y_axis_at_0(tmp_path: Path) -> None:
    series: dict[str, list[tuple[float | None, int]]] = {
        "lstar": [(0.9, 2), (None, 0), (1.0, 3)],
        "a<b": [(0.1, 4), (0.2, 4), (0.3, 4)],
    }
    path = figures.curves(series, [8, 16, 32], "accuracy", "labeled", "t", tmp_path / "c.svg")
    texts = _texts(path)
    assert "accuracy (axis 0 to 1)" in texts and "at most N labeled (log scale)" in texts
    assert {"0.00", "1.00", "≤8", "≤16", "≤32", "lstar", "a<b"} <= set(texts)  # escaped, read back


def test_curves_print_how_many_runs_each_point_averages(tmp_path: Path) -> None:
    series: dict[str, list[tuple[float | None, int]]] = {
        "lstar": [(0.9, 2), (None, 0), (1.0, 3)],
        "symbolic": [(0.1, 4), (0.2, 5), (0.3, 6)],
    }
    texts = _texts(
        figures.curves(series, [8, 16, 32], "accuracy", "labeled", "t", tmp_path / "c.svg")
    )
    start = texts.index("runs (n)")
    assert [t for t in texts[start:] if t.isdigit()] == ["2", "0", "3", "4", "5", "6"]


def test_a_symbolic_run_reports_figures_on_a_plain_install_and_no_token_columns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # a plain install: importing it fails
    data = {
        "name": "tiny",
        "concurrency": 1,
        "datasets": [
            {"kind": "paper-list", "list": "simplyrx", "path": str(write_regex_list(tmp_path))}
        ],
        "arms": [{"name": "lstar", "learner": "lstar"}],
    }
    (tmp_path / "plan.toml").write_text(toml_text(data), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["experiment", str(tmp_path / "plan.toml"), "--out", str(tmp_path / "run")]
    )
    assert result.exit_code == 0, result.output
    assert (
        "0 errors" in result.output and "errors.jsonl" not in result.output
    )  # there is no such file
    report = (tmp_path / "run" / "report.md").read_text(encoding="utf-8")
    drawn = sorted(p.name for p in (tmp_path / "run" / "figures").iterdir())
    assert drawn == [
        "efficiency-simplyrx-accuracy.svg",
        "efficiency-simplyrx-diff-ratio.svg",
        "heatmap-simplyrx-lstar.svg",
    ]
    assert all(f"(figures/{name})" in report for name in drawn)
    sentence = "No arm asked a model, so the report has no token columns and no success-against-tokens figure."
    assert sentence in report and "tokens" not in report.replace(sentence, "")
    assert "membership queries" in report


def _placed(path: Path) -> list[tuple[str, float, float]]:
    tree = ElementTree.parse(path)
    return [
        (t.text or "", float(t.get("x", 0)), float(t.get("y", 0)))
        for t in tree.iter("{http://www.w3.org/2000/svg}text")
    ]


SMOKE = [  # arms of a smoke run: three close together, two on one spot, two never succeed
    ("standard", 3053.0, 0.0, False),
    ("prompts-output", 2900.0, 0.0, False),
    ("guarded", 3060.0, 0.0, False),
    ("single", 6105.0, 0.0, False),
    ("multi-single", 6110.0, 0.0, False),
    ("multi", 6100.0, 0.5, True),
    ("agentic", 9000.0, 1.0, True),
    ("acegis-diag", 12000.0, 1.0, False),
]


def test_the_pareto_figure_labels_every_arm_apart_at_round_ticks_with_a_key(
    tmp_path: Path,
) -> None:
    texts = _placed(figures.pareto(SMOKE, "t", tmp_path / "p.svg"))
    labels = [(text, x, y) for text, x, y in texts if text in {a for a, _, _, _ in SMOKE}]
    assert len(labels) == len(SMOKE)
    boxes = [(x, y - 10, x + 6.0 * len(text), y + 2) for text, x, y in labels]
    for i, a in enumerate(boxes):  # before: "prompts-output", "standard" and "guarded" overlapped
        for b in boxes[i + 1 :]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)
    shown = [t for t, _, _ in texts]
    assert {"0", "5,000", "10,000", "15,000"} <= set(shown)  # before: 3,301 / 6,603 / ...
    assert "Key" in shown and "the Pareto front" in shown and "dominated, or 0% success" in shown


def test_the_pareto_figure_keeps_its_labels_in_the_frame_and_off_the_marks(tmp_path: Path) -> None:
    """Before: a label of an arm at 0 % went under the axis, over the tick labels ("guarded"), and
    one near the right edge ran past the frame into the key."""
    crowded = [*SMOKE, ("acegis-exact-long-name", 14900.0, 0.5, False)]
    tree = ElementTree.parse(figures.pareto(crowded, "t", tmp_path / "p.svg"))
    svg = "{http://www.w3.org/2000/svg}"
    frame = next(r for r in tree.iter(f"{svg}rect") if r.get("fill") == "none")
    left, top = float(frame.get("x", 0)), float(frame.get("y", 0))
    right, bottom = left + float(frame.get("width", 0)), top + float(frame.get("height", 0))
    marks = [
        (float(c.get("cx", 0)), float(c.get("cy", 0)))
        for c in tree.iter(f"{svg}circle")
        if float(c.get("cx", 0)) <= right  # the key's marks are beside the frame
    ]
    assert len(marks) == len(crowded)
    names = {arm for arm, _, _, _ in crowded}
    for text, x, y in _placed(tmp_path / "p.svg"):
        if text not in names:
            continue
        box = (x, y - 10, x + 6.0 * len(text), y + 2)  # 6 px a character at size 10
        assert left <= box[0] and box[2] <= right and box[3] <= bottom, (text, box)
        for mx, my in marks:
            assert not (box[0] < mx + 4 and mx - 4 < box[2] and box[1] < my + 4 and my - 4 < box[3])


def test_curves_of_more_series_than_colours_tell_each_apart(tmp_path: Path) -> None:
    """A smoke run's twelve arms (before: the eleventh and twelfth took the first two's colours and
    lines, so ``+output+constrained`` read as ``standard``)."""
    series: dict[str, list[tuple[float | None, int]]] = {
        f"arm{k}": [(k / 12, 1), (k / 12, 1)] for k in range(12)
    }
    path = figures.curves(series, [8, 16], "accuracy", "x", "t", tmp_path / "c.svg")
    svg = "{http://www.w3.org/2000/svg}"
    tree = ElementTree.parse(path)
    lines = [(p.get("stroke"), p.get("stroke-dasharray")) for p in tree.iter(f"{svg}polyline")]
    keys = [
        (line.get("stroke"), line.get("stroke-dasharray"))
        for line in tree.iter(f"{svg}line")
        if line.get("stroke-width") == "2"
    ]
    assert len(set(lines)) == 12 and keys == lines  # the key draws each series' own line


@pytest.mark.parametrize(
    ("most", "ticks"),
    [(13206, [0, 5000, 10000, 15000]), (20, [0, 5, 10, 15, 20]), (0.3, [0, 0.1, 0.2, 0.3])],
)
def test_nice_ticks_are_round_and_reach_the_largest_value(most: float, ticks: list[float]) -> None:
    assert figures.nice_ticks(most) == pytest.approx(ticks)


def test_curves_say_under_the_title_what_the_metric_is(tmp_path: Path) -> None:
    series: dict[str, list[tuple[float | None, int]]] = {"a": [(0.5, 1), (0.2, 1)]}
    texts = _texts(
        figures.curves(series, [8, 16], "Diff Ratio", "x", "t", tmp_path / "c.svg", "one\ntwo")
    )
    assert texts[:3] == ["t", "one", "two"]
