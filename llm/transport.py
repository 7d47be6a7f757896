"""One HTTP exchange with an OpenAI-compatible server: attempts, waits and one deadline.

:class:`Transport` owns the aiohttp session and turns everything a server can do into either a
parsed 2xx body or a typed :class:`~llm.results.Failed`. It retries transient trouble per
:class:`~llm.retry.RetryPolicy` (the server's ``x-should-retry`` overriding the status rules),
adapts the body to a field the server says it does not support (:func:`llm.wire.adapt`), reads
at most ``max_response_bytes`` of a reply (a larger one is a ``malformed_response``, never buffered),
and stops at the call's *deadline*: an attempt gets at most the time left, and a wait that would end
past the deadline is not begun. A ``Retry-After`` beyond ``max_retry_after`` fails at once with the
requested wait in the message. The configured API key is redacted from every reply body and failure
message, since some servers echo request headers in error bodies or the key inside a completion, and
replies and failures are logged.

What a call *means* (models, modes, the log, which calls are the same sample) lives in
:mod:`llm.client`; this module knows only HTTP.
"""

from __future__ import annotations

import errno
import json
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Generic, Literal, TypeVar

import aiohttp
import attrs
import numpy as np
from aiohttp.helpers import get_env_proxy_for_url
from yarl import URL

from llm.chat import canonical_json
from llm.config import DUMMY_API_KEY, ClientConfig
from llm.errors import MalformedResponse
from llm.results import Failed, FailureReason
from llm.retry import QUOTA_EXHAUSTED, is_retryable_status, retry_after_seconds, should_retry_header
from llm.wire import ServerError, WireOptions, adapt, is_context_overflow, parse_error

Sleep = Callable[[float], Awaitable[None]]
_T = TypeVar("_T")
REDACTED = "[api key redacted]"
#: The ``error_code`` of a connection that every address refused (nothing listens there).
REFUSED = "ECONNREFUSED"
_JSON_HEADERS = {"Content-Type": "application/json"}
#: When a call's deadline passes: during an attempt, after one, or ahead (before the next attempt).
_DeadlineAt = Literal["during", "after", "ahead"]


@attrs.frozen
class _Reply:
    status: int
    body: bytes
    headers: Mapping[str, str]


@attrs.frozen
class Exchange(Generic[_T]):
    """The outcome of one call with its retries, and the body that was sent last (as data and as
    the JSON text that went on the wire, which the call log stores)."""

    value: _T | Failed
    body: dict[str, Any] | None
    attempts: int
    latency_s: float
    body_text: str | None = None


