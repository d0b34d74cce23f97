import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["BASE_URL"],
    auth=(os.environ["ACCESS_TOKEN"], ""),
)

response = sandbox.post("/sandbox/clock/advance", json={"days": 1})
response.raise_for_status()
print(response.json()["now"])
