import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["AGGREGATION_BASE_URL"],
    auth=(os.environ["AGGREGATION_TOKEN"], ""),
)

response = sandbox.put("/sandbox/webhook", json={"url": "http://localhost:8080/webhooks"})
response.raise_for_status()
print(response.json()["url"])
