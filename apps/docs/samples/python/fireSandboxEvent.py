import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["AGGREGATION_BASE_URL"],
    auth=(os.environ["AGGREGATION_TOKEN"], ""),
)

response = sandbox.post("/sandbox/events", json={"type": "webhook.test"})
response.raise_for_status()
event = response.json()
print(event["id"], event["type"])
