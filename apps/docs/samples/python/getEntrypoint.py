import os

from aggregation_client import check, create_client
from aggregation_client.api.entrypoint import get_entrypoint

client = create_client(
    os.environ["AGGREGATION_TOKEN"],
    base_url=os.environ["AGGREGATION_BASE_URL"],
    version="2020-10-12",
)
entrypoint = check(get_entrypoint.sync_detailed(client=client))
print(entrypoint.links.accounts, entrypoint.links.institutions)
