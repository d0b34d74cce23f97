"""Smoke program of openapi-python-client's client: the shared scenario (apps/polyglot/src/smoke.ts) against a
running sandbox server (AGGREGATION_BASE_URL, AGGREGATION_TOKEN).

Prints one line per step, `step <name>: ok <what it saw>` or `step <name>: fail <why>`, and exits non-zero when a
step failed. Run with clients/python on PYTHONPATH (see `npm run generate:clients`).
"""

import os
import re
import sys
import uuid

from aggregation_client import Client
from aggregation_client.api.accounts import get_account, get_account_balances, list_accounts
from aggregation_client.api.payments import create_payee, create_payment
from aggregation_client.api.transactions import list_transactions
from aggregation_client.models import (
    CreatePayeeRequest,
    CreatePaymentRequest,
    Error,
    MfaChallenge,
    Payee,
    PayeeType,
    Payment,
    PaymentPayeeInput,
    PaymentSchemeName,
)

VERSION = "2020-10-12"
PAGE_SIZE = 25
failed = False


def step(name, body):
    global failed
    try:
        print(f"step {name}: ok {body()}", flush=True)
    except Exception as error:  # every failure of a step is reported, then the next step runs
        failed = True
        print(f"step {name}: fail {type(error).__name__}: {error}".replace("\n", " "), flush=True)


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def main() -> None:
    base_url, token = os.environ.get("AGGREGATION_BASE_URL"), os.environ.get("AGGREGATION_TOKEN")
    if not base_url or not token:
        sys.exit("set AGGREGATION_BASE_URL and AGGREGATION_TOKEN")
    # HTTP Basic with the token as the username, and the version pinned on every request.
    client = Client(base_url=base_url, headers={"Service-Version": VERSION}, httpx_args={"auth": (token, "")})
    state = {}

    def accounts():
        found = list_accounts.sync(client=client)
        check(isinstance(found, list) and found, f"list accounts: {found!r}")
        state["account"] = next(a for a in found if a.links.payments).id
        return f"{len(found)} accounts"

    def transactions():
        seen, pages, from_id = [], 0, None
        while True:
            kwargs = {"count": PAGE_SIZE} if from_id is None else {"count": PAGE_SIZE, "from_id": from_id}
            page = list_transactions.sync(state["account"], client=client, **kwargs)
            check(isinstance(page, list), f"list transactions: {page!r}")
            pages += 1
            check(all(a.date >= b.date for a, b in zip(page, page[1:])), "a page is not newest first")
            seen.extend(page)
            if len(page) < PAGE_SIZE:
                break
            from_id = page[-1].id
            check(pages < 1000, "paging does not end")
        everything = list_transactions.sync(state["account"], client=client)
        check([t.id for t in everything] == [t.id for t in seen], "the pages differ from the full list")
        return f"{len(seen)} transactions in {pages} pages of {PAGE_SIZE}"

    def balances():
        found = get_account_balances.sync(state["account"], client=client)
        money = re.compile(r"^-?\d+\.\d{2}$")
        check(money.match(found.ledger) and money.match(found.available), f"balances {found!r}")
        return f"ledger {found.ledger}, available {found.available}"

    payee = PaymentPayeeInput(scheme=PaymentSchemeName.ZELLE, address="jane.doe@example.com", name="Jane Doe", type_=PayeeType.PAYEE_PERSON)

    def pay(memo):
        body = CreatePaymentRequest(amount="1.00", memo=memo, payee=payee)
        return create_payment.sync_detailed(state["account"], client=client, body=body, idempotency_key=str(uuid.uuid4()))

    def payment_mfa():
        answer = pay("mfa")
        check(answer.status_code == 200 and isinstance(answer.parsed, MfaChallenge), f"{answer.status_code}: {answer.parsed!r}")
        return "200 challenge with a connect_token"

    def payment():
        answer = pay("Lunch")
        check(answer.status_code == 202 and isinstance(answer.parsed, Payment), f"{answer.status_code}: {answer.parsed!r}")
        check(answer.parsed.id.startswith("pay_") and answer.parsed.amount == "1.00", f"payment {answer.parsed!r}")
        return f"202 Payment {answer.parsed.id}"

    def add_payee(name, address):
        body = CreatePayeeRequest(scheme=PaymentSchemeName.ZELLE, address=address, name=name, type_=PayeeType.PAYEE_PERSON)
        return create_payee.sync_detailed(state["account"], client=client, body=body)

    def payee_mfa():
        answer = add_payee("mfa", "mfa@example.com")
        check(answer.status_code == 200 and isinstance(answer.parsed, MfaChallenge), f"{answer.status_code}: {answer.parsed!r}")
        return "challenge with a connect_token"

    def new_payee():
        answer = add_payee("Sam Lee", "sam.lee@example.com")
        check(isinstance(answer.parsed, Payee) and answer.parsed.name == "Sam Lee", f"{answer.status_code}: {answer.parsed!r}")
        return f"Payee {answer.parsed.name}"

    def error():
        missing = get_account.sync_detailed("acc_does_not_exist", client=client)
        check(missing.status_code == 404 and isinstance(missing.parsed, Error), f"{missing.status_code}: {missing.content!r}")
        return f"404 {missing.parsed.error.code}"

    with client:
        step("accounts", accounts)
        step("transactions", transactions)
        step("balances", balances)
        step("payment_mfa", payment_mfa)
        step("payment", payment)
        step("payee_mfa", payee_mfa)
        step("payee", new_payee)
        step("error", error)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
