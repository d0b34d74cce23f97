"""Retries, timeouts and idempotency keys, as an httpx transport under the generated client.

Reads and deletes, and every POST that carries an ``Idempotency-Key``, are retried on 429, 502, 503, 504 and when no
response came (a refused or reset connection, a timeout), up to ``max_retries`` times: after ``Retry-After`` when the
service sends it (a longer one than ``max_retry_after`` is not waited for: the answer is returned as it is), else
after a jittered exponential backoff. Each retry sends the same request again, headers and body included, so a
payment's key is the same on every attempt. The POSTs whose operation declares the header in the description
(``IDEMPOTENT_POSTS``, written from it when the package is assembled) get a fresh key when they have none.
``call_options(max_retries=..., timeout=...)`` sets both for the calls made inside it."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import random
import re
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import httpx

from ._release import IDEMPOTENT_POSTS
from .api_errors import ConnectionError, ConnectionTimeoutError, parse_retry_after

IDEMPOTENCY_KEY_HEADER = "Idempotency-Key"
RETRY_STATUSES = frozenset({429, 502, 503, 504})
_IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "DELETE", "PUT"})
# `/accounts/{account_id}/payments` → the end of a request's path, under any base URL's prefix.
_KEYED = [re.compile(re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "$") for path in IDEMPOTENT_POSTS]


@dataclass(frozen=True)
class _CallOptions:
    max_retries: int | None = None
    timeout: float | None = None


_call_options: contextvars.ContextVar[_CallOptions | None] = contextvars.ContextVar("aggregation_call_options", default=None)


@contextlib.contextmanager
def call_options(*, max_retries: int | None = None, timeout: float | None = None) -> Iterator[None]:
    """The calls made inside (in this thread or task) retry at most ``max_retries`` times and time out each attempt
    after ``timeout`` seconds, over the client's settings: ``with call_options(max_retries=0): ...``."""
    token = _call_options.set(_CallOptions(max_retries, timeout))
    try:
        yield
    finally:
        _call_options.reset(token)


def takes_idempotency_key(request: httpx.Request) -> bool:
    return request.method == "POST" and any(pattern.search(request.url.path) for pattern in _KEYED)


def is_retryable(request: httpx.Request) -> bool:
    """Requests that can run twice: reads, deletes, and a POST with an ``Idempotency-Key`` (the service replays it)."""
    return request.method in _IDEMPOTENT_METHODS or IDEMPOTENCY_KEY_HEADER in request.headers


def backoff(retry: int, base: float = 0.5, cap: float = 8.0) -> float:
    """Half the capped exponential step, plus a random part of the other half."""
    step = min(cap, base * 2 ** (retry - 1))
    return step / 2 + random.random() * step / 2


class RetryTransport(httpx.BaseTransport, httpx.AsyncBaseTransport):
    """Sends through ``sync``/``async_`` (httpx's own transports by default), with the retries above."""

    def __init__(
        self,
        max_retries: int = 2,
        max_retry_after: float = 60.0,
        sync: httpx.BaseTransport | None = None,
        async_: httpx.AsyncBaseTransport | None = None,
        verify: bool | str = True,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.max_retries = max_retries
        self.max_retry_after = max_retry_after
        self._sync = sync
        self._async = async_
        self._verify = verify
        self._sleep = sleep

    def _prepare(self, request: httpx.Request) -> int:
        """Gives a keyed POST its key and the call's timeout; returns the retries the call may make."""
        if takes_idempotency_key(request) and IDEMPOTENCY_KEY_HEADER not in request.headers:
            request.headers[IDEMPOTENCY_KEY_HEADER] = str(uuid.uuid4())
        options = _call_options.get() or _CallOptions()
        if options.timeout is not None:
            request.extensions["timeout"] = httpx.Timeout(options.timeout).as_dict()
        max_retries = self.max_retries if options.max_retries is None else options.max_retries
        return max_retries if is_retryable(request) else 0

    def _next(self, request: httpx.Request, retry: int, max_retries: int, response: httpx.Response | None, error: Exception | None) -> float | None:
        """After attempt number ``retry``: the wait before the next one, or ``None`` when this attempt's outcome is
        the call's (its response is returned, its error raised as a ``ConnectionError``)."""
        if retry > max_retries:
            if error is not None:
                raise _connection_error(request, error) from error
            return None
        if error is not None:
            return backoff(retry)
        assert response is not None
        if response.status_code not in RETRY_STATUSES:
            return None
        after = parse_retry_after(response.headers.get("Retry-After"))
        if after is None:
            return backoff(retry)
        return after if after <= self.max_retry_after else None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self._sync is None:
            self._sync = httpx.HTTPTransport(verify=self._verify)
        max_retries = self._prepare(request)
        for retry in range(1, max_retries + 2):
            response, error = None, None
            try:
                response = self._sync.handle_request(request)
            except httpx.TransportError as failed:
                error = failed
            wait = self._next(request, retry, max_retries, response, error)
            if wait is None:
                return response  # type: ignore[return-value]
            if response is not None:
                response.close()
            self._sleep(wait)
        raise AssertionError("unreachable")

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self._async is None:
            self._async = httpx.AsyncHTTPTransport(verify=self._verify)
        max_retries = self._prepare(request)
        for retry in range(1, max_retries + 2):
            response, error = None, None
            try:
                response = await self._async.handle_async_request(request)
            except httpx.TransportError as failed:
                error = failed
            wait = self._next(request, retry, max_retries, response, error)
            if wait is None:
                return response  # type: ignore[return-value]
            if response is not None:
                await response.aclose()
            await asyncio.sleep(wait)
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self._sync is not None:
            self._sync.close()

    async def aclose(self) -> None:
        if self._async is not None:
            await self._async.aclose()


def _connection_error(request: httpx.Request, error: Exception) -> ConnectionError:
    if isinstance(error, httpx.TimeoutException):
        return ConnectionTimeoutError(f"No response in time ({type(error).__name__}): {request.method} {request.url}")
    return ConnectionError(f"Request failed ({type(error).__name__}: {error}): {request.method} {request.url}")
