"""The README runs as printed: every Python block is executed (``>>>`` blocks as doctests) and what
it prints must equal the ```text block that follows it (``...`` matches anything within a line);
a block under ``<!-- file: NAME -->`` is written to NAME instead, and a bash block under
``<!-- run -->`` is run. The user-facing examples also pass ``mypy --strict``.

Every block runs in one fresh directory (on the Python path), with ``OPENAI_BASE_URL`` pointing at
a closed port, so the model example shows what a newcomer without a server sees.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import attrs
import pytest
from mypy import api as mypy_api

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FENCE = re.compile(
    r"(?:<!-- (?P<marker>file: \S+|run) -->\n)?```(?P<lang>\w*)\n(?P<body>.*?)```\n", re.S
)


@attrs.frozen
class Block:
    lang: str
    body: str
    marker: str | None
    expected: str | None  # the ```text block right after it, if any
    line: int


def blocks() -> list[Block]:
    text = README.read_text(encoding="utf-8")
    found = list(FENCE.finditer(text))
    out = []
    for i, match in enumerate(found):
        if match["lang"] == "text":
            continue
        after = found[i + 1] if i + 1 < len(found) else None
        gap = text[match.end() : after.start()] if after is not None else ""
        expected = (
            after["body"]
            if after is not None and after["lang"] == "text" and not gap.strip()
            else None
        )
        out.append(
            Block(
                match["lang"],
                match["body"],
                match["marker"],
                expected,
                text.count("\n", 0, match.start()) + 1,
            )
        )
    return out


def runnable() -> list[Block]:
    return [
        b
        for b in blocks()
        if (b.lang == "python" and not (b.marker or "").startswith("file:")) or b.marker == "run"
    ]


def _matches(expected: str, printed: str) -> bool:
    pattern = "\n".join(
        ".*".join(map(re.escape, line.split("..."))) for line in expected.rstrip("\n").split("\n")
    )
    return re.fullmatch(pattern, printed.rstrip("\n")) is not None


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("readme")
    for block in blocks():
        if (block.marker or "").startswith("file:"):
            (where / block.marker.split(":", 1)[1].strip()).write_text(block.body, encoding="utf-8")  # type: ignore[union-attr]
    return where


def _env(where: Path) -> dict[str, str]:
    env = dict(os.environ, OPENAI_BASE_URL="http://127.0.0.1:9/v1", OPENAI_API_KEY="")
    env["PYTHONPATH"] = os.pathsep.join([str(where), str(ROOT), env.get("PYTHONPATH", "")])
    return env


@pytest.mark.parametrize("block", runnable(), ids=lambda b: f"line{b.line}")
def test_the_block_runs_as_printed(block: Block, workdir: Path) -> None:
    if block.lang == "python" and block.body.lstrip().startswith(">>>"):
        test = doctest.DocTestParser().get_doctest(
            block.body, {}, f"README line {block.line}", str(README), block.line
        )
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        assert runner.run(test).failed == 0
        return
    command = (
        [sys.executable, "-c", block.body]
        if block.lang == "python"
        else ["bash", "-euc", block.body]
    )
    done = subprocess.run(
        command, cwd=workdir, env=_env(workdir), capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    if block.expected is not None:
        assert _matches(block.expected, done.stdout), (
            f"README line {block.line} printed:\n{done.stdout}"
        )


def test_every_example_with_printed_output_is_checked() -> None:
    shown = [
        b
        for b in blocks()
        if b.lang == "python" and ("print(" in b.body) and not b.body.lstrip().startswith(">>>")
    ]
    assert shown and all(b.expected is not None for b in shown)


def test_the_python_examples_pass_mypy_strict(workdir: Path) -> None:
    files = []
    for block in blocks():
        if block.lang != "python" or block.body.lstrip().startswith(">>>"):
            continue
        name = (
            block.marker.split(":", 1)[1].strip()  # type: ignore[union-attr]
            if (block.marker or "").startswith("file:")
            else f"readme_line{block.line}.py"
        )
        (workdir / name).write_text(block.body, encoding="utf-8")
        files.append(str(workdir / name))
    out, err, status = mypy_api.run(
        ["--strict", "--no-incremental", "--python-version", "3.11", *files]
    )
    assert status == 0, out + err
