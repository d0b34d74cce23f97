"""Payments through the generated `create_payment` against the sandbox server at AGGREGATION_BASE_URL (the test of
apps/polyglot starts one and sets it; without it these are skipped): the body the package sends is one the service
accepts, and both answers are read."""

import os
import unittest
import uuid

import httpx
from aggregation_client import check, create_client
from aggregation_client.api.payments import create_payment
from aggregation_client.models import (
    CreatePaymentRequest,
    MfaChallenge,
    PayeeType,
    Payment,
    PaymentPayeeInput,
    PaymentSchemeName,
)

BASE_URL = os.environ.get("AGGREGATION_BASE_URL")


@unittest.skipUnless(BASE_URL, "AGGREGATION_BASE_URL names no sandbox server")
class Payments(unittest.TestCase):
    def setUp(self) -> None:
        enrollment = httpx.post(f"{BASE_URL}/sandbox/enrollments", json={"username": "username", "password": "password"})
        enrollment.raise_for_status()
        self.account = next(account["id"] for account in enrollment.json()["accounts"] if account["subtype"] == "checking")
        self.client = create_client(enrollment.json()["access_token"], base_url=BASE_URL)

    def tearDown(self) -> None:
        self.client.get_httpx_client().close()

    def pay(self, memo: str):
        payee = PaymentPayeeInput(
            scheme=PaymentSchemeName.ZELLE, address="jane.doe@example.com", name="Jane Doe", type_=PayeeType.PERSON
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
