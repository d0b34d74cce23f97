import os

from aggregation_client import check, create_client
from aggregation_client.api.payments import list_payment_schemes

client = create_client(
    os.environ["AGGREGATION_TOKEN"],
    base_url=os.environ["AGGREGATION_BASE_URL"],
    version="2020-10-12",
)
schemes = check(list_payment_schemes.sync_detailed(os.environ["ACCOUNT_ID"], client=client))
for scheme in schemes.schemes:
    print(scheme.name)
