"""``--ray`` without the ray extra: one line saying what to install, before any unit runs, in the
default test run (Ray itself is hidden here, installed or not); a head that fails to start the
process serving a client is tried again, against a stand-in for Ray."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from experiments import ray_cluster
from tests.experiments.runner_support import plan_data, toml_text


def test_the_ray_option_without_ray_says_what_to_install_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # an import of ray raises ImportError
    data = plan_data(tmp_path, ())
    data["arms"] = [a for a in data["arms"] if a["learner"] != "llm"]
    (tmp_path / "plan.toml").write_text(toml_text(data), encoding="utf-8")
    result = CliRunner().invoke(
        main,
        [
            "experiment",
            str(tmp_path / "plan.toml"),
            "--out",
            str(tmp_path / "run"),
            "--ray",
            "auto",
        ],
    )
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[-1] == (
        "Error: --ray needs Ray, which is not installed: pip install -e '.[ray]'"
    )
    assert not list((tmp_path / "run" / "records").rglob("*.jsonl"))  # no unit ran


class _FlakyRay:
    """A stand-in for the ``ray`` module whose first ``init`` calls fail as Ray's client does when
    the head could not start the process that serves it (the rest of the message is its proxy's)."""

    def __init__(self, failures: int, message: str) -> None:
        self.failures, self.message = failures, message
        self.inits = self.shutdowns = 0

    def is_initialized(self) -> bool:
        return False

    def init(self, **_: object) -> None:
        self.inits += 1
        if self.inits <= self.failures:
            raise ConnectionError(self.message)

    def shutdown(self) -> None:
        self.shutdowns += 1


START_FAILED = (
    "Initialization failure from server:\nTraceback ...\n"
    "RuntimeError: Starting Ray client server failed. See ray_client_server_23003.err"
)


def test_a_head_that_failed_to_start_the_clients_server_is_tried_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    flaky = _FlakyRay(ray_cluster.CONNECT_ATTEMPTS - 1, START_FAILED)
    monkeypatch.setitem(sys.modules, "ray", flaky)
    monkeypatch.setattr(ray_cluster, "CONNECT_BACKOFF", 0.0)
    with ray_cluster.connected("ray://127.0.0.1:1") as ray:
        assert ray is flaky and flaky.inits == ray_cluster.CONNECT_ATTEMPTS
    assert flaky.shutdowns == ray_cluster.CONNECT_ATTEMPTS  # each failed try, then the block's end


@pytest.mark.parametrize(
    ("failures", "message", "inits"),
    [
        (99, START_FAILED, ray_cluster.CONNECT_ATTEMPTS),  # still failing: given up, said why
        (1, "Failed to connect to the head at 127.0.0.1:1", 1),  # not a start failure: at once
    ],
)
def test_a_connection_that_keeps_failing_says_why_in_one_line(
    monkeypatch: pytest.MonkeyPatch, failures: int, message: str, inits: int
) -> None:
    flaky = _FlakyRay(failures, message)
    monkeypatch.setitem(sys.modules, "ray", flaky)
    monkeypatch.setattr(ray_cluster, "CONNECT_BACKOFF", 0.0)
    with pytest.raises(ray_cluster.RayUnavailable) as raised:
        with ray_cluster.connected("ray://127.0.0.1:1"):
            pass
    assert flaky.inits == inits
    first_line = message.splitlines()[0]
    assert str(raised.value).startswith(
        f"--ray ray://127.0.0.1:1: cannot connect to Ray: {first_line}"
    )
