"""Loaders on small files written here: what they keep and drop, and the typed error naming the path
for every way a file can be missing or malformed."""

from __future__ import annotations

import functools
import itertools
import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from experiments.datasets import (
    DatasetNotFound,
    MalformedDataset,
    load_deepregex,
    load_kb13_extrx,
    load_paper_list,
    python_targets,
)
from experiments.datasets.task import Metrics
from tests.experiments.fifo_support import without_waiting

SIMPLE_CELL = {"Stardepth": 1, "regex_list": ["(a b)*", "a* b", "c c*", "x"]}


def _write_json(path: Path, document: object) -> Path:
    path.write_text(json.dumps(document))
    return path


def _folder(tmp_path: Path, pairs: list[tuple[str, str]]) -> Path:
    folder = tmp_path / "nl-rx-mini"
    folder.mkdir()
    (folder / "src.txt").write_text(
        "\n".join(d for d, _ in pairs)
    )  # no trailing newline, as the data
    (folder / "targ.txt").write_text("\n".join(r for _, r in pairs))
    return folder


def test_a_small_list_loads_with_its_cells(tmp_path: Path) -> None:
    path = _write_json(
        tmp_path / "regex_list.json", {"simplyrx": [{"#States": 3, "regex_list": [SIMPLE_CELL]}]}
    )
    tasks = load_paper_list("simplyrx", path)
    assert [(t.id, t.target, t.metrics, t.listed) for t in tasks] == [
        ("simplyrx-s3-d1-0", "(a b)*", Metrics(2, 1), Metrics(3, 1)),
        ("simplyrx-s3-d1-1", "a* b", Metrics(2, 1), Metrics(3, 1)),
        ("simplyrx-s3-d1-2", "c c*", Metrics(2, 1), Metrics(3, 1)),
    ]
    with pytest.raises(MalformedDataset) as raised:  # the fourth, "x", is outside {a, b, c}
        load_paper_list("simplyrx", path, per_cell=None)
    assert raised.value.where == "simplyrx[0].regex_list[0].regex_list[3]"
    assert "'x'" in str(raised.value)


@pytest.mark.parametrize(
    ("content", "where", "problem"),
    [
        ("{not json", "line 1", "not JSON"),
        ("[]", "top level", "expected a JSON dict"),
        ('{"extrx": []}', "top level", "no 'simplyrx' key"),
        ('{"simplyrx": [{"#States": "3", "regex_list": []}]}', "simplyrx[0].#States", "expected a JSON int"),
        ('{"simplyrx": [{"#States": 3, "regex_list": [{"Stardepth": 0, "regex_list": ["(a+"]}]}]}',
         "simplyrx[0].regex_list[0].regex_list[0]", "'(a+' is not a simple regex"),
        ('{"simplyrx": [{"#States": 3, "regex_list": [{"Stardepth": 0, "regex_list": [7]}]}]}',
         "simplyrx[0].regex_list[0].regex_list[0]", "expected a JSON str"),
    ],
)  # fmt: skip
def test_malformed_lists_name_the_place(
    tmp_path: Path, content: str, where: str, problem: str
) -> None:
    path = tmp_path / "regex_list.json"
    path.write_text(content)
    with pytest.raises(MalformedDataset) as raised:
        load_paper_list("simplyrx", path)
    assert (raised.value.path, raised.value.where) == (path, where)
    assert (
        problem in raised.value.problem
        and str(path) in str(raised.value)
        and "Lhtie/CEGML" in str(raised.value)
    )


def test_missing_files_say_where_to_get_them(tmp_path: Path) -> None:
    loaders: list[tuple[Callable[[Path], object], str]] = [
        (functools.partial(load_paper_list, "extrx"), "regex_list.json"),
        (load_kb13_extrx, "KB13_extrx.txt"),
    ]
    for load, name in loaders:
        with pytest.raises(DatasetNotFound) as raised:
            load(tmp_path / name)
        assert raised.value.path == tmp_path / name and "Lhtie/CEGML" in str(raised.value)
    with pytest.raises(DatasetNotFound) as missing:
        python_targets(tmp_path / "nl-rx-turk")
    assert missing.value.path == tmp_path / "nl-rx-turk" / "src.txt" and "deep-regex" in str(
        missing.value
    )
    with pytest.raises(ValueError, match="unknown list"):
        load_paper_list("kb13", tmp_path / "regex_list.json")  # type: ignore[arg-type]


KB13_GOOD = "Counts by ...\n\nDetailed regex list:\nRegexes with 2 states:\n  [star_depth=1] [0-9][A-Za-z0-9#]*\n"


def test_a_small_kb13_extended_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "KB13_extrx.txt"
    path.write_text(KB13_GOOD)
    [task] = load_kb13_extrx(path)
    assert (task.id, task.target, task.metrics, task.listed) == (
        "kb13-extrx-line5",
        "[0-9][A-Za-z0-9#]*",
        Metrics(2, 1),
        Metrics(2, 1),
    )


@pytest.mark.parametrize(
    ("content", "where"),
    [
        ("Regexes with 2 states:\n  [star_depth=1] a*\n", "header"),
        ("Detailed regex list:\n  [star_depth=1] a*\n", "line 2"),
        (KB13_GOOD + "  [star_depth=one] a*\n", "line 6"),
        (KB13_GOOD + "  [star_depth=1] [A-\n", "line 6"),
        ("Detailed regex list:\n\n", "Detailed regex list:"),
    ],
)
def test_malformed_kb13_extended_files_name_the_line(
    tmp_path: Path, content: str, where: str
) -> None:
    path = tmp_path / "KB13_extrx.txt"
    path.write_text(content)
    with pytest.raises(MalformedDataset) as raised:
        load_kb13_extrx(path)
    assert raised.value.where == where and str(path) in str(raised.value)


