"""Smoke program of openapi-generator's python client: the shared scenario (smoke/scenario/python) with this client's
calls. Run in a virtualenv where the generated package `aggregation_openapi_client` is installed."""

import os
import sys
import uuid

from aggregation_openapi_client import (
    AccountsApi,
    ApiClient,
    ApiException,
    Configuration,
    CreatePayeeRequest,
    CreatePaymentRequest,
    Error,
    MfaChallenge,
    PayeeType,
    PaymentPayeeInput,
    PaymentSchemeName,
    PaymentsApi,
    TransactionsApi,
)

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scenario", "python"))
from smoke_scenario import Created, run, sandbox  # noqa: E402


def created(answer) -> Created:
    """Both answers of a payment or a payee are one oneOf: the branch it read is its actual instance."""
    found = answer.data.actual_instance
    if isinstance(found, MfaChallenge):
        return Created(status=answer.status_code, connect_token=found.connect_token)
    return Created(status=answer.status_code, id=getattr(found, "id", None), amount=getattr(found, "amount", None), name=getattr(found, "name", None))


class Client:
    def __init__(self, api: ApiClient) -> None:
        self.accounts, self.transactions, self.payments = AccountsApi(api), TransactionsApi(api), PaymentsApi(api)

    def list_accounts(self):
        return [(account.id, bool(account.links.payments)) for account in self.accounts.list_accounts()]

    def list_transactions(self, account_id, count=None, from_id=None):
        # The generator renames `date`, a Python module name it reserves, to `var_date`.
        return [(t.id, t.var_date.isoformat()) for t in self.transactions.list_transactions(account_id, count=count, from_id=from_id)]

    def balances(self, account_id):
        found = self.accounts.get_account_balances(account_id)
        return found.ledger, found.available

    def pay(self, account_id, memo):
        payee = PaymentPayeeInput(scheme=PaymentSchemeName.ZELLE, address="jane.doe@example.com", name="Jane Doe", type=PayeeType.PERSON)
        request = CreatePaymentRequest(amount="1.00", memo=memo, payee=payee)
        return created(self.payments.create_payment_with_http_info(account_id, request, idempotency_key=str(uuid.uuid4())))

    def add_payee(self, account_id, name, address):
        request = CreatePayeeRequest(scheme=PaymentSchemeName.ZELLE, address=address, name=name, type=PayeeType.PERSON)
        return created(self.payments.create_payee_with_http_info(account_id, request))

    def missing_account(self, account_id):
        try:
            self.accounts.get_account(account_id)
        except ApiException as error:
            return error.status, Error.from_json(error.body).error.code
        raise AssertionError("an unknown account was found")


if __name__ == "__main__":
    base_url, token = sandbox()
    # HTTP Basic with the token as the username and an empty password.
    with ApiClient(Configuration(host=base_url, username=token, password="")) as api:
        run(Client(api))
