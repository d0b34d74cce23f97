import os

from aggregation_client import check, create_client
from aggregation_client.api.accounts import get_account_details

client = create_client(
    os.environ["AGGREGATION_TOKEN"],
    base_url=os.environ["AGGREGATION_BASE_URL"],
    version="2020-10-12",
)
details = check(get_account_details.sync_detailed(os.environ["ACCOUNT_ID"], client=client))
print(details.account_id, details.account_number, details.routing_numbers)
