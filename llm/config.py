"""Where the server is, how to reach it, and how hard to try.

Settings resolve in one order: an explicit argument, then the environment (``OPENAI_BASE_URL``,
``OPENAI_API_KEY``, the variables the official SDKs read), then the default, a local vLLM server
at ``http://localhost:8000/v1``.

The base URL is the *API root* as the OpenAI SDKs define it: requests go to
``{base_url}/chat/completions`` and ``{base_url}/models``. Trailing slashes are dropped, but a
missing ``/v1`` is never added: real OpenAI-compatible roots do not all end in ``/v1`` (Gemini's
ends in ``/v1beta/openai``), so guessing would break some servers to help others. A root without
its version segment shows up as a ``not_found`` failure whose message says to check the root.

The API key is held outside ``repr`` and is never logged or written to the call log; servers that
need none (vLLM by default) get the dummy key ``EMPTY``. Surrounding whitespace (the newline of a
key read from a file) is stripped; a key that still cannot travel in an HTTP header is a
``ConfigError`` here rather than an aiohttp error at the first call.

Time limits, all in seconds: ``connect_timeout`` bounds opening a connection, ``read_timeout``
the wait for the next byte of a reply (a non-streamed reply sends nothing until it is complete, so
for chat calls it bounds an attempt's thinking time), ``total_timeout``
one HTTP attempt (long, because a reasoning model may think for many minutes before the first
byte), and ``call_deadline`` everything the server may cost one call: the model discovery it
triggers or waits for, the tokenizer's count, every attempt and every wait between attempts.
Waiting for a free concurrency slot does not count, so a long queue of calls behind
``concurrency`` slow ones is not failed unsent. With the defaults a hanging server holds a call for
at most ``call_deadline`` = 1 h, not ``max_attempts`` × ``total_timeout`` = 3 h. HTTP(S)
proxies are taken from ``HTTP_PROXY``/``HTTPS_PROXY``/``NO_PROXY`` when a client opens, as the
official SDKs do.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import attrs

from llm.errors import ConfigError
from llm.retry import RetryPolicy

DEFAULT_BASE_URL = "http://localhost:8000/v1"
DUMMY_API_KEY = "EMPTY"


def normalize_base_url(url: str) -> str:
    """``url`` without surrounding whitespace and trailing slashes; it must be http(s) with a host,
    and hold no whitespace or control characters (a CR LF would forge a header) and no credentials
    (``user:key@host``: a key travels in a header from the environment, and a URL is written to
    the run's plan and logs). Raises ``ConfigError`` in one line that never repeats a credential."""
    cleaned = url.strip().rstrip("/")
    if any(not ch.isprintable() or ch.isspace() for ch in cleaned):
        raise ConfigError(
            f"base URL must not hold whitespace or control characters, got {_redacted(cleaned)!r}"
        )
    parts = urlsplit(cleaned)
    if "@" in parts.netloc:
        raise ConfigError(
            f"base URL must not carry credentials (user:key@host), got {_redacted(cleaned)!r}:"
            " put the key in an environment variable (OPENAI_API_KEY, or a server's api_key_env)"
        )
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(f"base URL must look like http://host[:port]/v1, got {url!r}")
    if parts.query or parts.fragment:
        raise ConfigError(
            f"base URL must not carry a query or fragment, got {_redacted(cleaned)!r}"
        )
    return cleaned


_USERINFO = re.compile(r"(?<=//)[^/?#]*@")
_QUERY = re.compile(r"[?#].*", re.DOTALL)


def _redacted(url: str) -> str:
    """``url`` with any credentials and query replaced by ``***`` (for messages); read as text, not
    parsed, since the parser drops the control characters a message must show."""
    return _QUERY.sub("?***", _USERINFO.sub("***@", url))


#: The longest model id a request carries (real ids are tens of characters).
MAX_MODEL_ID = 256


def check_model_id(model: str | None) -> str | None:
    """``model`` if None or an id a request can carry: 1 to :data:`MAX_MODEL_ID` printable
    characters without whitespace (a CR LF would split the messages and logs it appears in).
    Raises ``ConfigError`` in one line."""
    if model is not None and (
        not model
        or len(model) > MAX_MODEL_ID
        or any(not ch.isprintable() or ch.isspace() for ch in model)
    ):
        shown = model if len(model) <= 80 else model[:80] + "…"
        raise ConfigError(
            f"a model id must be 1 to {MAX_MODEL_ID} printable characters without whitespace,"
            f" got {shown!r}"
        )
    return model


def _model_id(instance: object, attribute: attrs.Attribute[Any], value: str | None) -> None:
    check_model_id(value)


def _positive(instance: object, attribute: attrs.Attribute[Any], value: float) -> None:
    if value <= 0:
        raise ConfigError(f"{attribute.name} must be positive, got {value}")


def clean_api_key(key: str) -> str:
    """``key`` without surrounding whitespace; raises ``ConfigError`` if a header cannot carry it."""
    cleaned = key.strip()
    if (
        not cleaned
        or not cleaned.isprintable()
        or any(ch.isspace() for ch in cleaned)
        or not cleaned.isascii()
    ):
        raise ConfigError(
            "the API key is empty or holds whitespace, control or non-ASCII characters"
        )
    return cleaned


@attrs.frozen
class ClientConfig:
    """Everything an :class:`llm.client.LLMClient` needs to reach one server.

    ``model`` may be left ``None`` when the server serves exactly one model; ``concurrency`` bounds
    the calls in flight; the timeouts are described in the module doc. A call whose prompt leaves
    less than ``min_completion_budget`` tokens (or its own smaller budget) for the completion is
    not sent: it fails as ``context_overflow``.
    """

    base_url: str = attrs.field(default=DEFAULT_BASE_URL, converter=normalize_base_url)
    api_key: str = attrs.field(default=DUMMY_API_KEY, repr=False, converter=clean_api_key)
    model: str | None = attrs.field(default=None, validator=_model_id)
    concurrency: int = attrs.field(default=64, validator=_positive)
    connect_timeout: float = attrs.field(default=10.0, validator=_positive)
    read_timeout: float = attrs.field(default=1800.0, validator=_positive)
    total_timeout: float = attrs.field(default=1800.0, validator=_positive)
    call_deadline: float = attrs.field(default=3600.0, validator=_positive)
    min_completion_budget: int = attrs.field(default=1024, validator=_positive)
    #: The largest reply read: 32 MiB holds 100 choices of 32,768 tokens; a larger one is malformed.
    max_response_bytes: int = attrs.field(default=32 * 1024 * 1024, validator=_positive)
    retry: RetryPolicy = RetryPolicy()

    @classmethod
    def resolve(
        cls,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        model: str | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> ClientConfig:
        """A config from explicit arguments, then ``environ`` (default ``os.environ``), then defaults.

        Empty values count as unset. Change the other fields with ``attrs.evolve``.
        """
        env = os.environ if environ is None else environ
        url = base_url or env.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        key = api_key or env.get("OPENAI_API_KEY") or DUMMY_API_KEY
        return cls(base_url=url, api_key=key, model=model or None)
