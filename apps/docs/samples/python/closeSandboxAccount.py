import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["AGGREGATION_BASE_URL"],
    auth=(os.environ["AGGREGATION_TOKEN"], ""),
)

response = sandbox.post(
    f"/sandbox/accounts/{os.environ['ACCOUNT_ID']}/close",
    json={"reason": "fraud"},
)
response.raise_for_status()
print(response.json()["status"])
