"""The package against the sandbox server at AGGREGATION_BASE_URL (the test of apps/polyglot starts one and sets it;
without it these are skipped): the sandbox users that provoke a 429 and a 504, a payment retried with its key, a
404, a timeout and a refused connection."""

import os
import socket
import unittest

import httpx
from aggregation_client import (
    ConnectionError,
    ConnectionTimeoutError,
    GatewayTimeoutError,
    NotFoundError,
    RateLimitError,
    call_options,
    check,
    create_client,
)
from aggregation_client.api.accounts import get_account, list_accounts
from aggregation_client.api.transactions import list_transactions

BASE_URL = os.environ.get("AGGREGATION_BASE_URL")


def enroll(username: str) -> dict:
    response = httpx.post(f"{BASE_URL}/sandbox/enrollments", json={"username": username, "password": "password"})
    response.raise_for_status()
    return response.json()


def checking(enrollment: dict) -> str:
    return next(account["id"] for account in enrollment["accounts"] if account["subtype"] == "checking")


@unittest.skipUnless(BASE_URL, "AGGREGATION_BASE_URL names no sandbox server")
class AgainstTheSandbox(unittest.TestCase):
    def test_a_429_sent_once_raises_rate_limit_error_and_the_default_retries_get_through(self) -> None:
        with create_client(enroll("rate_limited.2")["access_token"], base_url=BASE_URL) as client:
            with self.assertRaises(RateLimitError) as raised, call_options(max_retries=0):
                check(list_accounts.sync_detailed(client=client))
            self.assertEqual((raised.exception.status, raised.exception.code, raised.exception.retry_after), (429, "rate_limited", 1.0))
            self.assertEqual(len(check(list_accounts.sync_detailed(client=client))), 3)

    def test_the_first_transactions_504_raises_gateway_timeout_error_or_is_retried(self) -> None:
        once = enroll("timeout.first_transactions")
        with create_client(once["access_token"], base_url=BASE_URL, max_retries=0) as client, self.assertRaises(GatewayTimeoutError):
            check(list_transactions.sync_detailed(checking(once), client=client, count=1))
        retried = enroll("timeout.first_transactions")
        with create_client(retried["access_token"], base_url=BASE_URL) as client:
            self.assertEqual(len(check(list_transactions.sync_detailed(checking(retried), client=client, count=1))), 1)

    def test_a_payment_is_retried_with_its_key_and_made_once(self) -> None:
        enrollment = enroll("rate_limited.1")
        account = checking(enrollment)
        payment = {"amount": "1.00", "memo": "Python retry", "payee": {"scheme": "zelle", "address": "py@example.com", "name": "Py", "type": "person"}}
        with create_client(enrollment["access_token"], base_url=BASE_URL) as client:
            http = client.get_httpx_client()
            made = http.post(f"/accounts/{account}/payments", json=payment)
            self.assertEqual(made.status_code, 202, made.text)
            payments = http.get(f"/accounts/{account}/payments").json()
        self.assertEqual([p["id"] for p in payments if p["memo"] == "Python retry"], [made.json()["id"]])

    def test_a_404_is_not_found_error_with_its_request_id(self) -> None:
        with create_client(enroll("username")["access_token"], base_url=BASE_URL) as client, self.assertRaises(NotFoundError) as raised:
            check(get_account.sync_detailed("acc_missing", client=client))
        self.assertRegex(raised.exception.request_id or "", r"^req_")

    def test_no_answer_in_time_and_a_refused_connection(self) -> None:
        with socket.socket() as silent:
            silent.bind(("127.0.0.1", 0))
            silent.listen()
            address = f"http://127.0.0.1:{silent.getsockname()[1]}"
            with create_client("test_token_x", base_url=address, timeout=0.3, max_retries=0) as client, self.assertRaises(ConnectionTimeoutError):
                list_accounts.sync_detailed(client=client)
        with create_client("test_token_x", base_url=address, max_retries=0) as client, self.assertRaises(ConnectionError):
            list_accounts.sync_detailed(client=client)


if __name__ == "__main__":
    unittest.main()
