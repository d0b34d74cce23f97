"""Typed errors of the API. Codes are dot-separated (``account.closed.user_request``) and may grow new trailing
tokens, so they are compared token by token: ``error.has_code("account.closed")``, never as whole strings."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from .types import Response

T = TypeVar("T")


def code_starts_with(code: str | None, prefix: str) -> bool:
    """True when ``code`` begins with all tokens of ``prefix`` (``account.closedx`` does not start with ``account.closed``)."""
    if not code:
        return False
    have, want = code.split("."), prefix.split(".")
    return have[: len(want)] == want


class ApiError(Exception):
    """A response outside 2xx, with the contract's ``{"error": {"code", "message", "params"?}}`` read out."""

    #: The code family a subclass stands for; the most specific family that matches picks the class.
    family: str | None = None

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        params: dict[str, list[str]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.params = params
        self.headers = headers or {}

    def has_code(self, prefix: str) -> bool:
        return code_starts_with(self.code, prefix)

    @property
    def reason(self) -> str | None:
        """The tokens after the class's code family (``user_request`` of ``account.closed.user_request``)."""
        if not self.family or not self.has_code(self.family):
            return None
        rest = self.code.split(".")[len(self.family.split(".")) :]
        return ".".join(rest) or None

    @staticmethod
    def from_response(status: int, content: bytes, headers: dict[str, str] | None = None) -> ApiError:
        """The error of a response: the class of its code's family, else of its status, else ``ApiError``."""
        body: Any = None
        try:
            body = json.loads(content)
        except ValueError:
            pass
        error = body.get("error") if isinstance(body, dict) else None
        error = error if isinstance(error, dict) else {}
        code = error.get("code") if isinstance(error.get("code"), str) and error.get("code") else f"http_{status}"
        message = error.get("message") if isinstance(error.get("message"), str) else f"HTTP {status}"
        params = error.get("params") if isinstance(error.get("params"), dict) else None
        cls = _class_for(status, code)
        return cls(status, code, message, params, dict(headers or {}))


class BadRequestError(ApiError):
    family = "bad_request"


class UnauthorizedError(ApiError):
    family = "unauthorized"


class ForbiddenError(ApiError):
    family = "forbidden"


class NotFoundError(ApiError):
    family = "not_found"


class EnrollmentDisconnectedError(ApiError):
    """The user must reconnect; ``reason`` is what the institution said (``account_locked``)."""

    family = "enrollment.disconnected"


class AccountClosedError(ApiError):
    family = "account.closed"


class VerificationPendingError(ApiError):
    family = "account_number_verification_pending"


class VerificationExpiredError(ApiError):
    family = "account_number_verification_expired"


class PaymentsNotSupportedError(ApiError):
    family = "payments.not_supported"


class ValidationError(ApiError):
    """422 with the messages of each field in ``params``."""

    family = "unprocessable_entity"


class IdempotencyKeyReusedError(ApiError):
    family = "idempotency_key_reused"


class RateLimitedError(ApiError):
    family = "rate_limited"

    @property
    def retry_after(self) -> float | None:
        """Seconds to wait, from ``Retry-After``."""
        value = next((v for k, v in self.headers.items() if k.lower() == "retry-after"), None)
        try:
            return float(value) if value is not None else None
        except ValueError:
            return None


class BadGatewayError(ApiError):
    family = "bad_gateway"


_by_status: dict[int, type[ApiError]] = {
    400: BadRequestError,
    401: UnauthorizedError,
    403: ForbiddenError,
    404: NotFoundError,
    422: ValidationError,
    429: RateLimitedError,
    502: BadGatewayError,
}
_families = sorted(
    (cls for cls in ApiError.__subclasses__() if cls.family),
    key=lambda cls: -len(cls.family.split(".")),  # type: ignore[union-attr]
)


def _class_for(status: int, code: str) -> type[ApiError]:
    for cls in _families:
        if code_starts_with(code, cls.family):  # type: ignore[arg-type]
            return cls
    return _by_status.get(status, ApiError)


def check(response: Response[T]) -> T:
    """The parsed body of a ``sync_detailed``/``asyncio_detailed`` response, or its typed ``ApiError`` raised."""
    if 200 <= response.status_code < 300:
        return response.parsed  # type: ignore[return-value]
    raise ApiError.from_response(int(response.status_code), response.content, dict(response.headers))
