"""JSON Lines records of learning runs, and resuming a run from them.

Every run appends one record per epoch (``"type": "epoch"``) and, when it ends, one per run
(``"type": "run"``), each line flushed to disk as soon as it is written, so a killed run leaves all
of its finished epochs behind. The records hold enough to rebuild the run's state exactly: the
initial examples and every example an epoch added (plain ones as their prompt line, which
:meth:`oracle.Example.from_text` reads back; clustered ones as their line plus the code-point
intervals of each position), the hypothesis text, the verdict, the cumulative cost and the learner's
memo when the learner can encode it (:class:`cegis.learner.MemoCodec`). :func:`resume` rebuilds the
last state of an unfinished run from them, and the loop carries on as if never interrupted: the
finished records equal an uninterrupted run's, wall-clock fields (every key ending in ``seconds``)
aside.

Records of many runs may share one file; a run is identified by a hash of its task, config and
learner name. A line torn by a kill mid-write is dropped when the file is next opened.

The values inside a record (a cost, a failure, a teacher's issue) are written and read by one
``cattrs`` converter (:data:`CONVERTER`): their JSON is their fields, unknown or mistyped fields
are refused with the path to them, and fields added after records were first written (a cost's
``unreported_calls`` and ``counted_tokens``) are left out at their default, so a record reads and
writes byte for byte as before they existed. The records themselves stay written by hand: their
JSON is not a class's fields but a view of several (an epoch's hypothesis or answer from one text,
its accuracy and Diff Ratio from its scores, its verdict's counterexamples as a count beside the
examples added), and a converter would need a hand-written hook for each field anyway.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from automata.jit import compile_time
from cegis import loop
from cegis.config import LoopConfig
from cegis.errors import RecordsError
from cegis.hypothesis import read_hypothesis
from cegis.learner import (
    Learner,
    LearnerCost,
    Memo,
    MemoCodec,
    Proposal,
    ProposalFailure,
    memo_codec,
)
from cegis.state import EpochRecord, EpochState, RunCost, Task
from oracle.evaluation import Scores
from oracle.examples import ClusteredExample, Counterexample, Example
from oracle.protocol import Issue, Spend, Teacher, Verdict
from regexlang.charset import CharSet

JSON = dict[str, Any]


def _exactly(kind: type[Any]) -> Callable[[object, type[Any]], Any]:
    """A structure hook that takes a value of ``kind`` as it is (never a ``bool`` for an ``int``),
    where cattrs would convert ``"3"`` to 3; a float may be written as an integer."""

    def structure(value: object, _: type[Any]) -> Any:
        if isinstance(value, bool) is not (kind is bool):
            raise TypeError(f"expected {kind.__name__}, got {value!r}")
        if kind is float and isinstance(value, int):
            return float(value)
        if not isinstance(value, kind):
            raise TypeError(f"expected {kind.__name__}, got {value!r}")
        return value

    return structure


def _converter() -> cattrs.Converter:
    converter = cattrs.Converter(forbid_extra_keys=True)
    for kind in (int, float, str, bool):
        converter.register_structure_hook(kind, _exactly(kind))
    later = override(omit_if_default=True)  # cost fields newer than the first records
    converter.register_unstructure_hook(
        LearnerCost,
        make_dict_unstructure_fn(
            LearnerCost, converter, unreported_calls=later, counted_tokens=later
        ),
    )
    converter.register_structure_hook(LearnerCost, make_dict_structure_fn(LearnerCost, converter))
    return converter


#: The converter of the values inside records (see the module doc).
CONVERTER = _converter()


def _structured(data: object, kind: type[Any], where: str) -> Any:
    """``data`` as a ``kind``; raises :class:`RecordsError` naming ``where`` and each bad field."""
    if not isinstance(data, dict):
        raise RecordsError(f"a record's {kind.__name__} is a JSON object, not {data!r} @ {where}")
    try:
        return CONVERTER.structure(data, kind)
    except (cattrs.BaseValidationError, TypeError, ValueError) as error:
        detail = (
            "; ".join(cattrs.transform_error(error, path=where))
            if isinstance(error, cattrs.BaseValidationError)
            else f"{error} @ {where}"
        )
        raise RecordsError(f"a record's {kind.__name__} is not readable: {detail}") from None


def run_id(task: Task, config: LoopConfig, learner: str) -> str:
    """A stable identifier of a run: a hash of its task, given examples, config and learner."""
    key = {
        "task": task.to_json(),
        "given": [example_json(e) for e in task.examples],
        "config": config.to_json(),
        "learner": learner,
    }
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]


def example_json(example: Counterexample) -> JSON:
    """An example as JSON: its prompt line; a clustered one adds its universe and spelling, and its
    positions only when the spelling cannot be read back (the escaped spelling reads back exactly,
    so the line alone keeps records of classes over all of Unicode small)."""
    if isinstance(example, Example):
        return {"line": example.text()}
    data: JSON = {
        "line": example.text(),
        "universe": _intervals(example.universe),
        "spelling": example.spelling,
    }
    if example.spelling != "escaped":
        data["positions"] = [_intervals(p) for p in example.positions]
    return data


def example_from_json(data: JSON) -> Counterexample:
    """The example :func:`example_json` wrote (a clustered one prints the same line again)."""
    line: str = data["line"]
    if "universe" not in data:
        return Example.from_text(line)
    universe = _charset(data["universe"])
    if "positions" not in data:
        return ClusteredExample.from_text(line, universe)
    positions = tuple(_charset(p) for p in data["positions"])
    return ClusteredExample(positions, line.endswith("1"), universe, data["spelling"])


def _intervals(chars: CharSet) -> list[list[int]]:
    return [list(i) for i in chars.intervals]


def _charset(intervals: list[list[int]]) -> CharSet:
    return CharSet(tuple((lo, hi) for lo, hi in intervals))


def _verdict_json(verdict: Verdict) -> JSON:
    return {
        "equivalent": verdict.equivalent,
        "exact": verdict.exact,
        "mode": verdict.mode,
        **({"shortest": True} if verdict.shortest else {}),  # absent: no promise
        "counterexamples": len(verdict.counterexamples),
        "issues": [CONVERTER.unstructure(i) for i in verdict.issues],
        "seconds": verdict.spend.seconds,
        "strings_examined": verdict.spend.strings_examined,
    }


def _verdict_from_json(data: JSON, counterexamples: tuple[Counterexample, ...]) -> Verdict:
    return Verdict(
        equivalent=data["equivalent"],
        counterexamples=counterexamples,
        mode=data["mode"],
        spend=Spend(data["seconds"], data["strings_examined"]),
        issues=tuple(_structured(i, Issue, "$.verdict.issues") for i in data["issues"]),
        exact=data["exact"],
        shortest=data.get("shortest", False),
    )


def _totals_json(cost: RunCost) -> JSON:
    return {
        **CONVERTER.unstructure(cost.learner),
        "teacher_seconds": cost.teacher_seconds,
        "equivalence_queries": cost.equivalence_queries,
        "compile_seconds": cost.compile_seconds,
    }


def _totals_from_json(data: JSON) -> RunCost:
    learner = {k: v for k, v in data.items() if k not in _RUN_FIELDS}
    return RunCost(
        _structured(learner, LearnerCost, "$.totals"),
        data["teacher_seconds"],
        data["equivalence_queries"],
        data.get("compile_seconds", 0.0),
    )


_RUN_FIELDS = ("teacher_seconds", "equivalence_queries", "compile_seconds")


def epoch_json(record: EpochRecord, run: str) -> JSON:
    """One epoch record as a JSON object."""
    return {
        "type": "epoch",
        "run": run,
        "epoch": record.epoch,
        "learner": record.learner,
        "hypothesis": record.proposal_text if record.failure is None else None,
        "answer": record.proposal_text if record.failure is not None else None,
        "reasoning": record.reasoning,
        "failure": None if record.failure is None else CONVERTER.unstructure(record.failure),
        "cost": CONVERTER.unstructure(record.cost),
        "verdict": None if record.verdict is None else _verdict_json(record.verdict),
        "initial": [example_json(e) for e in record.initial],
        "added": [example_json(e) for e in record.added],
        "source": record.source,
        "accuracy": None if record.scores is None else record.scores.accuracy,
        "diff_ratio": None if record.scores is None else record.scores.diff_ratio,
        "totals": _totals_json(record.totals),
        "outcome": record.outcome,
        "memo": record.memo,
        "candidates_checked": record.candidates_checked,
        "accepted_candidate": record.accepted_candidate,
    }


def epoch_from_json(data: JSON) -> EpochRecord:
    """The epoch record :func:`epoch_json` wrote."""
    added = tuple(example_from_json(e) for e in data["added"])
    verdict = data["verdict"]
    counterexamples = added if data["source"] == "counterexamples" else ()
    failure = data["failure"]
    return EpochRecord(
        epoch=data["epoch"],
        learner=data["learner"],
        proposal_text=data["hypothesis"] if failure is None else data["answer"],
        reasoning=data["reasoning"],
        failure=None if failure is None else _structured(failure, ProposalFailure, "$.failure"),
        cost=_structured(data["cost"], LearnerCost, "$.cost"),
        verdict=None if verdict is None else _verdict_from_json(verdict, counterexamples),
        initial=tuple(example_from_json(e) for e in data["initial"]),
        added=added,
        source=data["source"],
        scores=None if data["accuracy"] is None else Scores(data["accuracy"], data["diff_ratio"]),
        totals=_totals_from_json(data["totals"]),
        outcome=data["outcome"],
        memo=data["memo"],
        candidates_checked=data.get("candidates_checked", 0),
        accepted_candidate=data.get("accepted_candidate"),
    )


def run_json(state: EpochState, config: LoopConfig, learner: str, run: str) -> JSON:
    """The closing record of a finished run."""
    return {
        "type": "run",
        "run": run,
        "task": state.task.to_json(),
        "config": config.to_json(),
        "seed": config.seed,
        "learner": learner,
        "outcome": state.outcome,
        "hypothesis": state.hypothesis,
        "epochs": state.epoch,
        "examples": len(state.examples),
        "totals": _totals_json(state.cost),
    }


def without_wall_clock(value: Any) -> Any:
    """``value`` (JSON data) without the wall-clock fields: every key ending in ``seconds``."""
    if isinstance(value, dict):
        return {k: without_wall_clock(v) for k, v in value.items() if not k.endswith("seconds")}
    if isinstance(value, list):
        return [without_wall_clock(v) for v in value]
    return value


class RecordLog:
    """An append-only JSON Lines file (the I/O edge of the records). Every line is written to the
    file before :meth:`append` returns, so a killed run loses none; a run's closing line is also
    synced to disk, with every line before it, so a power cut loses no finished run. An unfinished
    run may lose its last epochs to a power cut, and resuming redoes them, as it redoes the call
    log's last answers (SQLite commits in WAL mode are synced only at checkpoints). Syncing every
    epoch cost 100-130 µs of CPU a line on ext4, most of the records' cost in an LLM run."""

    def __init__(self, path: Path) -> None:
        self.path = path
        _drop_torn_line(path)

    def append(self, record: JSON, *, sync: bool = False) -> None:
        """Write one record as one line; with ``sync``, on disk (with the file's every line) when
        this returns."""
        # ASCII escapes: a lone surrogate in a string stays writable
        line = (json.dumps(record) + "\n").encode()
        # four system calls, where a text file opened for appending makes nine: each lets the GIL
        # go, and a worker thread of a busy LLM run pays to get it back
        handle = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o666)
        try:
            view = memoryview(line)
            while view:
                view = view[os.write(handle, view) :]
            if sync:
                os.fsync(handle)
        finally:
            os.close(handle)

    def records(self, run: str | None = None) -> Iterator[JSON]:
        """The records in the file, of one run when ``run`` is given."""
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, start=1):
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as error:
                    raise RecordsError(
                        f"{self.path}:{number}: not a JSON record ({error})"
                    ) from None
                if run is None or record.get("run") == run:
                    yield record


