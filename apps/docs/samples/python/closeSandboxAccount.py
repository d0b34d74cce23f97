import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["BASE_URL"],
    auth=(os.environ["ACCESS_TOKEN"], ""),
)

response = sandbox.post(
    f"/sandbox/accounts/{os.environ['ACCOUNT_ID']}/close",
    json={"reason": "fraud"},
)
response.raise_for_status()
print(response.json()["status"])
