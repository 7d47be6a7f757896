"""An append-only log of every chat call, and the replay that reads it back.

One SQLite file (stdlib ``sqlite3``) holds every request body the client sent and the typed result
it got, keyed by :meth:`llm.chat.Request.key`. SQLite gives what an experiment log needs without a
service: each append is its own committed transaction, so a crash loses at most the call in
flight; WAL mode lets reports and dashboards read the file while a run appends to it; and a busy
timeout lets several processes share one log.

The log never sees credentials: the client stores the JSON *body*, and the API key only ever
travels in a header.

Lookup rules, used by the client's ``record`` and ``replay`` modes:

* a successful result (``completion`` or ``truncated``) is reused: it was paid for, and at
  temperature 0 asking again should give the same answer; the first one logged wins;
* a ``failed`` result is never reused in record mode (a re-run should try again), but replay
  returns the latest one when nothing better exists, so a replayed run takes the path the
  recorded run took.

A call is noted as *sent* before its request leaves (:meth:`CallLog.sending`) and marked answered
in the same transaction that logs its result, so a run killed with calls in flight leaves them
unanswered: a resumed run counts them (:meth:`CallLog.unanswered`) and says that it sends them
again, since their first sending may have been billed while its answer was lost.

Models found by discovery are logged too, so that replay (and a record-mode run resumed while the
server is down) chooses the same model and fits the same completion budget without a server.

A file that is not a readable log (corrupt, truncated, another format) or a row whose JSON does
not decode raises :class:`~llm.errors.CallLogError` naming the file and what to do, never a raw
``sqlite3`` or ``json`` error.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

import attrs

from llm.chat import ModelInfo, Request, canonical_json
from llm.errors import DAMAGED, CallLogError
from llm.results import Result, result_from_data, result_kind, result_to_data

_SCHEMA = """
CREATE TABLE IF NOT EXISTS calls (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    model TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('completion', 'truncated', 'failed')),
    request TEXT NOT NULL,
    result TEXT NOT NULL,
    prompt_tokens INTEGER,
    completion_tokens INTEGER,
    reasoning_tokens INTEGER,
    cached_tokens INTEGER,
    latency_s REAL NOT NULL,
    attempts INTEGER NOT NULL,
    created_at REAL NOT NULL,
    sent INTEGER
);
CREATE INDEX IF NOT EXISTS calls_by_key ON calls (key, kind);
CREATE TABLE IF NOT EXISTS sent (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    model TEXT NOT NULL,
    sent_at REAL NOT NULL,
    answered INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS models (
    id TEXT PRIMARY KEY,
    max_model_len INTEGER,
    recorded_at REAL NOT NULL
);
"""
#: A call logged with the number of its sending note answers that note in the same statement.
_ANSWERING = """
CREATE TRIGGER IF NOT EXISTS calls_answer AFTER INSERT ON calls WHEN NEW.sent IS NOT NULL
BEGIN
    UPDATE sent SET answered = 1 WHERE id = NEW.sent;
END;
"""


#: The columns of a logged call but its id, in the order of a :data:`CallRow`.
_COLUMNS = (
    "key, model, kind, request, result, prompt_tokens, completion_tokens, reasoning_tokens,"
    " cached_tokens, latency_s, attempts, created_at"
)
_MARKS = ", ".join("?" * len(_COLUMNS.split(", ")))
#: One logged call as :meth:`CallLog.rows_after` reads it: the values of :data:`_COLUMNS`.
CallRow = tuple[Any, ...]


@attrs.frozen
class ModelTotals:
    """What the logged calls of one model cost; token sums skip calls whose usage was unknown."""

    model: str
    calls: int
    completions: int
    truncated: int
    failed: int
    prompt_tokens: int
    completion_tokens: int
    reasoning_tokens: int
    cached_tokens: int
    latency_s: float


class CallLog:
    """A call log file, opened (and created if needed) at ``path``; use as a context manager."""

    def __init__(self, path: str | Path, *, busy_timeout: float = 30.0) -> None:
        self.path = Path(path)
        self._guard = _Guard(str(self.path))
        # one connection shared by the event loop (lookups) and worker threads (commits): the lock
        # keeps each statement and each BEGIN ... COMMIT whole
        self._lock = threading.Lock()
        with self._lock, self._guard:
            self._db = sqlite3.connect(
                self.path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(calls)")}
            if "sent" not in columns:  # a log written before calls named their note
                self._db.execute("ALTER TABLE calls ADD COLUMN sent INTEGER")
            self._db.executescript(_ANSWERING)

    def __enter__(self) -> CallLog:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the file; committed rows are already on disk."""
        self._db.close()

    def __len__(self) -> int:
        with self._lock, self._guard:
            (count,) = self._db.execute("SELECT COUNT(*) FROM calls").fetchone()
        return int(count)

    def sending(self, request: Request, sent_at: float, *, key: str | None = None) -> int:
        """Note that ``request`` is about to be sent; the number to pass to :meth:`append` (or
        :meth:`unsent`) when it ends. ``key``: ``request.key()``, when the caller has it."""
        key = request.key() if key is None else key
        with self._lock, self._guard:
            cursor = self._db.execute(
                "INSERT INTO sent (key, model, sent_at) VALUES (?, ?, ?)",
                (key, request.model, sent_at),
            )
        return int(cursor.lastrowid or 0)

    def logged_or_sending(
        self, request: Request, sent_at: float, *, key: str
    ) -> tuple[Result | None, int | None]:
        """The result a record-mode :meth:`lookup` reuses for ``key``, else ``request`` noted as
        about to be sent (:meth:`sending`) and its note's number: when nothing is logged (a run's
        usual case), one statement looks and notes."""
        with self._lock, self._guard:
            noted = self._db.execute(
                "INSERT INTO sent (key, model, sent_at) SELECT ?, ?, ? WHERE NOT EXISTS"
                " (SELECT 1 FROM calls WHERE key = ? AND kind != 'failed')",
                (key, request.model, sent_at, key),
            )
        if noted.rowcount == 1:
            return None, int(noted.lastrowid or 0)
        logged = self.lookup(key, accept_failed=False)
        return (
            (logged, None)
            if logged is not None
            else (None, self.sending(request, sent_at, key=key))
        )

    def unsent(self, sent: int) -> None:
        """Forget a :meth:`sending` note whose request never left (its deadline had passed)."""
        with self._lock, self._guard:
            self._db.execute("DELETE FROM sent WHERE id = ?", (sent,))

    def unanswered(self) -> int:
        """Calls noted as sent whose answer was never logged: in flight now, or lost when a run stopped."""
        with self._lock, self._guard:
            (count,) = self._db.execute("SELECT COUNT(*) FROM sent WHERE answered = 0").fetchone()
        return int(count)

    def append(
        self,
        request: Request,
        body: Mapping[str, Any] | str,
        result: Result,
        created_at: float,
        *,
        sent: int | None = None,
        key: str | None = None,
    ) -> None:
        """Log one call: the body sent for ``request`` (as data, or the JSON text sent) and its
        result, committed at once, together with the answer to its :meth:`sending` note ``sent``.
        ``key``: ``request.key()``, when the caller has it."""
        usage = getattr(result, "usage", None)
        row = (
            request.key() if key is None else key,
            request.model,
            result_kind(result),
            body if isinstance(body, str) else canonical_json(body),
            canonical_json(result_to_data(result)),
            None if usage is None else usage.prompt_tokens,
            None if usage is None else usage.completion_tokens,
            None if usage is None else usage.reasoning_tokens,
            None if usage is None else usage.cached_tokens,
            result.latency_s,
            result.attempts,
            created_at,
        )
        with self._lock, self._guard:  # one statement: its trigger answers the note
            self._db.execute(
                f"INSERT INTO calls ({_COLUMNS}, sent) VALUES ({_MARKS}, ?)", (*row, sent)
            )

    def lookup(self, key: str, *, accept_failed: bool) -> Result | None:
        """The logged result for ``key`` (see the module doc for which one), or ``None``."""
        with self._lock, self._guard:
            row = self._db.execute(
                "SELECT result FROM calls WHERE key = ? AND kind != 'failed' ORDER BY id LIMIT 1",
                (key,),
            ).fetchone()
            if row is None and accept_failed:
                row = self._db.execute(
                    "SELECT result FROM calls WHERE key = ? AND kind = 'failed' ORDER BY id DESC LIMIT 1",
                    (key,),
                ).fetchone()
            return None if row is None else result_from_data(json.loads(row[0]))

    def rows_after(self, after: int = 0, *, reusable: bool = False) -> tuple[int, list[CallRow]]:
        """The logged calls with an id above ``after``, oldest first, and the last id among them
        (``after`` when there is none), for :meth:`copy_in` into another log; with ``reusable``,
        only those a record-mode lookup reuses (not ``failed``)."""
        where = "id > ?" + (" AND kind != 'failed'" if reusable else "")
        with self._lock, self._guard:
            found = self._db.execute(
                f"SELECT id, {_COLUMNS} FROM calls WHERE {where} ORDER BY id", (after,)
            ).fetchall()
        return (found[-1][0] if found else after), [tuple(row[1:]) for row in found]

    def copy_in(self, rows: list[CallRow]) -> None:
        """Log calls read from another log with :meth:`rows_after`, committed together."""
        with self._lock, self._guard:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(f"INSERT INTO calls ({_COLUMNS}) VALUES ({_MARKS})", rows)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def record_models(self, models: tuple[ModelInfo, ...], recorded_at: float) -> None:
        """Remember what model discovery found (the latest listing of an id wins)."""
        with self._lock, self._guard:
            self._db.executemany(
                "INSERT OR REPLACE INTO models (id, max_model_len, recorded_at) VALUES (?, ?, ?)",
                [(model.id, model.max_model_len, recorded_at) for model in models],
            )

    def models(self) -> tuple[ModelInfo, ...]:
        """The models recorded by discovery, by id."""
        with self._lock, self._guard:
            rows = self._db.execute("SELECT id, max_model_len FROM models ORDER BY id").fetchall()
        return tuple(ModelInfo(id=model_id, max_model_len=length) for model_id, length in rows)

    def totals(self) -> tuple[ModelTotals, ...]:
        """Calls, outcomes, token sums and total latency per model, by model name."""
        with self._lock, self._guard:
            rows = self._db.execute(
                "SELECT model, COUNT(*), SUM(kind = 'completion'), SUM(kind = 'truncated'), SUM(kind = 'failed'),"
                " TOTAL(prompt_tokens), TOTAL(completion_tokens), TOTAL(reasoning_tokens), TOTAL(cached_tokens),"
                " TOTAL(latency_s) FROM calls GROUP BY model ORDER BY model"
            ).fetchall()
        return tuple(
            ModelTotals(
                model, calls, ok, cut, failed, int(pt), int(ct), int(rt), int(cached), latency
            )
            for model, calls, ok, cut, failed, pt, ct, rt, cached, latency in rows
        )


class _Guard:
    """A context that turns sqlite's and json's complaints about the file into a ``CallLogError``."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if isinstance(error, sqlite3.DatabaseError):
            raise CallLogError(self.path, f"sqlite: {error}", _advice(error)) from error
        if isinstance(
            error, ValueError | TypeError | KeyError
        ):  # a row whose JSON is not a logged result
            raise CallLogError(self.path, f"a logged row does not decode: {error}") from error


def _advice(error: sqlite3.DatabaseError) -> str:
    """What to do about ``error``: a read-only, locked or unopenable file is not a damaged one."""
    code = getattr(error, "sqlite_errorcode", None)
    if code == sqlite3.SQLITE_READONLY or "readonly" in str(error):
        return (
            "The file (or its folder) is read-only: make it writable, or pass a call log elsewhere."
        )
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in str(error):
        return (
            "Another process holds the file locked: wait for it to end, or pass another call log."
        )
    if code == sqlite3.SQLITE_CANTOPEN:
        return "The file cannot be opened: check that its folder exists and is writable."
    return DAMAGED
