import os

from aggregation_client import create_client

client = create_client(
    os.environ["AGGREGATION_TOKEN"],
    base_url=os.environ["AGGREGATION_BASE_URL"],
    version="2019-07-01",
)
# The client's models are the current version's; this answer's shape in 2019-07-01 differs: read it as JSON
# through the client's authenticated connection.
response = client.get_httpx_client().get(f"/accounts/{os.environ['ACCOUNT_ID']}/balances")
response.raise_for_status()
for balance in response.json():  # [{"type": "ledger" | "available", "amount": ...}]
    print(balance["type"], balance["amount"])
