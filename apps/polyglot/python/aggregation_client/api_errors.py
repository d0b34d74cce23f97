"""Typed errors of the API: one class per status (``NotFoundError``, ``RateLimitError``, ...), each an ``ApiError``,
and within a status the class of a code family (``AccountClosedError`` is a ``GoneError``). Codes are dot-separated
(``account.closed.user_request``) and may grow new trailing tokens, so they are compared token by token:
``error.has_code("account.closed")``, never as whole strings. A request that got no response raises
``ConnectionError`` (``ConnectionTimeoutError`` when it timed out), which is also Python's own ``ConnectionError``."""

from __future__ import annotations

import builtins
import json
import time
from email.utils import parsedate_to_datetime
from typing import Any, TypeVar

from .types import Response

T = TypeVar("T")


def code_starts_with(code: str | None, prefix: str) -> bool:
    """True when ``code`` begins with all tokens of ``prefix`` (``account.closedx`` does not start with ``account.closed``)."""
    if not code:
        return False
    have, want = code.split("."), prefix.split(".")
    return have[: len(want)] == want


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """``Retry-After`` in seconds (delta-seconds or an HTTP date), or ``None``."""
    if value is None:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        date = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, date.timestamp() - (time.time() if now is None else now))


class AggregationError(Exception):
    """Base class of everything this package raises about a request, so one ``except`` catches them all."""


class ApiError(AggregationError):
    """A response outside 2xx, with the contract's ``{"error": {"code", "message", "params"?, "request_id"}}`` read out."""

    #: The code family a class stands for; the most specific family that matches picks the class within its status.
    family: str | None = None

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        params: dict[str, list[str]] | None = None,
        headers: dict[str, str] | None = None,
        request_id: str | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.params = params
        self.headers = headers or {}
        #: The server's id of the request (``error.request_id``, else the ``Request-Id`` header): quote it when asking.
        self.request_id = request_id or self._header("request-id")

    def _header(self, name: str) -> str | None:
        return next((value for key, value in self.headers.items() if key.lower() == name), None)

    @property
    def retry_after(self) -> float | None:
        """Seconds to wait, from ``Retry-After`` (429, 503, 504), or ``None``."""
        return parse_retry_after(self._header("retry-after"))

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
        """The error of a response: the class of its code's family within its status, else of its status, else ``ApiError``."""
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
        request_id = error.get("request_id") if isinstance(error.get("request_id"), str) else None
        cls = class_for(status, code)
        return cls(status, code, message, params, dict(headers or {}), request_id)


# One class per status.
class BadRequestError(ApiError):
    family = "bad_request"


class AuthenticationError(ApiError):
    family = "unauthorized"


class PermissionDeniedError(ApiError):
    family = "forbidden"


class NotFoundError(ApiError):
    family = "not_found"


class GoneError(ApiError):
    """410: the account is closed (``AccountClosedError``)."""


class UnprocessableEntityError(ApiError):
    """422: invalid fields (``ValidationError``), a reused Idempotency-Key, payments not supported, ..."""


class RateLimitError(ApiError):
    family = "rate_limited"


class BadGatewayError(ApiError):
    family = "bad_gateway"


class ServiceUnavailableError(ApiError):
    family = "service_unavailable"


class GatewayTimeoutError(ApiError):
    family = "gateway_timeout"


class InternalServerError(ApiError):
    """Any other 5xx."""

    family = "internal_error"


# Code families, each within the status the description gives its code.
class EnrollmentDisconnectedError(NotFoundError):
    """The user must reconnect; ``reason`` is what the institution said (``account_locked``)."""

    family = "enrollment.disconnected"


class VerificationPendingError(NotFoundError):
    family = "account_number_verification_pending"


class VerificationExpiredError(NotFoundError):
    family = "account_number_verification_expired"


class AccountClosedError(GoneError):
    family = "account.closed"


class ValidationError(UnprocessableEntityError):
    """422 with the messages of each field in ``params``."""

    family = "unprocessable_entity"


class IdempotencyKeyReusedError(UnprocessableEntityError):
    family = "idempotency_key_reused"


class PaymentsNotSupportedError(UnprocessableEntityError):
    family = "payments.not_supported"


# The names of earlier releases.
UnauthorizedError = AuthenticationError
ForbiddenError = PermissionDeniedError
RateLimitedError = RateLimitError


class ConnectionError(AggregationError, builtins.ConnectionError):
    """No response after the retries: refused, reset, a name that does not resolve, a TLS failure, ..."""


class ConnectionTimeoutError(ConnectionError, builtins.TimeoutError):
    """No response within the timeout."""


_by_status: dict[int, type[ApiError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    410: GoneError,
    422: UnprocessableEntityError,
    429: RateLimitError,
    502: BadGatewayError,
    503: ServiceUnavailableError,
    504: GatewayTimeoutError,
}


def _with_families(cls: type[ApiError]) -> list[type[ApiError]]:
    found = [cls] if cls.__dict__.get("family") else []
    for sub in cls.__subclasses__():
        found.extend(_with_families(sub))
    return found


_families = sorted(_with_families(ApiError), key=lambda cls: -len(cls.family.split(".")))  # type: ignore[union-attr]


def status_class(status: int) -> type[ApiError]:
    """The class of a status: one of the table above, ``InternalServerError`` for another 5xx, else ``ApiError``."""
    return _by_status.get(status) or (InternalServerError if 500 <= status <= 599 else ApiError)


def class_for(status: int, code: str) -> type[ApiError]:
    """The most specific family class of the code that is of the status's class, else the status's class."""
    base = status_class(status)
    for cls in _families:
        if code_starts_with(code, cls.family) and issubclass(cls, base):  # type: ignore[arg-type]
            return cls
    return base


def check(response: Response[T]) -> T:
    """The parsed body of a ``sync_detailed``/``asyncio_detailed`` response, or its typed ``ApiError`` raised."""
    if 200 <= response.status_code < 300:
        return response.parsed  # type: ignore[return-value]
    raise ApiError.from_response(int(response.status_code), response.content, dict(response.headers))
