"""The package against a running sandbox server (AGGREGATION_BASE_URL): what it sends must be what the service
accepts. Each test enrolls a fresh sandbox user."""

import os
import unittest
import uuid

import httpx

from aggregation_client import check, create_client
from aggregation_client.api.accounts import list_accounts
from aggregation_client.api.payments import create_payment
from aggregation_client.models import (
    CreatePaymentRequest,
    MfaChallenge,
    PayeeType,
    Payment,
    PaymentPayeeInput,
    PaymentSchemeName,
)

BASE_URL = os.environ["AGGREGATION_BASE_URL"]


def enroll() -> str:
    """A fresh enrollment of the healthy sandbox user: its access token."""
    answer = httpx.post(f"{BASE_URL}/sandbox/enrollments", json={"username": "username", "password": "password"})
    answer.raise_for_status()
    return answer.json()["access_token"]


class Payments(unittest.TestCase):
    def setUp(self) -> None:
        self.client = create_client(enroll(), base_url=BASE_URL)
        accounts = check(list_accounts.sync_detailed(client=self.client))
        self.account = next(account for account in accounts if account.links.payments).id

    def tearDown(self) -> None:
        self.client.get_httpx_client().close()

    def pay(self, memo: str):
        payee = PaymentPayeeInput(
            scheme=PaymentSchemeName.ZELLE, address="jane.doe@example.com", name="Jane Doe", type_=PayeeType.PAYEE_PERSON
        )
        body = CreatePaymentRequest(amount="1.00", memo=memo, payee=payee)
        return create_payment.sync_detailed(self.account, client=self.client, body=body, idempotency_key=str(uuid.uuid4()))

    def test_a_payment_is_accepted_with_202(self) -> None:
        answer = self.pay("Lunch")
        self.assertEqual(answer.status_code, 202, answer.content)
        payment = check(answer)
        self.assertIsInstance(payment, Payment)
        self.assertEqual((payment.amount, payment.payee.address), ("1.00", "jane.doe@example.com"))

    def test_a_payment_with_memo_mfa_answers_the_challenge_with_200(self) -> None:
        answer = self.pay("mfa")
        self.assertEqual(answer.status_code, 200, answer.content)
        self.assertIsInstance(check(answer), MfaChallenge)


if __name__ == "__main__":
    unittest.main()
