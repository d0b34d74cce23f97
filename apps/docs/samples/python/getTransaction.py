import os

from aggregation_client import check, create_client
from aggregation_client.api.transactions import get_transaction

client = create_client(
    os.environ["AGGREGATION_TOKEN"],
    base_url=os.environ["AGGREGATION_BASE_URL"],
    version="2020-10-12",
)
transaction = check(
    get_transaction.sync_detailed(os.environ["ACCOUNT_ID"], os.environ["TRANSACTION_ID"], client=client)
)
print(transaction.date, transaction.amount, transaction.status, transaction.description)
