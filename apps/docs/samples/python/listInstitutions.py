import os

from aggregation_client import check, create_client
from aggregation_client.api.institutions import list_institutions

client = create_client(
    os.environ["AGGREGATION_TOKEN"],
    base_url=os.environ["AGGREGATION_BASE_URL"],
    version="2020-10-12",
)
for institution in check(list_institutions.sync_detailed(client=client)):
    print(institution.id, institution.name, [str(product) for product in institution.products])
