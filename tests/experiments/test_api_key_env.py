"""``api_key_env`` sends a server only a variable named as a key (``*_API_KEY``), and only when it
is set: before, ``api_key_env = "PATH"`` sent the PATH as the bearer token, and a name not set
was silently no key."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from experiments.errors import ServerUnusable
from experiments.plan import PlanError, plan_from_data
from experiments.progress import Progress
from experiments.runner import run_experiment
from tests.cegis.llm.scripted_server import ScriptedServer
from tests.experiments.runner_support import RULES, plan_data, synchronous


@pytest.mark.parametrize("name", ["PATH", "HOME", "AWS_SECRET_ACCESS_KEY", "my_api_key", ""])
def test_a_variable_not_named_as_a_key_is_refused_at_load(tmp_path: Path, name: str) -> None:
    data = plan_data(tmp_path, ("http://127.0.0.1:9/v1",))
    data["servers"][0]["api_key_env"] = name
    with pytest.raises(PlanError, match="api_key_env must name a variable ending in _API_KEY"):
        plan_from_data(data)


@synchronous
async def test_a_named_key_that_is_not_set_stops_the_run_before_any_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("W50A_TEST_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-must-not-travel")
    async with ScriptedServer(RULES) as server:
        data = plan_data(tmp_path, (server.base_url,))
        data["servers"][0]["api_key_env"] = "W50A_TEST_API_KEY"
        with pytest.raises(ServerUnusable, match="W50A_TEST_API_KEY, which is not set"):
            await run_experiment(
                plan_from_data(data), tmp_path / "run", progress=Progress(2, out=io.StringIO())
            )
    assert server.chat_calls == 0 and server.headers == []


@synchronous
async def test_a_named_key_that_is_set_is_the_one_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("W50A_TEST_API_KEY", "sk-named")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai")
    async with ScriptedServer(RULES) as server:
        data = plan_data(tmp_path, (server.base_url,))
        data["servers"][0]["api_key_env"] = "W50A_TEST_API_KEY"
        await run_experiment(
            plan_from_data(data), tmp_path / "run", progress=Progress(2, out=io.StringIO())
        )
    assert {headers["Authorization"] for headers in server.headers} == {"Bearer sk-named"}
