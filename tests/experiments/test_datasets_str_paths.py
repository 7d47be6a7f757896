"""The dataset loaders are public API and take a path as a ``str`` as well as a ``Path`` (a string
crashed with ``'str' object has no attribute 'open'`` or ``... '/'`` before), with the same tasks."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from experiments.datasets import load_deepregex, load_kb13_extrx, load_paper_list, python_targets
from experiments.datasets.nlrx_extended import load_nl_rx_extended
from experiments.datasets.structured_regex import load_structured_regex
from tests.experiments.runner_support import write_regex_list


def test_a_paper_list_loads_from_a_string_path(tmp_path: Path) -> None:
    path = write_regex_list(tmp_path)
    assert load_paper_list("simplyrx", str(path)) == load_paper_list("simplyrx", path) != ()


LOADERS: dict[str, tuple[Callable[[Any], object], str]] = {
    "kb13-extrx": (load_kb13_extrx, "cegml/KB13_extrx.txt"),
    "deepregex": (lambda folder: load_deepregex(folder, size=5), "kb13"),
    "python-targets": (lambda folder: python_targets(folder).tasks[:5], "kb13"),
    "nl-rx-extended": (lambda folder: load_nl_rx_extended(folder, size=5), "nl-rx-turk"),
    "structured-regex": (lambda folder: load_structured_regex(folder)[:5], "structured-regex"),
}


@pytest.mark.parametrize("name", list(LOADERS))
def test_the_shared_loaders_take_a_string_path(shared_data: Path, name: str) -> None:
    load, where = LOADERS[name]
    path = shared_data / where
    if not path.exists():
        pytest.skip(f"{path} is absent")
    assert load(str(path)) == load(path)
