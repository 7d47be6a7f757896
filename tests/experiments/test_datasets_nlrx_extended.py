"""NL-RX regexes converted to the extended dialect: held-out targets for the loop."""

from __future__ import annotations

from pathlib import Path

from experiments.datasets.nlrx_extended import converted, load_nl_rx_extended


def test_dot_becomes_the_universe_class_and_word_boundaries_go() -> None:
    assert converted(r"\b([A-Z])&([AEIOUaeiou])\b") == "([A-Z])&([AEIOUaeiou])"
    assert converted(".*(dog){2,}.*") == "[A-Za-z0-9#]*(dog){2,}[A-Za-z0-9#]*"


def test_empty_universal_and_repeated_targets_are_dropped(tmp_path: Path) -> None:
    lines = [".*dog.*", "(dog)&(truck)", ".*", ".*dog.*", "~(dog)", r"\bdog\b"]
    (tmp_path / "targ.txt").write_text("\n".join(lines), encoding="utf-8")
    tasks = load_nl_rx_extended(tmp_path, size=None)
    assert [t.target for t in tasks] == ["[A-Za-z0-9#]*dog[A-Za-z0-9#]*", "~(dog)", "dog"]
    assert len(load_nl_rx_extended(tmp_path, size=2)) == 2 and all(
        t.dialect == "extended" for t in tasks
    )
