"""The shared smoke scenario (apps/polyglot/src/smoke.ts) for the Python clients. Each program says how its generated
client makes each call and what it read (a `Client`); `run` runs the steps against a sandbox server
(AGGREGATION_BASE_URL, AGGREGATION_TOKEN), prints one line per step, `step <name>: ok <what it saw>` or
`step <name>: fail <why>`, and exits 1 when a step failed."""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from typing import Protocol

PAGE_SIZE = 25
MONEY = re.compile(r"^-?\d+\.\d{2}$")


@dataclass
class Created:
    """What a client read from a payment or payee answer: the challenge's token, or the created resource's fields."""

    status: int | None = None
    connect_token: str | None = None
    id: str | None = None
    amount: str | None = None
    name: str | None = None


class Client(Protocol):
    def list_accounts(self) -> list[tuple[str, bool]]:
        """Every account's id, and whether it can pay."""

    def list_transactions(self, account_id: str, count: int | None = None, from_id: str | None = None) -> list[tuple[str, str]]:
        """A page of transactions (every one without `count`), newest first: each one's id and date (YYYY-MM-DD)."""

    def balances(self, account_id: str) -> tuple[str, str]:
        """The ledger and available balances."""

    def pay(self, account_id: str, memo: str) -> Created:
        """A payment of 1.00 to jane.doe@example.com (a new payee, Jane Doe, a person) with an Idempotency-Key."""

    def add_payee(self, account_id: str, name: str, address: str) -> Created:
        """A Zelle payee, a person."""

    def missing_account(self, account_id: str) -> tuple[int, str]:
        """An account that does not exist: the status, and the code of the body read as the Error model."""


def sandbox() -> tuple[str, str]:
    """The server and the access token the runner gives."""
    base_url, token = os.environ.get("AGGREGATION_BASE_URL"), os.environ.get("AGGREGATION_TOKEN")
    if not base_url or not token:
        sys.exit("set AGGREGATION_BASE_URL and AGGREGATION_TOKEN")
    return base_url, token


def check(condition: object, message: str) -> None:
    if not condition:
        raise AssertionError(message)


def run(client: Client) -> None:
    failed = False

    def step(name, body):
        nonlocal failed
        try:
            print(f"step {name}: ok {body()}", flush=True)
        except Exception as error:  # every failure of a step is reported, then the next step runs
            failed = True
            print(f"step {name}: fail {type(error).__name__}: {error}".replace("\n", " "), flush=True)

    # A client that does not expose the status is judged by what it read.
    def status(answer: Created, expected: int) -> bool:
        return answer.status is None or answer.status == expected

    state = {}

    def accounts():
        found = client.list_accounts()
        state["account"] = next(account for account, can_pay in found if can_pay)
        return f"{len(found)} accounts"

    def transactions():
        seen, pages, from_id = [], 0, None
        while True:
            page = client.list_transactions(state["account"], count=PAGE_SIZE, from_id=from_id)
            pages += 1
            check(all(a[1] >= b[1] for a, b in zip(page, page[1:])), "a page is not newest first")
            seen.extend(page)
            if len(page) < PAGE_SIZE:
                break
            from_id = page[-1][0]
            check(pages < 1000, "paging does not end")
        everything = client.list_transactions(state["account"])
        check([t[0] for t in everything] == [t[0] for t in seen], "the pages differ from the full list")
        return f"{len(seen)} transactions in {pages} pages of {PAGE_SIZE}"

    def balances():
        ledger, available = client.balances(state["account"])
        check(MONEY.match(ledger) and MONEY.match(available), f"balances {ledger!r}, {available!r}")
        return f"ledger {ledger}, available {available}"

    def payment_mfa():
        answer = client.pay(state["account"], "mfa")
        check(status(answer, 200) and answer.connect_token, f"no MFA challenge read: {answer!r}")
        return "200 challenge with a connect_token"

    def payment():
        answer = client.pay(state["account"], "Lunch")
        check(status(answer, 202) and str(answer.id).startswith("pay_") and answer.amount == "1.00", f"no Payment read: {answer!r}")
        return f"202 Payment {answer.id}"

    def payee_mfa():
        answer = client.add_payee(state["account"], "mfa", "mfa@example.com")
        check(status(answer, 200) and answer.connect_token, f"no MFA challenge read: {answer!r}")
        return "challenge with a connect_token"

    def payee():
        answer = client.add_payee(state["account"], "Sam Lee", "sam.lee@example.com")
        check(answer.name == "Sam Lee", f"no Payee read: {answer!r}")
        return f"Payee {answer.name}"

    def error():
        code, message = client.missing_account("acc_does_not_exist")
        check(code == 404 and message, f"status {code}, no Error read")
        return f"404 {message}"

    step("accounts", accounts)
    step("transactions", transactions)
    step("balances", balances)
    step("payment_mfa", payment_mfa)
    step("payment", payment)
    step("payee_mfa", payee_mfa)
    step("payee", payee)
    step("error", error)
    sys.exit(1 if failed else 0)
