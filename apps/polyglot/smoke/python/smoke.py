"""Smoke program of openapi-python-client's client: the shared scenario (smoke/scenario/python) with this client's
calls. Run with clients/python on PYTHONPATH (see `npm run generate:clients`)."""

import os
import sys
import uuid

from aggregation_client import Client as GeneratedClient
from aggregation_client.api.accounts import get_account, get_account_balances, list_accounts
from aggregation_client.api.payments import create_payee, create_payment
from aggregation_client.api.transactions import list_transactions
from aggregation_client.models import (
    CreatePayeeRequest,
    CreatePaymentRequest,
    Error,
    MfaChallenge,
    PayeeType,
    PaymentPayeeInput,
    PaymentSchemeName,
)

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scenario", "python"))
from smoke_scenario import Created, check, run, sandbox  # noqa: E402

VERSION = "2020-10-12"


def created(answer) -> Created:
    """Both answers of a payment or a payee are a union of models, parsed as the one the body matches."""
    found = answer.parsed
    if isinstance(found, MfaChallenge):
        return Created(status=answer.status_code, connect_token=found.connect_token)
    return Created(status=answer.status_code, id=getattr(found, "id", None), amount=getattr(found, "amount", None), name=getattr(found, "name", None))


class Client:
    def __init__(self, client: GeneratedClient) -> None:
        self.client = client

    def list_accounts(self):
        found = list_accounts.sync(client=self.client)
        check(isinstance(found, list), f"list accounts: {found!r}")
        return [(account.id, bool(account.links.payments)) for account in found]

    def list_transactions(self, account_id, count=None, from_id=None):
        kwargs = {key: value for key, value in {"count": count, "from_id": from_id}.items() if value is not None}
        page = list_transactions.sync(account_id, client=self.client, **kwargs)
        check(isinstance(page, list), f"list transactions: {page!r}")
        return [(t.id, t.date.isoformat()) for t in page]

    def balances(self, account_id):
        found = get_account_balances.sync(account_id, client=self.client)
        return found.ledger, found.available

    def pay(self, account_id, memo):
        payee = PaymentPayeeInput(scheme=PaymentSchemeName.ZELLE, address="jane.doe@example.com", name="Jane Doe", type_=PayeeType.PERSON)
        body = CreatePaymentRequest(amount="1.00", memo=memo, payee=payee)
        return created(create_payment.sync_detailed(account_id, client=self.client, body=body, idempotency_key=str(uuid.uuid4())))

    def add_payee(self, account_id, name, address):
        body = CreatePayeeRequest(scheme=PaymentSchemeName.ZELLE, address=address, name=name, type_=PayeeType.PERSON)
        return created(create_payee.sync_detailed(account_id, client=self.client, body=body))

    def missing_account(self, account_id):
        missing = get_account.sync_detailed(account_id, client=self.client)
        check(isinstance(missing.parsed, Error), f"{missing.status_code}: {missing.content!r}")
        return missing.status_code, missing.parsed.error.code


if __name__ == "__main__":
    base_url, token = sandbox()
    # HTTP Basic with the token as the username, and the version pinned on every request.
    with GeneratedClient(base_url=base_url, headers={"Service-Version": VERSION}, httpx_args={"auth": (token, "")}) as generated:
        run(Client(generated))
