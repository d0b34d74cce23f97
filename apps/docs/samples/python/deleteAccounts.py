import os

from aggregation_client import check, create_client
from aggregation_client.api.accounts import delete_accounts

client = create_client(
    os.environ["AGGREGATION_TOKEN"],
    base_url=os.environ["AGGREGATION_BASE_URL"],
    version="2020-10-12",
)
# Removes access to every account of the enrollment: the token stops working.
response = delete_accounts.sync_detailed(client=client)
check(response)
print("enrollment removed:", response.status_code)  # 204
