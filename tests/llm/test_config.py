"""Settings resolution: argument, then environment, then default; base URL normalization."""

from __future__ import annotations

import attrs
import pytest

from llm.config import DEFAULT_BASE_URL, DUMMY_API_KEY, ClientConfig, normalize_base_url
from llm.errors import ConfigError

ENV = {"OPENAI_BASE_URL": "https://env.example/v1/", "OPENAI_API_KEY": "sk-env"}


def test_explicit_arguments_beat_the_environment() -> None:
    config = ClientConfig.resolve("http://arg:1/v1", "sk-arg", model="m", environ=ENV)
    assert (config.base_url, config.api_key, config.model) == ("http://arg:1/v1", "sk-arg", "m")


def test_environment_beats_the_default() -> None:
    config = ClientConfig.resolve(environ=ENV)
    assert (config.base_url, config.api_key) == ("https://env.example/v1", "sk-env")


def test_defaults_when_nothing_is_set() -> None:
    config = ClientConfig.resolve(environ={"OPENAI_BASE_URL": "", "OPENAI_API_KEY": ""})
    assert (config.base_url, config.api_key, config.model) == (
        DEFAULT_BASE_URL,
        DUMMY_API_KEY,
        None,
    )


def test_api_key_stays_out_of_repr() -> None:
    assert "sk-env" not in repr(ClientConfig.resolve(environ=ENV))


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        ("http://localhost:8000/v1/", "http://localhost:8000/v1"),
        ("  https://api.example.com/v1// ", "https://api.example.com/v1"),
        ("http://localhost:8000", "http://localhost:8000"),  # no /v1 is added
        ("https://host/v1beta/openai/", "https://host/v1beta/openai"),
    ],
)
def test_base_url_normalization(raw: str, normalized: str) -> None:
    assert normalize_base_url(raw) == normalized


@pytest.mark.parametrize(
    "raw", ["localhost:8000/v1", "ftp://host/v1", "http:///v1", "http://h/v1?x=1", ""]
)
def test_unusable_base_urls_are_rejected(raw: str) -> None:
    with pytest.raises(ConfigError):
        ClientConfig(base_url=raw)


@pytest.mark.parametrize("field", ["concurrency", "connect_timeout", "total_timeout"])
def test_limits_must_be_positive(field: str) -> None:
    with pytest.raises(ConfigError):
        attrs.evolve(ClientConfig(), **{field: 0})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("raw", "clean"), [("sk-abc\n", "sk-abc"), ("  sk-abc\r\n", "sk-abc"), ("EMPTY", "EMPTY")]
)
def test_api_key_whitespace_is_stripped(raw: str, clean: str) -> None:
    assert ClientConfig(api_key=raw).api_key == clean
    assert ClientConfig.resolve(environ={"OPENAI_API_KEY": raw}).api_key == clean


@pytest.mark.parametrize("raw", ["sk-a b", "sk-a\nb", "sk-\x00", "sk-ключ", "   "])
def test_api_keys_a_header_cannot_carry_are_rejected(raw: str) -> None:
    with pytest.raises(ConfigError):
        ClientConfig(api_key=raw)


def test_default_time_limits_bound_a_call_below_attempts_times_attempt_timeout() -> None:
    config = ClientConfig()
    assert (config.connect_timeout, config.total_timeout, config.call_deadline) == (
        10.0,
        1800.0,
        3600.0,
    )
    assert config.call_deadline < config.retry.max_attempts * config.total_timeout
