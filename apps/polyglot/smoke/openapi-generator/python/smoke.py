"""Smoke program of openapi-generator's python client: the shared scenario (apps/polyglot/src/smoke.ts) against a
running sandbox server (AGGREGATION_BASE_URL, AGGREGATION_TOKEN).

Prints one line per step, `step <name>: ok <what it saw>` or `step <name>: fail <why>`, and exits non-zero when a
step failed. Run in a virtualenv where the generated package `aggregation_openapi_client` is installed.
"""

import os
import re
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
    PaymentPayeeInput,
    PaymentsApi,
    TransactionsApi,
)

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


def main():
    base_url, token = os.environ.get("AGGREGATION_BASE_URL"), os.environ.get("AGGREGATION_TOKEN")
    if not base_url or not token:
        sys.exit("set AGGREGATION_BASE_URL and AGGREGATION_TOKEN")
    # HTTP Basic with the token as the username and an empty password.
    configuration = Configuration(host=base_url, username=token, password="")
    with ApiClient(configuration) as client:
        accounts, transactions, payments = AccountsApi(client), TransactionsApi(client), PaymentsApi(client)
        state = {}

        def list_accounts():
            found = accounts.list_accounts()
            check(found, "no accounts")
            state["account"] = next((a for a in found if a.links.payments), found[0]).id
            return f"{len(found)} accounts"

        def page_transactions():
            seen, pages, from_id = [], 0, None
            while True:
                page = transactions.list_transactions(state["account"], count=PAGE_SIZE, from_id=from_id)
                pages += 1
                # The generator renames `date`, a Python module name it reserves, to `var_date`.
                check(all(a.var_date >= b.var_date for a, b in zip(page, page[1:])), "a page is not newest first")
                seen.extend(page)
                if len(page) < PAGE_SIZE:
                    break
                from_id = page[-1].id
                check(pages < 1000, "paging does not end")
            everything = transactions.list_transactions(state["account"])
            check([t.id for t in everything] == [t.id for t in seen], "the pages differ from the full list")
            return f"{len(seen)} transactions in {pages} pages of {PAGE_SIZE}"

        payee = PaymentPayeeInput(scheme="zelle", address="jane.doe@example.com", name="Jane Doe", type="person")

        def mfa_challenge():
            # to_dict(): the declared answer type differs between descriptions (the challenge alone, or one of both).
            answer = payments.create_payment(state["account"], CreatePaymentRequest(amount="1.00", memo="mfa", payee=payee)).to_dict()
            check(answer.get("connect_token"), f"no connect_token in {answer!r}")
            return "challenge with a connect_token"

        def pay():
            request = CreatePaymentRequest(amount="1.00", memo="Lunch", payee=payee)
            answer = payments.create_payment(state["account"], request, idempotency_key=str(uuid.uuid4())).to_dict()
            check(str(answer.get("id", "")).startswith("pay_"), f"no Payment read from the 202: got {answer!r}")
            check(answer.get("amount") == "1.00", f"amount {answer.get('amount')!r}")
            return f"202 Payment {answer['id']}"

        def balances():
            found = accounts.get_account_balances(state["account"])
            money = re.compile(r"^-?\d+\.\d{2}$")
            check(money.match(found.ledger) and money.match(found.available), f"balances {found!r}")
            return f"ledger {found.ledger}, available {found.available}"

        def payee_challenge():
            request = CreatePayeeRequest(scheme="zelle", address="mfa@example.com", name="mfa", type="person")
            answer = payments.create_payee(state["account"], request).to_dict()
            check(answer.get("connect_token"), f"no connect_token in {answer!r}")
            return "challenge with a connect_token"

        def create_payee():
            request = CreatePayeeRequest(scheme="zelle", address="sam.lee@example.com", name="Sam Lee", type="person")
            answer = payments.create_payee(state["account"], request).to_dict()
            check(answer.get("name") == "Sam Lee", f"no Payee read: got {answer!r}")
            return f"Payee {answer['name']}"

        def read_error():
            try:
                accounts.get_account("acc_does_not_exist")
            except ApiException as error:
                body = Error.from_json(error.body)
                check(error.status == 404 and body.error.code, f"status {error.status}, body {error.body!r}")
                return f"404 {body.error.code}"
            raise AssertionError("an unknown account was found")

        step("accounts", list_accounts)
        step("transactions", page_transactions)
        step("balances", balances)
        step("payment_mfa", mfa_challenge)
        step("payment", pay)
        step("payee_mfa", payee_challenge)
        step("payee", create_payee)
        step("error", read_error)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
