"""Constructing a client with an access token, the way the service expects it."""

from __future__ import annotations

import base64
from typing import Any

from ._release import CURRENT_VERSION, DEFAULT_BASE_URL
from .client import AuthenticatedClient

__all__ = ["CURRENT_VERSION", "DEFAULT_BASE_URL", "basic_credentials", "create_client"]


def basic_credentials(token: str) -> str:
    """``base64(token + ":")``: HTTP Basic with the token as the username and an empty password."""
    return base64.b64encode(f"{token}:".encode()).decode("ascii")


def create_client(
    token: str,
    base_url: str = DEFAULT_BASE_URL,
    version: str = CURRENT_VERSION,
    **kwargs: Any,
) -> AuthenticatedClient:
    """An ``AuthenticatedClient`` that sends the token as HTTP Basic and pins the API version on every request.

    The generator's default (``AuthenticatedClient(token=...)``) sends ``Bearer <token>``, which the service refuses
    with 401. Other keyword arguments (``timeout``, ``httpx_args``, ``raise_on_unexpected_status``, ...) are passed on.
    """
    if not isinstance(token, str) or not token.strip():
        raise ValueError("an access token is required")
    headers = {"Service-Version": version, **kwargs.pop("headers", {})}
    return AuthenticatedClient(
        base_url=base_url,
        token=basic_credentials(token),
        prefix="Basic",
        headers=headers,
        **kwargs,
    )
