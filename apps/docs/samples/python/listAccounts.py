import os

from aggregation_client import check, create_client
from aggregation_client.api.accounts import list_accounts

client = create_client(
    os.environ["AGGREGATION_TOKEN"],
    base_url=os.environ["AGGREGATION_BASE_URL"],
    version="2020-10-12",
)
for account in check(list_accounts.sync_detailed(client=client)):
    can_pay = bool(account.links.payments)
    print(account.id, account.name, account.subtype, can_pay)
