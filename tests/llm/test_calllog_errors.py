"""A call log that cannot be used says why: damaged, read-only or locked call for different actions."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from llm.calllog import CallLog
from llm.chat import Message, Request, SamplingParams
from llm.errors import CallLogError
from llm.results import Choice, Completion

REQUEST = Request("m", (Message("user", "hi"),), SamplingParams())
RESULT = Completion("m", (Choice("<ans>a</ans>", finish_reason="stop"),))


def _append(log: CallLog) -> None:
    log.append(REQUEST, {"model": "m"}, RESULT, 0.0)


def test_a_damaged_file_says_to_move_it_aside(tmp_path: Path) -> None:
    path = tmp_path / "calls.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(CallLogError, match="damaged or not a call log: move it aside"):
        CallLog(path)


def test_a_locked_file_says_another_process_holds_it(tmp_path: Path) -> None:
    path = tmp_path / "calls.sqlite3"
    log = CallLog(path, busy_timeout=0.05)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer, mid-transaction
    try:
        with pytest.raises(CallLogError, match="Another process holds the file locked") as raised:
            _append(log)
        assert "damaged" not in str(raised.value)
    finally:
        holder.close()
        log.close()


def test_a_read_only_file_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "calls.sqlite3"
    CallLog(path).close()
    # tests run as root here, who writes through file modes: open it as sqlite opens a read-only file
    real = sqlite3.connect
    monkeypatch.setattr(
        sqlite3, "connect", lambda p, **kw: real(f"file:{p}?mode=ro", uri=True, **kw)
    )
    log = CallLog(path)
    with pytest.raises(CallLogError, match="read-only: make it writable") as raised:
        _append(log)
    log.close()
    assert "damaged" not in str(raised.value)
