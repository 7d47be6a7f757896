"""A remote Ray head reached as a lab reaches its own: ``ray start --head`` in a process of its own,
with token authentication and a client server, and the runner connected through ``ray://`` from
the command line. The records are the local runner's, for the quick plan and for a small LLM plan
against a loopback server. Run with ``pytest -m ray`` (the ray extra); skipped without Ray."""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from experiments.bench.latency_server import serving
from tests.experiments.runner_support import plan_data, run_records, toml_text

pytest.importorskip("ray", reason="the ray extra is not installed (pip install -e '.[ray]')")
pytestmark = pytest.mark.ray

REPOSITORY = Path(__file__).resolve().parents[2]
START_SECONDS = 120


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_for(address: str, head: subprocess.Popen[bytes], env: dict[str, str]) -> None:
    """Until a client connects to ``address`` (a head that has just opened its port may still
    refuse clients while it starts)."""
    connect = f"import ray; ray.init({address!r}); ray.shutdown()"
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if head.poll() is not None:
            raise AssertionError(f"ray start exited with {head.returncode}")
        tried = subprocess.run([sys.executable, "-c", connect], env=env, capture_output=True)
        if tried.returncode == 0:
            return
        time.sleep(1)
    raise AssertionError(f"no Ray client could connect to {address} in {START_SECONDS} s")


@pytest.fixture(scope="module")
def client_env() -> Iterator[dict[str, str]]:
    """The environment of a driver that reaches the head this fixture starts, with
    ``RAY_ADDRESS`` set to its ``ray://`` address."""
    token = secrets.token_hex(32)
    path = os.pathsep.join(p for p in (str(REPOSITORY), os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token, "PYTHONPATH": path}
    gcs, client = _free_port(), _free_port()
    # Ray's socket paths must stay short: a temporary folder of its own under /tmp
    temp = tempfile.mkdtemp(prefix="rc-", dir="/tmp")
    ray = Path(sys.executable).with_name("ray")
    command = [str(ray), "start", "--head", "--block", "--num-cpus", "2", "--port", str(gcs)]
    command += ["--ray-client-server-port", str(client), "--include-dashboard", "false"]
    command += ["--disable-usage-stats", "--temp-dir", temp]
    head = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    address = f"ray://127.0.0.1:{client}"
    try:
        _wait_for(address, head, env)
        yield {**env, "RAY_ADDRESS_FOR_TEST": address}
    finally:
        head.terminate()
        try:
            head.wait(60)
        except subprocess.TimeoutExpired:
            head.kill()
        shutil.rmtree(temp, ignore_errors=True)


def _experiment(env: dict[str, str], *arguments: str) -> str:
    """``python -m cli experiment`` with ``arguments``, its output; fails on a non-zero exit."""
    done = subprocess.run(
        [sys.executable, "-m", "cli", "experiment", *arguments],
        env=env,
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_quick_plan_through_a_ray_client_writes_the_local_runners_records(
    client_env: dict[str, str], tmp_path: Path
) -> None:
    remote = ("--ray", client_env["RAY_ADDRESS_FOR_TEST"])
    limit = ("--dataset-limit", "2")
    ran = _experiment(client_env, *limit, *remote, "--out", str(tmp_path / "ray"))
    _experiment(client_env, *limit, "--out", str(tmp_path / "local"))
    assert "0 errors" in ran
    assert run_records(tmp_path / "ray") == run_records(tmp_path / "local") != {}


def test_an_llm_plan_through_a_ray_client_writes_the_local_runners_records(
    client_env: dict[str, str], tmp_path: Path
) -> None:
    remote = ("--ray", client_env["RAY_ADDRESS_FOR_TEST"], "--llm-workers", "2")
    calls = {}
    for where, options in (("local", ()), ("ray", remote)):
        with serving(0.05) as server:
            data = plan_data(tmp_path, (server.base_url,), seeds=2, setting="agentic")
            data["servers"][0]["concurrency"] = 2
            plan = tmp_path / f"{where}.toml"
            plan.write_text(toml_text(data))
            _experiment(client_env, str(plan), *options, "--out", str(tmp_path / where))
            stats = server.stats()
            calls[where] = stats.calls
            assert stats.peak <= 2  # the plan's concurrency, across both actors
    assert calls["ray"] == calls["local"] > 0
    assert run_records(tmp_path / "ray") == run_records(tmp_path / "local") != {}


def test_a_client_without_the_token_is_told_how_to_send_it(
    client_env: dict[str, str], tmp_path: Path
) -> None:
    env = {k: v for k, v in client_env.items() if not k.startswith("RAY_AUTH")}
    env["HOME"] = str(tmp_path)  # no ~/.ray/auth_token either
    done = subprocess.run(
        [sys.executable, "-m", "cli", "experiment", "--ray", client_env["RAY_ADDRESS_FOR_TEST"]]
        + ["--dataset-limit", "1", "--out", str(tmp_path / "run")],
        env=env,
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode != 0
    assert "RAY_AUTH_MODE=token" in done.stderr, done.stderr