class Transport:
    """HTTP for one client: a session, the retry loop and the body adaptations learned so far."""

    def __init__(
        self,
        config: ClientConfig,
        *,
        sleep: Sleep,
        clock: Callable[[], float],
        wall_clock: Callable[[], float],
        rng: np.random.Generator,
    ) -> None:
        self.config = config
        self.options = WireOptions()
        self._sleep = sleep
        self._clock = clock
        self._wall_clock = wall_clock
        self._rng = rng
        self._session: aiohttp.ClientSession | None = None
        self._secret = None if config.api_key == DUMMY_API_KEY else config.api_key

    def open(self) -> None:
        """Create the session: a pool as large as the concurrency, the proxy the environment names.

        The proxy (``HTTP(S)_PROXY`` unless ``NO_PROXY`` exempts the host) is looked up once here;
        aiohttp's ``trust_env`` would look it up in a worker thread on every request.
        """
        try:
            proxy, proxy_auth = get_env_proxy_for_url(URL(self.config.base_url))
        except LookupError:
            proxy, proxy_auth = None, None
        self._session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=self.config.concurrency),
            timeout=aiohttp.ClientTimeout(
                total=self.config.total_timeout,
                sock_connect=self.config.connect_timeout,
                sock_read=self.config.read_timeout,
            ),
            headers={"Authorization": f"Bearer {self.config.api_key}"},
            proxy=proxy,
            proxy_auth=proxy_auth,
        )

    async def close(self) -> None:
        """Close the session, if open."""
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def exchange(
        self,
        method: str,
        path: str,
        make_body: Callable[[WireOptions], dict[str, Any] | None],
        parse: Callable[[bytes], _T],
        deadline: float,
    ) -> Exchange[_T]:
        """One call with retries until ``deadline`` (on ``clock``): the parsed 2xx body, or the last failure."""
        policy = self.config.retry
        start = self._clock()
        attempts = 0
        body: dict[str, Any] | None = None
        text: str | None = None
        previous: Failed | None = None  # the last attempt's failure, for the deadline's message
        while True:
            left = deadline - self._clock()
            if left <= 0:
                failure = self._deadline_failure(method, path, previous, attempts, "after")
                break
            body = make_body(self.options)
            text = None if body is None else canonical_json(body)
            attempts += 1
            reply = self._scrubbed(await self._send(method, path, text, left))
            retry_after = None
            retryable = True
            if isinstance(reply, Failed) and reply.reason == "deadline":
                failure = self._deadline_failure(method, path, previous, attempts, "during")
                break
            if isinstance(reply, Failed):
                failure = reply
                retryable = policy.retry_refused or reply.error_code != REFUSED
            elif reply.status < 300:
                try:
                    return Exchange(parse(reply.body), body, attempts, self._clock() - start, text)
                except MalformedResponse as error:
                    failure = Failed("malformed_response", str(error), status=reply.status)
            else:
                server_error = parse_error(reply.body)
                if reply.status in (400, 422) and body is not None:
                    adapted = adapt(self.options, body, server_error)
                    if adapted is not None:
                        self.options = adapted
                        continue
                failure = self._status_failure(reply.status, server_error)
                verdict = should_retry_header(reply.headers)
                retryable = (
                    is_retryable_status(reply.status, failure.reason == "quota_exhausted")
                    if verdict is None
                    else verdict
                )
                retry_after = retry_after_seconds(reply.headers, self._wall_clock())
            if not retryable or attempts >= policy.max_attempts:
                break
            if retry_after is not None and retry_after > policy.max_retry_after:
                failure = attrs.evolve(
                    failure,
                    message=f"{failure.message} (the server asked to wait {retry_after:g} s, more than"
                    f" max_retry_after = {policy.max_retry_after:g} s: not retried)",
                )
                break
            wait = policy.delay(attempts, retry_after, self._rng)
            if self._clock() + wait >= deadline:
                failure = self._deadline_failure(method, path, failure, attempts, "ahead")
                break
            previous = failure
            await self._sleep(wait)
        failed = attrs.evolve(
            self._redact(failure), attempts=attempts, latency_s=self._clock() - start
        )
        return Exchange(failed, body, attempts, failed.latency_s, text)

    async def _send(self, method: str, path: str, body: str | None, left: float) -> _Reply | Failed:
        if self._session is None:
            raise RuntimeError("use the client as `async with LLMClient(...) as client:`")
        config = self.config
        cut_by_deadline = left < config.total_timeout
        url = config.base_url + path
        # the body's JSON text, made once: the call log stores the same text
        data, headers = (None, None) if body is None else (body.encode(), _JSON_HEADERS)
        # the session's timeouts are the usual case; a nearer deadline needs its own (None would mean none)
        sending = (
            self._session.request(
                method,
                url,
                data=data,
                headers=headers,
                timeout=aiohttp.ClientTimeout(
                    total=left, sock_connect=config.connect_timeout, sock_read=config.read_timeout
                ),
            )
            if cut_by_deadline
            else self._session.request(method, url, data=data, headers=headers)
        )
        try:
            async with sending as response:
                reply = await _read_capped(response, config.max_response_bytes)
                if reply is None:
                    return Failed(
                        "malformed_response",
                        f"{method} {path}: the reply is larger than max_response_bytes "
                        f"{config.max_response_bytes:,}; not read",
                        status=response.status,
                    )
                return _Reply(response.status, reply, response.headers)
        except aiohttp.ConnectionTimeoutError:
            return Failed(
                "timeout",
                f"{method} {path}: no connection within connect_timeout {config.connect_timeout:g} s",
            )
        except aiohttp.SocketTimeoutError:
            return Failed(
                "timeout",
                f"{method} {path}: no byte from the server within read_timeout {config.read_timeout:g} s",
            )
        except TimeoutError:
            if cut_by_deadline:
                return Failed("deadline", f"{method} {path}: no reply before the call_deadline")
            return Failed(
                "timeout",
                f"{method} {path}: no complete reply within total_timeout {config.total_timeout:g} s",
            )
        except (aiohttp.ClientError, OSError) as error:
            refused = isinstance(error, aiohttp.ClientConnectorError) and _refused(error.os_error)
            return Failed(
                "connection",
                f"{method} {path}: {type(error).__name__}: {error}",
                error_code=REFUSED if refused else None,
            )

    def _deadline_failure(
        self, method: str, path: str, after: Failed | None, attempts: int, when: _DeadlineAt
    ) -> Failed:
        """The call's deadline failure: what the last failed attempt got first (``after``: its
        reason, HTTP status and the server's error), then the attempts made, then whether the
        deadline passed ``during`` the last attempt, ``after`` it, or lies ``ahead`` (the next
        attempt would begin past it: it has not passed yet)."""
        deadline = f"call_deadline {self.config.call_deadline:g} s"
        made = f"{attempts} attempt(s)" if attempts else "no attempt"
        why = {
            "during": f"{made}, the {deadline} was reached during the last one",
            "after": f"{made}, then the {deadline} was reached",
            "ahead": f"{made}; not retried: the next attempt would begin after the {deadline}",
        }[when]
        if after is None:
            return Failed("deadline", f"{method} {path}: no reply ({why})")
        status = "" if after.status is None else f" (HTTP {after.status})"
        return Failed(
            "deadline",
            f"{after.reason}{status}: {after.message} ({why})",
            status=after.status,
            error_code=after.error_code,
        )

    def _status_failure(self, status: int, error: ServerError) -> Failed:
        reason: FailureReason
        message = error.message
        if status == 429:
            exhausted = QUOTA_EXHAUSTED in (error.code, error.type)
            reason = "quota_exhausted" if exhausted else "rate_limited"
        elif status in (400, 413, 422) and is_context_overflow(error):
            reason = "context_overflow"
        elif status in (400, 422):
            reason = "bad_request"
        elif status in (401, 403):
            reason = "auth"
        elif status == 404:
            reason = "not_found"
            message += f" (is {self.config.base_url} the API root? most servers' roots end in /v1)"
        elif status >= 500 or status in (408, 409):
            reason = "server_error"
        else:
            reason = "http_error"
        return Failed(reason, message, status=status, error_code=error.code or error.type)

    def _scrubbed(self, reply: _Reply | Failed) -> _Reply | Failed:
        """``reply`` with the API key replaced in its body, as sent and as a JSON string escapes it:
        a server that echoes it inside a completion must not put it into the call log or the records."""
        secret = self._secret
        if secret is None or isinstance(reply, Failed):
            return reply
        body = reply.body
        for form in {secret.encode(), json.dumps(secret)[1:-1].encode()}:
            body = body.replace(form, REDACTED.encode())
        return attrs.evolve(reply, body=body)

    def _redact(self, failure: Failed) -> Failed:
        secret = self._secret
        if secret is None or (
            secret not in failure.message and secret not in (failure.error_code or "")
        ):
            return failure
        code = None if failure.error_code is None else failure.error_code.replace(secret, REDACTED)
        return attrs.evolve(
            failure, message=failure.message.replace(secret, REDACTED), error_code=code
        )


def _refused(error: OSError) -> bool:
    """Whether every address tried refused the connection (asyncio folds several addresses' errors,
    ``localhost`` as ::1 and 127.0.0.1, into one ``OSError`` whose text lists each errno)."""
    if isinstance(error, ConnectionRefusedError):
        return True
    numbers = re.findall(r"\[Errno (\d+)\]", str(error)) if error.errno is None else []
    return bool(numbers) and all(int(n) == errno.ECONNREFUSED for n in numbers)


async def _read_capped(response: aiohttp.ClientResponse, cap: int) -> bytes | None:
    """The reply's body, or None as soon as it is known to exceed ``cap`` bytes (a larger reply is
    never held whole, so neither memory nor the call log grows with it)."""
    if response.content_length is not None and response.content_length > cap:
        return None
    chunks = []
    size = 0
    async for chunk in response.content.iter_chunked(1 << 16):
        size += len(chunk)
        if size > cap:
            return None
        chunks.append(chunk)
    return b"".join(chunks)
