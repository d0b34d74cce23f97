"""The hand-written layer: webhook verification on the vectors every language's client shares, the token's
construction, and the typed errors. AGGREGATION_WEBHOOK_VECTORS names the vectors file."""

import base64
import json
import os
import unittest

from aggregation_client import (
    AccountClosedError,
    ApiError,
    EnrollmentDisconnectedError,
    NotFoundError,
    RateLimitedError,
    WebhookVerificationError,
    create_client,
    verify_webhook,
)

with open(os.environ["AGGREGATION_WEBHOOK_VECTORS"], encoding="utf-8") as file:
    VECTORS = json.load(file)


class SharedVectors(unittest.TestCase):
    def test_every_case(self) -> None:
        for case in VECTORS["cases"]:
            with self.subTest(case["name"]):
                body = case.get("body", VECTORS["body"])
                if case["expect"] == "valid":
                    event = verify_webhook(body, case["header"], case["secrets"], now=case["now"])
                    self.assertEqual(event["id"], json.loads(VECTORS["body"])["id"])
                else:
                    with self.assertRaises(WebhookVerificationError) as raised:
                        verify_webhook(body, case["header"], case["secrets"], now=case["now"])
                    self.assertEqual(raised.exception.reason, case["expect"])

    def test_tolerance_is_an_argument(self) -> None:
        header = f"t={VECTORS['timestamp']},v1={VECTORS['signatures']['current']}"
        secret = VECTORS["secrets"]["current"]
        now = VECTORS["timestamp"] + 30
        verify_webhook(VECTORS["body"].encode(), header, secret, now=now)
        with self.assertRaises(WebhookVerificationError) as raised:
            verify_webhook(VECTORS["body"], header, secret, tolerance=10, now=now)
        self.assertEqual(raised.exception.reason, "timestamp_too_old")


class Construction(unittest.TestCase):
    def test_basic_with_the_token_as_username_and_an_empty_password(self) -> None:
        client = create_client("test_token_abc", base_url="http://127.0.0.1:9")
        headers = client.get_httpx_client().headers
        self.assertEqual(headers["Authorization"], "Basic " + base64.b64encode(b"test_token_abc:").decode())
        self.assertEqual(headers["Service-Version"], "2020-10-12")

    def test_a_token_is_required(self) -> None:
        with self.assertRaises(ValueError):
            create_client("  ")


class Errors(unittest.TestCase):
    def error(self, status: int, code: str, headers: dict[str, str] | None = None) -> ApiError:
        body = json.dumps({"error": {"code": code, "message": "m"}}).encode()
        return ApiError.from_response(status, body, headers)

    def test_the_code_family_picks_the_class(self) -> None:
        closed = self.error(410, "account.closed.user_request")
        self.assertIsInstance(closed, AccountClosedError)
        self.assertEqual(closed.reason, "user_request")
        disconnected = self.error(404, "enrollment.disconnected.account_locked")
        self.assertIsInstance(disconnected, EnrollmentDisconnectedError)
        self.assertEqual(disconnected.reason, "account_locked")
        self.assertIsInstance(self.error(404, "not_found"), NotFoundError)

    def test_codes_compare_token_by_token(self) -> None:
        error = self.error(410, "account.closedx")
        self.assertFalse(error.has_code("account.closed"))
        self.assertNotIsInstance(error, AccountClosedError)

    def test_rate_limited_reads_retry_after(self) -> None:
        error = self.error(429, "rate_limited", {"Retry-After": "3"})
        self.assertIsInstance(error, RateLimitedError)
        self.assertEqual(error.retry_after, 3.0)

    def test_a_body_that_is_not_the_contract_s(self) -> None:
        error = ApiError.from_response(502, b"<html>", {})
        self.assertEqual((error.status, error.code), (502, "http_502"))


if __name__ == "__main__":
    unittest.main()
