"""A run directory holds one configuration's results: an edited plan is refused with the fields
that differ (``--restart`` starts over), a second runner is refused with the first one's pid, and
a damaged record line is a named error, never a silently changed number."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from experiments.errors import ConfigurationChanged
from experiments.plan import plan_from_data
from experiments.runner import run_experiment
from tests.experiments.runner_support import synchronous, toml_text, write_regex_list


def _plan_file(folder: Path, profile: str, *, learner: str = "symbolic") -> Path:
    data = {
        "name": "tiny",
        "concurrency": 1,
        "teacher_profile": profile,
        "datasets": [
            {"kind": "paper-list", "list": "simplyrx", "path": str(write_regex_list(folder))}
        ],
        "arms": [{"name": "arm", "learner": learner}],
    }
    path = folder / "plan.toml"
    path.write_text(toml_text(data), encoding="utf-8")
    return path


def _experiment(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["experiment", *args])
    return result.exit_code, result.output


def test_an_edited_plan_is_refused_naming_the_changed_field_and_restart_starts_over(
    tmp_path: Path,
) -> None:
    out = str(tmp_path / "run")
    code, output = _experiment(str(_plan_file(tmp_path, "cegml")), "--out", out)
    assert code == 0 and "2 run now" in output, output
    # the README's advice: change the teacher profile and run again into the same directory
    code, output = _experiment(str(_plan_file(tmp_path, "improved")), "--out", out)
    assert code == 2, output
    assert 'teacher_profile: "cegml" → "improved" (2 units)' in output
    assert "--out" in output and "--restart" in output and "done before" not in output
    code, output = _experiment(str(_plan_file(tmp_path, "improved")), "--out", out, "--restart")
    assert code == 0 and "0 done before, 2 run now" in output, output
    code, output = _experiment(str(_plan_file(tmp_path, "improved")), "--out", out)
    assert code == 0 and "2 done before, 0 run now" in output, output


@synchronous
async def test_a_changed_learner_or_target_is_named(tmp_path: Path) -> None:
    data = {
        "name": "tiny",
        "concurrency": 1,
        "datasets": [
            {"kind": "paper-list", "list": "simplyrx", "path": str(write_regex_list(tmp_path))}
        ],
        "arms": [{"name": "arm", "learner": "symbolic"}],
    }
    await run_experiment(plan_from_data(data), tmp_path / "run")
    data["arms"] = [{"name": "arm", "learner": "lstar"}]
    with pytest.raises(ConfigurationChanged, match='learner: "symbolic" → "lstar"'):
        await run_experiment(plan_from_data(data), tmp_path / "run")
    listed = json.loads((tmp_path / "regex_list.json").read_text(encoding="utf-8"))
    listed["simplyrx"][0]["regex_list"][0]["regex_list"] = ["(b a)"]
    (tmp_path / "regex_list.json").write_text(json.dumps(listed), encoding="utf-8")
    data["arms"] = [{"name": "arm", "learner": "symbolic"}]
    with pytest.raises(ConfigurationChanged, match=r'task\.target: "\(a b\)" → "\(b a\)"'):
        await run_experiment(plan_from_data(data), tmp_path / "run")


def test_a_second_runner_on_one_directory_is_refused_with_the_first_ones_pid(
    tmp_path: Path,
) -> None:
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(run_dir)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[2],
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        code, output = _experiment(str(_plan_file(tmp_path, "cegml")), "--out", str(run_dir))
        assert code == 2 and f"in use by another runner (pid {holder.pid})" in output, output
        assert not (run_dir / "records").exists()  # nothing was run or written
    finally:
        holder.kill()
        holder.wait()
    code, output = _experiment(str(_plan_file(tmp_path, "cegml")), "--out", str(run_dir))
    assert code == 0 and "2 run now" in output, output  # the OS released the killed holder's lock


HOLD_LOCK = """
import sys, time
from pathlib import Path
from experiments.lock import run_directory_lock
with run_directory_lock(Path(sys.argv[1])):
    print("locked", flush=True)
    time.sleep(600)
