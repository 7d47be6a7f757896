"""``learn`` from given strings says when its answer only lists the positives: a warning in the
text output and ``"generalizes": false`` in the JSON, never a plain success."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cli.main import main


def _learn(tmp_path: Path, positives: list[str], negatives: list[str], *flags: str) -> str:
    (tmp_path / "pos").write_text("\n".join(positives) + "\n")
    (tmp_path / "neg").write_text("\n".join(negatives) + "\n")
    args = [
        "learn",
        "--positives",
        str(tmp_path / "pos"),
        "--negatives",
        str(tmp_path / "neg"),
        *flags,
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return result.output


def test_an_answer_that_lists_the_positives_is_flagged(tmp_path: Path) -> None:
    # Two letters, and every other string of one or two letters rejected: however it is written,
    # the answer accepts the two positives and nothing else.
    negatives = ["c", "d", "aa", "ab", "ba", "bb"]
    report = json.loads(_learn(tmp_path, ["a", "b"], negatives, "--json"))
    assert report["consistent"] is True and report["generalizes"] is False
    text = _learn(tmp_path, ["a", "b"], negatives)
    assert "warning:" in text and "does not generalize" in text


def test_a_pattern_generalizes(tmp_path: Path) -> None:
    report = json.loads(
        _learn(
            tmp_path,
            ["0b101", "0b1", "0b1100", "0b0", "0b111001"],
            ["0b", "b101", "0b102", "0x1", "00b1"],
            "--json",
        )
    )
    assert report["regex"] == "0b[01]+" and report["generalizes"] is True
    assert "warning:" not in _learn(
        tmp_path, ["0b101", "0b1", "0b1100", "0b0"], ["0b", "b101", "0b102"]
    )
