"""Smoke program of openapi-generator's python client against a running sandbox server (AGGREGATION_BASE_URL).

Prints one line per step, `step <name>: ok <what it saw>` or `step <name>: fail <why>`, and exits non-zero when a
step failed. Run in a virtualenv where the generated package `aggregation_openapi_client` is installed.
"""

import json
import os
import sys
import urllib.request
import uuid

from aggregation_openapi_client import (
    AccountsApi,
    ApiClient,
    ApiException,
    Configuration,
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


def enroll(base_url):
    # The sandbox control API is a separate document: plain HTTP is enough here.
    request = urllib.request.Request(
        f"{base_url}/sandbox/enrollments",
        data=json.dumps({"username": "username", "password": "password"}).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)["access_token"]


def main():
    base_url = os.environ.get("AGGREGATION_BASE_URL") or sys.exit("set AGGREGATION_BASE_URL to the server's base URL")
    # HTTP Basic with the token as the username and an empty password.
    configuration = Configuration(host=base_url, username=enroll(base_url), password="")
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
        step("mfa", mfa_challenge)
        step("payment", pay)
        step("error", read_error)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
