"""Constructing a client with an access token, the way the service expects it."""

from __future__ import annotations

import base64
from typing import Any

import httpx

from ._release import CURRENT_VERSION, DEFAULT_BASE_URL
from .client import AuthenticatedClient
from .retries import RetryTransport

#: Seconds each attempt may wait for the connection and for each read, unless ``timeout`` says otherwise.
DEFAULT_TIMEOUT = 60.0

__all__ = ["CURRENT_VERSION", "DEFAULT_BASE_URL", "DEFAULT_TIMEOUT", "basic_credentials", "create_client"]


def basic_credentials(token: str) -> str:
    """``base64(token + ":")``: HTTP Basic with the token as the username and an empty password."""
    return base64.b64encode(f"{token}:".encode()).decode("ascii")


def create_client(
    token: str,
    base_url: str = DEFAULT_BASE_URL,
    version: str = CURRENT_VERSION,
    *,
    timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
    max_retries: int = 2,
    max_retry_after: float = 60.0,
    **kwargs: Any,
) -> AuthenticatedClient:
    """An ``AuthenticatedClient`` that sends the token as HTTP Basic, pins the API version on every request, times out
    each attempt after ``timeout`` seconds, and retries reads, deletes and keyed POSTs up to ``max_retries`` times
    (``Retry-After`` honoured up to ``max_retry_after`` seconds; see ``aggregation_client.retries``).

    The generator's default (``AuthenticatedClient(token=...)``) sends ``Bearer <token>``, which the service refuses
    with 401. Other keyword arguments (``verify_ssl``, ``httpx_args``, ``raise_on_unexpected_status``, ...) are passed
    on; a ``transport`` in ``httpx_args`` is what the retries send through (a ``RetryTransport`` is used as it is).
    """
    if not isinstance(token, str) or not token.strip():
        raise ValueError("an access token is required")
    headers = {"Service-Version": version, **kwargs.pop("headers", {})}
    httpx_args = dict(kwargs.pop("httpx_args", {}))
    given = httpx_args.pop("transport", None)
    httpx_args["transport"] = (
        given
        if isinstance(given, RetryTransport)
        else RetryTransport(
            max_retries=max_retries,
            max_retry_after=max_retry_after,
            sync=given if isinstance(given, httpx.BaseTransport) else None,
            async_=given if isinstance(given, httpx.AsyncBaseTransport) else None,
            verify=kwargs.get("verify_ssl", True),
        )
    )
    return AuthenticatedClient(
        base_url=base_url,
        token=basic_credentials(token),
        prefix="Basic",
        headers=headers,
        timeout=timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout),
        httpx_args=httpx_args,
        **kwargs,
    )
