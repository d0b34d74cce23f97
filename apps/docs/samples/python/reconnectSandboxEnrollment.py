import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["AGGREGATION_BASE_URL"],
    auth=(os.environ["AGGREGATION_TOKEN"], ""),
)

# Reconnects the token's disconnected enrollment, as its user signing in again would.
response = sandbox.post("/sandbox/enrollment/reconnect")
response.raise_for_status()
enrollment = response.json()
print(enrollment["id"], enrollment["status"])
