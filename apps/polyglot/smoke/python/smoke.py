"""Smoke program of the generated Python client against a running sandbox server (AGGREGATION_BASE_URL).

Enrolls a sandbox user, lists the accounts, pages through the transactions with count and from_id, and
reads a 404 as the Error schema. Exits non-zero on the first thing that is not as the description says.
Run with clients/python on PYTHONPATH (see `npm run generate:clients`).
"""

import os
import sys

import httpx

from aggregation_client import Client
from aggregation_client.api.accounts import get_account, list_accounts
from aggregation_client.api.transactions import list_transactions
from aggregation_client.models import Account, AccountSubtype, Error, Transaction

VERSION = "2020-10-12"
PAGE_SIZE = 25


def fail(message: str) -> None:
    sys.exit(f"python smoke: {message}")


def enroll(base_url: str) -> str:
    # The sandbox control API is a separate document: plain HTTP is enough here.
    response = httpx.post(
        f"{base_url}/sandbox/enrollments",
        json={"username": "username", "password": "password"},
    )
    if response.status_code != 201:
        fail(f"enroll: status {response.status_code}: {response.text}")
    return response.json()["access_token"]


def main() -> None:
    base_url = os.environ.get("AGGREGATION_BASE_URL") or fail("set AGGREGATION_BASE_URL to the server's base URL")
    token = enroll(base_url)
    # HTTP Basic with the token as the username, and the version pinned on every request.
    client = Client(
        base_url=base_url,
        headers={"Service-Version": VERSION},
        httpx_args={"auth": (token, "")},
        raise_on_unexpected_status=True,
    )

    with client:
        accounts = list_accounts.sync(client=client)
        if not isinstance(accounts, list) or not accounts:
            fail(f"list accounts: {accounts!r}")
        assert all(isinstance(account, Account) for account in accounts)
        account = next((a for a in accounts if a.subtype == AccountSubtype.CHECKING), accounts[0])

        # Newest first; each page starts after the last transaction of the previous one.
        seen: list[Transaction] = []
        pages = 0
        from_id = None
        while True:
            kwargs = {"count": PAGE_SIZE} if from_id is None else {"count": PAGE_SIZE, "from_id": from_id}
            page = list_transactions.sync(account.id, client=client, **kwargs)
            if not isinstance(page, list):
                fail(f"list transactions: {page!r}")
            pages += 1
            if any(later.date > earlier.date for earlier, later in zip(page, page[1:])):
                fail("list transactions: not newest first")
            seen.extend(page)
            if len(page) < PAGE_SIZE:
                break
            from_id = page[-1].id
            if pages > 1000:
                fail("list transactions: paging does not end")
        ids = [transaction.id for transaction in seen]
        if len(set(ids)) != len(ids):
            fail("list transactions: a transaction came twice")
        everything = list_transactions.sync(account.id, client=client)
        if not isinstance(everything, list) or [t.id for t in everything] != ids:
            fail("list transactions: the pages differ from the full list")

        missing = get_account.sync_detailed("acc_does_not_exist", client=client)
        if missing.status_code != 404 or not isinstance(missing.parsed, Error) or not missing.parsed.error.code:
            fail(f"get unknown account: want a 404 Error body, got {missing.status_code}: {missing.content!r}")

    print(
        f"python smoke: ok: {len(accounts)} accounts, {len(ids)} transactions of {account.id}"
        f" in {pages} pages of {PAGE_SIZE}, unknown account: 404 {missing.parsed.error.code}"
    )


if __name__ == "__main__":
    main()
