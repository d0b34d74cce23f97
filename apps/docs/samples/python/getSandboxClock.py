import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["AGGREGATION_BASE_URL"],
    auth=(os.environ["AGGREGATION_TOKEN"], ""),
)

response = sandbox.get("/sandbox/clock")
response.raise_for_status()
clock = response.json()
print(clock["now"], clock["offset_seconds"])
