import os

from aggregation_client import check, create_client
from aggregation_client.api.accounts import delete_account

client = create_client(
    os.environ["AGGREGATION_TOKEN"],
    base_url=os.environ["AGGREGATION_BASE_URL"],
    version="2020-10-12",
)
# Removes this application's access to one account; the enrollment's other accounts stay.
response = delete_account.sync_detailed(os.environ["ACCOUNT_ID"], client=client)
check(response)
print("access removed:", response.status_code)  # 204
