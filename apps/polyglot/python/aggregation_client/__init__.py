"""Python client of the account-aggregation and payments API: the client generated from the OpenAPI description
(``aggregation_client.api``, ``aggregation_client.models``), with token authentication, typed errors and webhook
verification written by hand."""

from ._release import __version__
from .api_errors import (
    AccountClosedError,
    ApiError,
    BadGatewayError,
    BadRequestError,
    EnrollmentDisconnectedError,
    ForbiddenError,
    IdempotencyKeyReusedError,
    NotFoundError,
    PaymentsNotSupportedError,
    RateLimitedError,
    UnauthorizedError,
    ValidationError,
    VerificationExpiredError,
    VerificationPendingError,
    check,
    code_starts_with,
)
from .auth import CURRENT_VERSION, DEFAULT_BASE_URL, basic_credentials, create_client
from .client import AuthenticatedClient, Client
from .webhooks import (
    DEFAULT_TOLERANCE_SECONDS,
    SIGNATURE_HEADER,
    WebhookVerificationError,
    parse_signature_header,
    verify_webhook,
)

__all__ = (
    "__version__",
    "AccountClosedError",
    "ApiError",
    "AuthenticatedClient",
    "BadGatewayError",
    "BadRequestError",
    "Client",
    "CURRENT_VERSION",
    "DEFAULT_BASE_URL",
    "DEFAULT_TOLERANCE_SECONDS",
    "EnrollmentDisconnectedError",
    "ForbiddenError",
    "IdempotencyKeyReusedError",
    "NotFoundError",
    "PaymentsNotSupportedError",
    "RateLimitedError",
    "SIGNATURE_HEADER",
    "UnauthorizedError",
    "ValidationError",
    "VerificationExpiredError",
    "VerificationPendingError",
    "WebhookVerificationError",
    "basic_credentials",
    "check",
    "code_starts_with",
    "create_client",
    "parse_signature_header",
    "verify_webhook",
)