"""


def _report(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["report", *args])
    return result.exit_code, result.output


def _damage(run_dir: Path, line: int, text: bytes) -> Path:
    """Replace line ``line`` (1-based) of the unit file with the most epochs by ``text``."""
    path = max((run_dir / "records").rglob("*.jsonl"), key=lambda p: p.read_bytes().count(b"\n"))
    lines = path.read_bytes().split(b"\n")
    lines[line - 1] = text
    path.write_bytes(b"\n".join(lines))
    return path


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            b'{"type": "epoch", "epoch": 1, "ru',
            "not a JSON record",
        ),  # an epoch line cut in the middle of the file
        (b'{"type": "epoch", "note": "\xff"}', "not UTF-8 text"),
        (b'{"type": "epoch"}', "epoch record without a valid 'run'"),
    ],
)
def test_a_damaged_line_is_named_and_the_report_refuses_it_unless_told_to_skip(
    tmp_path: Path, text: bytes, problem: str
) -> None:
    run_dir = tmp_path / "run"
    plan = str(_plan_file(tmp_path, "improved", learner="lstar"))
    assert _experiment(plan, "--out", str(run_dir))[0] == 0
    path = _damage(run_dir, 3, text)  # the fingerprint, the first epoch, then this one
    code, output = _experiment(plan, "--out", str(run_dir))
    assert code == 2 and f"{path}:3: {problem}" in output, output
    code, output = _report(str(run_dir))
    assert code == 2 and f"{path}:3: {problem}" in output and "--skip-damaged" in output, output
    code, output = _report(str(run_dir), "--skip-damaged")
    assert code == 0, output
    report = (run_dir / "report.md").read_text(encoding="utf-8")
    assert "1 damaged record line(s) in 1 unit(s): those units are left out" in report
    assert "100.0% (1/1)" in report and "(2/2)" not in report


def test_a_complete_but_invalid_run_line_and_a_second_run_line_are_damage(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    plan = str(_plan_file(tmp_path, "improved"))
    assert _experiment(plan, "--out", str(run_dir))[0] == 0
    path = next((run_dir / "records").rglob("*.jsonl"))
    closing = path.read_bytes().splitlines()[-1]
    path.write_bytes(path.read_bytes() + closing + b"\n" + b'{"type": "run"}\n')
    code, output = _experiment(plan, "--out", str(run_dir))
    assert code == 2, output
    count = path.read_bytes().count(b"\n")
    assert f"{path}:{count - 1}: a second closing run record" in output
    assert f"{path}:{count}: run record without a valid 'run'" in output


def test_a_torn_last_line_is_repaired_and_the_unit_resumes(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    plan = str(_plan_file(tmp_path, "improved", learner="lstar"))
    assert _experiment(plan, "--out", str(run_dir))[0] == 0
    path = max((run_dir / "records").rglob("*.jsonl"), key=lambda p: p.read_bytes().count(b"\n"))
    whole = path.read_bytes()
    path.write_bytes(
        whole[: whole.rindex(b'{"type": "run"') + 20]
    )  # killed while writing the run line
    assert _report(str(run_dir))[0] == 0  # a torn line is no damage: the unit is unfinished
    code, output = _experiment(plan, "--out", str(run_dir))
    assert code == 0 and "1 done before, 1 run now" in output, output
    assert path.read_bytes() == whole or path.read_bytes().count(b'"type": "run"') == 1


def test_workers_exit_when_the_runner_is_killed() -> None:
    runner = subprocess.Popen(
        [sys.executable, "-c", POOL_THEN_WAIT],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[2],
    )
    assert runner.stdout is not None
    workers = [int(pid) for pid in runner.stdout.readline().split()]
    assert len(workers) == 2 and all(_alive(pid) for pid in workers)
    runner.send_signal(signal.SIGKILL)
    runner.wait()
    deadline = time.monotonic() + 60  # a generous bound: the workers check once a second
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(_alive(pid) for pid in workers)


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, already exited, does not count)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


POOL_THEN_WAIT = """
import os, time
from concurrent.futures import wait
from experiments.symbolic_workers import worker_pool
pool = worker_pool(2)
futures = [pool.submit(time.sleep, 0.5) for _ in range(4)]
wait(futures)
print(*pool._processes, flush=True)
time.sleep(600)
"""


# Two workers that each compile a kernel numba has never seen (in memory, no cache), at the same time.
POOL_COMPILING = """
from experiments.symbolic_workers import compiles_announced, worker_pool
CODE = '''
import time, numba
from automata.jit import _jit
_jit._register_with_numba()
numba.njit(lambda x: x + 1)(1)
time.sleep(1.0)  # keep this worker busy, so the other worker takes the other task
'''
with compiles_announced() as compiling, worker_pool(2, compiling) as pool:
    list(pool.map(exec, [CODE, CODE], [{}, {}]))
"""


def test_a_multi_process_run_says_it_compiles_once_from_the_parent() -> None:
    from automata.jit.compile_time import MESSAGE

    done = subprocess.run(
        [sys.executable, "-c", POOL_COMPILING],
        cwd=Path(__file__).parents[2],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stderr.count(MESSAGE) == 1, done.stderr