PAIRS = [
    ("any line", "(.)*"),
    ("nothing", r"[^\w\W]"),
    ("a letter and a digit", "[a-z]&[0-9]"),
    ("two as", "a{2}"),
    ("two as", "a{2}"),
    ("a or b, then c", "(a|b)c"),
    ("not x", "~(x)"),
]


def test_python_targets_drop_what_a_teacher_cannot_use(tmp_path: Path) -> None:
    # The labels of PAIRS, checked with re on every short line: (.)* takes them all, [^\w\W] none.
    lines = ["".join(t) for n in range(4) for t in itertools.product("a0 #", repeat=n)]
    assert all(re.fullmatch("(.)*", s) for s in lines) and not re.fullmatch("(.)*", "\n")
    assert not any(re.fullmatch(r"[^\w\W]", s) for s in lines)
    targets = python_targets(_folder(tmp_path, PAIRS))
    assert [(t.id, t.description, t.target) for t in targets.tasks] == [
        ("nl-rx-mini-line4", "two as", "a{2}"),
        ("nl-rx-mini-line6", "a or b, then c", "(a|b)c"),
    ]
    assert dict(targets.dropped) == {
        "empty language": 1,
        "universal language": 1,
        "& or ~": 2,
        "repeated pair": 1,
    }
    too_small = python_targets(tmp_path / "nl-rx-mini", state_limit=3)
    assert too_small.tasks == () and dict(too_small.dropped)["state limit"] == 2


def test_a_final_newline_adds_no_empty_task(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [("two as", "a{2}"), ("a or b, then c", "(a|b)c")])
    without = python_targets(folder).tasks
    for name in ("src.txt", "targ.txt"):
        (folder / name).write_text((folder / name).read_text() + "\n")
    assert python_targets(folder).tasks == without and len(without) == 2


def test_samples_are_deterministic_subsets(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [(f"exactly {n} as", f"a{{{n}}}") for n in range(1, 21)])
    everything = python_targets(folder).tasks
    assert load_deepregex(folder, size=None) == everything == load_deepregex(folder, size=30)
    samples = {seed: load_deepregex(folder, size=5, seed=seed) for seed in range(4)}
    assert samples[0] == load_deepregex(folder, size=5, seed=0)
    assert len(set(samples.values())) > 1
    for sample in samples.values():
        assert len(sample) == 5 and [t for t in everything if t in sample] == list(sample)


def test_splits_read_their_index_file(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [(f"exactly {n} as", f"a{{{n}}}") for n in range(1, 6)])
    (folder / "deepregex-split").mkdir()
    (folder / "deepregex-split" / "val.idx").write_text("4\n1")
    assert [t.target for t in python_targets(folder, split="val").tasks] == ["a{5}", "a{2}"]
    with pytest.raises(DatasetNotFound):
        python_targets(folder, split="test")
    for content in ("4\nx", "4\n5"):
        (folder / "deepregex-split" / "val.idx").write_text(content)
        with pytest.raises(MalformedDataset) as raised:
            python_targets(folder, split="val")
        assert raised.value.where == "line 2"


def test_malformed_deepregex_folders(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [("two as", "a{2}"), ("unbalanced", "(a")])
    with pytest.raises(MalformedDataset) as unparsable:
        python_targets(folder)
    assert (unparsable.value.path, unparsable.value.where) == (folder / "targ.txt", "line 2")
    (folder / "src.txt").write_text("only one description")
    with pytest.raises(MalformedDataset) as misaligned:
        python_targets(folder)
    assert misaligned.value.where == "line count" and "1 descriptions" in misaligned.value.problem
    (folder / "src.txt").write_bytes(b"caf\xe9\nbar")
    with pytest.raises(MalformedDataset, match="not UTF-8"):
        python_targets(folder)


def test_a_dataset_file_that_is_no_regular_file_or_too_large_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from experiments.datasets import files

    with pytest.raises(MalformedDataset, match="not a regular file"):
        load_paper_list("simplyrx", Path("/dev/zero"))
    big = tmp_path / "regex_list.json"
    big.write_text(" " * 101, encoding="utf-8")
    monkeypatch.setattr(files, "MAX_DATASET_BYTES", 100)
    with pytest.raises(MalformedDataset, match="larger than 100 bytes"):
        load_paper_list("simplyrx", big)


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "regex_list.json"
    os.mkfifo(fifo)
    refused = without_waiting(fifo, lambda: load_paper_list("simplyrx", fifo))
    assert isinstance(refused, MalformedDataset) and "not a regular file" in str(refused)


def test_a_long_malformed_entry_is_quoted_in_part(tmp_path: Path) -> None:
    entry = "(" + "a b " * 2500
    cell = {"Stardepth": 1, "regex_list": [entry]}
    path = _write_json(
        tmp_path / "regex_list.json", {"simplyrx": [{"#States": 2, "regex_list": [cell]}]}
    )
    with pytest.raises(MalformedDataset) as malformed:
        load_paper_list("simplyrx", path)
    message = str(malformed.value)
    assert len(message) < 600 and "\n" not in message, message
    assert "(9,881 more characters) is not a simple regex: unbalanced '(' at 0" in message
