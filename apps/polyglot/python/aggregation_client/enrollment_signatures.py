"""Checking what the enrollment widget handed a page: the application's Ed25519 key signs the nonce the widget was
opened with, the access token, the user and the enrollment, so that a backend can tell a token that came from the
widget from one a forged request claims.

The signed message is the UTF-8 text ``<nonce>.<access_token>.<user_id>.<enrollment_id>.<environment>`` (an empty
nonce when none was given, an empty token after a reconnect, which keeps the enrollment's own); each signature is the
base64url of its 64 bytes, the public key the base64url of its 32 raw bytes (``signing_key`` of
``GET /sandbox/application``).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable, Mapping
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

ENROLLMENT_SIGNATURE_ALGORITHM = "Ed25519"

_BASE64URL = re.compile(r"[A-Za-z0-9_-]*={0,2}")


def _from_base64url(text: Any) -> bytes | None:
    if not isinstance(text, str) or not _BASE64URL.fullmatch(text):
        return None
    try:
        return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        return None


def enrollment_signature_message(
    access_token: str | None, user_id: str, enrollment_id: str, nonce: str | None = None, environment: str = "sandbox"
) -> str:
    """``<nonce>.<access_token>.<user_id>.<enrollment_id>.<environment>``; a missing nonce or token is empty."""
    return ".".join([nonce or "", access_token or "", user_id, enrollment_id, environment])


def verify_enrollment_signature(
    *,
    public_key: str | Mapping[str, Any],
    access_token: str | None,
    user_id: str,
    enrollment_id: str,
    signatures: Iterable[Mapping[str, Any]],
    nonce: str | None = None,
    environment: str = "sandbox",
) -> bool:
    """Whether one of ``signatures`` (the widget result's) is the application's Ed25519 signature of the nonce, access
    token, user and enrollment. ``public_key`` is the ``signing_key`` of ``GET /sandbox/application`` (then only its
    key's signatures are checked) or its ``public_key`` alone. False for a forged, altered or replayed result (another
    nonce), or one signed by another key; ``ValueError`` for a public key that is not 32 bytes of base64url."""
    raw = public_key if isinstance(public_key, str) else public_key.get("public_key")
    key_id = None if isinstance(public_key, str) else public_key.get("id")
    key_bytes = _from_base64url(raw)
    if key_bytes is None or len(key_bytes) != 32:
        raise ValueError("the public key is not an Ed25519 key: expected 32 bytes, base64url (signing_key.public_key)")
    key = Ed25519PublicKey.from_public_bytes(key_bytes)
    message = enrollment_signature_message(access_token, user_id, enrollment_id, nonce, environment).encode()
    verified = False
    # Every candidate is checked, so the time taken does not tell which one matched.
    for candidate in signatures:
        if candidate.get("algorithm", ENROLLMENT_SIGNATURE_ALGORITHM) != ENROLLMENT_SIGNATURE_ALGORITHM:
            continue
        if key_id is not None and candidate.get("key_id") not in (None, key_id):
            continue
        signature = _from_base64url(candidate.get("signature"))
        if signature is None or len(signature) != 64:
            continue
        try:
            key.verify(signature, message)
            verified = True
        except InvalidSignature:
            pass
    return verified
