"""Every command keeps the exit-2 promise: input it cannot use is a one-line message and exit code 2,
never a traceback (each case printed one before)."""

from __future__ import annotations

import asyncio
import errno
import json
from pathlib import Path

import pytest
from aiohttp import web
from click.testing import CliRunner

import experiments.runner
from cli.main import main
from tests.experiments.runner_support import synchronous, toml_text, write_regex_list
from tests.experiments.test_runner_servers import Unauthorized


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("regex", "--state-limit", "1000000000", "(a|b)*a(a|b){24}"), "--state-limit"),
        (("regex", "--examples", "10000", "a*"), "--examples"),
        (
            ("learn", "--target", "a{99999}", "--dialect", "python"),
            "--target: the target is too large for the teacher: counting",
        ),
        (
            ("learn", "--target", "ab*", "--learner", "llm", "--base-url", "ftp://x"),
            "base URL must look like",
        ),
    ],
)
def test_bad_values_exit_2(args: tuple[str, ...], says: str) -> None:
    code, output = _run(*args)
    assert code == 2 and says in output, output
    assert "max_len" not in output, output  # a keyword of the library, no option of the command


def test_a_records_file_that_is_not_utf8_exits_2(tmp_path: Path) -> None:
    records = tmp_path / "r.jsonl"
    records.write_bytes(b'{"type": "epoch", "run": "\xff"}\n')
    code, output = _run("learn", "--target", "ab*", "--learner", "rpni", "--records", str(records))
    assert code == 2 and "is not UTF-8 text" in output, output


def test_a_damaged_call_log_exits_2_saying_so(tmp_path: Path) -> None:
    log = tmp_path / "calls.sqlite3"
    log.write_bytes(b"not sqlite" * 200)
    code, output = _run(
        "learn",
        "--target",
        "ab*",
        "--learner",
        "llm",
        "--call-log",
        str(log),
        "--base-url",
        "http://127.0.0.1:9/v1",
    )
    assert code == 2 and "--call-log" in output and "damaged" in output, output


def _plan(folder: Path) -> str:
    data = {
        "name": "tiny",
        "concurrency": 1,
        "datasets": [
            {"kind": "paper-list", "list": "simplyrx", "path": str(write_regex_list(folder))}
        ],
        "arms": [{"name": "arm", "learner": "symbolic"}],
    }
    (folder / "plan.toml").write_text(toml_text(data), encoding="utf-8")
    return str(folder / "plan.toml")


def test_out_naming_a_file_exits_2(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("mine", encoding="utf-8")
    code, output = _run("experiment", _plan(tmp_path), "--out", str(tmp_path / "taken"))
    assert code == 2 and "is a file" in output, output
    assert (tmp_path / "taken").read_text(encoding="utf-8") == "mine"


def test_a_run_directory_that_cannot_be_written_exits_2(tmp_path: Path) -> None:
    code, output = _run(
        "experiment", _plan(tmp_path), "--out", "/sys/regex-cegis-run"
    )  # read-only even for root
    assert code == 2 and "cannot use the run directory /sys/regex-cegis-run" in output, output


def test_a_full_disk_exits_2_and_keeps_the_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(*args: object) -> None:
        raise OSError(
            errno.ENOSPC, "No space left on device", str(tmp_path / "run" / "units.jsonl")
        )

    monkeypatch.setattr(experiments.runner, "write_manifest", full)
    code, output = _run("experiment", _plan(tmp_path), "--out", str(tmp_path / "run"))
    assert code == 2 and "No space left on device" in output and "units.jsonl" in output, output


def test_report_into_a_directory_it_cannot_write_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _run("experiment", _plan(tmp_path), "--out", str(tmp_path / "run"))[0] == 0

    def read_only(self: Path, *args: object, **kwargs: object) -> int:
        raise OSError(errno.EROFS, "Read-only file system", str(self))

    monkeypatch.setattr(Path, "write_text", read_only)
    code, output = _run("report", str(tmp_path / "run"))
    assert code == 2 and "Read-only file system" in output, output


@synchronous
async def test_learn_with_a_rejected_key_exits_2_at_once_with_the_servers_message() -> None:
    async with Unauthorized() as server:
        args = ["learn", "--target", "ab*", "--learner", "llm", "--base-url", server.base_url]
        result = await asyncio.to_thread(CliRunner().invoke, main, args)
    assert result.exit_code == 2 and "auth: Incorrect API key provided" in result.output, (
        result.output
    )
    assert server.chat_calls == 0


def test_a_plan_nested_too_deeply_exits_2(tmp_path: Path) -> None:
    (tmp_path / "deep.toml").write_text(
        "x = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8"
    )
    code, output = _run("experiment", str(tmp_path / "deep.toml"), "--out", str(tmp_path / "run"))
    assert code == 2 and "nests arrays or tables too deeply" in output, output


def test_a_plan_arm_whose_factory_fails_exits_2(tmp_path: Path) -> None:
    plan = Path(_plan(tmp_path))
    plan.write_text(
        plan.read_text(encoding="utf-8").replace('"symbolic"', '"os:system"'), encoding="utf-8"
    )
    code, output = _run("experiment", str(plan), "--out", str(tmp_path / "run"))
    assert (
        code == 2 and "[[arms]] #1: the learner os:system: its factory raised TypeError" in output
    ), output


@pytest.mark.parametrize(
    ("name", "damage"),
    [
        ("plan.json", '{"name": '),
        ("plan.json", "[1, 2]"),
        ("units.jsonl", '{"records": "records/x.jsonl"}\n'),
    ],
)
def test_report_on_a_damaged_run_directory_exits_2(tmp_path: Path, name: str, damage: str) -> None:
    assert _run("experiment", _plan(tmp_path), "--out", str(tmp_path / "run"))[0] == 0
    (tmp_path / "run" / name).write_text(damage, encoding="utf-8")
    code, output = _run("report", str(tmp_path / "run"))
    assert code == 2 and name in output and "run the experiment again to rewrite it" in output, (
        output
    )


class Boastful(Unauthorized):
    """A server that reports 10^30 tokens for every call."""

    async def _models(self, request: web.Request) -> web.StreamResponse:
        return web.json_response(
            {"object": "list", "data": [{"id": "boastful", "object": "model"}]}
        )

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        self.chat_calls += 1
        message = {"role": "assistant", "content": "<ans>ab*</ans>"}
        usage = {"prompt_tokens": 10**30, "completion_tokens": 10**30}
        return web.json_response(
            {
                "model": "boastful",
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                "usage": usage,
            }
        )


@synchronous
async def test_a_server_reporting_absurd_token_counts_is_no_crash_of_the_call_log(
    tmp_path: Path,
) -> None:
    async with Boastful() as server:
        args = ["learn", "--target", "ab*", "--learner", "llm", "--setting", "single", "--base-url", server.base_url,
                "--call-log", str(tmp_path / "calls.sqlite3"), "--json"]  # fmt: skip
        result = await asyncio.to_thread(CliRunner().invoke, main, args)
    assert result.exit_code == 0 and json.loads(result.stdout)["regex"] == "ab*", result.output