def _drop_torn_line(path: Path) -> None:
    """Cut a last line that a kill left without its newline (it may be incomplete JSON)."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as out:
            out.truncate(data.rfind(b"\n") + 1)


def resume(log: RecordLog, task: Task, config: LoopConfig, learner: Learner) -> EpochState | None:
    """The last state of this run as its records left it, or None when it has no record yet.

    A finished run comes back finished (with its outcome), so running it again writes nothing.
    """
    run = run_id(task, config, learner.name)
    epochs: list[EpochRecord] = []
    outcome = None
    for data in log.records(run):
        if data["type"] == "epoch":
            epochs.append(epoch_from_json(data))
        elif data["type"] == "run":
            outcome = data["outcome"]
    if not epochs:
        return None
    if [r.epoch for r in epochs] != list(range(len(epochs))):
        raise RecordsError(f"records of run {run} in {log.path} are not one epoch after another")
    last = epochs[-1]
    examples = tuple(e for r in epochs for e in (*r.initial, *r.added))
    return EpochState(
        task=task,
        epoch=len(epochs),
        examples=examples,
        proposal=_proposal(last, task, memo_codec(learner)),
        verdict=last.verdict,
        cost=last.totals,
        records=tuple(epochs),
        outcome=outcome or last.outcome,
    )


def _proposal(record: EpochRecord, task: Task, codec: MemoCodec | None) -> Proposal:
    memo = None if codec is None or record.memo is None else codec.decode_memo(record.memo)
    regex = (
        None
        if record.failure is not None
        else read_hypothesis(record.proposal_text, task.dialect, task.universe)
    )
    return Proposal(
        regex, record.proposal_text, record.reasoning, record.failure, record.cost, memo
    )


async def run_recorded(
    task: Task,
    learner: Learner[Memo],
    teacher: Teacher,
    config: LoopConfig,
    path: Path | None,
    *,
    clock: Callable[[], float] = compile_time.clock,
) -> EpochState:
    """:func:`cegis.loop.run` with JSON Lines records in ``path``: resumed from what the file holds
    for this run, one line appended per epoch as it ends and one for the run when it ends (built
    and written in a worker thread that the run waits for, so the event loop only waits and a kill
    loses no line the run went on from; the run's line is synced, see :class:`RecordLog`). With no
    ``path``, the plain run."""
    if path is None:
        return await loop.run(task, learner, teacher, config, clock=clock)
    log = RecordLog(path)
    run = run_id(task, config, learner.name)
    start = resume(log, task, config, learner)
    finished_before = (
        start is not None and start.done and any(r["type"] == "run" for r in log.records(run))
    )

    def appended(state: EpochState) -> None:
        log.append(epoch_json(state.records[-1], run))

    state = await loop.run(
        task,
        learner,
        teacher,
        config,
        start=start,
        on_epoch=lambda s: asyncio.to_thread(appended, s),
        clock=clock,
    )
    if not finished_before:
        await asyncio.to_thread(log.append, run_json(state, config, learner.name, run), sync=True)
    return state
