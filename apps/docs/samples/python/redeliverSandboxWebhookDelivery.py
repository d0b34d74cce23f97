import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["AGGREGATION_BASE_URL"],
    auth=(os.environ["AGGREGATION_TOKEN"], ""),
)

response = sandbox.post(f"/sandbox/webhook/deliveries/{os.environ['DELIVERY_ID']}/redeliver")
response.raise_for_status()
delivery = response.json()
print("Redelivering", delivery["event_id"], "as", delivery["id"])
