import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["AGGREGATION_BASE_URL"],
    auth=(os.environ["AGGREGATION_TOKEN"], ""),
)

response = sandbox.get("/sandbox/webhook/deliveries")
response.raise_for_status()
deliveries = response.json()
print(len(deliveries), "deliveries")
for delivery in deliveries:
    print(delivery["event_type"], delivery["status"], delivery["attempts"])
