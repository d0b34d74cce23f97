import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["AGGREGATION_BASE_URL"],
    auth=(os.environ["AGGREGATION_TOKEN"], ""),
)

response = sandbox.post("/sandbox/clock/advance", json={"days": 1})
response.raise_for_status()
print(response.json()["now"])
