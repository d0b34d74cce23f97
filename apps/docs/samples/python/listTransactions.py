import os

from aggregation_client import check, create_client
from aggregation_client.api.transactions import list_transactions

client = create_client(
    os.environ["AGGREGATION_TOKEN"],
    base_url=os.environ["AGGREGATION_BASE_URL"],
    version="2020-10-12",
)
# Newest first. The next page starts after the last transaction received:
# pass its id as from_id.
account_id = os.environ["ACCOUNT_ID"]
page = check(list_transactions.sync_detailed(account_id, client=client, count=25))
for transaction in page:
    print(transaction.date, transaction.amount, transaction.description)

if page:
    older = check(list_transactions.sync_detailed(account_id, client=client, count=25, from_id=page[-1].id))
    print(len(older), "older transactions")
