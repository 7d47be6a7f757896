"""``python -m cli learn --learner llm`` against the real server and model, for every setting family.

SmolLM2-135M does not learn regexes; these runs check that whatever it answers (prose, an unclosed
``<ans>``, a reply cut at the budget) the loop goes on as the setting says, that the tokens and
latency in the records are the server's, and that a killed run resumes without paying a call twice
and replays exactly from its call log with the server stopped.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cegis.records import without_wall_clock
from cli.main import main
from tests.real_model.conftest import ROOT, LocalServer

pytestmark = pytest.mark.real_model

TARGET = "a (b + c)*"
DESCRIPTION = "an a followed by any number of b and c"
BUDGET = "48"


def learn_args(
    setting: str, base_url: str, tmp_path: Path, *extra: str, log: Path | None = None
) -> list[str]:
    log = tmp_path / "calls.sqlite3" if log is None else log
    args = [
        "learn",
        "--target",
        TARGET,
        "--dialect",
        "simple",
        "--learner",
        "llm",
        "--setting",
        setting,
        "--base-url",
        base_url,
        "--max-completion-tokens",
        BUDGET,
        "--max-epochs",
        "2",
        "--batch",
        "4",
        "--records",
        str(tmp_path / "records.jsonl"),
        "--call-log",
        str(log),
        "--json",
    ]
    if setting.startswith("acegis"):
        args += ["--description", DESCRIPTION]
    return args + list(extra)


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def logged_calls(path: Path) -> list[tuple[str, str, int | None, int | None]]:
    with sqlite3.connect(path) as db:
        return db.execute(
            "SELECT key, kind, prompt_tokens, completion_tokens FROM calls ORDER BY id"
        ).fetchall()


@pytest.mark.parametrize(
    "setting",
    [
        "standard",
        "single",
        "agentic",
        "multi",
        "prompt-naive",
        "acegis-diagnostic",
        "acegis-exact",
        "guarded",
    ],
)
def test_every_setting_family_runs_end_to_end(setting: str, base_url: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, learn_args(setting, base_url, tmp_path))
    assert result.exit_code in (0, 1), (
        result.output
    )  # 1: not learned, which a 135M model may well be
    report = json.loads(result.stdout)
    assert report["learner"] == "llm" and report["epochs"] >= 1
    lines = records(tmp_path / "records.jsonl")
    assert lines[-1]["type"] == "run"
    # whatever the model wrote (prose, an unclosed <ans>, a reply cut at the budget), every epoch
    # without a hypothesis says why, in a failure kind
    epochs = [line for line in lines if line["type"] == "epoch"]
    assert epochs and all(e["hypothesis"] is not None or e["failure"]["kind"] for e in epochs)
    calls = logged_calls(tmp_path / "calls.sqlite3")
    assert calls and all(kind != "failed" for _, kind, _, _ in calls)
    # the tokens are the server's: every reply reported its usage, and no reply ran past its budget
    assert all(
        prompt and prompt > 0 and completion is not None and completion <= int(BUDGET) * 10
        for _, _, prompt, completion in calls
    )
    assert report["regex"] is None or isinstance(report["regex"], str)


def test_the_guard_falls_back_to_a_valid_answer_when_the_model_never_conforms(
    base_url: str, tmp_path: Path
) -> None:
    # one completion token: no draw can hold a closed <ans> block, so every draw breaks the contract
    args = learn_args("guarded", base_url, tmp_path)
    args[args.index("--max-completion-tokens") + 1] = "1"
    result = CliRunner().invoke(main, args)
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.stdout)
    assert report["regex"] is not None  # the fallback's answer
    epochs = [line for line in records(tmp_path / "records.jsonl") if line["type"] == "epoch"]
    assert epochs and all(json.dumps(line).count('"fallback"') for line in epochs), epochs[0]


def _command(base_url: str, tmp_path: Path, *extra: str, log: Path | None = None) -> list[str]:
    return [
        sys.executable,
        "-m",
        "cli",
        *learn_args("agentic", base_url, tmp_path, *extra, log=log),
    ]


def test_a_killed_run_resumes_without_paying_a_call_twice_and_replays_exactly(
    local_server: LocalServer, base_url: str, tmp_path: Path
) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    log = tmp_path / "calls.sqlite3"
    killed = subprocess.Popen(
        _command(base_url, tmp_path), cwd=ROOT, env=env, stdout=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and killed.poll() is None:
        if log.exists() and len(logged_calls(log)) >= 2:
            break
        time.sleep(0.5)
    assert killed.poll() is None, "the run ended before it could be killed"
    os.kill(killed.pid, signal.SIGKILL)
    killed.wait()
    paid_before = len(logged_calls(log))
    resumed = subprocess.run(
        _command(base_url, tmp_path), cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert resumed.returncode in (0, 1), resumed.stderr
    calls = logged_calls(log)
    keys = [key for key, kind, _, _ in calls if kind != "failed"]
    assert len(keys) == len(set(keys)) and len(calls) >= paid_before  # no call paid twice
    recorded = [without_wall_clock(line) for line in records(tmp_path / "records.jsonl")]

    local_server.stop()
    replay_dir = tmp_path / "replay"
    replay_dir.mkdir()
    replayed = subprocess.run(
        _command("http://127.0.0.1:9/v1", replay_dir, "--call-log-mode", "replay", log=log),
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert replayed.returncode in (0, 1), replayed.stderr
    fresh = [without_wall_clock(line) for line in records(replay_dir / "records.jsonl")]
    # the killed run's records end mid-run and its resumed records continue them: compare the runs
    assert [line for line in recorded if line["type"] == "run"][-1] == fresh[-1]
    assert [line for line in recorded if line["type"] == "epoch"] == [
        line for line in fresh if line["type"] == "epoch"
    ]
