"""Verifying the signed webhook events the service sends.

``Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]``: each ``v1`` is the lowercase hex HMAC-SHA256 of
``"<t>.<raw body>"`` with one live signing secret (two during a rotation). Verify the raw bytes as received, before
any JSON parsing.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from collections.abc import Iterable
from typing import Any

SIGNATURE_HEADER = "Service-Signature"
DEFAULT_TOLERANCE_SECONDS = 180

_HEX_SIGNATURE = re.compile(r"[0-9a-f]{64}")
_TIMESTAMP = re.compile(r"[0-9]+")


class WebhookVerificationError(Exception):
    """Why an event was refused: ``reason`` is one of ``missing_header``, ``malformed_header``, ``no_secret``,
    ``signature_mismatch``, ``timestamp_too_old``, ``timestamp_in_future``, ``invalid_payload``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def parse_signature_header(header: str) -> tuple[int, list[str]]:
    """``(timestamp, [v1 signatures])``; items of other schemes are ignored, anything malformed raises."""
    timestamp: int | None = None
    signatures: list[str] = []
    for item in header.split(","):
        key, sep, value = item.strip().partition("=")
        if not sep:
            raise WebhookVerificationError("malformed_header", f"item without '=': {item!r}")
        if key == "t":
            if timestamp is not None or not _TIMESTAMP.fullmatch(value):
                raise WebhookVerificationError("malformed_header", "the header needs exactly one integer t")
            timestamp = int(value)
        elif key == "v1":
            if not _HEX_SIGNATURE.fullmatch(value):
                raise WebhookVerificationError("malformed_header", "a v1 signature is 64 lowercase hex digits")
            signatures.append(value)
    if timestamp is None or not signatures:
        raise WebhookVerificationError("malformed_header", "the header needs t and at least one v1")
    return timestamp, signatures


def sign(body: bytes | str, secret: str, timestamp: int) -> str:
    """The ``v1`` signature of a body with one secret."""
    raw = body.encode() if isinstance(body, str) else body
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + raw, hashlib.sha256).hexdigest()


def verify_webhook(
    body: bytes | str,
    header: str | None,
    secrets: str | Iterable[str],
    tolerance: int = DEFAULT_TOLERANCE_SECONDS,
    now: float | None = None,
) -> dict[str, Any]:
    """The event, parsed, once the signature matches one of ``secrets`` and ``t`` is within ``tolerance`` seconds
    of ``now`` (default: the current time); otherwise ``WebhookVerificationError`` with its reason."""
    if not header:
        raise WebhookVerificationError("missing_header", f"no {SIGNATURE_HEADER} header")
    keys = [secrets] if isinstance(secrets, str) else list(secrets)
    keys = [key for key in keys if key]
    if not keys:
        raise WebhookVerificationError("no_secret", "no signing secret to verify with")
    timestamp, signatures = parse_signature_header(header)
    raw = body.encode() if isinstance(body, str) else body
    expected = [sign(raw, key, timestamp) for key in keys]
    # Every pair is compared, in constant time, so the timing tells nothing about which one matched.
    matched = False
    for candidate in expected:
        for signature in signatures:
            matched |= hmac.compare_digest(candidate, signature)
    if not matched:
        raise WebhookVerificationError("signature_mismatch", "no signature matches the body with these secrets")
    age = (time.time() if now is None else now) - timestamp
    if age > tolerance:
        raise WebhookVerificationError("timestamp_too_old", f"signed {int(age)} s ago, more than {tolerance} s")
    if age < -tolerance:
        raise WebhookVerificationError("timestamp_in_future", f"signed {int(-age)} s ahead of this clock")
    try:
        event = json.loads(raw)
    except ValueError as error:
        raise WebhookVerificationError("invalid_payload", "the body is not JSON") from error
    if not isinstance(event, dict) or not all(isinstance(event.get(key), str) for key in ("id", "type", "timestamp")):
        raise WebhookVerificationError("invalid_payload", "the body is not an event envelope")
    if not isinstance(event.get("payload"), dict):
        raise WebhookVerificationError("invalid_payload", "the event has no payload object")
    return event
