import os

from aggregation_client import NotFoundError, check, create_client
from aggregation_client.api.accounts import get_account, list_accounts

client = create_client(os.environ["AGGREGATION_TOKEN"], base_url=os.environ.get("AGGREGATION_BASE_URL", "http://localhost:3000"))
with client:
    for account in check(list_accounts.sync_detailed(client=client)):
        print(account.id, account.type_, account.name)
    try:
        check(get_account.sync_detailed("acc_missing", client=client))
    except NotFoundError as error:
        print(error.status, error.code)
