import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["BASE_URL"],
    auth=(os.environ["ACCESS_TOKEN"], ""),
)

response = sandbox.get("/sandbox/clock")
response.raise_for_status()
clock = response.json()
print(clock["now"], clock["offset_seconds"])
