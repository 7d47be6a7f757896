"""A base URL with credentials (``http://user:key@host/v1``) or a CR LF: one line saying why, the
credential never repeated, and nothing written with it (the plan's copy in the run directory,
records, call log and report); before, aiohttp raised a ``ValueError`` traceback at the first call
and ``RUN_DIR/plan.json`` kept the key."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from experiments.plan import PlanError, load_plan
from llm.config import normalize_base_url
from llm.errors import ConfigError

SECRET = "sk-secret-0123"
PLAN = """
name = "creds"
[[datasets]]
kind = "generated"
per_cell = 1
limit = 1
[[arms]]
learner = "llm"
setting = "single"
epochs = 1
"""


def _files_holding(folder: Path, text: str) -> list[Path]:
    return [
        path for path in folder.rglob("*") if path.is_file() and text.encode() in path.read_bytes()
    ]


@pytest.mark.parametrize(
    ("url", "says"),
    [
        (f"http://user:{SECRET}@127.0.0.1:9/v1", "must not carry credentials"),
        (f"http://{SECRET}@127.0.0.1:9/v1", "must not carry credentials"),
        ("http://127.0.0.1:9/v1\r\nX-Injected: 1", "whitespace or control characters"),
        ("http://127.0.0.1:9/v1 extra", "whitespace or control characters"),
    ],
)
def test_unusable_base_urls_are_refused_in_one_line(url: str, says: str) -> None:
    with pytest.raises(ConfigError) as caught:
        normalize_base_url(url)
    message = str(caught.value)
    assert says in message and SECRET not in message and "\n" not in message


def test_a_plan_with_credentials_in_a_base_url_is_refused_and_writes_nothing(
    tmp_path: Path,
) -> None:
    plan = tmp_path / "creds.toml"
    plan.write_text(
        PLAN + f'[[servers]]\nbase_url = "http://user:{SECRET}@127.0.0.1:9/v1"\n', encoding="utf-8"
    )
    with pytest.raises(PlanError, match="must not carry credentials") as caught:
        load_plan(plan)
    assert SECRET not in str(caught.value)
    run_dir = tmp_path / "run"
    result = CliRunner().invoke(main, ["experiment", str(plan), "--out", str(run_dir)])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert SECRET not in result.output and "must not carry credentials" in result.output
    assert not run_dir.exists() or not _files_holding(run_dir, SECRET)


@pytest.mark.parametrize(
    "url", [f"http://user:{SECRET}@127.0.0.1:9/v1", "http://127.0.0.1:9/v1\r\nX-Injected: 1"]
)
def test_the_command_line_refuses_such_a_base_url_in_one_line(tmp_path: Path, url: str) -> None:
    plan = tmp_path / "plain.toml"
    plan.write_text(PLAN, encoding="utf-8")
    run_dir = tmp_path / "run"
    result = CliRunner().invoke(
        main, ["experiment", str(plan), "--out", str(run_dir), "--base-url", url]
    )
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    lines = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(lines) == 1 and lines[0].startswith("Error: --base-url: base URL must not")
    assert SECRET not in result.output
    assert not run_dir.exists() or not _files_holding(run_dir, SECRET)
